// The bench database (SQLite, WAL): every run's metadata, each start/resume session, and per case
// the full transcript (SessionRecord: the reference record in transcript_json, our additions in
// kiosk_json), its score (CaseScore) and key columns for queries. Also the judge's cache.
// Default file: $METRO_BENCH_DB, else ./var/bench.sqlite.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { KioskVerdict, ReferenceRecord, SessionRecord } from "../../runtime/session/record.ts";
import type { CaseScore, Judgment, JudgmentCache } from "../scorer/index.ts";
import type { TerminationCounts } from "../stats/terminations.ts";
import { caseFacts, caseRowValues, INSERT_CASE_SQL, serialiseCaseDocuments, type PreparedCase } from "./case-columns.ts";
import { caseParts, storedCaseOf } from "./case-row.ts";
import { CaseWriterThread } from "./case-writer.ts";
import type { ResultsFileRequest } from "./case-writer-protocol.ts";
import { applyConnectionSettings } from "./connection.ts";
import { BenchError } from "../errors.ts";
import {
  CasePartitionSchema,
  HardwareSchema,
  MIGRATIONS,
  RunSelectionSchema,
  RunStatusSchema,
  SCHEMA_VERSION,
  type CasePartition,
  type Hardware,
  type RunSelection,
  type RunStatus,
} from "./schema.ts";

export const BENCH_DB_ENV = "METRO_BENCH_DB";
export const DEFAULT_BENCH_DB = path.join("var", "bench.sqlite");

/** --db, else $METRO_BENCH_DB, else ./var/bench.sqlite. */
export function benchDbPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? env[BENCH_DB_ENV] ?? DEFAULT_BENCH_DB;
}

export interface NewRun {
  policy: string;
  model: string;
  policyOptions: Record<string, unknown>;
  policySettings: Record<string, unknown>;
  deterministic: boolean;
  judge: string;
  /** The judge's options as given (--judge-model, …), for resume; default {}. */
  judgeOptions?: Record<string, unknown>;
  /** What the judge reported about itself (model file, endpoint); default {}. */
  judgeSettings?: Record<string, unknown>;
  score: boolean;
  selection: RunSelection;
  startedAt: string;
  dataRoot: string;
  upstreamCommit: string | null;
  /** Case file → SHA-256 (12 hex) of the files the selected cases came from. */
  casesChecksums: Record<string, string>;
  gitCommit: string | null;
  gitDirty: boolean | null;
  hardware: Hardware;
  /** One of `of` repeated trials (bench run --trials); `set` is the first trial's run id (null: this run is the first). */
  trial?: { set: number | null; index: number; of: number } | null;
}

/** A run's place in a set of repeated trials. */
export interface RunTrial {
  set: number;
  index: number;
  of: number;
}

export interface RunRow extends Omit<NewRun, "trial"> {
  trial: RunTrial | null;
  id: number;
  judgeOptions: Record<string, unknown>;
  judgeSettings: Record<string, unknown>;
  casesTotal: number;
  status: RunStatus;
  finishedAt: string | null;
  wallMs: number;
  error: string | null;
}

export interface RunListRow {
  id: number;
  policy: string;
  model: string;
  judge: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  casesTotal: number;
  casesDone: number;
  casesScored: number;
  wallMs: number;
}

export interface SessionRow {
  id: number;
  runId: number;
  kind: "start" | "resume";
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  concurrency: number;
  casesRun: number;
  wallMs: number;
  pid: number;
  gitCommit: string | null;
  hardware: Hardware;
}

/** One case of a run as stored (the key columns; the transcript and score are parsed on demand). */
export interface StoredCase {
  caseId: string;
  seq: number;
  system: string;
  category: string;
  partition: CasePartition;
  termination: string;
  error: string | null;
  fallback: boolean;
  rejectedSubmissions: number;
  apiRounds: number;
  toolCalls: number;
  e2eMs: number;
  ttftMs: number;
  inputTokens: number;
  outputTokens: number;
  scored: boolean;
  total: number | null;
  maxPossible: number | null;
  pct: number | null;
  tier1Total: number | null;
  tier1Max: number | null;
  tier1Pct: number | null;
  scoreNote: string | null;
  scoreMs: number;
  finishedAt: string;
  /** terminationCounts of this case's record alone (the counts add up over cases). */
  ending: TerminationCounts;
}

export interface StoredCaseFull extends StoredCase {
  record: SessionRecord;
  score: CaseScore | null;
}

/** Stores a run's finished cases (BenchStore.caseWriter). */
export interface CaseWriter {
  /**
   * Store a finished case; it must not change afterwards (a writer thread reads it a little later).
   * Returns the case as `cases()` will read it back once committed.
   */
  add(c: CaseInsert): StoredCase;
  /** Commit what is pending. */
  flush(): void;
  /** Commit what is pending and release the writer. */
  close(): void;
}

export interface CaseInsert {
  seq: number;
  sessionId: number | null;
  partition: CasePartition;
  category: string;
  system: string;
  record: SessionRecord;
  score: CaseScore | null;
  scoreNote: string | null;
  scoreMs: number;
  finishedAt: string;
}

/** No run with that id (or no runs at all). */
export class RunNotFoundError extends BenchError {
  override name = "RunNotFoundError";
}

type Row = Record<string, unknown>;

const str = (v: unknown): string => String(v);
const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => Number(v);
const optNum = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const json = (v: unknown): unknown => JSON.parse(String(v));

const CASE_COLUMNS = `case_id, seq, system, category, partition, termination, error, fallback, rejected_submissions,
  api_rounds, tool_calls, e2e_ms, ttft_ms, input_tokens, output_tokens, scored, total, max_possible, pct,
  tier1_total, tier1_max, tier1_pct, score_note, score_ms, finished_at, ending_json`;

function toStoredCase(r: Row): StoredCase {
  return {
    caseId: str(r["case_id"]),
    seq: num(r["seq"]),
    system: str(r["system"]),
    category: str(r["category"]),
    partition: CasePartitionSchema.parse(r["partition"]),
    termination: str(r["termination"]),
    error: optStr(r["error"]),
    fallback: r["fallback"] === 1,
    rejectedSubmissions: num(r["rejected_submissions"]),
    apiRounds: num(r["api_rounds"]),
    toolCalls: num(r["tool_calls"]),
    e2eMs: num(r["e2e_ms"]),
    ttftMs: num(r["ttft_ms"]),
    inputTokens: num(r["input_tokens"]),
    outputTokens: num(r["output_tokens"]),
    scored: r["scored"] === 1,
    total: optNum(r["total"]),
    maxPossible: optNum(r["max_possible"]),
    pct: optNum(r["pct"]),
    tier1Total: optNum(r["tier1_total"]),
    tier1Max: optNum(r["tier1_max"]),
    tier1Pct: optNum(r["tier1_pct"]),
    scoreNote: optStr(r["score_note"]),
    scoreMs: num(r["score_ms"]),
    finishedAt: str(r["finished_at"]),
    ending: json(r["ending_json"]) as TerminationCounts,
  };
}

function toRunRow(r: Row): RunRow {
  return {
    id: num(r["id"]),
    policy: str(r["policy"]),
    model: str(r["model"]),
    policyOptions: json(r["policy_options_json"]) as Record<string, unknown>,
    policySettings: json(r["policy_settings_json"]) as Record<string, unknown>,
    deterministic: r["deterministic"] === 1,
    judge: str(r["judge"]),
    judgeOptions: json(r["judge_options_json"]) as Record<string, unknown>,
    judgeSettings: json(r["judge_settings_json"]) as Record<string, unknown>,
    score: r["score"] === 1,
    selection: RunSelectionSchema.parse(json(r["selection_json"])),
    casesTotal: num(r["cases_total"]),
    status: RunStatusSchema.parse(r["status"]),
    startedAt: str(r["started_at"]),
    finishedAt: optStr(r["finished_at"]),
    wallMs: num(r["wall_ms"]),
    dataRoot: str(r["data_root"]),
    upstreamCommit: optStr(r["upstream_commit"]),
    casesChecksums: json(r["cases_checksums_json"]) as Record<string, string>,
    gitCommit: optStr(r["git_commit"]),
    gitDirty: r["git_dirty"] === null ? null : r["git_dirty"] === 1,
    hardware: HardwareSchema.parse(json(r["hardware_json"])),
    error: optStr(r["error"]),
    trial: r["trial_set"] === null || r["trial_set"] === undefined ? null : { set: num(r["trial_set"]), index: num(r["trial"]), of: num(r["trials"]) },
  };
}

export class BenchStore {
  readonly db: Database.Database;

  private constructor(readonly file: string) {
    if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    // A new database gets 16 KiB pages: a case's transcript (~15 KB) then spans one or two pages,
    // not four or five. (No effect on an existing database.)
    this.db.pragma("page_size = 16384");
    this.db.pragma("journal_mode = WAL");
    applyConnectionSettings(this.db);
    this.migrate();
  }

  /** Open (creating if needed) and migrate the database at `file` (":memory:" for tests). */
  static open(file: string): BenchStore {
    return new BenchStore(file);
  }

  close(): void {
    if (!this.db.open) return;
    // Cases a caseWriter has not committed yet are kept; a writer thread's failure is thrown
    // once the database is closed.
    let failure: unknown;
    const threads = [...this.writerThreads.keys(), ...(this.preparedThread ? [this.preparedThread] : [])];
    for (const thread of threads) {
      try {
        thread.join();
      } catch (err) {
        failure ??= err;
      }
    }
    this.writerThreads.clear();
    this.preparedThread = undefined;
    if (this.db.inTransaction) this.db.exec("COMMIT");
    this.db.close();
    if (failure !== undefined) throw failure;
  }

  get schemaVersion(): number {
    return Number(this.db.pragma("user_version", { simple: true }));
  }

  private migrate(): void {
    const current = this.schemaVersion;
    if (current > SCHEMA_VERSION) {
      throw new BenchError(`bench database ${this.file} has schema v${current}, newer than this kiosk's v${SCHEMA_VERSION}; use a newer kiosk or another --db`);
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db.pragma(`user_version = ${m.version}`);
      })();
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Runs and sessions.

  createRun(run: NewRun): number {
    const info = this.db
      .prepare(
        `INSERT INTO runs (policy, model, policy_options_json, policy_settings_json, deterministic, judge, judge_options_json, judge_settings_json,
           score, selection_json, cases_total, status, started_at, data_root, upstream_commit, cases_checksums_json, git_commit, git_dirty, hardware_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        run.policy,
        run.model,
        JSON.stringify(run.policyOptions),
        JSON.stringify(run.policySettings),
        run.deterministic ? 1 : 0,
        run.judge,
        JSON.stringify(run.judgeOptions ?? {}),
        JSON.stringify(run.judgeSettings ?? {}),
        run.score ? 1 : 0,
        JSON.stringify(run.selection),
        run.selection.selectedIds.length,
        run.startedAt,
        run.dataRoot,
        run.upstreamCommit,
        JSON.stringify(run.casesChecksums),
        run.gitCommit,
        run.gitDirty === null ? null : run.gitDirty ? 1 : 0,
        JSON.stringify(run.hardware),
      );
    const id = Number(info.lastInsertRowid);
    if (run.trial) this.db.prepare("UPDATE runs SET trial_set = ?, trial = ?, trials = ? WHERE id = ?").run(run.trial.set ?? id, run.trial.index, run.trial.of, id);
    return id;
  }

  /** The runs of a trial set, by trial number. */
  trialRuns(set: number): RunRow[] {
    return (this.db.prepare("SELECT * FROM runs WHERE trial_set = ? ORDER BY trial, id").all(set) as Row[]).map(toRunRow);
  }

  getRun(id: number): RunRow | undefined {
    const row = this.db.prepare("SELECT * FROM runs WHERE id = ?").get(id) as Row | undefined;
    return row ? toRunRow(row) : undefined;
  }

  /** The run with that id; without one, the latest run. Throws RunNotFoundError. */
  requireRun(id?: number): RunRow {
    if (id === undefined) {
      const latest = this.db.prepare("SELECT id FROM runs ORDER BY id DESC LIMIT 1").get() as Row | undefined;
      if (!latest) throw new RunNotFoundError(`no runs stored in ${this.file} (start one with 'kiosk bench run')`);
      return this.requireRun(num(latest["id"]));
    }
    const run = this.getRun(id);
    if (!run) throw new RunNotFoundError(`no run ${id} in ${this.file} (see 'kiosk bench list')`);
    return run;
  }

  /** Set a run's status; `addWallMs` accumulates the wall time of a session. */
  updateRun(id: number, update: { status: RunStatus; finishedAt?: string | null; addWallMs?: number; error?: string | null }): void {
    this.db
      .prepare(
        `UPDATE runs SET status = ?, finished_at = COALESCE(?, finished_at), wall_ms = wall_ms + ?, error = ? WHERE id = ?`,
      )
      .run(update.status, update.finishedAt ?? null, update.addWallMs ?? 0, update.error ?? null, id);
  }

  /** The latest finished run's Tier 1 mean over its scored cases (the fleet heartbeat); null when no run finished. */
  latestTier1(): { runId: number; policy: string; finishedAt: string | null; tier1Pct: number | null; casesScored: number } | null {
    const r = this.db
      .prepare(
        `SELECT r.id, r.policy, r.finished_at, AVG(c.tier1_pct) AS tier1, COUNT(c.tier1_pct) AS scored
           FROM runs r LEFT JOIN run_cases c ON c.run_id = r.id
          WHERE r.status = 'finished' GROUP BY r.id ORDER BY r.id DESC LIMIT 1`,
      )
      .get() as Row | undefined;
    if (!r) return null;
    return { runId: num(r["id"]), policy: str(r["policy"]), finishedAt: optStr(r["finished_at"]), tier1Pct: optNum(r["tier1"]), casesScored: num(r["scored"]) };
  }

  listRuns(): RunListRow[] {
    const rows = this.db
      .prepare(
        `SELECT r.id, r.policy, r.model, r.judge, r.status, r.started_at, r.finished_at, r.cases_total, r.wall_ms,
                COUNT(c.case_id) AS done, COALESCE(SUM(c.scored), 0) AS scored
           FROM runs r LEFT JOIN run_cases c ON c.run_id = r.id
          GROUP BY r.id ORDER BY r.id`,
      )
      .all() as Row[];
    return rows.map((r) => ({
      id: num(r["id"]),
      policy: str(r["policy"]),
      model: str(r["model"]),
      judge: str(r["judge"]),
      status: RunStatusSchema.parse(r["status"]),
      startedAt: str(r["started_at"]),
      finishedAt: optStr(r["finished_at"]),
      casesTotal: num(r["cases_total"]),
      casesDone: num(r["done"]),
      casesScored: num(r["scored"]),
      wallMs: num(r["wall_ms"]),
    }));
  }

  startSession(runId: number, session: { kind: "start" | "resume"; startedAt: string; concurrency: number; pid: number; gitCommit: string | null; hardware: Hardware }): number {
    const info = this.db
      .prepare(
        `INSERT INTO run_sessions (run_id, kind, status, started_at, concurrency, pid, git_commit, hardware_json)
         VALUES (?, ?, 'running', ?, ?, ?, ?, ?)`,
      )
      .run(runId, session.kind, session.startedAt, session.concurrency, session.pid, session.gitCommit, JSON.stringify(session.hardware));
    return Number(info.lastInsertRowid);
  }

  /**
   * The source revision a session ran, and for the session that started its run the run's too:
   * recorded when the session ends, by which time the git process asked at its start has answered
   * (waiting for it before the first case held a bench run up by 5–35 ms).
   */
  recordRevision(runId: number, sessionId: number, git: { commit: string | null; dirty: boolean | null }, ofRun: boolean): void {
    this.db.prepare("UPDATE run_sessions SET git_commit = ? WHERE id = ?").run(git.commit, sessionId);
    if (ofRun) this.db.prepare("UPDATE runs SET git_commit = ?, git_dirty = ? WHERE id = ?").run(git.commit, git.dirty === null ? null : git.dirty ? 1 : 0, runId);
  }

  finishSession(id: number, update: { status: RunStatus; finishedAt: string; casesRun: number; wallMs: number }): void {
    this.db
      .prepare("UPDATE run_sessions SET status = ?, finished_at = ?, cases_run = ?, wall_ms = ? WHERE id = ?")
      .run(update.status, update.finishedAt, update.casesRun, update.wallMs, id);
  }

  sessions(runId: number): SessionRow[] {
    const rows = this.db.prepare("SELECT * FROM run_sessions WHERE run_id = ? ORDER BY id").all(runId) as Row[];
    return rows.map((r) => ({
      id: num(r["id"]),
      runId: num(r["run_id"]),
      kind: r["kind"] === "resume" ? "resume" : "start",
      status: RunStatusSchema.parse(r["status"]),
      startedAt: str(r["started_at"]),
      finishedAt: optStr(r["finished_at"]),
      concurrency: num(r["concurrency"]),
      casesRun: num(r["cases_run"]),
      wallMs: num(r["wall_ms"]),
      pid: num(r["pid"]),
      gitCommit: optStr(r["git_commit"]),
      hardware: HardwareSchema.parse(json(r["hardware_json"])),
    }));
  }

  // ----------------------------------------------------------------------------------------------
  // Cases.

  private insertCaseStatement?: Database.Statement;

  /**
   * Per run, the reference-record JSON and verdict of the cases this store stored: --out (reference
   * ResultsJson) reuses the text instead of reading a run's ~15 MB back from the database.
   */
  private readonly storedText = new Map<number, Map<string, { transcriptJson: string; verdictJson: string | null }>>();

  /** Remember the text of a stored case that --out reuses (its transcript and verdict as stored). */
  private rememberText(runId: number, prepared: PreparedCase): void {
    let byCase = this.storedText.get(runId);
    if (!byCase) this.storedText.set(runId, (byCase = new Map()));
    byCase.set(prepared.caseId, { transcriptJson: prepared.transcriptJson, verdictJson: prepared.verdictJson });
  }

  /** Store one finished case (a second row for the same case is refused); returns it as `cases()` reads it back. */
  insertCase(runId: number, c: CaseInsert): StoredCase {
    const { key, documents } = caseParts(c);
    const prepared: PreparedCase = { ...key, ...serialiseCaseDocuments(documents) };
    this.insertCaseStatement ??= this.db.prepare(INSERT_CASE_SQL);
    try {
      this.insertCaseStatement.run(caseRowValues(runId, c, prepared));
    } catch (err) {
      // The message the case writer thread gives for a row it cannot store.
      throw new BenchError(`storing case ${key.caseId}: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.rememberText(runId, prepared);
    return storedCaseOf(caseFacts(c), key, documents.ending);
  }

  /** Case writer threads started by caseWriter({ background: true }) and not joined yet, with their run. */
  private readonly writerThreads = new Map<CaseWriterThread, number>();
  /** A case writer thread started ahead of its run (prepareCaseWriterThread), not taken yet. */
  private preparedThread: CaseWriterThread | undefined;

  /**
   * Start the thread that the next caseWriter({ background: true }) takes, now: its start-up (a
   * Node environment and SQLite, 110–150 ms on this project's 2-vCPU machine) then overlaps the
   * caller's own, such as a bench run's case selection, and it stores the first case as soon as
   * it comes instead of ending the run behind. A file database only; close() ends it if no
   * writer took it.
   */
  prepareCaseWriterThread(): void {
    if (this.file === ":memory:" || this.preparedThread) return;
    this.preparedThread = new CaseWriterThread(this.file);
  }

  /**
   * Store finished cases in transactions of about `commitEveryMs` of work each, not one per case
   * (a commit per case was most of a fast run's storage time). `flush()` commits what is pending;
   * `close()` also releases the writer; the bench closes it when a run stops, so a crash loses at
   * most the last uncommitted stretch, which a resume runs again.
   *
   * With `background` (a file database only) each case is serialised and stored by a writer
   * thread (case-writer.ts) beside the caller's. With `keepResults` too, that thread keeps each
   * case's results-file record for writeResultsInBackground (the caller is going to write --out
   * files); without it, --out text is read back from the database.
   */
  caseWriter(runId: number, options: { commitEveryMs?: number; now?: () => number; background?: boolean; keepResults?: boolean } = {}): CaseWriter {
    const commitEveryMs = options.commitEveryMs ?? 100;
    if (options.background && this.file !== ":memory:") {
      const keepResults = options.keepResults ?? false;
      const thread = this.preparedThread ?? new CaseWriterThread(this.file);
      this.preparedThread = undefined;
      thread.begin(runId, { commitEveryMs, keepResults });
      this.writerThreads.set(thread, runId);
      return {
        add: (c) => {
          const facts = caseFacts(c);
          const { key, documents } = caseParts(c);
          thread.store({ facts, key, documents });
          return storedCaseOf(facts, key, documents.ending);
        },
        flush: () => thread.flush(),
        close: () => thread.close(),
      };
    }
    const now = options.now ?? (() => performance.now());
    let openedAt: number | null = null;
    const flush = (): void => {
      if (openedAt === null) return;
      openedAt = null;
      if (this.db.inTransaction) this.db.exec("COMMIT");
    };
    return {
      add: (c) => {
        if (openedAt === null && !this.db.inTransaction) {
          this.db.exec("BEGIN");
          openedAt = now();
        }
        const stored = this.insertCase(runId, c);
        if (openedAt !== null && now() - openedAt >= commitEveryMs) flush();
        return stored;
      },
      flush,
      close: flush,
    };
  }

  /** The run's cases in run order (key columns only). */
  cases(runId: number): StoredCase[] {
    return (this.db.prepare(`SELECT ${CASE_COLUMNS} FROM run_cases WHERE run_id = ? ORDER BY seq`).all(runId) as Row[]).map(toStoredCase);
  }

  /** The run's cases in run order with their transcripts and scores. */
  casesWithRecords(runId: number): StoredCaseFull[] {
    const rows = this.db
      .prepare(`SELECT ${CASE_COLUMNS}, transcript_json, kiosk_json, score_json FROM run_cases WHERE run_id = ? ORDER BY seq`)
      .all(runId) as Row[];
    return rows.map((r) => ({
      ...toStoredCase(r),
      record: { ...(json(r["transcript_json"]) as ReferenceRecord), kiosk: json(r["kiosk_json"]) as SessionRecord["kiosk"] },
      score: r["score_json"] === null ? null : (json(r["score_json"]) as CaseScore),
    }));
  }

  /**
   * The run's reference records (the reference runner's result format) in run order, as the JSON
   * text stored, with the kiosk's verdict (JSON text) where the run recorded one: what --out files are made of, without parsing them.
   */
  referenceRecordsJson(runId: number): { caseId: string; system: string; json: string; failed: boolean; verdict: string | null }[] {
    const remembered = this.storedText.get(runId);
    if (remembered) {
      // The rows decide which cases and in what order; their text is taken from memory where this store stored it.
      const one = this.db.prepare("SELECT transcript_json, json_extract(kiosk_json, '$.verdict') AS verdict FROM run_cases WHERE run_id = ? AND case_id = ?");
      return this.resultKeys(runId).map((k) => {
        let text = remembered.get(k.caseId);
        if (!text) {
          const r = one.get(runId, k.caseId) as Row;
          text = { transcriptJson: str(r["transcript_json"]), verdictJson: r["verdict"] === null ? null : str(r["verdict"]) };
        }
        return { ...k, json: text.transcriptJson, verdict: text.verdictJson };
      });
    }
    const rows = this.db
      .prepare("SELECT case_id, system, transcript_json, error, json_extract(kiosk_json, '$.verdict') AS verdict FROM run_cases WHERE run_id = ? ORDER BY seq")
      .all(runId) as Row[];
    return rows.map((r) => ({ caseId: str(r["case_id"]), system: str(r["system"]), json: str(r["transcript_json"]), failed: r["error"] !== null, verdict: r["verdict"] === null ? null : str(r["verdict"]) }));
  }

  /** The run's cases in run order: what a results file needs to know besides their records. */
  resultKeys(runId: number): { caseId: string; system: string; failed: boolean }[] {
    const rows = this.db.prepare("SELECT case_id, system, error FROM run_cases WHERE run_id = ? ORDER BY seq").all(runId) as Row[];
    return rows.map((r) => ({ caseId: str(r["case_id"]), system: str(r["system"]), failed: r["error"] !== null }));
  }

  /**
   * Hand the writing of a run's results files to a writer thread of the run that kept the record
   * of every case in them (caseWriter's keepResults): the thread writes them while the caller goes
   * on, and `finish()` waits for them (throwing what went wrong). Undefined when no thread holds
   * them all (a resumed run, a writer without a thread): the caller writes the files itself.
   */
  writeResultsInBackground(runId: number, files: ResultsFileRequest[]): { finish: () => void } | undefined {
    const caseIds = files.flatMap((f) => f.caseIds);
    for (const [thread, threadRun] of this.writerThreads) {
      if (threadRun !== runId || !thread.holdsResults(caseIds)) continue;
      thread.writeResults(files);
      return { finish: () => thread.waitForResults() };
    }
    return undefined;
  }

  /** The run's cases in run order with their scores (no transcripts). */
  casesWithScores(runId: number): (StoredCase & { score: CaseScore | null })[] {
    const rows = this.db.prepare(`SELECT ${CASE_COLUMNS}, score_json FROM run_cases WHERE run_id = ? ORDER BY seq`).all(runId) as Row[];
    return rows.map((r) => ({ ...toStoredCase(r), score: r["score_json"] === null ? null : (json(r["score_json"]) as CaseScore) }));
  }

  /**
   * Per case id, the policy's own account of the session (SessionRecord.kiosk.policyInfo, e.g. the
   * hybrid router's path), read from the transcripts inside SQLite without parsing them whole.
   * Cases whose policy gave none are absent.
   */
  casePolicyInfo(runId: number): Map<string, Record<string, unknown>> {
    const rows = this.db
      .prepare(
        `SELECT case_id, json_extract(kiosk_json, '$.policyInfo') AS info FROM run_cases
          WHERE run_id = ? AND json_type(kiosk_json, '$.policyInfo') = 'object' ORDER BY seq`,
      )
      .all(runId) as Row[];
    return new Map(rows.map((r) => [str(r["case_id"]), json(r["info"]) as Record<string, unknown>]));
  }

  /** Per case id, the kiosk's verdict on the answer (SessionRecord.kiosk.verdict), read inside SQLite. */
  caseVerdicts(runId: number): Map<string, KioskVerdict> {
    const rows = this.db
      .prepare(
        `SELECT case_id, json_extract(kiosk_json, '$.verdict') AS verdict FROM run_cases
          WHERE run_id = ? AND json_type(kiosk_json, '$.verdict') = 'object' ORDER BY seq`,
      )
      .all(runId) as Row[];
    return new Map(rows.map((r) => [str(r["case_id"]), json(r["verdict"]) as KioskVerdict]));
  }

  /** The scores of a run's scored cases, in run order. */
  scores(runId: number): { caseId: string; system: string; partition: CasePartition; score: CaseScore }[] {
    const rows = this.db
      .prepare("SELECT case_id, system, partition, score_json FROM run_cases WHERE run_id = ? AND scored = 1 ORDER BY seq")
      .all(runId) as Row[];
    return rows.map((r) => ({
      caseId: str(r["case_id"]),
      system: str(r["system"]),
      partition: CasePartitionSchema.parse(r["partition"]),
      score: json(r["score_json"]) as CaseScore,
    }));
  }

  // ----------------------------------------------------------------------------------------------
  // Judge cache.

  /** A JudgmentCache over the `judgments` table (shared by every run in this database). */
  judgmentCache(): JudgmentCache & { readonly size: number } {
    const get = this.db.prepare("SELECT score, reason FROM judgments WHERE key = ?");
    const set = this.db.prepare(
      "INSERT OR REPLACE INTO judgments (key, judge, component, case_id, score, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const count = this.db.prepare("SELECT COUNT(*) FROM judgments").pluck();
    return {
      get: (key: string): Judgment | undefined => {
        const row = get.get(key) as Row | undefined;
        return row ? { score: num(row["score"]), reason: str(row["reason"]) } : undefined;
      },
      set: (key: string, value: Judgment): void => {
        // judgmentKey = judge|component|case|sha256(text)
        const [judge = "", component = "", caseId = ""] = key.split("|");
        set.run(key, judge, component, caseId, value.score, value.reason, new Date().toISOString());
      },
      get size() {
        return Number(count.get());
      },
    };
  }
}
