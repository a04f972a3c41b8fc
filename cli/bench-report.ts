// `kiosk bench report` and `kiosk bench list`: what the stored runs scored.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { BenchError } from "../bench/errors.ts";
import { buildReport } from "../bench/report/build.ts";
import { caseDifferenceBlock } from "../bench/report/case-diff-text.ts";
import { trialsBlock } from "../bench/report/trials-text.ts";
import { coverageText, runCoverage } from "../bench/report/coverage.ts";
import { renderReportHtml } from "../bench/report/html.ts";
import { caseTraces } from "../bench/report/trace.ts";
import { headlineFigures, summarizeStoredRun } from "../bench/report/summary.ts";
import { f2, formatMs, renderReportTable, renderTable } from "../bench/report/table.ts";
import { BenchStore, benchDbPath } from "../bench/store/store.ts";
import { runIdArg } from "./bench-run.ts";
import { printJson, UsageError } from "./context.ts";

interface ReportOptions {
  compare?: string;
  json?: boolean;
  html?: string;
  db?: string;
}

interface ListOptions {
  json?: boolean;
  db?: string;
}

function withStore<T>(db: string | undefined, fn: (store: BenchStore) => T): T {
  const store = BenchStore.open(benchDbPath(db));
  try {
    return fn(store);
  } catch (err) {
    if (err instanceof BenchError) throw new UsageError(err.message);
    throw err;
  } finally {
    store.close();
  }
}

function parseRunRef(value: string | undefined, what: string): number | undefined {
  if (value === undefined || value === "latest") return undefined;
  return runIdArg(value, what);
}

export function registerBenchReportCommands(bench: Command): void {
  bench
    .command("report")
    .description("a stored run's scores per system, category and partition with bootstrap CIs, how cases ended, and an optional run-vs-run comparison")
    .argument("[run]", "run number (default: the latest)")
    .option("--compare <run>", "compare with this run (paired over the cases both scored)")
    .option("--json", "print the report as JSON")
    .option("--html <file>", "write a self-contained HTML report (inline SVG charts; works offline)")
    .option("--db <file>", "bench database (else $METRO_BENCH_DB, else ./var/bench.sqlite)")
    .action((runArg: string | undefined, opts: ReportOptions) => {
      withStore(opts.db, (store) => {
        const compareWith = opts.compare !== undefined ? runIdArg(opts.compare, "--compare") : undefined;
        const report = buildReport(store, parseRunRef(runArg, "run"), compareWith !== undefined ? { compareWith } : {});
        if (opts.html) {
          mkdirSync(path.dirname(path.resolve(opts.html)), { recursive: true });
          writeFileSync(opts.html, renderReportHtml(report, { traces: caseTraces(store, report.run.id) }));
        }
        if (opts.json) {
          printJson(report);
          return;
        }
        process.stdout.write(renderReportTable(report));
        if (report.trials) process.stdout.write(`\n${trialsBlock(report.trials)}\n`);
        if (report.comparison) process.stdout.write(`\n${caseDifferenceBlock(report.comparison.cases, report.run.id, report.comparison.base.id)}\n`);
        if (opts.html) process.stdout.write(`wrote ${opts.html}\n`);
      });
    });

  bench
    .command("list")
    .description("list the stored runs")
    .option("--json", "print the runs as JSON")
    .option("--db <file>", "bench database (else $METRO_BENCH_DB, else ./var/bench.sqlite)")
    .action((opts: ListOptions) => {
      withStore(opts.db, (store) => {
        const runs = store.listRuns().map((r) => {
          const figures = headlineFigures(summarizeStoredRun(store, store.requireRun(r.id)).summary);
          const row = store.requireRun(r.id);
          return { ...r, covers: runCoverage(row.selection), trial: row.trial, tier1: { holdout: figures.overall.holdout, full: figures.overall.full } };
        });
        if (opts.json) {
          printJson({ db: store.file, runs });
          return;
        }
        if (runs.length === 0) {
          process.stdout.write(`no runs in ${store.file} (start one with 'kiosk bench run --policy rule')\n`);
          return;
        }
        const header = ["run", "status", "policy", "model", "judge", "covers", "cases", "scored", "T1 held-out", "T1 full", "comp full", "wall", "started"];
        const rows = runs.map((r) => [
          String(r.id),
          r.status,
          r.trial ? `${r.policy} (trial ${r.trial.index}/${r.trial.of} of set ${r.trial.set})` : r.policy,
          r.model,
          r.judge,
          coverageText(r.covers),
          `${r.casesDone}/${r.casesTotal}`,
          String(r.casesScored),
          r.tier1.holdout.n > 0 ? f2(r.tier1.holdout.tier1) : "–",
          r.tier1.full.n > 0 ? f2(r.tier1.full.tier1) : "–",
          r.tier1.full.n > 0 ? f2(r.tier1.full.composite) : "–",
          formatMs(r.wallMs),
          r.startedAt.replace("T", " ").replace(/\.\d+Z$/, "Z"),
        ]);
        process.stdout.write(`${renderTable(header.map((_, i) => ({ align: [0, 6, 7, 8, 9, 10, 11].includes(i) ? "r" : "l" })), header, rows)}\n`);
      });
    });
}
