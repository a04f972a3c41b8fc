import { describe, expect, it } from "vitest";
import { AskResultSchema, PASSENGER_LANGUAGES, PurchaseResultSchema, SystemViewSchema, type KioskStatus, type ModelProcessView, type ProgressEvent, type SpeechResult, type SpeechStatus } from "./bridge.ts";
import type { SalesLedger } from "./sales.ts";
import { SimulatedPaymentTerminal } from "./payment.ts";
import { askFromCase, caseById, crashingPolicy, tamperingPolicy, testApp, testPack } from "./testing.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { packExtras } from "./node/pack-extras.ts";

describe("KioskApp: systems", () => {
  it("lists the six systems and builds valid views with coordinates, local names and attribution", () => {
    const { app } = testApp({ extras: packExtras(testPack().root, "framebooks") });
    expect(app.listSystems().map((s) => s.id)).toEqual(["marta", "doha", "bart", "taipei", "cta", "beijing"]);
    for (const { id } of app.listSystems()) {
      const view = SystemViewSchema.parse(app.systemView(id));
      expect(view.stations.every((s) => s.lat !== null && s.lon !== null), id).toBe(true);
      expect(view.attribution).toMatch(/CC BY-SA 4\.0/);
    }
    const beijing = app.systemView("beijing");
    expect(beijing.stations.find((s) => s.id === "BJM-XID")?.localNames).toContain("西单");
    const doha = app.systemView("doha");
    expect(doha.stations.find((s) => s.id === "DOHA-MSH")?.localNames).toEqual(["مشيرب"]);
    expect(doha.attribution).toMatch(/operator data/);
    expect(doha.paymentMethods.map((p) => p.label)).toEqual(["Travel Card", "Gold Travel Card", "Contactless payment"]);
    expect(doha.riderTypes).toEqual(["adults", "children"]);
  });
});

describe("KioskApp: ask → purchase", () => {
  it("sells MARTA-A-001 (Airport → Five Points): sale committed to the ledger before the ticket", async () => {
    const { app, ledger, payment } = testApp();
    const progress: ProgressEvent[] = [];
    app.onProgress((e) => progress.push(e));
    const answer = AskResultSchema.parse(await app.ask(askFromCase("MARTA-A-001")));
    expect(answer).toMatchObject({ sessionId: "s-1", purchasable: true, fallback: false, assistantUnavailable: false, policy: "rule", interlock: { ok: true, problems: [] } });
    expect(answer.state.fare_quote?.total).toBe(2.5);
    expect(answer.steps.map((s) => s.name)).toContain("fare_calculator");
    expect(progress.some((e) => e.type === "tool_started" && e.sessionId === "s-1")).toBe(true);
    expect(progress.at(-1)).toEqual({ type: "state_submitted", sessionId: "s-1", accepted: true });

    const bought = PurchaseResultSchema.parse(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" }));
    expect(bought.ok).toBe(true);
    if (!bought.ok) return;
    expect(bought.ticket).toMatchObject({ system: "marta", origin: "Airport", destination: "Five Points", total: 2.5, currency: "USD", riders: { adults: 1 } });
    const [row] = ledger.sales();
    expect(row).toMatchObject({ ticket_id: bought.ticket.ticketId, origin_id: "MARTA-AP", destination_id: "MARTA-FP", total: 2.5, payment_method: "breeze_card", policy: "rule" });
    expect(JSON.parse(row!.state_json)).toEqual(answer.state);
    expect(row!.transcript_id).toMatch(/^tr-[0-9a-f]{12}$/);
    expect(row!.framebook_version).toMatch(/^fb-[0-9a-f]{12}$/);
    expect(payment.operations.map((o) => o.op)).toEqual(["authorize", "capture"]);
    expect(payment.openAuthorizations).toBe(0);

    // The same answer cannot be sold twice (double tap).
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "not_purchasable" });
    app.endSession(answer.sessionId);
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "unknown_session" });
    expect(ledger.sessionLog().map((r) => r.event)).toEqual(["answer", "sale", "purchase_refused", "end"]);
  });

  it("issues no ticket when the ledger cannot commit, and cancels the payment", async () => {
    const failing: SalesLedger = {
      recordSale: () => {
        throw new Error("disk I/O error");
      },
      voidSale: () => undefined,
      logSession: () => undefined,
    };
    const payment = new SimulatedPaymentTerminal();
    const { app, logs } = testApp({ ledger: failing, payment });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer.purchasable).toBe(true);
    const result = await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" });
    expect(result).toMatchObject({ ok: false, reason: "ledger_unavailable" });
    expect(payment.operations.map((o) => o.op)).toEqual(["authorize", "void"]);
    expect(payment.openAuthorizations).toBe(0);
    expect(logs.join("\n")).toMatch(/ledger write failed/);
  });

  it("issues no ticket with a real ledger whose database has gone away", async () => {
    const { app, ledger, payment } = testApp();
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    ledger.close();
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "ledger_unavailable" });
    expect(payment.operations.at(-1)?.op).toBe("void");
  });

  it("without any ledger: information works, sales are refused, the status says why", async () => {
    const { app, payment } = testApp({ ledger: null, ledgerProblem: "cannot open var/ledger.sqlite" });
    expect(app.status().message).toMatch(/Ticket sales unavailable/);
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "ledger_unavailable" });
    expect(payment.operations).toEqual([]);
  });

  it("reports a declined payment and a capture failure without a ticket", async () => {
    const declined = testApp({ payment: new SimulatedPaymentTerminal({ decline: () => "card expired" }) });
    const a1 = await declined.app.ask(askFromCase("MARTA-A-001"));
    expect(await declined.app.purchase({ sessionId: a1.sessionId, paymentMethod: "contactless" })).toMatchObject({ ok: false, reason: "payment_declined", message: /card expired/ });
    expect(declined.ledger.sales()).toEqual([]);

    const capture = testApp({ payment: new SimulatedPaymentTerminal({ failCapture: true }) });
    const a2 = await capture.app.ask(askFromCase("MARTA-A-001"));
    expect(await capture.app.purchase({ sessionId: a2.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "payment_declined" });
    expect(capture.ledger.sales()[0]).toMatchObject({ void_reason: "capture_failed" });
  });

  it("re-checks the fare for the payment method chosen at the terminal (CTA contactless costs more)", async () => {
    const { app, payment } = testApp();
    const answer = await app.ask(askFromCase("CTA-A-002"));
    expect(answer.purchasable).toBe(true);
    const result = await app.purchase({ sessionId: answer.sessionId, paymentMethod: "contactless" });
    expect(result).toMatchObject({ ok: false, reason: "not_purchasable", message: /differs from the quote/ });
    expect(payment.operations).toEqual([]);
    expect((await app.purchase({ sessionId: answer.sessionId, paymentMethod: "ventra" })).ok).toBe(true);
  });

  it("an advisory (BART Transbay Tube closed) and a declined adversarial request are not purchasable", async () => {
    const bart = caseById("BART-C-006");
    const { app } = testApp({ conditions: (s) => (s === "bart" ? { disruptions: bart.system_context.active_disruptions, now: new Date(bart.system_context.current_time) } : { disruptions: [] }) });
    const advisory = await app.ask({ system: "bart", events: bart.events.filter((e) => e.type !== "disruption_update") });
    expect(advisory.state.outcome).toBe("advisory_only");
    expect(advisory.purchasable).toBe(false);
    expect(advisory.interlock).toBeUndefined();
    expect(await app.purchase({ sessionId: advisory.sessionId, paymentMethod: "clipper_card" })).toMatchObject({ ok: false, reason: "not_purchasable" });

    const declined = await app.ask(askFromCase("MARTA-H-007"));
    expect(declined.state.outcome).toBe("request_declined");
    expect(declined.purchasable).toBe(false);
  });

  it("continues a session (follow-up) and refuses to mix systems or unknown sessions", async () => {
    const { app } = testApp();
    const first = await app.ask(askFromCase("MARTA-A-001"));
    const follow = await app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "passenger_count_changed", adults: 2 }] });
    expect(follow.sessionId).toBe(first.sessionId);
    expect(follow.state.fare_quote?.total).toBe(5);
    expect(follow.purchasable).toBe(true);
    await expect(app.ask({ system: "bart", sessionId: first.sessionId, events: [{ type: "freetext_input", text: "hi" }] })).rejects.toThrow(/belongs to marta/);
    await expect(app.ask({ system: "marta", sessionId: "nope", events: [{ type: "freetext_input", text: "hi" }] })).rejects.toThrow(/Unknown or finished session/);
  });

  it("refuses passengers while a technician bench run is in progress", async () => {
    const { app } = testApp();
    app.setBenchRunning(true);
    expect(app.status()).toMatchObject({ benchRunning: true });
    await expect(app.ask(askFromCase("MARTA-A-001"))).rejects.toThrow(/technician test/);
  });
});

describe("KioskApp: the interlock guards against a hallucinating model", () => {
  it("a tampered fare is answered but flagged and cannot be bought", async () => {
    const tampered = tamperingPolicy((s) => {
      (s.fare_quote as { total: number }).total = 0.5;
      return s;
    });
    const { app, payment, ledger } = testApp({ assistant: { mode: "model", policy: () => tampered } });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer.state.fare_quote?.total).toBe(0.5);
    expect(answer).toMatchObject({ purchasable: false, interlock: { ok: false, problems: ["fare_mismatch: quoted 0.5, calculated 2.5"] } });
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "not_purchasable" });
    expect(payment.operations).toEqual([]);
    expect(ledger.sessionLog()[0]).toMatchObject({ purchasable: 0, problems: "fare_mismatch" });
  });

  it("a fake route (stations that are not joined by track) is not purchasable", async () => {
    const fake = tamperingPolicy((s) => {
      const route = s.route as { stops: unknown[] };
      route.stops = [route.stops[0], route.stops[route.stops.length - 1]];
      return s;
    });
    const { app } = testApp({ assistant: { mode: "model", policy: () => fake } });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer.purchasable).toBe(false);
    expect(answer.interlock?.problems[0]).toMatch(/^not_a_path/);
  });
});

describe("KioskApp: model crash → fallback", () => {
  it("answers with rule, shows 'assistant unavailable', keeps selling, and retries the model later", async () => {
    let now = Date.parse("2026-03-09T14:00:00Z");
    const model = crashingPolicy();
    const { app, logs } = testApp({ assistant: { mode: "model", policy: () => model }, rule: rulePolicy, clock: () => new Date(now), modelRetryMs: 30_000 });
    expect(app.status()).toMatchObject({ assistant: "model", benchRunning: false, message: null, model: null, salesAvailable: true });

    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer).toMatchObject({ assistantUnavailable: true, fallback: false, policy: "rule", purchasable: true });
    expect(model.starts).toBe(1);
    expect(app.status()).toMatchObject({ assistant: "unavailable", message: /Assistant unavailable/ });
    expect(logs.join("\n")).toMatch(/model process exited/);
    const sold = await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" });
    expect(sold.ok).toBe(true);

    // While it is down the model is not tried at all.
    const second = await app.ask(askFromCase("DOHA-A-001"));
    expect(second).toMatchObject({ assistantUnavailable: true, policy: "rule", purchasable: true });
    expect(model.starts).toBe(1);

    // After the retry time it is tried again.
    now += 31_000;
    expect(app.status().assistant).toBe("model");
    await app.ask(askFromCase("DOHA-A-001"));
    expect(model.starts).toBe(2);

    // The host can report the process crash directly, and its recovery.
    app.modelRestored();
    app.modelCrashed("utility process exited");
    expect(app.status().assistant).toBe("unavailable");
    app.modelRestored();
    expect(app.status().assistant).toBe("model");
  });

  it("logs why the model's answer was replaced when it timed out (no crash, so the status stays 'model')", async () => {
    const stalling = { id: "fake-model", start: () => ({ next: (): Promise<never> => new Promise(() => undefined) }) };
    const { app, logs } = testApp({ assistant: { mode: "model", policy: () => stalling }, rule: rulePolicy, deadlineMs: 50 });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer).toMatchObject({ assistantUnavailable: true, policy: "rule", purchasable: true });
    expect(logs.join("\n")).toMatch(/assistant answer replaced by rule for session s-1: deadline \(deadline of 50 ms exceeded\)/);
  });
});

describe("KioskApp: its state, pushed on every change", () => {
  it("tells its listeners when a bench run starts and ends, the model goes down and comes back, a framebook changes", async () => {
    const { FramebookStore } = await import("../framebook/store.ts");
    const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "kiosk-state-"));
    try {
      const framebooks = new FramebookStore(testPack(), dir);
      let health: ModelProcessView = { state: "ready", restarts: 0, lastFailure: null, nextStartAt: null };
      const healthListeners = new Set<() => void>();
      const { app } = testApp({
        framebooks,
        assistant: { mode: "hybrid", policy: () => rulePolicy },
        modelHealth: { view: () => health, onChange: (l) => (healthListeners.add(l), () => healthListeners.delete(l)) },
      });
      const seen: KioskStatus[] = [];
      app.onState((s) => seen.push(s));
      app.setBenchRunning(true);
      app.setBenchRunning(true); // no change, no push
      app.setBenchRunning(false);
      health = { state: "restarting", restarts: 1, lastFailure: "the model process exited (killed by SIGKILL)", nextStartAt: "2026-03-09T14:00:01.000Z" };
      for (const l of healthListeners) l();
      app.breaker.hold("model process restarting");
      app.breaker.reset();
      const before = app.status().framebookVersions.marta;
      const text = readFileSync(path.join(testPack().root, "data/systems/marta/framebook.yaml"), "utf8").replace("cultural_notes: []", 'cultural_notes: ["operator note"]');
      framebooks.apply("marta", text, "framebook.yaml", "alice");
      expect(seen.map((s) => [s.benchRunning, s.assistant, s.model?.state])).toEqual([
        [true, "model", "ready"],
        [false, "model", "ready"],
        [false, "model", "restarting"],
        [false, "unavailable", "restarting"],
        [false, "model", "restarting"],
        [false, "model", "restarting"],
      ]);
      expect(seen.at(-1)?.framebookVersions.marta).not.toBe(before);
      expect(seen.at(-1)?.framebookVersions.marta).toBe(app.systemView("marta").framebookVersion);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("headset speech", () => {
  it("the app publishes its state again when the speech status arrives", async () => {
    let release: () => void = () => undefined;
    const listeners = new Set<() => void>();
    let ready = false;
    const speech = {
      status: () => (ready ? { engines: [], voices: Object.fromEntries(PASSENGER_LANGUAGES.map((l) => [l, { engine: null, voice: null, note: "none" }])) as SpeechStatus["voices"] } : null),
      onChange: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
      speak: async (): Promise<SpeechResult> => ({ spoken: false, reason: "no_engine", message: "none" }),
    };
    void new Promise<void>((resolve) => (release = resolve)).then(() => {
      ready = true;
      for (const l of listeners) l();
    });
    const { app } = testApp({ speech });
    const pushed: (SpeechStatus | undefined)[] = [];
    app.onState((state) => pushed.push(state.speech));
    expect(app.status().speech).toBeUndefined();
    release();
    await expect.poll(() => pushed.length).toBe(1);
    expect(pushed[0]?.voices.en.note).toBe("none");
  });

  it("speaks through its speech service, and says so when it has none", async () => {
    const asked: unknown[] = [];
    const { app } = testApp({
      speech: { status: () => null, onChange: () => () => undefined, speak: async (request) => (asked.push(request), { spoken: true, audio: "UklGRg==", engine: "say", voice: "Samantha" }) },
    });
    expect(await app.speak({ text: "Hello", language: "en" })).toEqual({ spoken: true, audio: "UklGRg==", engine: "say", voice: "Samantha" });
    expect(asked).toEqual([{ text: "Hello", language: "en" }]);
    expect(await testApp().app.speak({ text: "Hello", language: "en" })).toEqual({ spoken: false, reason: "no_engine", message: "this kiosk has no speech engine" });
  });
});
