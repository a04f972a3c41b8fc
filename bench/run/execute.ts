// A bench run end to end: select the cases, record the run, replay and score them through the pool,
// store each case as it finishes, and leave the run finished, interrupted (aborted: resumable) or
// failed. `resumeRun` continues a stored run with its own policy, options and selection, skipping
// the cases already stored.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case } from "../../tools/data/schemas.ts";
import type { CaseRunOptions } from "../../runtime/session/case.ts";
import { BenchError } from "../errors.ts";
import { createJudge, type DisposableJudge, type JudgeOptions } from "../judges.ts";
import { createPolicy, type PolicyHandle, type PolicyOptions } from "../policies.ts";
import { noJudge } from "../scorer/index.ts";
import type { RunStatus } from "../store/schema.ts";
import type { BenchStore, NewRun, RunRow, StoredCase } from "../store/store.ts";
import { gitRevision, hardwareInfo } from "./environment.ts";
import { runCases, type CaseResult, type ScoringSetup } from "./runner.ts";
import { partitioner, reloadSelection, selectCases, type SelectionSpec } from "./select.ts";

export interface RunProgress {
  runId: number;
  total: number;
  /** Cases stored for the run, earlier sessions included. */
  done: number;
  /** Cases finished by this session. */
  ranNow: number;
  scored: number;
  /** Mean per-case Tier 1 over the scored cases so far (null before the first). */
  tier1Mean: number | null;
  elapsedMs: number;
  last?: CaseResult;
}

export interface RunStartInfo {
  runId: number;
  resumed: boolean;
  total: number;
  alreadyDone: number;
  policy: string;
  model: string;
  concurrency: number;
}

interface CommonOptions {
  pack: DataPack;
  store: BenchStore;
  /** Cases in flight at once (default 1). */
  concurrency?: number;
  signal?: AbortSignal;
  onStart?: (info: RunStartInfo) => void;
  onProgress?: (progress: RunProgress) => void;
  caseOptions?: Omit<CaseRunOptions, "signal">;
  /**
   * Store cases from a writer thread (a file database only), so that SQLite works beside the
   * replay: for a one-off process such as `kiosk bench run` on a machine with a core to spare.
   */
  storeInBackground?: boolean;
  /**
   * The caller will write the run's results files (--out): a writer thread keeps each case's
   * record for them, so that startReferenceResults can hand the writing to it.
   */
  resultsFilesNext?: boolean;
  /** Monotonic ms and wall clock (injectable for tests). */
  now?: () => number;
  clock?: () => Date;
}

export interface StartRunOptions extends CommonOptions {
  policy: string;
  policyOptions?: PolicyOptions;
  selection: SelectionSpec;
  /** Judge name (bench/judges.ts); default "none". */
  judge?: string;
  /** The judge's options (--judge-model, --judge-base-url, --judge-threads). */
  judgeOptions?: JudgeOptions;
  /** Score cases as they finish (default true). */
  score?: boolean;
  /** One of several repeated trials (bench run --trials). */
  trial?: NewRun["trial"];
}

export interface ResumeRunOptions extends CommonOptions {
  runId: number;
}

export interface RunOutcome {
  runId: number;
  status: RunStatus;
  casesTotal: number;
  casesDone: number;
  ranNow: number;
  /** Sessions cut short by an interruption (they run again on resume). */
  dropped: number;
  wallMs: number;
  /** Cases of this session that were not scored, and why. */
  unscored: { caseId: string; note: string }[];
  /** Things worth telling the user (e.g. a changed data pack on resume). */
  warnings: string[];
  /**
   * Every stored case of the run in run order, as BenchStore.cases reads them (those stored
   * before a resume and this session's): the summary's input, without reading them back.
   */
  storedCases: StoredCase[];
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function startRun(options: StartRunOptions): Promise<RunOutcome> {
  const { pack, store } = options;
  // Asked now, answered while the cases load; recorded with the session's end.
  void gitRevision();
  const selected = selectCases(pack, options.selection);
  const judgeName = options.judge ?? "none";
  const judgeOptions = Object.fromEntries(Object.entries(options.judgeOptions ?? {}).filter(([, v]) => v !== undefined)) as JudgeOptions;
  const judge = await createJudge(judgeName, judgeOptions);
  let handle: PolicyHandle | undefined;
  try {
    const created = await createPolicy(options.policy, options.policyOptions ?? {});
    handle = created.handle;
    const { factory, options: policyOptions } = created;
    const clock = options.clock ?? (() => new Date());
    const runId = store.createRun({
      policy: factory.name,
      model: handle.model,
      policyOptions,
      policySettings: handle.settings ?? {},
      deterministic: factory.deterministic,
      judge: judgeName,
      judgeOptions,
      judgeSettings: judge.settings ?? {},
      score: options.score ?? true,
      selection: selected.selection,
      startedAt: clock().toISOString(),
      dataRoot: pack.root,
      upstreamCommit: pack.upstreamCommit() ?? null,
      casesChecksums: selected.checksums,
      // Recorded when the session ends (BenchStore.recordRevision), git having answered by then.
      gitCommit: null,
      gitDirty: null,
      hardware: hardwareInfo(),
      ...(options.trial ? { trial: options.trial } : {}),
    });
    return await execute(options, store.requireRun(runId), selected.cases, handle, scoringSetup(pack, store, judge), "start", []);
  } finally {
    await handle?.dispose?.();
    await judge.dispose?.();
  }
}

function scoringSetup(pack: DataPack, store: BenchStore, judge: DisposableJudge): ScoringSetup {
  return judge === noJudge ? { judge } : { judge, cache: store.judgmentCache(), rubrics: pack.judgeRubrics() };
}

export async function resumeRun(options: ResumeRunOptions): Promise<RunOutcome> {
  const { pack, store } = options;
  const run = store.requireRun(options.runId);
  const warnings: string[] = [];
  if (run.status === "running") {
    const live = store.sessions(run.id).filter((s) => s.status === "running" && s.pid !== process.pid && pidAlive(s.pid));
    if (live.length > 0) throw new BenchError(`run ${run.id} is still running (process ${live.map((s) => s.pid).join(", ")}); stop it first`);
    warnings.push(`run ${run.id} was left 'running' by a process that is gone; resuming it`);
  }
  const upstream = pack.upstreamCommit() ?? null;
  if (upstream !== run.upstreamCommit) warnings.push(`the data pack's upstream commit is ${upstream ?? "unknown"}, the run started on ${run.upstreamCommit ?? "unknown"}`);
  if (!run.selection.casesFile && pack.root !== run.dataRoot) warnings.push(`data pack ${pack.root} (the run started with ${run.dataRoot})`);
  const cases = reloadSelection(pack, run.selection);
  const finished = finishedAlready(store, run, cases, warnings);
  if (finished) return finished;
  const judge = await createJudge(run.judge, run.judgeOptions as JudgeOptions);
  let handle: PolicyHandle | undefined;
  try {
    handle = (await createPolicy(run.policy, run.policyOptions as PolicyOptions)).handle;
    return await execute(options, run, cases, handle, scoringSetup(pack, store, judge), "resume", warnings);
  } finally {
    await handle?.dispose?.();
    await judge.dispose?.();
  }
}

/**
 * A finished run with every case stored has nothing to resume: it is left as it is (no new
 * session, its finish time and wall time untouched) and no policy is loaded for it.
 */
function finishedAlready(store: BenchStore, run: RunRow, cases: readonly Case[], warnings: string[]): RunOutcome | null {
  if (run.status !== "finished") return null;
  const stored = store.cases(run.id);
  const storedIds = new Set(stored.map((c) => c.caseId));
  if (!cases.every((c) => storedIds.has(c.id))) return null;
  return {
    runId: run.id,
    status: "finished",
    casesTotal: run.casesTotal,
    casesDone: storedIds.size,
    ranNow: 0,
    dropped: 0,
    wallMs: 0,
    unscored: [],
    warnings: [...warnings, `run ${run.id} had already finished with all ${storedIds.size} cases stored: nothing ran and the run is unchanged`],
    storedCases: stored,
  };
}

async function execute(
  options: CommonOptions,
  run: RunRow,
  cases: readonly Case[],
  handle: PolicyHandle,
  scoring: ScoringSetup,
  kind: "start" | "resume",
  warnings: string[],
): Promise<RunOutcome> {
  const { pack, store } = options;
  const now = options.now ?? (() => performance.now());
  const clock = options.clock ?? (() => new Date());
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const seqOf = new Map(run.selection.selectedIds.map((id, i) => [id, i]));
  const partitionOf = partitioner(pack);

  // What is stored already (a resume skips those cases).
  const stored = store.cases(run.id);
  const storedIds = new Set(stored.map((c) => c.caseId));
  const todo = cases.filter((c) => !storedIds.has(c.id));
  let tier1Sum = 0;
  let scored = 0;
  for (const c of stored) {
    if (c.tier1Pct !== null) {
      tier1Sum += c.tier1Pct;
      scored++;
    }
  }

  const revision = gitRevision();
  const sessionId = store.startSession(run.id, { kind, startedAt: clock().toISOString(), concurrency, pid: process.pid, gitCommit: null, hardware: hardwareInfo() });
  store.updateRun(run.id, { status: "running" });
  options.onStart?.({ runId: run.id, resumed: kind === "resume", total: run.casesTotal, alreadyDone: stored.length, policy: run.policy, model: run.model, concurrency });

  const t0 = now();
  let done = stored.length;
  let ranNow = 0;
  const unscored: { caseId: string; note: string }[] = [];
  const finish = async (status: RunStatus, error: string | null): Promise<number> => {
    const wallMs = now() - t0;
    const at = clock().toISOString();
    store.recordRevision(run.id, sessionId, await revision, kind === "start");
    store.finishSession(sessionId, { status, finishedAt: at, casesRun: ranNow, wallMs });
    store.updateRun(run.id, { status, finishedAt: status === "finished" ? at : null, addWallMs: wallMs, error });
    return wallMs;
  };
  options.onProgress?.({ runId: run.id, total: run.casesTotal, done, ranNow, scored, tier1Mean: scored > 0 ? tier1Sum / scored : null, elapsedMs: 0 });

  const storedCases = [...stored];
  const writer = store.caseWriter(run.id, { background: options.storeInBackground ?? false, keepResults: options.resultsFilesNext ?? false });
  let outcome;
  try {
    outcome = await runCases({
      pack,
      cases: todo,
      policy: handle.policy,
      ...(handle.answerCase ? { answerCase: handle.answerCase } : {}),
      // Models are never marked deterministic (bench/model-policies.ts); the deterministic policies are rule policies.
      decidedBy: run.deterministic ? "rule" : "model",
      concurrency,
      ...(options.signal ? { signal: options.signal } : {}),
      scoring: run.score ? scoring : null,
      ...(options.caseOptions ? { caseOptions: options.caseOptions } : {}),
      onResult: (result) => {
        const { kase, record, score } = result;
        const storedCase = writer.add({
          seq: seqOf.get(kase.id) ?? run.selection.selectedIds.length,
          sessionId,
          partition: partitionOf(kase.id),
          category: kase.category,
          system: kase.system,
          record,
          score,
          scoreNote: result.scoreNote,
          scoreMs: result.scoreMs,
          finishedAt: clock().toISOString(),
        });
        storedCases.push(storedCase);
        done++;
        ranNow++;
        if (score) {
          tier1Sum += score.tier1_pct;
          scored++;
        } else if (result.scoreNote) unscored.push({ caseId: kase.id, note: result.scoreNote });
        options.onProgress?.({ runId: run.id, total: run.casesTotal, done, ranNow, scored, tier1Mean: scored > 0 ? tier1Sum / scored : null, elapsedMs: now() - t0, last: result });
      },
    });
  } catch (err) {
    writer.close();
    await finish("failed", err instanceof Error ? err.message : String(err));
    throw err;
  }
  writer.close();
  const status: RunStatus = outcome.aborted ? "interrupted" : "finished";
  const wallMs = await finish(status, null);
  // In run order, as cases() reads them: concurrent cases finish out of order.
  storedCases.sort((a, b) => a.seq - b.seq);
  return { runId: run.id, status, casesTotal: run.casesTotal, casesDone: done, ranNow, dropped: outcome.dropped, wallMs, unscored, warnings, storedCases };
}
