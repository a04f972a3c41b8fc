// `kiosk bench generate --system ID [--per-category N] [--seed S] [--category LIST] [--out FILE]`:
// a case file in the pack's format for any system (the pack's or an imported network), with ground
// truth computed from the network's own files (bench/generate). The file runs with
// `kiosk bench run --cases-file FILE`. Without --out the cases go to stdout and the report to stderr.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { BenchError } from "../bench/errors.ts";
import { generateCases, reportLines } from "../bench/generate/index.ts";
import { parseCategories } from "../bench/run/select.ts";
import type { Category } from "../tools/data/schemas.ts";
import { positiveInt } from "./bench-run.ts";
import { dataPack, UsageError, type GlobalOptions } from "./context.ts";

export interface BenchGenerateOptions {
  system?: string;
  perCategory: string;
  seed: string;
  category?: string;
  out?: string;
}

const MAX_SEED = 0xffffffff;

function seedArg(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n > MAX_SEED) throw new UsageError(`--seed must be an integer from 0 to ${MAX_SEED}, got '${value}'`);
  return n;
}

export function benchGenerateAction(opts: BenchGenerateOptions, cmd: Command): void {
  const globals = cmd.optsWithGlobals<GlobalOptions>();
  const pack = dataPack(globals);
  if (opts.system === undefined) throw new UsageError(`--system is required (one of: ${pack.systemIds.join(", ")})`);
  const perCategory = positiveInt(opts.perCategory, "--per-category");
  const seed = seedArg(opts.seed);
  let categories: Category[] | undefined;
  try {
    categories = parseCategories(opts.category) as Category[] | undefined;
  } catch (err) {
    if (err instanceof BenchError) throw new UsageError(`--category: ${err.message}`);
    throw err;
  }
  const id = opts.system.trim().toLowerCase();
  if (!pack.systemIds.includes(id)) {
    throw new UsageError(`unknown system '${opts.system}': known systems are ${pack.systemIds.join(", ")}${pack.systemsDir === undefined ? "" : ` (imported systems from ${pack.systemsDir})`}`);
  }
  const result = generateCases(pack.system(id), { perCategory, seed, ...(categories ? { categories } : {}) });
  const text = `${JSON.stringify(result.cases, null, 2)}\n`;
  const report = reportLines(result);
  if (opts.out === undefined) {
    process.stdout.write(text);
    process.stderr.write(`${report.join("\n")}\n`);
    return;
  }
  const file = path.resolve(opts.out);
  mkdirSync(path.dirname(file), { recursive: true });
  // Written beside the target and renamed: a reader never sees half a file.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
  process.stdout.write(`${[...report, `wrote ${result.cases.length} cases to ${file}`, `run them: kiosk ${globals.systemsDir !== undefined ? `--systems-dir ${globals.systemsDir} ` : ""}bench run --cases-file ${opts.out} --policy rule`].join("\n")}\n`);
}

export function registerBenchGenerateCommand(bench: Command): Command {
  return bench
    .command("generate")
    .description("write a case file for a system (the pack's or an imported one), by category, with ground truth computed from its network and fare files")
    .option("--system <id>", "the system to generate cases for")
    .option("--per-category <n>", "cases per category", "10")
    .option("--seed <s>", "seed (the same seed writes the same file)", "1")
    .option("--category <list>", "only these categories: A..K, a list (A,C) or a range (B..E)")
    .option("--out <file>", "write the cases here (else to stdout, with the report on stderr)")
    .action(benchGenerateAction);
}
