// `kiosk bench score` end to end: the oracle's Doha rule-agent results, scored through the command,
// must write the reference scorer's Doha output (numerically).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../test/paths.ts";
import { UsageError } from "./context.ts";
import { registerScoreCommand } from "./bench-score.ts";

const dir = mkdtempSync(path.join(tmpdir(), "bench-score-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function run(...args: string[]): Promise<string> {
  const program = new Command("kiosk").option("--data <dir>").exitOverride();
  registerScoreCommand(program.command("bench").exitOverride()).exitOverride();
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  await program.parseAsync(["node", "kiosk", "--data", SHARED_DATA_DIR, "bench", "score", ...args]);
  return out;
}

/** Leaves of `expected` that differ in `actual` (numbers within 1e-9). */
function differences(expected: unknown, actual: unknown, where = "$"): string[] {
  if (typeof expected === "number") return typeof actual === "number" && Math.abs(actual - expected) <= 1e-9 ? [] : [`${where}: ${String(actual)} != ${expected}`];
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return [`${where}: missing`];
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const keys = Object.keys(e);
    const out = keys.join() === Object.keys(a).join() ? [] : [`${where}: keys [${Object.keys(a).join()}] != [${keys.join()}]`];
    for (const k of keys) if (k !== "reason") out.push(...differences(e[k], a[k], `${where}.${k}`));
    return out;
  }
  return expected === actual ? [] : [`${where}: ${String(actual)} != ${String(expected)}`];
}

describe("kiosk bench score", () => {
  it("scores the Doha rule-agent results into the reference scorer's output", async () => {
    const out = path.join(dir, "doha_scored.json");
    const printed = await run("--results", path.join(ORACLE_DIR, "rule-agent", "doha.json"), "--system", "doha", "--out", out);
    const oracle = JSON.parse(readFileSync(path.join(ORACLE_DIR, "scores", "doha.json"), "utf8")) as unknown;
    const ours = JSON.parse(readFileSync(out, "utf8")) as unknown;
    expect(differences(oracle, ours).slice(0, 10)).toEqual([]);
    expect(printed).toContain("doha: 156 cases scored");
    expect(printed).toMatch(/doha: composite 68\.3 {2}tier1 85\.2/);
    expect(printed).toMatch(/^A +\d+ +87\.5 +100\.0$/m);
  });

  it("reports records with unknown case ids without failing, and prints JSON", async () => {
    const results = JSON.parse(readFileSync(path.join(ORACLE_DIR, "rule-agent", "doha.json"), "utf8")) as { results: Record<string, unknown>[] };
    const file = path.join(dir, "mixed.json");
    const first = results.results[0] as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ results: [first, { ...first, case_id: "DOHA-Z-999" }, { response: null }, { ...first, tool_calls_made: [{}] }] }));
    const printed = JSON.parse(await run("--results", file, "--system", "doha", "--json")) as Record<string, unknown>;
    expect(printed["unknown_case_ids"]).toEqual(["DOHA-Z-999", "(no case_id)"]);
    expect(printed["summary"]).toMatchObject({ cases_scored: 2 });
    expect(printed["flagged"]).toEqual([{ case_id: "DOHA-A-001", flags: ["tool_calls_made[0] has no name (counted as an unknown tool)"] }]);
  });

  it("scores against an operator's case file", async () => {
    const cases = JSON.parse(readFileSync(path.join(SHARED_DATA_DIR, "cases", "doha_cases.json"), "utf8")) as unknown[];
    const casesFile = path.join(dir, "two_cases.json");
    writeFileSync(casesFile, JSON.stringify(cases.slice(0, 2)));
    const printed = JSON.parse(
      await run("--results", path.join(ORACLE_DIR, "rule-agent", "doha.json"), "--system", "doha", "--cases-file", casesFile, "--json"),
    ) as { summary: { cases_scored: number }; unknown_case_ids: string[] };
    expect(printed.summary.cases_scored).toBe(2);
    expect(printed.unknown_case_ids).toHaveLength(154);
  });

  it("rejects an unknown system or an unreadable results file as usage errors", async () => {
    await expect(run("--results", "x.json", "--system", "london")).rejects.toThrow(UsageError);
    await expect(run("--results", path.join(dir, "missing.json"), "--system", "doha")).rejects.toThrow(/cannot read results file/);
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ cases: [] }));
    await expect(run("--results", bad, "--system", "doha")).rejects.toThrow(/no "results" list/);
  });
});
