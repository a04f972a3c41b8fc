// Pass rates of the two rider readers on our own phrasings (test/rider-phrasings.ts): the tuned
// table and the never-tuned one, side by side, with every failure listed.
//
//   npx tsx scripts/rider-phrasings.ts [--data DIR] [--only NAME-PREFIX]   (e.g. --only \"tune 2\")
import { parseArgs } from "node:util";
import { DataPack } from "../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { gradeInterlock, gradeLanguage } from "../test/rider-grading.ts";
import { HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4, HELD_OUT_FINAL, TUNE, TUNE_2, type RiderPhrasing } from "../test/rider-phrasings.ts";

const { values } = parseArgs({ options: { data: { type: "string", default: SHARED_DATA_DIR }, only: { type: "string" } } });
const pack = new DataPack(values.data);
const pct = (n: number, of: number): string => `${n}/${of} (${((100 * n) / of).toFixed(1)} %)`;

function report(name: string, table: readonly RiderPhrasing[]): void {
  if (values.only !== undefined && !name.startsWith(values.only)) return;
  const interlock = table.map((ph) => ({ ph, g: gradeInterlock(pack, ph) }));
  const language = table.map((ph) => ({ ph, g: gradeLanguage(pack, ph) }));
  const wrongSales = interlock.filter((x) => x.g.wronglyPassed.length > 0).length;
  const tally = (v: string): number => language.filter((x) => x.g.verdict === v).length;
  console.log(`\n${name}: ${table.length} phrasings`);
  console.log(`  interlock: ${pct(interlock.filter((x) => x.g.ok).length, table.length)} pass; a wrong quote let through on ${wrongSales}`);
  console.log(`  language:  ${pct(tally("right"), table.length)} right, ${tally("ask")} ask, ${tally("wrong")} wrong`);
  for (const { ph, g } of interlock) {
    if (!g.ok) console.log(`    interlock ✗ [${ph.system}] ${JSON.stringify(ph.text)}${g.wronglyPassed.length ? ` passes ${JSON.stringify(g.wronglyPassed)}` : ""}${g.wronglyBlocked.length ? ` blocks ${JSON.stringify(g.wronglyBlocked)}` : ""}`);
  }
  for (const { ph, g } of language) {
    if (g.verdict !== "right") console.log(`    language ${g.verdict} [${ph.system}] ${JSON.stringify(ph.text)}${g.read ? ` read ${JSON.stringify(g.read)}` : ""}`);
  }
}

report("tune (developed against)", TUNE);
report("held out (never tuned on)", HELD_OUT);
report("held out, written last (never seen while working)", HELD_OUT_FINAL);
report("held out 2, written before the relatives work (never tuned on)", HELD_OUT_2);
report("held out 3, written mid-work and graded once at the end (never tuned on)", HELD_OUT_3);
report("tune 2 (twins, companion words; developed against)", TUNE_2);
report("held out 4, written with tune 2 before that work (never tuned on)", HELD_OUT_4);
