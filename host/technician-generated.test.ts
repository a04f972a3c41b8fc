// The technician benches an imported network from the operator console: the real Hyderabad Metro
// feed (read from ../shared/gtfs at test time) imported into a temp systems folder, a kiosk runtime
// over the pack and it, and a "generated" bench selection through the console as the transports
// call it (parsed by the contract's schema first). The cases are generated, kept beside the bench
// database, run with the rule policy, and the run's report and figures are per category; a pack
// system, an unknown system and a bad count or seed are refused with clear messages.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCases } from "../bench/generate/index.ts";
import { registerPolicyFactory } from "../bench/policies.ts";
import { f2 } from "../bench/report/table.ts";
import { resumeRun } from "../bench/run/execute.ts";
import { BenchJobSchema, BenchStatusSchema, benchCategoryLabel, type OperatorMethod } from "../runtime/kiosk/bridge.ts";
import { pacedRulePolicy, TEST_NOW } from "../runtime/kiosk/testing.ts";
import { callOperator, parseOperatorRequest } from "../runtime/operator/console.ts";
import { hashPin } from "../runtime/operator/pin.ts";
import { SHARED_DATA_DIR, SHARED_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { importNetwork } from "./network/import.ts";
import { createKioskRuntime, type KioskRuntime } from "./runtime.ts";

const PIN = "246810";
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-tech-generated-"));
const systemsDir = path.join(temp, "systems");
const benchDb = path.join(temp, "bench", "bench.sqlite");
const casesDir = path.join(temp, "bench", "generated-cases");
let pack: DataPack;
let runtime: KioskRuntime;
let token: string;

beforeAll(async () => {
  importNetwork({ feed: path.join(SHARED_DIR, "gtfs", "hyderabad"), id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR), attribution: "Contains data provided by Hyderabad Metro Rail Ltd." });
  pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
  runtime = await createKioskRuntime({
    pack,
    ledger: path.join(temp, "ledger.sqlite"),
    operatorDir: path.join(temp, "operator"),
    pin: { hash: await hashPin(PIN, { N: 1024, r: 8, p: 1 }) },
    benchDb,
    speechEngine: "none",
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  const login = await runtime.operator.login({ operator: "Tess Technician", pin: PIN });
  if (!login.ok) throw new Error(`login failed: ${login.reason}`);
  token = login.token;
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  rmSync(temp, { recursive: true, force: true });
});

/** An operator call as `kiosk serve` and the Electron IPC make it: the payload parsed by the contract, then called. */
async function call<M extends OperatorMethod>(method: M, payload: Record<string, unknown>) {
  const parsed = parseOperatorRequest(method, { token, ...payload });
  if (!parsed.ok) throw parsed.error;
  return callOperator(runtime.operator, method, parsed.request);
}

/** The first schema message a malformed start request is refused with. */
function schemaRefusal(selection: Record<string, unknown>): string {
  const parsed = parseOperatorRequest("startBench", { token, policy: "rule", selection });
  if (parsed.ok) throw new Error(`accepted: ${JSON.stringify(selection)}`);
  return parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
}

/** The rule policy, each session held back `ms` (a run slow enough to stop midway). */

describe("the technician benches an imported system's own network", () => {
  it("the systems list marks which systems are imported", () => {
    const listed = runtime.app.listSystems();
    expect(listed.filter((s) => s.imported).map((s) => s.id)).toEqual(["hyderabad"]);
    expect(listed.filter((s) => !s.imported).map((s) => s.id)).toEqual(pack.packSystemIds);
    expect(runtime.technician!.info().generatedCasesDir).toBe(casesDir);
  });

  it("generates Hyderabad's cases (10 per category, seed 1 by default), keeps the file beside the bench database and runs it with rule", async () => {
    const job = BenchJobSchema.parse(await call("startBench", { policy: "rule", selection: { kind: "generated", system: "hyderabad" } }));
    expect(job.selection).toEqual({ kind: "generated", system: "hyderabad", perCategory: 10, seed: 1 });
    // What was generated, per category, is what the generator writes for this network and seed.
    const expected = generateCases(pack.system("hyderabad"), { perCategory: 10, seed: 1 });
    const generation = job.generation!;
    expect(generation).toMatchObject({ system: "hyderabad", perCategory: 10, seed: 1, cases: expected.cases.length });
    expect(generation.categories.map((c) => [c.category, c.requested, c.generated, c.skipped])).toEqual(expected.report.map((r) => [r.category, 10, r.generated, r.skipped ?? null]));
    // Network data cannot answer cultural (E) or compound (K) cases: skipped, with the reason.
    for (const category of ["E", "K"] as const) {
      const c = generation.categories.find((x) => x.category === category)!;
      expect(c.generated).toBe(0);
      expect(c.skipped?.length).toBeGreaterThan(20);
    }
    expect(job.total).toBe(generation.cases);
    expect(path.dirname(generation.casesFile)).toBe(casesDir);
    expect(JSON.parse(readFileSync(generation.casesFile, "utf8"))).toEqual(expected.cases);

    await runtime.technician!.idle();
    const status = BenchStatusSchema.parse(await call("benchStatus", {}));
    const done = status.job!;
    expect(done).toMatchObject({ state: "finished", done: job.total, scored: job.total, error: null, generation });
    const withCases = generation.categories.filter((c) => c.generated > 0);
    expect(done.categories.map((c) => [c.category, c.total, c.done])).toEqual(withCases.map((c) => [c.category, c.generated, c.generated]));
    for (const c of done.categories) expect(c.tier1).toEqual(expect.any(Number));
    expect(status.runs[0]).toMatchObject({ runId: done.runId, status: "finished", policy: "rule", systems: ["hyderabad"], casesDone: job.total });
    expect(runtime.app.status().benchRunning).toBe(false);

    // Recorded as a --cases-file run: the file and the checksum of its bytes.
    const run = runtime.bench!.requireRun(done.runId!);
    const sha = createHash("sha256").update(readFileSync(generation.casesFile)).digest("hex");
    expect(run.selection).toMatchObject({ casesFile: generation.casesFile, casesFileSha256: sha, selectedSystems: ["hyderabad"] });
    expect(run.casesChecksums).toEqual({ [generation.casesFile]: sha.slice(0, 12) });

    // The report's per-category table carries the same figures the screen followed.
    const { html } = await call("benchReport", { runId: done.runId });
    for (const c of done.categories) {
      expect(html).toContain(`<tr><th scope="row">${benchCategoryLabel(c.category)}</th><td>${c.total}</td><td>${f2(c.tier1!)}</td>`);
    }
    const summary = JSON.parse((await call("exportBench", { runId: done.runId, format: "summary" })).content) as { cases: { system: string; category: string; scored: boolean }[] };
    expect(summary.cases).toHaveLength(job.total);
    expect(summary.cases.every((c) => c.system === "hyderabad" && c.scored)).toBe(true);
  });

  it("a stopped run resumes from its case file; the same count and seed reuse the file", async () => {
    const restore = registerPolicyFactory({ name: "rule", description: "paced", deterministic: true, accepts: [], create: () => ({ policy: pacedRulePolicy(25), model: "rule" }) });
    let runId: number;
    try {
      const job = await call("startBench", { policy: "rule", selection: { kind: "generated", system: "hyderabad", perCategory: 3, seed: 7 } });
      expect(job.generation).toMatchObject({ perCategory: 3, seed: 7 });
      await expect.poll(() => runtime.technician!.status().job!.done, { timeout: 10_000 }).toBeGreaterThan(2);
      await call("stopBench", {});
      await runtime.technician!.idle();
      const stopped = runtime.technician!.status().job!;
      expect(stopped.state).toBe("interrupted");
      expect(stopped.done).toBeLessThan(stopped.total);
      runId = stopped.runId!;
    } finally {
      restore();
    }
    const resumed = await resumeRun({ pack, store: runtime.bench!, runId });
    expect(resumed).toMatchObject({ status: "finished", casesDone: resumed.casesTotal });

    const files = readdirSync(casesDir).length;
    const again = await call("startBench", { policy: "rule-ref", selection: { kind: "generated", system: "hyderabad", perCategory: 3, seed: 7 } });
    expect(again.generation!.casesFile).toBe(runtime.bench!.requireRun(runId).selection.casesFile);
    await runtime.technician!.idle();
    expect(readdirSync(casesDir)).toHaveLength(files);
  });

  it("refuses a pack system, an unknown system, and a count or seed out of range, saying why", async () => {
    await runtime.technician!.idle();
    await expect(call("startBench", { policy: "rule", selection: { kind: "generated", system: "marta" } })).rejects.toMatchObject({
      code: "rejected",
      message: expect.stringMatching(/^'marta' is a system of the benchmark's data pack: run its own cases .* imported systems only \(imported systems: hyderabad\)\.$/),
    });
    await expect(call("startBench", { policy: "rule", selection: { kind: "generated", system: "atlantis" } })).rejects.toMatchObject({
      code: "rejected",
      message: "This kiosk has no system 'atlantis' (imported systems: hyderabad).",
    });
    expect(schemaRefusal({ kind: "generated", system: "hyderabad", perCategory: 0 })).toBe("selection.perCategory: cases per category must be from 1 to 50");
    expect(schemaRefusal({ kind: "generated", system: "hyderabad", perCategory: 51 })).toBe("selection.perCategory: cases per category must be from 1 to 50");
    expect(schemaRefusal({ kind: "generated", system: "hyderabad", perCategory: 2.5 })).toBe("selection.perCategory: cases per category must be a whole number");
    expect(schemaRefusal({ kind: "generated", system: "hyderabad", seed: -1 })).toBe("selection.seed: the seed must be from 0 to 4294967295");
    expect(schemaRefusal({ kind: "generated", system: "hyderabad", seed: "1" })).toBe("selection.seed: the seed must be a number");
    expect(schemaRefusal({ kind: "generated" })).toBe("selection.system: name the imported system to generate cases for");
    expect(schemaRefusal({ kind: "generated", system: "hyderabad", categories: ["A"] })).toMatch(/^selection: Unrecognized key/);
    // Nothing ran: the last run is still the previous test's.
    expect(runtime.technician!.status().job!.selection).toMatchObject({ perCategory: 3, seed: 7 });
  });
});
