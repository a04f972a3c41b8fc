// `kiosk bench robustness`: run the robustness suite (cases/robustness/, assembled from the pack)
// with a policy; originals vs variants per category and kind, Tier 1 beside the strict kiosk score.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { BenchError } from "../bench/errors.ts";
import { createPolicy } from "../bench/policies.ts";
import { runSuite } from "../bench/robustness/run.ts";
import { renderHalfTable, renderSuiteHtml, summarizeHalf } from "../bench/robustness/summary.ts";
import { HALVES, loadSuite, type Half } from "../bench/robustness/suite.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";

interface RobustnessOptions {
  policy: string;
  half: string;
  json?: boolean;
  html?: string;
}

export function registerBenchRobustnessCommand(bench: Command): void {
  bench
    .command("robustness")
    .description("run the robustness suite (our own rewordings of pack cases) and show originals vs variants with the strict kiosk score")
    .option("--policy <name>", "policy to run", "rule")
    .option("--half <half>", "report (never tuned on), tune, or all", "report")
    .option("--json", "print the summary as JSON")
    .option("--html <file>", "also write an HTML report")
    .action(async (opts: RobustnessOptions, cmd: Command) => {
      const halves: Half[] = opts.half === "all" ? [...HALVES] : (HALVES as readonly string[]).includes(opts.half) ? [opts.half as Half] : [];
      if (halves.length === 0) throw new UsageError(`--half must be report, tune or all, got '${opts.half}'`);
      const pack = dataPack(cmd.optsWithGlobals<GlobalOptions>());
      let entries;
      try {
        entries = loadSuite(pack, halves);
      } catch (err) {
        if (err instanceof BenchError) throw new UsageError(err.message);
        throw err;
      }
      const { handle } = await createPolicy(opts.policy, {});
      try {
        const outcomes = await runSuite(pack, entries, handle.policy, (done, total) => {
          if (process.stderr.isTTY && !opts.json) process.stderr.write(`\r${done}/${total} variants`);
        });
        if (process.stderr.isTTY && !opts.json) process.stderr.write("\n");
        const summaries = halves.map((h) => summarizeHalf(h, outcomes));
        if (opts.html) {
          mkdirSync(path.dirname(path.resolve(opts.html)), { recursive: true });
          writeFileSync(opts.html, renderSuiteHtml(summaries));
        }
        if (opts.json) printJson({ policy: opts.policy, halves: summaries });
        else process.stdout.write(summaries.map(renderHalfTable).join("\n"));
      } finally {
        await handle.dispose?.();
      }
    });
}
