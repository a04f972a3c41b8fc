// Framebook hot-swap through the kiosk app: KioskApp reads system data through the FramebookStore,
// so an applied framebook takes effect for the next passenger session (fare, interlock, ticket,
// screen view) without a restart, a session in progress keeps its framebook, and the model's
// prompt prefix changes with the framebook (the engine's KV prefix cache keys on the prompt text).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KioskEvent } from "../../tools/data/schemas.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { FramebookRejectedError, FramebookStore } from "../framebook/store.ts";
import type { CompletionBackend, CompletionRequest, CompletionResult } from "../model/backend.ts";
import { LlmPolicy, sharedPrefixLength } from "../policies/llm.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { testApp, testPack } from "./testing.ts";

const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const SENIORS_FREE = original.replace(
  "cultural_notes: []",
  'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."',
);

const journey: KioskEvent[] = [
  { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
  { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
  { type: "passenger_count_changed", adults: 1, seniors: 1 },
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "kiosk-framebooks-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("KioskApp with operator framebooks", () => {
  it("the next passenger session uses the new fare rule; the one in progress keeps its framebook", async () => {
    const store = new FramebookStore(testPack(), dir);
    const { app, ledger } = testApp({ framebooks: store });
    const before = await app.ask({ system: "marta", events: journey });
    expect(before.state.fare_quote?.total).toBe(3.75);
    expect(before.purchasable).toBe(true);
    const viewBefore = app.systemView("marta");

    store.apply("marta", SENIORS_FREE, "seniors.yaml", "alice");

    const after = await app.ask({ system: "marta", events: journey });
    expect(after.state.fare_quote?.total).toBe(2.5);
    expect(JSON.stringify(after.state)).toContain("ride free");
    // The kiosk's own interlock reads the same fare policy: the discounted fare may be sold.
    expect(after.interlock).toEqual({ ok: true, problems: [], codes: [] });
    expect(after.purchasable).toBe(true);
    const ticket = await app.purchase({ sessionId: after.sessionId, paymentMethod: "breeze_card" });
    expect(ticket).toMatchObject({ ok: true, ticket: { total: 2.5 } });
    expect(ledger.sales().at(-1)).toMatchObject({ total: 2.5 });

    // The passenger who started before the swap is still quoted (and sold) under the old framebook.
    const followUp = await app.ask({ system: "marta", sessionId: before.sessionId, events: [{ type: "passenger_count_changed", adults: 1, seniors: 1 }] });
    expect(followUp.state.fare_quote?.total).toBe(3.75);
    expect(followUp.purchasable).toBe(true);
    expect(await app.purchase({ sessionId: before.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: true, ticket: { total: 3.75 } });

    // The screen's view follows the framebook (its version changes), then the rollback.
    const viewAfter = app.systemView("marta");
    expect(viewAfter.framebookVersion).not.toBe(viewBefore.framebookVersion);
    store.rollback("marta", "bob");
    expect(app.systemView("marta").framebookVersion).toBe(viewBefore.framebookVersion);
    expect((await app.ask({ system: "marta", events: journey })).state.fare_quote?.total).toBe(3.75);
  });

  it("an invalid framebook is rejected and the active one keeps serving passengers", async () => {
    const store = new FramebookStore(testPack(), dir);
    const { app } = testApp({ framebooks: store });
    store.apply("marta", SENIORS_FREE, "seniors.yaml", "alice");
    expect(() => store.apply("marta", SENIORS_FREE.replace('currency_code: "USD"', 'currency_code: "EUR"'), "bad.yaml", "mallory")).toThrow(FramebookRejectedError);
    expect((await app.ask({ system: "marta", events: journey })).state.fare_quote?.total).toBe(2.5);
  });

  it("tells the model assistant when a framebook changes (its prompt cache hook)", () => {
    const store = new FramebookStore(testPack(), dir);
    const seen: string[] = [];
    const { logs } = testApp({
      framebooks: store,
      assistant: { mode: "model", policy: () => rulePolicy, onFramebookChange: (system, version) => seen.push(`${system}@${version}`) },
    });
    const entry = store.apply("marta", SENIORS_FREE, "seniors.yaml", "alice");
    expect(seen).toEqual([`marta@${entry.version}`]);
    expect(logs.join("\n")).toContain(`framebook ${entry.version} is active for marta`);
  });
});

/**
 * A completion backend with the llm engine's reuse rule (models/engine.ts): the KV state of the
 * previous prompt is kept up to the first differing character, and only that much counts as cached.
 * It answers nothing useful, so the kiosk falls back to `rule` — only the prompts matter here.
 */
class PrefixCachingBackend implements CompletionBackend {
  readonly requests: { prompt: string; shared: number | undefined; reused: number }[] = [];
  private last = "";
  chatTemplate(): string {
    return testPack().chatTemplate();
  }
  async complete(request: CompletionRequest): Promise<CompletionResult> {
    let reused = 0;
    while (reused < request.prompt.length && reused < this.last.length && request.prompt[reused] === this.last[reused]) reused++;
    this.last = request.prompt;
    this.requests.push({ prompt: request.prompt, shared: request.sharedPrefixChars, reused });
    return {
      text: "",
      finishReason: "stop",
      grammarTriggered: false,
      usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: reused, ttftMs: 0, prefillMs: 0, decodeMs: 0, totalMs: 0 },
    };
  }
}

describe("the model's prompt prefix after a framebook swap", () => {
  it("changes with the framebook, so the engine's prefix cache cannot reuse the stale system turn", async () => {
    const store = new FramebookStore(testPack(), dir);
    const backend = new PrefixCachingBackend();
    const llm = new LlmPolicy({ backend });
    const { app } = testApp({ framebooks: store, assistant: { mode: "model", policy: () => llm } });
    const sharedPrefix = (r: { prompt: string; shared: number | undefined }): string => r.prompt.slice(0, r.shared ?? sharedPrefixLength(r.prompt));

    await app.ask({ system: "marta", events: journey });
    await app.ask({ system: "marta", events: journey });
    const [first, second] = backend.requests;
    // Same framebook: the whole shared system turn is reused by the next session.
    expect(sharedPrefix(second!)).toBe(sharedPrefix(first!));
    expect(second!.reused).toBeGreaterThanOrEqual(second!.shared!);

    store.apply("marta", SENIORS_FREE, "seniors.yaml", "alice");
    const seenBefore = backend.requests.length;
    await app.ask({ system: "marta", events: journey });
    // The first round after the swap (a session may take more rounds, which reuse their own prefix).
    const third = backend.requests[seenBefore]!;
    expect(sharedPrefix(third)).not.toBe(sharedPrefix(first!));
    expect(sharedPrefix(third)).toContain("Senior citizens (65+) ride free");
    // The reusable part stops before the end of the new system turn: the changed framebook is evaluated afresh.
    expect(third.reused).toBeLessThan(third.shared!);
  });
});
