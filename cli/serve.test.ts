import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  AskResultSchema,
  KioskStatusSchema,
  ProgressEventSchema,
  PurchaseResultSchema,
  SystemSummarySchema,
  SystemViewSchema,
  type KioskStatus,
  type ProgressEvent,
} from "../runtime/kiosk/bridge.ts";
import { KIOSK_CSP } from "../runtime/kiosk/csp.ts";
import { askFromCase, TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { buildProgram } from "./main.ts";
import { assistantSpec, conditionsFromCase, conditionsFromFile, startServe, type RunningServe } from "./serve.ts";
import { registerServeCommand } from "./serve.ts";

let serve: RunningServe;
let base: string;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(tmpdir(), "kiosk-serve-"));
  mkdirSync(path.join(staticDir, "assets"));
  writeFileSync(path.join(staticDir, "index.html"), "<!doctype html><title>kiosk</title>");
  writeFileSync(path.join(staticDir, "assets", "app.js"), "console.log(1)");
  writeFileSync(path.join(path.dirname(staticDir), "kiosk-secret.txt"), "secret");
  serve = await startServe({
    pack: testPack(),
    port: 0,
    ledger: ":memory:",
    rendererDir: staticDir,
    conditions: conditionsFromCase(testPack(), "BART-C-006"),
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  base = serve.server.url;
});

afterAll(async () => {
  await serve.close();
  rmSync(staticDir, { recursive: true, force: true });
});

async function post(pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(pathname, base), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A raw request (fetch would normalise the path or forbid the header). */
function raw(pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: serve.server.port, path: pathname, headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("kiosk serve: API", () => {
  it("GET /api/systems and /api/systems/:id", async () => {
    const systems = SystemSummarySchema.array().parse(await (await fetch(new URL("api/systems", base))).json());
    expect(systems.map((s) => s.id)).toEqual(["marta", "doha", "bart", "taipei", "cta", "beijing"]);
    const marta = await fetch(new URL("api/systems/marta", base));
    expect(marta.status).toBe(200);
    const view = SystemViewSchema.parse(await marta.json());
    expect(view.stations.find((s) => s.id === "MARTA-AP")).toMatchObject({ name: "Airport", lat: expect.any(Number) });
    const unknown = await fetch(new URL("api/systems/atlantis", base));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ field: "system", error: expect.stringMatching(/^invalid request: system: /) });
    expect((await fetch(new URL("api/systems/%E0%A4%A", base))).status).toBe(400);
  });

  it("POST /api/ask streams progress on /api/progress, then POST /api/purchase sells, POST /api/sessions/:id/end ends", async () => {
    const ws = new WebSocket(new URL("api/progress?client=serve-test-client-1", base.replace(/^http/, "ws")));
    const events: ProgressEvent[] = [];
    ws.on("message", (data: Buffer) => events.push(ProgressEventSchema.parse(JSON.parse(data.toString()))));
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));

    const response = await post("api/ask", askFromCase("MARTA-A-001"), { "x-kiosk-client": "serve-test-client-1" });
    expect(response.status).toBe(200);
    const answer = AskResultSchema.parse(await response.json());
    expect(answer.purchasable).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(events.some((e) => e.type === "tool_started" && e.name === "route_planner" && e.sessionId === answer.sessionId)).toBe(true);
    expect(events.at(-1)).toEqual({ type: "state_submitted", sessionId: answer.sessionId, accepted: true });
    ws.close();

    const bought = PurchaseResultSchema.parse(await (await post("api/purchase", { sessionId: answer.sessionId, paymentMethod: "contactless" })).json());
    expect(bought).toMatchObject({ ok: true, ticket: { origin: "Airport", destination: "Five Points", total: 2.5, paymentMethod: "contactless" } });
    expect(serve.ledger?.sales()).toHaveLength(1);

    const end = await post(`api/sessions/${encodeURIComponent(answer.sessionId)}/end`, {});
    expect([end.status, await end.json()]).toEqual([200, null]);
    const again = await post("api/ask", { ...askFromCase("MARTA-A-001"), sessionId: answer.sessionId });
    expect(again.status).toBe(404);
  });

  it("serves live conditions: the BART Transbay Tube closure yields an advisory without purchase", async () => {
    const answer = AskResultSchema.parse(
      await (
        await post("api/ask", {
          system: "bart",
          events: [
            { type: "station_selected", field: "origin", value: "12th St Oakland", station_id: "BART-12TH" },
            { type: "station_selected", field: "destination", value: "Embarcadero", station_id: "BART-EMBR" },
            { type: "passenger_count_changed", adults: 1 },
          ],
        })
      ).json(),
    );
    expect(answer.state.outcome).toBe("advisory_only");
    expect(answer.purchasable).toBe(false);
  });

  it("GET /api/status", async () => {
    // The speech engines are probed in the background; the status carries them once that is done.
    await expect.poll(() => serve.app.status().speech, { timeout: 20_000 }).toBeDefined();
    const status = KioskStatusSchema.parse(await (await fetch(new URL("api/status", base))).json());
    expect(status).toEqual({ assistant: "rule", benchRunning: false, message: null, model: null, salesAvailable: true, framebookVersions: serve.app.status().framebookVersions, speech: serve.app.status().speech });
    // The speech engines probed at start (Debian's espeak-ng here) and a headset voice per screen language.
    expect(status.speech?.engines.map((e) => e.id)).toContain("espeak-ng");
    expect(Object.keys(status.speech?.voices ?? {}).sort()).toEqual(["ar", "en", "es", "zh-Hans", "zh-Hant"]);
    expect(Object.keys(status.framebookVersions)).toEqual(["marta", "doha", "bart", "taipei", "cta", "beijing"]);
  });

  it("WS /api/state: the present state first, then every change, pushed (a bench run starting and ending)", async () => {
    const ws = new WebSocket(new URL("api/state", base.replace(/^http/, "ws")));
    const states: KioskStatus[] = [];
    ws.on("message", (data: Buffer) => states.push(KioskStatusSchema.parse(JSON.parse(data.toString()))));
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    await expect.poll(() => states.length).toBe(1);
    expect(states[0]).toEqual(serve.app.status());
    expect(serve.server.pushClients("state")).toBe(1);
    serve.app.setBenchRunning(true);
    serve.app.setBenchRunning(false);
    await expect.poll(() => states.map((s) => s.benchRunning)).toEqual([false, true, false]);
    expect(states[1]?.message).toBe("A technician test is running. Please wait.");
    ws.close();
  });

  it("rejects malformed bodies with 400 naming the field", async () => {
    const cases: [string, unknown, string][] = [
      ["api/ask", { system: "marta" }, "events"],
      ["api/ask", { system: "atlantis", events: [{ type: "freetext_input", text: "x" }] }, "system"],
      ["api/ask", { system: "marta", events: [{ type: "teleport" }] }, "events.0.type"],
      ["api/ask", { system: "marta", events: [] }, "events"],
      ["api/ask", { system: "marta", events: [{ type: "passenger_count_changed", adults: 1.5 }] }, "events.0.adults"],
      ["api/ask", { system: "marta", sessionId: "", events: [{ type: "freetext_input", text: "x" }] }, "sessionId"],
      ["api/purchase", { sessionId: "s" }, "paymentMethod"],
      ["api/purchase", { sessionId: 7, paymentMethod: "contactless" }, "sessionId"],
      ["api/purchase", [], "(body)"],
    ];
    for (const [pathname, body, field] of cases) {
      const response = await post(pathname, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await response.json()) as { error: string; field: string };
      expect(error.field, JSON.stringify(body)).toBe(field);
      expect(error.error).toContain(field);
    }
    const badJson = await post("api/ask", "{not json");
    expect([badJson.status, await badJson.json()]).toEqual([400, { error: "request body is not valid JSON", field: "(body)" }]);
    expect((await post("api/ask", "x", { "content-type": "text/plain" })).status).toBe(415);
    const tooLarge = await post("api/ask", { system: "marta", events: [{ type: "freetext_input", text: "x".repeat(70_000) }] });
    // The unread rest of the body makes the connection unusable: the server closes it.
    expect([tooLarge.status, tooLarge.headers.get("connection")]).toEqual([413, "close"]);
    const badJsonAgain = await post("api/ask", "{not json");
    expect(badJsonAgain.headers.get("connection")).not.toBe("close");
    expect((await post("api/sessions/" + "x".repeat(101) + "/end", {})).status).toBe(400);
    expect((await fetch(new URL("api/ask", base))).status).toBe(405);
    expect((await fetch(new URL("api/nothing", base))).status).toBe(404);
    expect((await post("api/purchase", { sessionId: "never", paymentMethod: "contactless" }).then((r) => r.json()))).toMatchObject({ ok: false, reason: "unknown_session" });
  });

  it("sets the security headers on API and static responses", async () => {
    for (const pathname of ["api/status", "", "assets/app.js"]) {
      const response = await fetch(new URL(pathname, base));
      expect(response.headers.get("content-security-policy"), pathname).toBe(KIOSK_CSP);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
    expect(KIOSK_CSP).toContain("frame-ancestors 'none'");
    expect(KIOSK_CSP).toContain("script-src 'self'");
  });

  it("refuses foreign hosts (DNS rebinding) and cross-origin posts and sockets", async () => {
    expect((await raw("/api/status", { host: "evil.example:8787" })).status).toBe(421);
    expect((await post("api/ask", askFromCase("MARTA-A-001"), { origin: "http://evil.example" })).status).toBe(403);
    const ws = new WebSocket(new URL("api/progress?client=serve-test-client-1", base.replace(/^http/, "ws")), { headers: { origin: "http://evil.example" } });
    const outcome = await new Promise<string>((resolve) => {
      ws.once("open", () => resolve("open"));
      ws.once("error", () => resolve("refused"));
    });
    expect(outcome).toBe("refused");
  });

  it("serves the renderer: files, client routes, no escape from the folder", async () => {
    const index = await fetch(new URL("", base));
    expect([index.status, index.headers.get("content-type"), await index.text()]).toEqual([200, "text/html; charset=utf-8", "<!doctype html><title>kiosk</title>"]);
    expect(await (await fetch(new URL("some/screen", base))).text()).toContain("<title>kiosk</title>");
    const js = await fetch(new URL("assets/app.js", base));
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await fetch(new URL("assets/missing.js", base))).status).toBe(404);
    for (const p of ["/../kiosk-secret.txt", "/%2e%2e/kiosk-secret.txt", "/..%2fkiosk-secret.txt"]) {
      const r = await raw(p);
      expect(r.body, p).not.toContain("secret");
    }
  });
});

describe("kiosk serve: start-up", () => {
  it("tells the operator to build the renderer when it is missing", async () => {
    await expect(startServe({ pack: testPack(), port: 0, ledger: ":memory:", rendererDir: path.join(staticDir, "nope") })).rejects.toThrow(
      /not built.*npx vite build --config renderer\/vite\.config\.ts/,
    );
  });

  it("keeps answering with rule when the assistant's model cannot be loaded, and says why", async () => {
    const logs: string[] = [];
    const s = await startServe({
      pack: testPack(),
      port: 0,
      ledger: ":memory:",
      rendererDir: null,
      clock: () => new Date(TEST_NOW),
      assistant: { mode: "hybrid", model: path.join(staticDir, "missing.gguf") },
      log: (m) => logs.push(m),
    });
    try {
      expect(logs.some((l) => /assistant model not available .*missing\.gguf.* answered by the rule policy/.test(l))).toBe(true);
      expect(s.app.status().assistant).toBe("rule");
      const answer = await s.app.ask(askFromCase("MARTA-A-001"));
      expect(answer.policy).toBe("rule");
      expect(answer.purchasable).toBe(true);
    } finally {
      await s.close();
    }
  });

  it("keeps informing passengers when the ledger cannot be opened, and says so", async () => {
    const logs: string[] = [];
    const blocked = path.join(staticDir, "index.html", "ledger.sqlite");
    const s = await startServe({ pack: testPack(), port: 0, ledger: blocked, rendererDir: null, log: (m) => logs.push(m) });
    try {
      expect(s.ledger).toBeNull();
      expect(logs.join("\n")).toMatch(/ticket sales are disabled/);
      const status = KioskStatusSchema.parse(await (await fetch(new URL("api/status", s.server.url))).json());
      expect(status.message).toMatch(/Ticket sales unavailable/);
      expect((await fetch(new URL("", s.server.url))).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it("reads live conditions from a file and from a case", () => {
    const file = path.join(staticDir, "conditions.json");
    writeFileSync(file, JSON.stringify({ bart: { disruptions: [{ type: "station_closure", severity: "warning", station_id: "BART-EMBR" }], now: "2026-03-09T14:00:00" } }));
    const fromFile = conditionsFromFile(file, testPack().systemIds);
    expect(fromFile.bart?.disruptions).toHaveLength(1);
    expect(fromFile.bart?.now?.getHours()).toBe(14);
    writeFileSync(file, JSON.stringify({ atlantis: {} }));
    expect(() => conditionsFromFile(file, testPack().systemIds)).toThrow(/--conditions .*: atlantis: this kiosk runs no system 'atlantis'/);
    const fromCase = conditionsFromCase(testPack(), "BART-C-006");
    expect(fromCase.bart?.disruptions[0]?.id).toBe("pm-transbay-tube");
    expect(() => conditionsFromCase(testPack(), "NOPE-1")).toThrow(/no case/);
  });

  it("registers `kiosk serve` with its options", () => {
    const program = buildProgram();
    if (!program.commands.some((c) => c.name() === "serve")) registerServeCommand(program);
    const serveCmd = program.commands.find((c) => c.name() === "serve")!;
    expect(serveCmd.options.map((o) => o.long)).toEqual(
      expect.arrayContaining(["--port", "--host", "--ledger", "--renderer", "--framebooks", "--conditions", "--replay-conditions", "--now"]),
    );
  });
});

describe("kiosk serve --model-endpoint", () => {
  it("takes the passenger model from an OpenAI-compatible endpoint, with its model name and key variable", () => {
    expect(assistantSpec({ port: "0", host: "127.0.0.1", framebooks: "f", modelEndpoint: "http://127.0.0.1:8080/v1", endpointModel: "default", assistant: "hybrid" })).toEqual({
      mode: "hybrid",
      endpoint: { baseUrl: "http://127.0.0.1:8080/v1", model: "default" },
    });
    expect(
      assistantSpec({ port: "0", host: "127.0.0.1", framebooks: "f", modelEndpoint: "https://depot.example/v1", endpointModel: "metro-4b", endpointKeyEnv: "DEPOT_KEY", assistant: "model", modelDeadlineMs: "8000" }),
    ).toEqual({ mode: "model", endpoint: { baseUrl: "https://depot.example/v1", model: "metro-4b", apiKeyEnv: "DEPOT_KEY" }, modelDeadlineMs: 8000 });
  });

  it("refuses what does not fit an endpoint, naming the flag", () => {
    const base = { port: "0", host: "127.0.0.1", framebooks: "f", assistant: "hybrid" };
    expect(() => assistantSpec({ ...base, model: "4b", modelEndpoint: "http://127.0.0.1:8080/v1" })).toThrow(/--model and --model-endpoint: give one/);
    expect(() => assistantSpec({ ...base, modelEndpoint: "localhost:8080" })).toThrow(/--model-endpoint: must be an http or https URL/);
    expect(() => assistantSpec({ ...base, modelEndpoint: "not a url" })).toThrow(/--model-endpoint: not a URL: 'not a url'/);
    expect(() => assistantSpec({ ...base, modelEndpoint: "http://127.0.0.1:8080/v1", threads: "2" })).toThrow(/--threads applies to a local --model/);
  });
});
