// Replaying cases through the session engine with an async pool, scoring each as it finishes.
// Knows nothing of storage: every finished case goes to `onResult` (which stores it), in
// completion order. An abort stops scheduling and aborts the sessions in flight; their partial
// records are dropped, so a resume runs them again from the start.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case } from "../../tools/data/schemas.ts";
import { interlockOf, kioskVerdict } from "../../runtime/answer/verdict.ts";
import { caseTurns, runCase, type CaseRunOptions } from "../../runtime/session/case.ts";
import type { Policy } from "../../runtime/session/policy.ts";
import { toReferenceRecord, type KioskVerdict, type SessionRecord } from "../../runtime/session/record.ts";
import { noJudge, scoreCase, scoreCaseNoJudge, type CaseScore, type Judge, type JudgmentCache } from "../scorer/index.ts";
import { missingAnswerKey } from "./select.ts";

export interface ScoringSetup {
  judge: Judge;
  cache?: JudgmentCache;
  /** The pack's judge-rubrics.json (needed by any judge but `noJudge`). */
  rubrics?: unknown;
}

export interface CaseResult {
  kase: Case;
  record: SessionRecord;
  /** Null when not scored: see `scoreNote`. */
  score: CaseScore | null;
  scoreNote: string | null;
  scoreMs: number;
}

/** Answers one case as a whole (the kiosk's answer pipeline: `--policy hybrid`). */
export type CaseAnswerer = (pack: DataPack, kase: Case, options: { signal: AbortSignal }) => Promise<SessionRecord>;

export interface RunCasesOptions {
  pack: DataPack;
  cases: readonly Case[];
  /** The policy each case's session runs (the benchmark's loop) … */
  policy: Policy;
  /** … unless the cases are answered as a whole: then this, and `policy` is not run directly. */
  answerCase?: CaseAnswerer;
  /** Who answers with `policy`, for the kiosk's verdict on its records (default: rule). */
  decidedBy?: "rule" | "model";
  /** Cases in flight at once (default 1). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Score each case as it finishes (null: do not score). */
  scoring: ScoringSetup | null;
  caseOptions?: Omit<CaseRunOptions, "signal">;
  /** Called once per finished case, in completion order; a throw stops the run and is rethrown. */
  onResult: (result: CaseResult) => void | Promise<void>;
}

export interface RunCasesOutcome {
  completed: number;
  /** The run was aborted before every case finished. */
  aborted: boolean;
  /** Sessions cut short by the abort (not reported, to be run again). */
  dropped: number;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * What the kiosk would have done with a loop policy's answer (the pipeline's records carry their
 * own): the same interlock on the case's system, context and turns.
 */
export function withKioskVerdict(pack: DataPack, kase: Case, record: SessionRecord, decidedBy: KioskVerdict["decidedBy"]): SessionRecord {
  if (record.kiosk.verdict) return record;
  const interlock = interlockOf({ setup: { system: pack.system(kase.system), context: kase.system_context }, turns: caseTurns(kase), record });
  // Object.assign rather than spreads: the compiled CLI's spread helper copies by property
  // descriptors (scripts/build-node.ts), and both objects are the session's own.
  const kiosk = Object.assign({}, record.kiosk, { verdict: kioskVerdict(interlock, record, decidedBy) });
  return Object.assign({}, record, { kiosk });
}

/** Score one record, or say why it is not scored. Never throws. */
export async function scoreRecord(pack: DataPack, kase: Case, record: SessionRecord, scoring: ScoringSetup | null): Promise<{ score: CaseScore | null; scoreNote: string | null; scoreMs: number }> {
  if (!scoring) return { score: null, scoreNote: "not scored: the run was started with --no-score", scoreMs: 0 };
  const missing = missingAnswerKey(kase);
  if (missing.length > 0) return { score: null, scoreNote: `not scored: the case has no answer key (${missing.join(" and ")} absent)`, scoreMs: 0 };
  const t0 = performance.now();
  try {
    const system = pack.system(kase.system);
    const reference = toReferenceRecord(record);
    const score =
      scoring.judge === noJudge
        ? scoreCaseNoJudge(kase, reference, system)
        : await scoreCase(kase, reference, system, { judge: scoring.judge, ...(scoring.cache ? { cache: scoring.cache } : {}), rubrics: scoring.rubrics });
    return { score, scoreNote: score.flags.length > 0 ? score.flags.join("; ") : null, scoreMs: performance.now() - t0 };
  } catch (err) {
    return { score: null, scoreNote: `not scored: scoring failed: ${(err as Error).message}`, scoreMs: performance.now() - t0 };
  }
}

export async function runCases(options: RunCasesOptions): Promise<RunCasesOutcome> {
  const { pack, cases, policy } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  // Our own controller: the caller's abort, or a failure in one worker, stops every worker.
  const stop = new AbortController();
  const onOuterAbort = (): void => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });

  let next = 0;
  let completed = 0;
  let dropped = 0;
  let failure: { error: unknown } | undefined;

  const answer = (kase: Case): Promise<SessionRecord> =>
    // Object.assign, not a spread: the compiled CLI's spread helper copies by property descriptors (scripts/build-node.ts).
    options.answerCase ? options.answerCase(pack, kase, { signal: stop.signal }) : runCase(pack, kase, policy, Object.assign({ signal: stop.signal }, options.caseOptions));
  const worker = async (): Promise<void> => {
    while (!stop.signal.aborted && next < cases.length) {
      const kase = cases[next++] as Case;
      const answered = await answer(kase);
      if (stop.signal.aborted && answered.kiosk.termination === "aborted") {
        dropped++;
        continue;
      }
      const record = withKioskVerdict(pack, kase, answered, options.decidedBy ?? "rule");
      const scored = await scoreRecord(pack, kase, record, options.scoring);
      await options.onResult({ kase, record, score: scored.score, scoreNote: scored.scoreNote, scoreMs: scored.scoreMs });
      completed++;
      // Deterministic policies never wait on I/O: let signals, timers and the progress bar run.
      await yieldToEventLoop();
    }
  };

  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, cases.length) }, () =>
        worker().catch((error: unknown) => {
          failure ??= { error };
          stop.abort(error);
        }),
      ),
    );
  } finally {
    options.signal?.removeEventListener("abort", onOuterAbort);
  }
  if (failure) throw failure.error;
  return { completed, aborted: completed < cases.length, dropped };
}
