// Timing of the scorer: score all 955 oracle rule-agent records (no judge) repeatedly and print
// the first (cold, JIT included) and the best/median pass, in CPU and wall milliseconds.
//   npx tsx bench/scorer/perf-score.ts [passes]
// (Kept beside the scorer; the convention's home for such scripts is scripts/perf-*.ts.)
import { readFileSync } from "node:fs";
import path from "node:path";
import { DataPack } from "../../tools/data/datapack.ts";
import type { Case } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { scoreCaseNoJudge } from "./index.ts";

const passes = Number(process.argv[2] ?? 15);
const pack = new DataPack(SHARED_DATA_DIR);
const work: [Case, unknown, SystemData][] = [];
for (const system of pack.systemIds) {
  const file = path.join(ORACLE_DIR, "rule-agent", `${system}.json`);
  const records = (JSON.parse(readFileSync(file, "utf8")) as { results: { case_id: string }[] }).results;
  const cases = new Map(pack.cases(system).map((c) => [c.id, c]));
  const data = pack.system(system);
  for (const r of records) {
    const kase = cases.get(r.case_id);
    if (kase) work.push([kase, r, data]);
  }
}

const cpu: number[] = [];
const wall: number[] = [];
for (let pass = 0; pass < passes; pass++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const [kase, record, data] of work) scoreCaseNoJudge(kase, record, data);
  wall.push(performance.now() - t0);
  const d = process.cpuUsage(c0);
  cpu.push((d.user + d.system) / 1000);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (x: number | undefined): string => `${(x ?? NaN).toFixed(1)} ms`;
console.log(`${work.length} cases × ${passes} passes`);
console.log(`first pass: ${ms(wall[0])} wall, ${ms(cpu[0])} cpu`);
console.log(`best:       ${ms(Math.min(...wall))} wall, ${ms(Math.min(...cpu))} cpu`);
console.log(`median:     ${ms(median(wall))} wall, ${ms(median(cpu))} cpu`);
