// `kiosk bench run`: replay cases with a policy, score them as they finish, store everything in the
// bench database; Ctrl-C stops cleanly and `--resume RUN` continues.
import { availableParallelism } from "node:os";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { BenchError } from "../bench/errors.ts";
import { ModelError } from "../models/errors.ts";
import { POLICY_OPTION_FLAGS, listPolicies, policyFactory, type PolicyOptions } from "../bench/policies.ts";
import { trialsReport } from "../bench/report/trials.ts";
import { trialsBlock } from "../bench/report/trials-text.ts";
import type { NewRun, RunRow, StoredCase } from "../bench/store/store.ts";
import { JUDGE_OPTION_FLAGS, judgeNames, type JudgeOptions } from "../bench/judges.ts";
import { resumeRun, startRun, type RunOutcome, type RunProgress, type RunStartInfo } from "../bench/run/execute.ts";
import { startReferenceResults } from "../bench/run/results.ts";
import { parseCategories, parseList, parseSystems } from "../bench/run/select.ts";
import { SplitFilterSchema } from "../bench/store/schema.ts";
import { BenchStore, benchDbPath } from "../bench/store/store.ts";
import { headlineFigures, summarizeCases } from "../bench/report/summary.ts";
import { f1, f2, formatMs, renderTable } from "../bench/report/table.ts";
import { dataPack, UsageError, type GlobalOptions } from "./context.ts";

export interface BenchRunOptions {
  policy?: string;
  model?: string;
  threads?: string;
  baseUrl?: string;
  system?: string;
  category?: string;
  split: string;
  cases?: string;
  casesFile?: string;
  concurrency: string;
  out?: string;
  json?: boolean;
  resume?: string;
  db?: string;
  score: boolean;
  judge: string;
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeThreads?: string;
  trials?: string;
}

/** Options that define a run; a resume takes them from the stored run. */
const DEFINING: readonly (keyof BenchRunOptions)[] = ["policy", "model", "threads", "baseUrl", "system", "category", "split", "cases", "casesFile", "score", "judge", "judgeModel", "judgeBaseUrl", "judgeThreads", "trials"];
const FLAG: Readonly<Record<string, string>> = {
  policy: "--policy",
  ...POLICY_OPTION_FLAGS,
  system: "--system",
  category: "--category",
  split: "--split",
  cases: "--cases",
  casesFile: "--cases-file",
  score: "--no-score",
  judge: "--judge",
  judgeModel: JUDGE_OPTION_FLAGS.model,
  judgeBaseUrl: JUDGE_OPTION_FLAGS.baseUrl,
  judgeThreads: JUDGE_OPTION_FLAGS.threads,
  trials: "--trials",
};

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got '${value}'`);
  return n;
}

export function runIdArg(value: string, what = "run id"): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${what} must be a run number (see 'kiosk bench list'), got '${value}'`);
  return n;
}

/** Progress on stderr: a bar on a terminal, nothing otherwise. */
class Progress {
  private bar: SingleBar | undefined;

  constructor(private readonly enabled: boolean) {}

  start(info: RunStartInfo): void {
    if (!this.enabled) return;
    const what = `${info.resumed ? "resuming" : "run"} ${info.runId} · ${info.policy}${info.model !== info.policy ? ` (${info.model})` : ""}`;
    this.bar = new SingleBar({
      format: `${what} {bar} {value}/{total} cases · {rate} · ETA {etaText} · Tier 1 {tier1}`,
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      synchronousUpdate: true,
      fps: 10,
      stream: process.stderr,
    });
    this.bar.start(info.total, info.alreadyDone, { rate: "–", etaText: "–", tier1: "–" });
  }

  update(p: RunProgress): void {
    if (!this.bar) return;
    const perSecond = p.elapsedMs > 0 ? (p.ranNow * 1000) / p.elapsedMs : 0;
    const left = p.total - p.done;
    this.bar.update(p.done, {
      rate: perSecond > 0 ? (perSecond >= 1 ? `${perSecond.toFixed(1)} cases/s` : `${(1 / perSecond).toFixed(1)} s/case`) : "–",
      etaText: perSecond > 0 ? formatMs((left / perSecond) * 1000) : "–",
      tier1: p.tier1Mean === null ? "–" : f1(p.tier1Mean),
    });
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }

  note(message: string): void {
    if (this.bar) process.stderr.write(`\n${message}\n`);
    else process.stderr.write(`${message}\n`);
  }
}

function resumeHint(runId: number, db: string | undefined): string {
  return `kiosk bench run --resume ${runId}${db ? ` --db ${db}` : ""}`;
}

function summaryTable(run: RunRow, cases: StoredCase[]): string {
  const { summary } = summarizeCases(run, cases);
  const figures = headlineFigures(summary);
  const parts = (["holdout", "full"] as const).filter((p) => figures.overall[p].n > 0);
  const header = ["", ...parts.flatMap((p) => [`${p === "holdout" ? "held-out" : p} n`, "Tier 1", "composite"])];
  const rows = Object.entries(figures.systems).map(([system, byPart]) => [
    system,
    ...parts.flatMap((p) => {
      const f = byPart?.[p];
      return f ? [String(f.n), f1(f.tier1), f1(f.composite)] : ["0", "–", "–"];
    }),
  ]);
  rows.push(["overall", ...parts.flatMap((p) => [String(figures.overall[p].n), f2(figures.overall[p].tier1), f2(figures.overall[p].composite)])]);
  return renderTable(header.map((_, i) => ({ align: i === 0 ? "l" : "r" })), header, rows);
}

/** `written()` gives the results files, once they are written (called after the rest is put together). */
function summaryJson(store: BenchStore, outcome: RunOutcome, written: () => string[], db: string | undefined): Record<string, unknown> {
  const { run, cases, summary } = summarizeCases(store.requireRun(outcome.runId), outcome.storedCases);
  const figures = headlineFigures(summary);
  const out = written();
  return {
    run_id: run.id,
    status: run.status,
    policy: run.policy,
    model: run.model,
    judge: run.judge,
    db: store.file,
    cases: {
      total: run.casesTotal,
      done: cases.length,
      ran_now: outcome.ranNow,
      scored: cases.filter((c) => c.scored).length,
      unscored: cases.filter((c) => !c.scored).length,
    },
    wall_ms: outcome.wallMs,
    overall: figures.overall,
    systems: figures.systems,
    unscored: outcome.unscored.map((u) => ({ case_id: u.caseId, note: u.note })),
    warnings: outcome.warnings,
    ...(out.length > 0 ? { out } : {}),
    ...(run.status === "interrupted" ? { resume: resumeHint(run.id, db) } : {}),
  };
}

export async function benchRunAction(opts: BenchRunOptions, cmd: Command): Promise<void> {
  const given = (name: keyof BenchRunOptions): boolean => {
    const source = cmd.getOptionValueSource(name);
    return source === "cli" || source === "env";
  };
  const concurrency = positiveInt(opts.concurrency, "--concurrency");
  const resumeId = opts.resume !== undefined ? runIdArg(opts.resume, "--resume") : undefined;
  if (resumeId !== undefined) {
    const clash = DEFINING.filter(given);
    if (clash.length > 0) throw new UsageError(`--resume continues run ${resumeId} with its own policy and selection; drop ${clash.map((k) => FLAG[k] ?? k).join(", ")}`);
  } else if (!opts.policy) {
    const names = listPolicies().map((p) => p.name);
    throw new UsageError(`--policy is required (one of: ${names.join(", ")}), or --resume RUN`);
  }
  const trials = opts.trials !== undefined ? positiveInt(opts.trials, "--trials") : 1;
  if (opts.trials !== undefined && opts.policy) {
    let deterministic: boolean;
    try {
      deterministic = policyFactory(opts.policy).deterministic;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (deterministic) throw new UsageError(`--trials repeats a model policy to measure how consistent it is; ${opts.policy} is deterministic (every trial would give the same answers)`);
  }

  const pack = dataPack(cmd.optsWithGlobals<GlobalOptions>());
  const store = BenchStore.open(benchDbPath(opts.db));
  // SQLite's share of the run moves to a writer thread when there is a second core for it,
  // started now so that it is ready before the first case is.
  const storeInBackground = availableParallelism() > 1;
  if (storeInBackground) store.prepareCaseWriterThread();
  const controller = new AbortController();
  const progress = new Progress(process.stderr.isTTY === true && !opts.json);
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts === 1) {
      progress.note("interrupt: stopping; finished cases are kept (Ctrl-C again to quit at once)");
      controller.abort(new Error("interrupted"));
    } else {
      progress.stop();
      store.close();
      process.exit(130);
    }
  };
  process.on("SIGINT", onSigint);

  let outcome: RunOutcome;
  try {
    const common = {
      pack,
      store,
      concurrency,
      signal: controller.signal,
      storeInBackground,
      resultsFilesNext: opts.out !== undefined,
      onStart: (info: RunStartInfo) => progress.start(info),
      onProgress: (p: RunProgress) => progress.update(p),
    };
    if (resumeId !== undefined) {
      outcome = await resumeRun({ ...common, runId: resumeId });
    } else {
      const policyOptions: PolicyOptions = {
        ...(opts.model !== undefined ? { model: opts.model } : {}),
        ...(opts.threads !== undefined ? { threads: positiveInt(opts.threads, "--threads") } : {}),
        ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
      };
      const split = SplitFilterSchema.safeParse(opts.split);
      if (!split.success) throw new UsageError(`--split must be all, holdout or train, got '${opts.split}'`);
      if (!judgeNames().includes(opts.judge)) throw new UsageError(`--judge: unknown judge '${opts.judge}' (known: ${judgeNames().join(", ")})`);
      const judgeOptions: JudgeOptions = {
        ...(opts.judgeModel !== undefined ? { model: opts.judgeModel } : {}),
        ...(opts.judgeBaseUrl !== undefined ? { baseUrl: opts.judgeBaseUrl } : {}),
        ...(opts.judgeThreads !== undefined ? { threads: positiveInt(opts.judgeThreads, "--judge-threads") } : {}),
      };
      const systems = parseSystems(opts.system);
      const categories = parseCategories(opts.category);
      const caseIds = parseList(opts.cases);
      const runTrial = (trial: NewRun["trial"]): Promise<RunOutcome> => startRun({
        ...common,
        ...(trial ? { trial } : {}),
        policy: opts.policy as string,
        policyOptions,
        judge: opts.judge,
        judgeOptions,
        score: opts.score,
        selection: {
          split: split.data,
          ...(systems ? { systems } : {}),
          ...(categories ? { categories } : {}),
          ...(caseIds ? { caseIds } : {}),
          ...(opts.casesFile ? { casesFile: opts.casesFile } : {}),
        },
      });
      if (opts.trials === undefined) outcome = await runTrial(undefined);
      else {
        let set: number | null = null;
        outcome = await runTrial({ set, index: 1, of: trials });
        set = outcome.runId;
        for (let i = 2; i <= trials && outcome.status === "finished"; i++) {
          progress.stop();
          progress.note(`trial ${i - 1}/${trials} (run ${outcome.runId}) ${outcome.status}; starting trial ${i}`);
          outcome = await runTrial({ set, index: i, of: trials });
        }
      }
    }
    progress.stop();
    for (const w of outcome.warnings) process.stderr.write(`warning: ${w}\n`);

    const run = store.requireRun(outcome.runId);
    // The writer thread may write the results files while the summary is put together.
    const results = opts.out ? startReferenceResults(store, run, opts.out, outcome.storedCases) : { finish: (): string[] => [] };
    const trialSet = trialsReport(store, run);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify({ ...summaryJson(store, outcome, results.finish, opts.db), ...(trialSet ? { trials: trialSet } : {}) })}\n`);
    } else {
      const lines = [
        `run ${run.id} ${run.status}: ${outcome.casesDone}/${outcome.casesTotal} cases stored (${outcome.ranNow} now, ${formatMs(outcome.wallMs)}) in ${store.file}`,
      ];
      if (outcome.storedCases.some((c) => c.scored)) lines.push("", summaryTable(run, outcome.storedCases));
      const byNote = new Map<string, string[]>();
      for (const u of outcome.unscored) byNote.set(u.note, [...(byNote.get(u.note) ?? []), u.caseId]);
      for (const [note, ids] of byNote) {
        const why = note.replace(/^not scored:?\s*/, "");
        lines.push("", `${ids.length} case${ids.length === 1 ? "" : "s"} not scored: ${why} (${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""})`);
      }
      if (trialSet) lines.push("", trialsBlock(trialSet));
      for (const f of results.finish()) lines.push(`wrote ${f}`);
      lines.push(`report: kiosk bench report ${run.id}${opts.db ? ` --db ${opts.db}` : ""}`);
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    if (outcome.status === "interrupted") {
      process.stderr.write(`run ${outcome.runId} interrupted with ${outcome.casesDone}/${outcome.casesTotal} cases stored; resume with: ${resumeHint(outcome.runId, opts.db)}\n`);
      process.exitCode = 130;
    }
  } catch (err) {
    progress.stop();
    // A model that cannot be found or loaded (models/local.ts) is the user's to fix, like a bench error.
    if (err instanceof BenchError || err instanceof ModelError) throw new UsageError(err.message);
    throw err;
  } finally {
    process.off("SIGINT", onSigint);
    store.close();
  }
}

export function registerBenchRunCommand(bench: Command): Command {
  return bench
    .command("run")
    .description("replay benchmark cases with a policy, score them as they finish and store the run (Ctrl-C stops; --resume continues)")
    .option("--policy <name>", `policy: ${listPolicies().map((p) => p.name).join(", ")}`)
    .option("--model <name>", "llm/hybrid: a .gguf path or 2b/4b/9b/27b from the models directory (default 4b); openai: the endpoint's model name")
    .option("--threads <n>", "CPU threads for a local model engine (default: measured on first use, cached per machine and model)")
    .option("--base-url <url>", "OpenAI-compatible endpoint (openai policy; API key from $OPENAI_API_KEY)")
    .option("--system <ids>", "only these systems (comma-separated)")
    .option("--category <list>", "only these categories: A..K, a list (A,C) or a range (B..E)")
    .option("--split <part>", "all, holdout or train", "all")
    .option("--cases <ids>", "only these case ids (comma-separated)")
    .option("--cases-file <file>", "run an operator's case file (the pack's case format) instead of the pack's cases")
    .option("--concurrency <n>", "cases in flight at once", "1")
    .option("--judge <name>", `judge for the judged Tier 2 components: ${judgeNames().join(", ")} (judgments are cached in the database)`, "none")
    .option("--judge-model <name>", "judge llm: a .gguf path or 2b/4b/9b/27b (default 4b); judge openai: the endpoint's model name")
    .option("--judge-base-url <url>", "judge openai: OpenAI-compatible endpoint (API key from $METRO_JUDGE_API_KEY or $OPENAI_API_KEY)")
    .option("--judge-threads <n>", "judge llm: CPU threads (default: measured on first use, cached per machine and model)")
    .option("--no-score", "store transcripts only, do not score")
    .option("--out <path>", "also write the reference runner's results format: a file for one system, else a directory of <system>.json")
    .option("--json", "print the run's summary as one JSON object on stdout (and no progress bar)")
    .option("--trials <k>", "model policies: run the selection k times (k runs of one trial set) and report pass^k per category, τ-bench's consistency measure")
    .option("--resume <run>", "continue an interrupted run, skipping the cases already stored")
    .option("--db <file>", "bench database (else $METRO_BENCH_DB, else ./var/bench.sqlite)")
    .action(benchRunAction);
}
