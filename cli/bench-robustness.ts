// `kiosk bench robustness`: run the robustness suite (cases/robustness/, assembled from the pack)
// with a policy; originals vs variants per category and kind, Tier 1 beside the strict kiosk score;
// and beside it the texts others wrote (cases/others/): passengers' requests and operators' notices.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { BenchError } from "../bench/errors.ts";
import { createPolicy } from "../bench/policies.ts";
import { runSuite } from "../bench/robustness/run.ts";
import { renderHalfTable, renderSuiteHtml, summarizeHalf } from "../bench/robustness/summary.ts";
import { HALVES, loadSuite, type Half } from "../bench/robustness/suite.ts";
import { HALVES as OTHERS_HALVES, loadCorpus, type Half as OthersHalf } from "../bench/others/corpus.ts";
import { loadOperators } from "../bench/others/operators.ts";
import { runOthers } from "../bench/others/run.ts";
import { renderOthersTable, summarizeOthers } from "../bench/others/summary.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";

const SUITES = ["ours", "others", "all"] as const;

interface RobustnessOptions {
  policy: string;
  suite: string;
  half: string;
  json?: boolean;
  html?: string;
}

/**
 * The halves of the others' texts a run reads. A half nobody tuned on is graded once, so it runs only
 * when `--half` names it: without one, the tune half runs (our suite keeps its report default).
 */
export function othersHalvesFor(half: string, named: boolean): OthersHalf[] {
  if (!named) return ["tune"];
  if (half === "all") return [...OTHERS_HALVES];
  if ((OTHERS_HALVES as readonly string[]).includes(half)) return [half as OthersHalf];
  throw new UsageError(`--half must be ${OTHERS_HALVES.join(", ").replace(/, ([^,]+)$/, ", $1")} or all for the others' texts, got '${half}'`);
}

export function registerBenchRobustnessCommand(bench: Command): void {
  bench
    .command("robustness")
    .description("run the robustness suites: our own rewordings of pack cases (originals vs variants, strict kiosk score) and texts others wrote (due sales sold, asked, refused, wrong offers)")
    .option("--policy <name>", "policy to run", "rule")
    .option("--suite <suite>", "ours (cases/robustness), others (cases/others) or all", "all")
    .option("--half <half>", "report (never tuned on), tune, or all; the others' texts also have fresh, fresh2 … fresh8 (each gathered after the halves before it were graded). Without --half the others' texts run their tune half: a half nobody tuned on is graded only when named", "report")
    .option("--json", "print the summary as JSON")
    .option("--html <file>", "also write an HTML report")
    .action(async (opts: RobustnessOptions, cmd: Command) => {
      if (!(SUITES as readonly string[]).includes(opts.suite)) throw new UsageError(`--suite must be ours, others or all, got '${opts.suite}'`);
      const ours = opts.suite !== "others";
      const others = opts.suite !== "ours";
      const halves: Half[] = !ours ? [] : opts.half === "all" ? [...HALVES] : (HALVES as readonly string[]).includes(opts.half) ? [opts.half as Half] : [];
      if (ours && halves.length === 0) throw new UsageError(`--half must be report, tune or all for our suite, got '${opts.half}'`);
      const othersHalves = others ? othersHalvesFor(opts.half, cmd.getOptionValueSource("half") !== "default") : [];
      const pack = dataPack(cmd.optsWithGlobals<GlobalOptions>());
      let entries, passengers, operators;
      try {
        entries = ours ? loadSuite(pack, halves) : [];
        passengers = others ? loadCorpus(pack, undefined, othersHalves) : [];
        operators = others ? loadOperators(pack, undefined, othersHalves) : [];
      } catch (err) {
        if (err instanceof BenchError) throw new UsageError(err.message);
        throw err;
      }
      const progress = (what: string) => (done: number, total: number): void => {
        if (process.stderr.isTTY && !opts.json) process.stderr.write(`\r${done}/${total} ${what}${done === total ? "\n" : ""}`);
      };
      const { handle } = await createPolicy(opts.policy, {});
      try {
        const outcomes = ours ? await runSuite(pack, entries, handle.policy, progress("variants")) : [];
        const othersOutcomes = others ? await runOthers(pack, passengers, operators, handle.policy, progress("texts others wrote")) : [];
        const summaries = ours ? halves.map((h) => summarizeHalf(h, outcomes)) : [];
        const othersSummaries = othersHalves.map((h) => summarizeOthers(h, othersOutcomes));
        if (opts.html && ours) {
          mkdirSync(path.dirname(path.resolve(opts.html)), { recursive: true });
          writeFileSync(opts.html, renderSuiteHtml(summaries));
        }
        if (opts.json) printJson({ policy: opts.policy, ...(ours ? { halves: summaries } : {}), ...(others ? { others: othersSummaries } : {}) });
        else process.stdout.write([...summaries.map(renderHalfTable), ...othersSummaries.map(renderOthersTable)].join("\n"));
      } finally {
        await handle.dispose?.();
      }
    });
}
