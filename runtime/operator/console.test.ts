import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { FramebookStore } from "../framebook/store.ts";
import { OPERATOR_METHODS, type BenchJob, type BenchStatus, type OperatorMethod } from "../kiosk/bridge.ts";
import { testPack } from "../kiosk/testing.ts";
import { callOperator, OperatorConsole, OperatorError, parseOperatorRequest, type TechnicianBench } from "./console.ts";
import { hashPin, PinGate } from "./pin.ts";

const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const seniorsFree = original.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."');
const PIN_HASH = await hashPin("246810", { N: 1024, r: 8, p: 1 });

let dir: string;
let now: number;
let store: FramebookStore;
let console_: OperatorConsole;
const logs: string[] = [];

function make(bench: TechnicianBench | null = null): OperatorConsole {
  return new OperatorConsole({ framebooks: store, pin: new PinGate({ hash: PIN_HASH, now: () => now }), systems: testPack().systemIds, bench, now: () => now, idleTimeoutMs: 60_000, log: (m) => logs.push(m) });
}

async function login(c = console_, operator = "Alice Ops"): Promise<string> {
  const result = await c.login({ operator, pin: "246810" });
  if (!result.ok) throw new Error(`login failed: ${result.reason}`);
  return result.token;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "operator-console-"));
  now = 0;
  store = new FramebookStore(testPack(), dir);
  console_ = make();
  logs.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("operator sessions", () => {
  it("logs in with the kiosk PIN and the operator's name; tokens expire when idle and on logout", async () => {
    const wrong = await console_.login({ operator: "Mallory", pin: "000000" });
    expect(wrong).toEqual({ ok: false, reason: "wrong_pin", retryAfterMs: 0, attemptsLeft: 2 });
    const token = await login();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(console_.framebookStatus({ token, system: "marta" }).source).toBe("data-pack");
    now += 59_000;
    expect(console_.framebookStatus({ token, system: "marta" }).system).toBe("marta");
    now += 61_000;
    expect(() => console_.framebookStatus({ token, system: "marta" })).toThrow(OperatorError);
    const again = await login();
    expect(console_.logout({ token: again })).toEqual({ ok: true });
    expect(() => console_.technicianInfo({ token: again })).toThrow(expect.objectContaining({ code: "unauthorized" }));
    expect(() => console_.benchStatus({ token: "x".repeat(43) })).toThrow(expect.objectContaining({ code: "unauthorized" }));
    expect(logs.join("\n")).toMatch(/login refused for 'Mallory' \(wrong_pin\)/);
  });

  it("every request is validated by the method's schema (malformed → a ZodError to answer 400 with)", () => {
    const bad: [OperatorMethod, unknown][] = [
      ["login", { operator: "A", pin: "12" }],
      ["login", { operator: "", pin: "1234" }],
      ["login", { operator: "A\u0000", pin: "1234" }],
      ["login", { operator: "A", pin: "1234", extra: true }],
      ["framebookStatus", { token: "short", system: "marta" }],
      ["framebookStatus", { token: "x".repeat(43), system: "Atlantis!" }],
      ["checkFramebook", { token: "x".repeat(43), system: "marta", text: "" }],
      ["checkFramebook", { token: "x".repeat(43), system: "marta", text: "x".repeat(64_001) }],
      ["applyFramebook", { token: "x".repeat(43), system: "marta", text: "a: 1", expectedVersion: 12 }],
      ["startBench", { token: "x".repeat(43), policy: "gpt", selection: { kind: "all" } }],
      ["startBench", { token: "x".repeat(43), policy: "rule", selection: { kind: "category", category: "Z" } }],
      ["startBench", { token: "x".repeat(43), policy: "rule", selection: { kind: "category" } }],
      ["startBench", { token: "x".repeat(43), policy: "rule", selection: { kind: "generated", system: "hyderabad", perCategory: 51 } }],
      ["startBench", { token: "x".repeat(43), policy: "rule", selection: { kind: "generated", system: "hyderabad", seed: 0.5 } }],
      ["startBench", { token: "x".repeat(43), policy: "rule", selection: { kind: "generated", system: "Hyderabad!" } }],
      ["benchReport", { token: "x".repeat(43), runId: 0 }],
      ["benchReport", { token: "x".repeat(43), runId: "1" }],
      ["exportBench", { token: "x".repeat(43), runId: 1, format: "csv" }],
      ["logout", null],
      ["benchStatus", []],
    ];
    for (const [method, payload] of bad) expect(parseOperatorRequest(method, payload).ok, `${method} ${JSON.stringify(payload)?.slice(0, 80)}`).toBe(false);
    const ok = parseOperatorRequest("login", { operator: "  Alice  ", pin: "1234" });
    expect(ok).toEqual({ ok: true, request: { operator: "Alice", pin: "1234" } });
    expect(Object.keys(OPERATOR_METHODS).sort()).toEqual(Object.getOwnPropertyNames(OperatorConsole.prototype).filter((n) => n !== "constructor" && n in OPERATOR_METHODS).sort());
  });
});

describe("framebooks through the console", () => {
  it("shows validation errors with line and column, the diff, applies with the operator's name, rolls back", async () => {
    const token = await login();
    const broken = original.replace('org_name: "MARTA"', 'org_name: "MARTA');
    const check = console_.checkFramebook({ token, system: "marta", text: broken, fileName: "broken.yaml" });
    expect(check.ok).toBe(false);
    expect(check.changes).toEqual([]);
    expect(check.issues[0]).toMatchObject({ severity: "error", line: expect.any(Number), column: expect.any(Number), message: expect.stringMatching(/invalid YAML/) });

    const wrongCurrency = console_.checkFramebook({ token, system: "marta", text: original.replace('currency_code: "USD"', 'currency_code: "EUR"') });
    expect(wrongCurrency.issues).toEqual([expect.objectContaining({ severity: "error", path: "framebook.currency_code", line: 7, column: expect.any(Number) })]);

    const active = console_.framebookStatus({ token, system: "marta" });
    const good = console_.checkFramebook({ token, system: "marta", text: seniorsFree });
    expect(good).toMatchObject({ ok: true, issues: [], activeVersion: active.version });
    // What the kiosk will price, in words, before the operator applies it.
    expect(good.farePolicies).toEqual(["seniors_free: seniors travel free; always in force"]);
    expect(check.farePolicies).toEqual([]);
    expect(good.changes).toEqual([{ path: "fare_policies", before: null, after: JSON.stringify([{ policy_id: "seniors_free", text: "EFFECTIVE TODAY: Senior citizens (65+) ride free." }]) }]);

    const refused = console_.applyFramebook({ token, system: "marta", text: broken });
    expect(refused).toMatchObject({ ok: false, reason: "invalid", activeVersion: active.version });
    expect(console_.framebookStatus({ token, system: "marta" }).version).toBe(active.version);

    const applied = console_.applyFramebook({ token, system: "marta", text: seniorsFree, expectedVersion: active.version });
    expect(applied).toMatchObject({ ok: true, entry: { who: "Alice Ops", action: "apply", system: "marta", version: good.candidateVersion, previous: active.version }, changes: good.changes });
    const after = console_.framebookStatus({ token, system: "marta" });
    expect(after).toMatchObject({ source: "operator", version: good.candidateVersion, text: seniorsFree, previousVersions: [active.version] });
    expect(after.audit).toEqual([expect.objectContaining({ who: "Alice Ops", action: "apply", at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })]);

    // Someone else changed it since this operator's diff: refused as stale.
    const stale = console_.applyFramebook({ token, system: "marta", text: original, expectedVersion: active.version });
    expect(stale).toMatchObject({ ok: false, reason: "stale", activeVersion: good.candidateVersion });

    const bob = await login(console_, "Bob");
    expect(console_.rollbackFramebook({ token: bob, system: "marta" })).toMatchObject({ ok: true, entry: { who: "Bob", action: "rollback", version: active.version } });
    expect(console_.rollbackFramebook({ token: bob, system: "marta" })).toEqual({ ok: false, reason: "no_previous" });
    expect(console_.framebookStatus({ token, system: "marta" }).audit.map((a) => `${a.who}:${a.action}`)).toEqual(["Bob:rollback", "Alice Ops:apply"]);
    expect(logs.join("\n")).toMatch(/'Alice Ops' applied framebook .* to marta/);
  });
});

describe("implausible fares through the console", () => {
  const hundredth = original.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "p"\n      text: "Promotion"\n      rule: { multiplier: 0.01 }');
  const confirmed = `${hundredth}\n  fare_override:\n    allow_implausible: true\n    reason: "Staff day"\n    confirmed_by: "Dana Reyes"`;

  it("refuses a multiplier of 0.01 at its line and field, applies it once confirmed, and shows the confirmation in the audit", async () => {
    const token = await login();
    const active = console_.framebookStatus({ token, system: "marta" });
    const refused = console_.applyFramebook({ token, system: "marta", text: hundredth });
    expect(refused).toMatchObject({ ok: false, reason: "invalid", activeVersion: active.version });
    expect(refused.ok ? [] : refused.issues).toContainEqual(expect.objectContaining({ severity: "error", path: "framebook.fare_policies[0].rule.multiplier", line: expect.any(Number), message: expect.stringMatching(/^multiplier 0\.01 is outside/) }));
    expect(console_.framebookStatus({ token, system: "marta" }).version).toBe(active.version);

    const check = console_.checkFramebook({ token, system: "marta", text: confirmed });
    expect(check.ok).toBe(true);
    expect(check.issues).toContainEqual(expect.objectContaining({ severity: "warning", path: "framebook.fare_policies[0].rule.multiplier", message: expect.stringMatching(/confirmed by Dana Reyes: Staff day/) }));
    const applied = console_.applyFramebook({ token, system: "marta", text: confirmed });
    expect(applied).toMatchObject({ ok: true, entry: { who: "Alice Ops", action: "apply", fare_override: { reason: "Staff day", confirmed_by: "Dana Reyes" } } });
    expect(console_.framebookStatus({ token, system: "marta" }).audit[0]).toMatchObject({ who: "Alice Ops", fare_override: { confirmed_by: "Dana Reyes" } });
  });
});

describe("the technician's bench through the console", () => {
  it("delegates to the bench with the operator's name; without one the calls are unavailable", async () => {
    const token = await login();
    expect(() => console_.technicianInfo({ token })).toThrow(expect.objectContaining({ code: "unavailable" }));
    const calls: string[] = [];
    const job = { runId: 3, state: "running", policy: "rule", selection: { kind: "probe" }, startedBy: "Alice Ops" } as unknown as BenchJob;
    const status: BenchStatus = { job, runs: [] };
    const bench: TechnicianBench = {
      info: () => ({ policies: [], counts: { probe: 11, holdout: 0, all: 0, categories: [] }, model: { configured: false, name: null }, database: "x" }),
      start: (r) => (calls.push(`start ${r.policy} ${r.selection.kind} by ${r.operator}`), job),
      status: () => status,
      stop: () => (calls.push("stop"), status),
      report: (id) => ({ runId: id, html: "<p>" }),
      exportRun: (id, format, system) => (calls.push(`export ${id} ${format} ${system}`), { fileName: "x.json", mediaType: "application/json", content: "{}" }),
      latencyProbe: async () => ({ available: false, reason: "no_model" }),
    };
    const withBench = make(bench);
    const t = await login(withBench);
    expect(withBench.technicianInfo({ token: t }).counts.probe).toBe(11);
    expect(withBench.startBench({ token: t, policy: "rule", selection: { kind: "probe" } })).toBe(job);
    expect(withBench.benchStatus({ token: t })).toBe(status);
    expect(withBench.stopBench({ token: t })).toBe(status);
    expect(withBench.benchReport({ token: t, runId: 3 })).toEqual({ runId: 3, html: "<p>" });
    withBench.exportBench({ token: t, runId: 3, format: "reference", system: "marta" });
    expect(await callOperator(withBench, "latencyProbe", { token: t })).toEqual({ available: false, reason: "no_model" });
    expect(calls).toEqual(["start rule probe by Alice Ops", "stop", "export 3 reference marta"]);
  });
});

describe("PIN lockout per source", () => {
  it("wrong PINs lock out their source only; a logged-in technician clears it, and the log says who", async () => {
    for (const pin of ["000000", "000001", "000002"]) await console_.login({ operator: "Mallory", pin }, "10.0.0.66");
    expect(await console_.login({ operator: "Alice Ops", pin: "246810" }, "10.0.0.66")).toMatchObject({ ok: false, reason: "locked" });
    const result = await console_.login({ operator: "Tess Tech", pin: "246810" }, "10.0.0.5");
    if (!result.ok) throw new Error("the operator at another source was locked out");
    expect(() => console_.clearPinLockout({ token: "x".repeat(43), source: "10.0.0.66" })).toThrow(expect.objectContaining({ code: "unauthorized" }));
    expect(await callOperator(console_, "clearPinLockout", { token: result.token, source: "10.0.0.66" })).toEqual({ ok: true, cleared: ["10.0.0.66"] });
    expect(await callOperator(console_, "login", { operator: "Alice Ops", pin: "246810" }, "10.0.0.66")).toMatchObject({ ok: true });
    expect(logs.join("\n")).toMatch(/login refused for 'Mallory' \(wrong_pin\) from 10\.0\.0\.66/);
    expect(logs.join("\n")).toMatch(/operator 'Tess Tech' cleared the PIN lockout of 10\.0\.0\.66 \(locked: 10\.0\.0\.66\)/);
  });
});
