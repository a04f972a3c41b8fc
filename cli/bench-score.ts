// `kiosk bench score`: score a reference-format results file (no judge; bench/scorer/results.ts)
// and write the reference scorer's output shape.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { Metrics } from "../bench/stats/aggregate.ts";
import { ResultsFileSchema } from "../bench/scorer/record.ts";
import { scoreResults, type ScoredResults } from "../bench/scorer/results.ts";
import { loadCaseFile } from "../tools/data/datapack.ts";
import { SystemIdSchema } from "../tools/data/schemas.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";

function readResultsFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read results file ${file}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(err)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`results file ${file} is not JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(data) && !ResultsFileSchema.safeParse(data).success) {
    throw new UsageError(`results file ${file} has no "results" list (expected the reference runner's format)`);
  }
  return data;
}

const num = (x: number | undefined): string => (x === undefined ? "–" : x.toFixed(1));

function table(result: ScoredResults): string {
  const { file, scores } = result;
  const metrics = file.metrics as Partial<Metrics>;
  const counts = new Map<string, number>();
  for (const s of scores) {
    const cat = s.case_id.split("-")[1] ?? "";
    counts.set(cat, (counts.get(cat) ?? 0) + 1);
  }
  const lines = [`${file.system}: ${scores.length} cases scored (model ${String(file.model)}, no judge)`, "cat     n   composite   tier1"];
  for (const cat of [...counts.keys()].sort()) {
    lines.push(`${cat.padEnd(4)} ${String(counts.get(cat)).padStart(4)}   ${num(metrics.by_category?.[cat]).padStart(9)}   ${num(metrics.tier1_by_category?.[cat]).padStart(5)}`);
  }
  lines.push(
    `${file.system}: composite ${num(metrics.metrollm_composite)}  tier1 ${num(metrics.tier1_composite)}  ` +
      `(SR ${num(metrics.sr_pct)}%  FER ${num(metrics.fer_pct)}%  THR ${num(metrics.thr_pct)}%  AMR ${num(metrics.amr_pct)}%  SVR ${num(metrics.svr_pct)}%)`,
  );
  if (result.unknownCaseIds.length > 0) {
    const shown = result.unknownCaseIds.slice(0, 5).join(", ");
    lines.push(`not scored: ${result.unknownCaseIds.length} record(s) with no matching case (${shown}${result.unknownCaseIds.length > 5 ? ", …" : ""})`);
  }
  const flagged = scores.filter((s) => s.flags.length > 0);
  if (flagged.length > 0) lines.push(`malformed: ${flagged.length} record(s) scored leniently (see "flags" in --json or --out)`);
  return lines.join("\n");
}

interface ScoreCommandOptions {
  results: string;
  system: string;
  casesFile?: string;
  out?: string;
  json?: boolean;
}

/** Add `score` to an existing `bench` command. */
export function registerScoreCommand(bench: Command): Command {
  return bench
    .command("score")
    .description("score a reference-format results file against a system's cases (Tier 1 + programmatic Tier 2; no judge)")
    .requiredOption("--results <file>", "results JSON in the reference runner's format ({…, results: [records]})")
    .requiredOption("--system <id>", "transit system: a benchmark system, or an imported one with --cases-file")
    .option("--cases-file <file>", "score against this case file (the pack's case format) instead of the system's cases")
    .option("--out <file>", "write the reference scorer's output (summary, metrics, scores[] in input order)")
    .option("--json", "print the summary, metrics, unknown case ids and flagged records as JSON")
    .action((opts: ScoreCommandOptions, cmd: Command) => {
      const pack = dataPack(cmd.optsWithGlobals<GlobalOptions>());
      const system = SystemIdSchema.safeParse(opts.system);
      if (!system.success || !pack.systemIds.includes(system.data)) throw new UsageError(`unknown system '${opts.system}' (expected one of: ${pack.systemIds.join(", ")})`);
      if (!opts.casesFile && !pack.packSystemIds.includes(system.data)) throw new UsageError(`'${system.data}' is an imported system: the benchmark has no cases for it; score against --cases-file FILE (kiosk bench generate)`);
      const cases = opts.casesFile ? loadCaseFile(opts.casesFile) : pack.cases(system.data);
      const result = scoreResults(readResultsFile(opts.results), cases, pack.system(system.data));

      if (opts.out) {
        mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
        writeFileSync(opts.out, `${JSON.stringify(result.file, null, 2)}\n`);
      }
      if (opts.json) {
        const { scores: _scores, ...head } = result.file;
        printJson({
          ...head,
          unknown_case_ids: result.unknownCaseIds,
          flagged: result.scores.filter((s) => s.flags.length > 0).map((s) => ({ case_id: s.case_id, flags: s.flags })),
          ...(opts.out ? { out: opts.out } : {}),
        });
      } else {
        process.stdout.write(`${table(result)}${opts.out ? `\nwrote ${opts.out}` : ""}\n`);
      }
    });
}
