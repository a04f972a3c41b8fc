// The technician's on-device bench, behind the operator screen (runtime/operator/console.ts): start
// a run of the probe set, one category, the held-out partition or all cases with a policy, follow
// it live (per-category running scores), stop it, and read stored runs back as the bench's HTML
// report or as JSON exports. Runs go through startRun into the same SQLite database as
// `kiosk bench run`, so the CLI lists, reports and resumes them too. While a run is in progress the
// kiosk refuses passengers (`setBenchRunning`). For an imported system, which has no cases in the
// pack, the technician generates them (bench/generate, as `kiosk bench generate` does): the case
// file is kept beside the bench database and run as `--cases-file` runs are (its checksum recorded,
// resumable from the CLI).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { DataPack } from "../tools/data/datapack.ts";
import { CATEGORIES, type SystemId } from "../tools/data/schemas.ts";
import type {
  BenchCategoryProgress,
  BenchExport,
  BenchGeneration,
  BenchJob,
  BenchPolicyName,
  BenchReport,
  BenchRunSummary,
  BenchSelection,
  BenchStatus,
  GeneratedSelection,
  LatencyProbeResult,
  TechnicianInfo,
} from "../runtime/kiosk/bridge.ts";
import { OperatorError, type TechnicianBench } from "../runtime/operator/console.ts";
import { BenchError } from "./errors.ts";
import { generateCases, type GenerateResult } from "./generate/index.ts";
import { listPolicies } from "./policies.ts";
import { probeCases } from "./probe/set.ts";
import { buildReport } from "./report/build.ts";
import { coverageText, runCoverage } from "./report/coverage.ts";
import { renderReportHtml } from "./report/html.ts";
import { caseTraces } from "./report/trace.ts";
import { headlineFigures, summarizeStoredRun } from "./report/summary.ts";
import { startRun, type RunOutcome, type RunProgress } from "./run/execute.ts";
import { referenceResults } from "./run/results.ts";
import { selectCases, type SelectionSpec } from "./run/select.ts";
import { RunNotFoundError, type BenchStore } from "./store/store.ts";

const POLICIES: readonly BenchPolicyName[] = ["rule", "rule-ref", "llm", "hybrid"];
/** Policies that need a model (offered only when the kiosk has one configured). */
const MODEL_POLICIES: ReadonlySet<BenchPolicyName> = new Set(["llm", "hybrid"]);
const RECENT_RUNS = 12;

/**
 * The probe set: the latency probe's fixed 15 held-out cases (bench/probe/set.ts) — every category
 * once, plus the hardest compound ones — the same on every machine, so a quick check here compares
 * with `kiosk probe` and with other kiosks.
 */
export function probeCaseIds(pack: DataPack): string[] {
  return probeCases(pack).map((c) => c.id);
}

/** The pack's cases a selection names (a "generated" selection runs its own case file instead). */
export function selectionSpec(pack: DataPack, selection: Exclude<BenchSelection, GeneratedSelection>): SelectionSpec {
  switch (selection.kind) {
    case "probe":
      return { caseIds: probeCaseIds(pack) };
    case "category":
      return { categories: [selection.category] };
    case "holdout":
      return { split: "holdout" };
    case "all":
      return {};
  }
}

export interface BenchTechnicianOptions {
  pack: DataPack;
  /** The bench database (shared with `kiosk bench run`); opened by the caller, closed by `close()`. */
  store: BenchStore;
  /** The kiosk refuses passengers while this is true (KioskApp.setBenchRunning). */
  setBenchRunning: (running: boolean) => void;
  /** The model the kiosk is configured with (a .gguf path or catalog id); null: llm/hybrid are not offered. */
  model?: string | null;
  /** The latency probe, when this build has one (bench/probe); it receives the model. */
  probe?: ((model: string) => Promise<LatencyProbeResult>) | null;
  /**
   * Where case files generated for imported systems are kept: default `generated-cases/` beside the
   * bench database (an in-memory database has none, so generating is refused unless one is given).
   */
  casesDir?: string | null;
  /** Cases in flight at once (default 1). */
  concurrency?: number;
  clock?: () => Date;
  now?: () => number;
  log?: (message: string) => void;
}

interface CategoryTally {
  total: number;
  done: number;
  scored: number;
  tier1Sum: number;
  compositeSum: number;
}

interface Job {
  view: BenchJob;
  controller: AbortController;
  tallies: Map<string, CategoryTally>;
  compositeSum: number;
  promise: Promise<void>;
}

const mean = (sum: number, n: number): number | null => (n > 0 ? sum / n : null);

/** The categories a stored run covered, and its coverage in words ("bart · A–K"). */
function coverageFields(selection: Parameters<typeof runCoverage>[0] | undefined): { categories?: string[]; covers?: string } {
  if (!selection) return {};
  const coverage = runCoverage(selection);
  return { categories: coverage.categories, covers: coverageText(coverage) };
}

export class BenchTechnician implements TechnicianBench {
  private job: Job | null = null;
  private probing = false;
  private readonly clock: () => Date;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private counts: TechnicianInfo["counts"] | undefined;

  constructor(private readonly options: BenchTechnicianOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.now = options.now ?? (() => performance.now());
    this.log = options.log ?? ((m) => console.error(`kiosk bench: ${m}`));
  }

  get running(): boolean {
    return this.job !== null && (this.job.view.state === "starting" || this.job.view.state === "running");
  }

  /** Settles when the current run (if any) has ended. */
  async idle(): Promise<void> {
    await this.job?.promise;
  }

  private policyAvailability(name: BenchPolicyName): TechnicianInfo["policies"][number] {
    const registered = listPolicies().some((p) => p.name === name && p.available);
    if (MODEL_POLICIES.has(name) && !this.options.model) return { name, available: false, unavailableReason: "no_model" };
    if (!registered) return { name, available: false, unavailableReason: "not_registered" };
    return { name, available: true, unavailableReason: null };
  }

  info(): TechnicianInfo {
    const { pack } = this.options;
    this.counts ??= {
      probe: probeCaseIds(pack).length,
      holdout: selectCases(pack, { split: "holdout" }).cases.length,
      all: pack.allCases().length,
      categories: CATEGORIES.map((category) => ({ category, cases: pack.allCases().filter((c) => c.category === category).length })),
    };
    return {
      policies: POLICIES.map((p) => this.policyAvailability(p)),
      counts: this.counts,
      model: { configured: Boolean(this.options.model), name: this.options.model ?? null },
      database: path.resolve(this.options.store.file),
      generatedCasesDir: this.generatedCasesDir(),
    };
  }

  private generatedCasesDir(): string | null {
    if (this.options.casesDir !== undefined) return this.options.casesDir === null ? null : path.resolve(this.options.casesDir);
    const file = this.options.store.file;
    return file === ":memory:" ? null : path.join(path.dirname(path.resolve(file)), "generated-cases");
  }

  /**
   * Generate an imported system's cases and write them as a case file; refuses a system this kiosk
   * does not run, a system of the pack (its cases are the pack's), and a network that yields none.
   */
  private generate(selection: GeneratedSelection): { spec: SelectionSpec; generation: BenchGeneration } {
    const { pack } = this.options;
    const { system, perCategory, seed } = selection;
    const imported = pack.systemIds.filter((id) => pack.isImported(id));
    const offered = imported.length > 0 ? `imported systems: ${imported.join(", ")}` : "no system is imported on this kiosk";
    if (!pack.systemIds.includes(system)) throw new OperatorError("rejected", `This kiosk has no system '${system}' (${offered}).`);
    if (!pack.isImported(system)) {
      throw new OperatorError("rejected", `'${system}' is a system of the benchmark's data pack: run its own cases (the probe set, a category, held-out or all cases). Cases are generated for imported systems only (${offered}).`);
    }
    const dir = this.generatedCasesDir();
    if (dir === null) throw new OperatorError("unavailable", "This kiosk's bench database is kept in memory: there is nowhere to keep a generated case file.");
    let result: GenerateResult;
    try {
      result = generateCases(pack.system(system), { perCategory, seed });
    } catch (err) {
      throw new OperatorError("failed", `Cases could not be generated for '${system}': ${err instanceof Error ? err.message : String(err)}`);
    }
    const categories = result.report.map((r) => ({ category: r.category, requested: r.requested, generated: r.generated, skipped: r.skipped ?? null, notes: [...r.notes], dropped: { ...r.dropped } }));
    if (result.cases.length === 0) {
      throw new OperatorError("rejected", `No cases could be generated for '${system}': ${categories.map((c) => `${c.category}: ${c.skipped ?? "none"}`).join("; ")}.`);
    }
    // Written as `kiosk bench generate --out` writes it. Named by its content: the same network, count
    // and seed reuse one file, and a file a stored run started from is never overwritten (its
    // resume checks the checksum).
    const text = `${JSON.stringify(result.cases, null, 2)}\n`;
    const sha = createHash("sha256").update(text).digest("hex").slice(0, 12);
    const file = path.join(dir, `${system}-${perCategory}x-seed${seed}-${sha}.json`);
    if (!existsSync(file)) {
      try {
        mkdirSync(dir, { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, text);
        renameSync(temp, file);
      } catch (err) {
        throw new OperatorError("failed", `The generated case file cannot be written to ${dir}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.log(`generated ${result.cases.length} cases for ${system} (${perCategory} per category, seed ${seed}): ${file}`);
    return { spec: { casesFile: file }, generation: { system, perCategory, seed, cases: result.cases.length, casesFile: file, categories } };
  }

  start(request: { policy: BenchPolicyName; selection: BenchSelection; operator: string }): BenchJob {
    if (this.running || this.probing) throw new OperatorError("conflict", "A bench run is already in progress.");
    const availability = this.policyAvailability(request.policy);
    if (!availability.available) {
      throw new OperatorError("rejected", availability.unavailableReason === "no_model" ? `Policy ${request.policy} needs a model; none is configured on this kiosk.` : `Policy ${request.policy} is not available in this build.`);
    }
    const { pack, store } = this.options;
    const { selection } = request;
    const { spec, generation } = selection.kind === "generated" ? this.generate(selection) : { spec: selectionSpec(pack, selection), generation: null };
    let cases;
    try {
      cases = selectCases(pack, spec).cases;
    } catch (err) {
      throw new OperatorError("rejected", err instanceof Error ? err.message : String(err));
    }
    const tallies = new Map<string, CategoryTally>();
    for (const c of cases) {
      const t = tallies.get(c.category) ?? { total: 0, done: 0, scored: 0, tier1Sum: 0, compositeSum: 0 };
      t.total++;
      tallies.set(c.category, t);
    }
    const controller = new AbortController();
    const view: BenchJob = {
      runId: null,
      state: "starting",
      policy: request.policy,
      model: MODEL_POLICIES.has(request.policy) ? (this.options.model ?? null) : null,
      selection: request.selection,
      startedBy: request.operator,
      startedAt: this.clock().toISOString(),
      total: cases.length,
      done: 0,
      scored: 0,
      tier1: null,
      composite: null,
      elapsedMs: 0,
      categories: [],
      error: null,
      ...(generation ? { generation } : {}),
    };
    const job: Job = { view, controller, tallies, compositeSum: 0, promise: Promise.resolve() };
    this.job = job;
    this.refreshCategories(job);
    this.options.setBenchRunning(true);
    const t0 = this.now();
    job.promise = startRun({
      pack,
      store,
      policy: request.policy,
      policyOptions: MODEL_POLICIES.has(request.policy) && this.options.model ? { model: this.options.model } : {},
      selection: spec,
      concurrency: this.options.concurrency ?? 1,
      signal: controller.signal,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      onStart: (info) => {
        view.runId = info.runId;
        view.state = "running";
        view.model = info.model;
        this.log(`run ${info.runId} started by ${request.operator}: ${request.policy}, ${info.total} cases; passengers are refused until it ends`);
      },
      onProgress: (p) => this.update(job, p),
    })
      .then((outcome: RunOutcome) => {
        view.state = outcome.status === "finished" ? "finished" : "interrupted";
        view.runId = outcome.runId;
      })
      .catch((err: unknown) => {
        view.state = "failed";
        view.error = err instanceof Error ? err.message : String(err);
        this.log(`run ${view.runId ?? "(not started)"} failed: ${view.error}`);
      })
      .finally(() => {
        view.elapsedMs = this.now() - t0;
        this.options.setBenchRunning(false);
        this.log(`run ${view.runId ?? "-"} ${view.state} (${view.done}/${view.total} cases); serving passengers again`);
      });
    return { ...view, categories: [...view.categories] };
  }

  private update(job: Job, p: RunProgress): void {
    const { view } = job;
    view.state = "running";
    view.runId = p.runId;
    view.done = p.done;
    view.scored = p.scored;
    view.tier1 = p.tier1Mean;
    view.elapsedMs = p.elapsedMs;
    const last = p.last;
    if (last) {
      const t = job.tallies.get(last.kase.category);
      if (t) {
        t.done++;
        if (last.score) {
          t.scored++;
          t.tier1Sum += last.score.tier1_pct;
          t.compositeSum += last.score.pct;
        }
      }
      if (last.score) job.compositeSum += last.score.pct;
      view.composite = mean(job.compositeSum, p.scored);
    }
    this.refreshCategories(job);
  }

  private refreshCategories(job: Job): void {
    job.view.categories = CATEGORIES.filter((c) => job.tallies.has(c)).map((category): BenchCategoryProgress => {
      const t = job.tallies.get(category)!;
      return { category, total: t.total, done: t.done, scored: t.scored, tier1: mean(t.tier1Sum, t.scored), composite: mean(t.compositeSum, t.scored) };
    });
  }

  status(): BenchStatus {
    const view = this.job?.view ?? null;
    return { job: view ? { ...view, categories: view.categories.map((c) => ({ ...c })) } : null, runs: this.recentRuns() };
  }

  stop(): BenchStatus {
    if (this.running) {
      this.job!.controller.abort(new Error("stopped by the technician"));
      this.log(`run ${this.job!.view.runId ?? "-"}: stop requested`);
    }
    return this.status();
  }

  private recentRuns(): BenchRunSummary[] {
    const { store } = this.options;
    return store
      .listRuns()
      .sort((a, b) => b.id - a.id)
      .slice(0, RECENT_RUNS)
      .map((r) => ({
        runId: r.id,
        status: r.status,
        policy: r.policy,
        model: r.model,
        startedAt: r.startedAt,
        casesTotal: r.casesTotal,
        casesDone: r.casesDone,
        casesScored: r.casesScored,
        systems: [...(store.getRun(r.id)?.selection.selectedSystems ?? [])] as SystemId[],
        ...coverageFields(store.getRun(r.id)?.selection),
      }));
  }

  private requireRun(runId: number) {
    const run = this.options.store.getRun(runId);
    if (!run) throw new OperatorError("rejected", `There is no bench run ${runId}.`);
    return run;
  }

  report(runId: number): BenchReport {
    this.requireRun(runId);
    try {
      return { runId, html: renderReportHtml(buildReport(this.options.store, runId), { traces: caseTraces(this.options.store, runId) }) };
    } catch (err) {
      if (err instanceof RunNotFoundError || err instanceof BenchError) throw new OperatorError("rejected", err.message);
      throw err;
    }
  }

  exportRun(runId: number, format: "summary" | "reference", system?: SystemId): BenchExport {
    const { store } = this.options;
    const run = this.requireRun(runId);
    if (format === "summary") {
      const { cases, summary } = summarizeStoredRun(store, run);
      const figures = headlineFigures(summary);
      const content = {
        run_id: run.id,
        status: run.status,
        policy: run.policy,
        model: run.model,
        judge: run.judge,
        started_at: run.startedAt,
        finished_at: run.finishedAt,
        wall_ms: run.wallMs,
        selection: run.selection,
        cases_total: run.casesTotal,
        overall: figures.overall,
        systems: figures.systems,
        cases: cases.map((c) => ({
          case_id: c.caseId,
          system: c.system,
          category: c.category,
          partition: c.partition,
          termination: c.termination,
          scored: c.scored,
          tier1_pct: c.tier1Pct,
          pct: c.pct,
          note: c.scoreNote,
        })),
      };
      return { fileName: `bench-run-${run.id}-summary.json`, mediaType: "application/json", content: `${JSON.stringify(content, null, 2)}\n` };
    }
    const files = referenceResults(store, run);
    const chosen = system ?? (files.size === 1 ? files.keys().next().value : undefined);
    if (!chosen) throw new OperatorError("rejected", `Run ${run.id} covers ${files.size} systems: choose one (${[...files.keys()].join(", ")}).`);
    const file = files.get(chosen);
    if (!file) throw new OperatorError("rejected", `Run ${run.id} has no cases of ${chosen}.`);
    return { fileName: `bench-run-${run.id}-${chosen}.json`, mediaType: "application/json", content: `${JSON.stringify(file, null, 2)}\n` };
  }

  async latencyProbe(): Promise<LatencyProbeResult> {
    const model = this.options.model;
    if (!model) return { available: false, reason: "no_model" };
    const probe = this.options.probe;
    if (!probe) return { available: false, reason: "not_built" };
    if (this.running || this.probing) throw new OperatorError("conflict", "A bench run is already in progress.");
    this.probing = true;
    this.options.setBenchRunning(true);
    try {
      return await probe(model);
    } finally {
      this.probing = false;
      this.options.setBenchRunning(false);
    }
  }
}
