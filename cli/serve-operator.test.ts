// `kiosk serve`'s operator API (POST /api/operator/<method>): every payload validated (400 naming
// the field), 401 without a live operator session, the framebook flow end to end over HTTP (the
// next passenger session uses the new fare rule), the technician's bench (passengers refused with
// 503 while it runs), and `kiosk operator set-pin`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AskResultSchema,
  BenchExportSchema,
  BenchJobSchema,
  BenchReportSchema,
  BenchStatusSchema,
  FramebookApplyResultSchema,
  FramebookCheckResultSchema,
  FramebookRollbackResultSchema,
  FramebookStatusSchema,
  KioskStatusSchema,
  OPERATOR_METHOD_NAMES,
  OperatorLoginResultSchema,
  TechnicianInfoSchema,
  type AskRequest,
  type OperatorMethod,
} from "../runtime/kiosk/bridge.ts";
import { hashPin, loadPinHash, verifyPin } from "../runtime/operator/pin.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { REPO_ROOT, SHARED_DATA_DIR } from "../test/paths.ts";
import { startServe, type RunningServe } from "./serve.ts";

const PIN = "739146";
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-serve-operator-"));
let serve: RunningServe;
let base: string;

beforeAll(async () => {
  serve = await startServe({
    pack: testPack(),
    port: 0,
    ledger: ":memory:",
    rendererDir: null,
    operatorDir: path.join(temp, "framebooks"),
    pinHash: await hashPin(PIN, { N: 1024, r: 8, p: 1 }),
    benchDb: path.join(temp, "bench.sqlite"),
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  base = serve.server.url;
});

afterAll(async () => {
  await serve.close();
  rmSync(temp, { recursive: true, force: true });
});

async function call(method: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(new URL(`api/operator/${method}`, base), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function login(operator = "Olu Operator"): Promise<string> {
  const { status, json } = await call("login", { operator, pin: PIN });
  expect(status).toBe(200);
  const result = OperatorLoginResultSchema.parse(json);
  if (!result.ok) throw new Error(result.reason);
  return result.token;
}

const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const seniorsFree = original.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."');
const journey: AskRequest = {
  system: "marta",
  events: [
    { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
    { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
    { type: "passenger_count_changed", adults: 1, seniors: 1 },
  ],
};

async function ask(request: AskRequest): Promise<Response> {
  return fetch(new URL("api/ask", base), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
}

describe("operator API: validation and sessions", () => {
  it("answers 400 naming the field for every malformed payload, without touching the console", async () => {
    const token = "t".repeat(43);
    const bad: [OperatorMethod, unknown, string][] = [
      ["login", {}, "operator"],
      ["login", { operator: "A", pin: "12ab" }, "pin"],
      ["login", { operator: "A", pin: "1234", admin: true }, "(body)"],
      ["logout", { token: "short" }, "token"],
      ["clearPinLockout", { token, source: "" }, "source"],
      ["framebookStatus", { token, system: "Atlantis!" }, "system"],
      ["checkFramebook", { token, system: "marta" }, "text"],
      ["applyFramebook", { token, system: "marta", text: "x", expectedVersion: "" }, "expectedVersion"],
      ["rollbackFramebook", { token }, "system"],
      ["technicianInfo", [], "(body)"],
      ["startBench", { token, policy: "rule", selection: { kind: "everything" } }, "selection.kind"],
      ["benchStatus", { token: 42 }, "token"],
      ["stopBench", null, "(body)"],
      ["benchReport", { token, runId: -1 }, "runId"],
      ["exportBench", { token, runId: 1, format: "xml" }, "format"],
      ["latencyProbe", { token, model: "x" }, "(body)"],
      ["listAlerts", { token, system: "Gotham City" }, "system"],
      ["saveAlert", { token, alert: "closed" }, "alert"],
      ["endAlert", { token, id: "" }, "id"],
      ["previewAlert", { token, alert: {}, sessions: 0 }, "sessions"],
      ["auditSessions", { token, filter: { blocked: "yes" } }, "filter.blocked"],
      ["auditTimeline", { token }, "sessionId"],
    ];
    expect(new Set(bad.map(([m]) => m))).toEqual(new Set(OPERATOR_METHOD_NAMES));
    for (const [method, body, field] of bad) {
      const { status, json } = await call(method, body);
      expect(status, method).toBe(400);
      expect(json.field, method).toBe(field);
    }
    expect((await call("login", "{not json")).status).toBe(400);
    expect((await call("login", { operator: "A", pin: "1234" }, { "content-type": "text/plain" })).status).toBe(415);
    expect((await call("checkFramebook", { token, system: "marta", text: "x".repeat(600 * 1024) })).status).toBe(413);
    expect(serve.operator.activeSessions).toBe(0);
  });

  it("refuses calls without a live operator session (401), wrong methods and paths, and cross-origin posts", async () => {
    expect(await call("benchStatus", { token: "t".repeat(43) })).toMatchObject({ status: 401, json: { code: "unauthorized" } });
    expect((await fetch(new URL("api/operator/login", base))).status).toBe(405);
    expect((await call("shutdown", {})).status).toBe(404);
    expect((await call("login/extra", {})).status).toBe(405);
    expect((await call("login", { operator: "A", pin: PIN }, { origin: "http://evil.example" })).status).toBe(403);
  });

  it("logs in with the PIN (a wrong PIN says how many tries are left) and out again", async () => {
    expect(await call("login", { operator: "Mallory", pin: "000000" })).toMatchObject({ status: 200, json: { ok: false, reason: "wrong_pin", attemptsLeft: 2 } });
    const token = await login();
    expect((await call("benchStatus", { token })).status).toBe(200);
    expect(await call("logout", { token })).toEqual({ status: 200, json: { ok: true } });
    expect((await call("benchStatus", { token })).status).toBe(401);
  });
});

describe("operator API: framebook hot-swap", () => {
  it("rejects a broken file with line/column, diffs, applies for the next passenger, audits, rolls back", async () => {
    const token = await login("Ada");
    const before = AskResultSchema.parse(await (await ask(journey)).json());
    expect(before.state.fare_quote?.total).toBe(3.75);

    const status = FramebookStatusSchema.parse((await call("framebookStatus", { token, system: "marta" })).json);
    expect(status).toMatchObject({ source: "data-pack", text: original, previousVersions: [], audit: [] });

    const broken = FramebookCheckResultSchema.parse((await call("checkFramebook", { token, system: "marta", text: seniorsFree.replace("late_night_headway_min: 20", "late_night_headway_min: twenty") })).json);
    expect(broken.ok).toBe(false);
    expect(broken.issues[0]).toMatchObject({ severity: "error", path: "framebook.operating_hours.late_night_headway_min", line: expect.any(Number), column: expect.any(Number) });
    const refused = FramebookApplyResultSchema.parse((await call("applyFramebook", { token, system: "marta", text: "framebook: [" })).json);
    expect(refused).toMatchObject({ ok: false, reason: "invalid" });

    const check = FramebookCheckResultSchema.parse((await call("checkFramebook", { token, system: "marta", text: seniorsFree, fileName: "seniors.yaml" })).json);
    expect(check).toMatchObject({ ok: true, changes: [{ path: "fare_policies", before: null }] });
    const applied = FramebookApplyResultSchema.parse((await call("applyFramebook", { token, system: "marta", text: seniorsFree, expectedVersion: check.activeVersion })).json);
    expect(applied).toMatchObject({ ok: true, entry: { who: "Ada", action: "apply", version: check.candidateVersion } });

    const after = AskResultSchema.parse(await (await ask(journey)).json());
    expect(after.state.fare_quote?.total).toBe(2.5);
    expect(after.purchasable).toBe(true);
    const view = (await (await fetch(new URL("api/systems/marta", base))).json()) as { framebookVersion: string };
    expect(view.framebookVersion).toBeTruthy();

    const rolled = FramebookRollbackResultSchema.parse((await call("rollbackFramebook", { token, system: "marta" })).json);
    expect(rolled).toMatchObject({ ok: true, entry: { who: "Ada", action: "rollback", version: status.version } });
    expect(AskResultSchema.parse(await (await ask(journey)).json()).state.fare_quote?.total).toBe(3.75);
    const audit = FramebookStatusSchema.parse((await call("framebookStatus", { token, system: "marta" })).json).audit;
    expect(audit.map((a) => `${a.who} ${a.action}`)).toEqual(["Ada rollback", "Ada apply"]);
  });
});

describe("operator API: technician bench", () => {
  it("runs a category with the rule policy while refusing passengers, then reports and exports it", async () => {
    const token = await login("Tech");
    const info = TechnicianInfoSchema.parse((await call("technicianInfo", { token })).json);
    expect(info.database).toBe(path.join(temp, "bench.sqlite"));
    const job = BenchJobSchema.parse((await call("startBench", { token, policy: "rule", selection: { kind: "category", category: "D" } })).json);
    expect(job).toMatchObject({ policy: "rule", startedBy: "Tech", selection: { kind: "category", category: "D" } });
    // While it runs (synchronously marked): the kiosk says so and refuses passengers.
    expect(KioskStatusSchema.parse(await (await fetch(new URL("api/status", base))).json())).toMatchObject({ benchRunning: true });
    const refused = await ask(journey);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/technician test/);
    expect(await call("startBench", { token, policy: "rule", selection: { kind: "probe" } })).toMatchObject({ status: 409, json: { code: "conflict" } });
    expect(await call("startBench", { token, policy: "llm", selection: { kind: "probe" } })).toMatchObject({ status: 409 });

    await serve.technician!.idle();
    const status = BenchStatusSchema.parse((await call("benchStatus", { token })).json);
    expect(status.job).toMatchObject({ state: "finished", done: job.total, categories: [{ category: "D", done: job.total }] });
    expect((await ask(journey)).status).toBe(200);
    expect(await call("startBench", { token, policy: "llm", selection: { kind: "probe" } })).toMatchObject({ status: 400, json: { code: "rejected" } });

    const runId = status.job!.runId!;
    const report = BenchReportSchema.parse((await call("benchReport", { token, runId })).json);
    expect(report.html).toContain(`run ${runId}`);
    const exported = BenchExportSchema.parse((await call("exportBench", { token, runId, format: "reference", system: "doha" })).json);
    expect(JSON.parse(exported.content)).toMatchObject({ system: "doha", model: "rule" });
    expect(await call("benchReport", { token, runId: 999 })).toMatchObject({ status: 400, json: { code: "rejected" } });
    expect(await call("latencyProbe", { token })).toEqual({ status: 200, json: { available: false, reason: "no_model" } });
  });
});

describe("kiosk operator set-pin", () => {
  it("stores only a salted hash, read back by kiosk serve", async () => {
    const file = path.join(temp, "operator.json");
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "bin", "kiosk.js"), "operator", "set-pin", "--config", file], { input: "482916\n", encoding: "utf8", timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).not.toContain("482916");
    const loaded = loadPinHash({ env: {}, file });
    expect(await verifyPin("482916", loaded!.hash)).toBe(true);
    const weak = spawnSync(process.execPath, [path.join(REPO_ROOT, "bin", "kiosk.js"), "operator", "hash-pin"], { input: "1234", encoding: "utf8", timeout: 60_000 });
    expect(weak.status).toBe(2);
    expect(weak.stderr).toMatch(/not a repeated or consecutive run/);
  });
});
