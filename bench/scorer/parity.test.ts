// Parity with the Python reference scorer: every rule-agent record of the oracle, scored with
// noJudge, must reproduce the oracle's --no-judge scores for every case and component.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS, type SystemId } from "../../tools/data/schemas.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { noJudge, scoreCase, type CaseScore } from "./index.ts";

interface OracleScore {
  case_id: string;
  total: number;
  max_possible: number;
  pct: number;
  tier1_total: number;
  tier1_max: number;
  tier1_pct: number;
  breakdown: Record<string, { score: number; max: number; reason: string; tier: number }>;
}

const pack = new DataPack(SHARED_DATA_DIR);
const TOTALS = ["total", "max_possible", "pct", "tier1_total", "tier1_max", "tier1_pct"] as const;
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9;

function readJson<T>(...parts: string[]): T {
  return JSON.parse(readFileSync(path.join(ORACLE_DIR, ...parts), "utf8")) as T;
}

/** Every difference between our score and the oracle's, as readable lines. */
function differences(ours: CaseScore, oracle: OracleScore): string[] {
  const out: string[] = [];
  if (ours.case_id !== oracle.case_id) out.push(`case_id ${ours.case_id} != ${oracle.case_id}`);
  for (const k of TOTALS) if (!close(ours[k], oracle[k])) out.push(`${oracle.case_id} ${k}: ${ours[k]} != ${oracle[k]}`);
  const want = Object.keys(oracle.breakdown);
  const got = Object.keys(ours.breakdown);
  if (want.join() !== got.join()) out.push(`${oracle.case_id} components: [${got.join()}] != [${want.join()}]`);
  for (const name of want) {
    const o = oracle.breakdown[name];
    const s = ours.breakdown[name];
    if (!o || !s) continue;
    if (!close(s.score, o.score) || !close(s.max, o.max) || s.tier !== o.tier) {
      out.push(`${oracle.case_id} ${name}: ${s.score}/${s.max} (tier ${s.tier}) != ${o.score}/${o.max} (tier ${o.tier}) — ours: ${s.reason} | ref: ${o.reason}`);
    }
  }
  if (ours.flags.length > 0) out.push(`${oracle.case_id} unexpected flags: ${ours.flags.join("; ")}`);
  return out;
}

describe("scorer parity with the reference (--no-judge) on the rule-agent oracle", () => {
  const rows: { system: SystemId; cases: number; components: number; mismatches: number; ms: number }[] = [];

  for (const system of PACK_SYSTEM_IDS) {
    it(`${system}: every case and component matches`, async () => {
      const records = readJson<{ results: { case_id: string }[] }>("rule-agent", `${system}.json`).results;
      const oracle = readJson<{ scores: OracleScore[] }>("scores", `${system}.json`).scores;
      const data = pack.system(system);
      const cases = new Map(pack.cases(system).map((c) => [c.id, c]));
      expect(records).toHaveLength(oracle.length);

      const t0 = performance.now();
      const ours: CaseScore[] = [];
      for (const record of records) {
        const kase = cases.get(record.case_id);
        if (!kase) throw new Error(`no case ${record.case_id}`);
        ours.push(await scoreCase(kase, record, data, { judge: noJudge }));
      }
      const ms = performance.now() - t0;

      const diffs = ours.flatMap((s, i) => differences(s, oracle[i] as OracleScore));
      const components = oracle.reduce((n, o) => n + Object.keys(o.breakdown).length, 0);
      rows.push({ system, cases: ours.length, components, mismatches: diffs.length, ms });
      expect(diffs.slice(0, 20)).toEqual([]);
    });
  }

  it("prints the per-system parity table", () => {
    const line = (r: (typeof rows)[number]): string =>
      `${r.system.padEnd(8)} ${String(r.cases).padStart(5)} ${String(r.components).padStart(10)} ${String(r.mismatches).padStart(10)} ${r.ms.toFixed(1).padStart(8)}`;
    const total = rows.reduce(
      (acc, r) => ({ ...acc, cases: acc.cases + r.cases, components: acc.components + r.components, mismatches: acc.mismatches + r.mismatches, ms: acc.ms + r.ms }),
      { system: "all" as SystemId, cases: 0, components: 0, mismatches: 0, ms: 0 },
    );
    console.log(["system   cases components mismatches       ms", ...rows.map(line), line(total)].join("\n"));
    expect(total.cases).toBe(955);
    expect(total.mismatches).toBe(0);
  });
});
