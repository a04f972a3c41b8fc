// The bench database's schema, as numbered migrations. `PRAGMA user_version` holds the applied
// version; opening a database applies the missing migrations in one transaction each, and refuses
// a database written by a newer kiosk.
import { z } from "zod";
import { SystemIdSchema } from "../../tools/data/schemas.ts";

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "runs, run sessions (each start or resume), per-case results, judge cache",
    sql: `
      CREATE TABLE runs (
        id                  INTEGER PRIMARY KEY AUTOINCREMENT,
        policy              TEXT    NOT NULL,
        model               TEXT    NOT NULL,
        policy_options_json TEXT    NOT NULL,
        policy_settings_json TEXT   NOT NULL,
        deterministic       INTEGER NOT NULL,
        judge               TEXT    NOT NULL,
        score               INTEGER NOT NULL,
        selection_json      TEXT    NOT NULL,
        cases_total         INTEGER NOT NULL,
        status              TEXT    NOT NULL CHECK (status IN ('running', 'finished', 'interrupted', 'failed')),
        started_at          TEXT    NOT NULL,
        finished_at         TEXT,
        wall_ms             REAL    NOT NULL DEFAULT 0,
        data_root           TEXT    NOT NULL,
        upstream_commit     TEXT,
        cases_checksums_json TEXT   NOT NULL,
        git_commit          TEXT,
        git_dirty           INTEGER,
        hardware_json       TEXT    NOT NULL,
        error               TEXT
      );

      CREATE TABLE run_sessions (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        kind          TEXT    NOT NULL CHECK (kind IN ('start', 'resume')),
        status        TEXT    NOT NULL CHECK (status IN ('running', 'finished', 'interrupted', 'failed')),
        started_at    TEXT    NOT NULL,
        finished_at   TEXT,
        concurrency   INTEGER NOT NULL,
        cases_run     INTEGER NOT NULL DEFAULT 0,
        wall_ms       REAL    NOT NULL DEFAULT 0,
        pid           INTEGER NOT NULL,
        git_commit    TEXT,
        hardware_json TEXT    NOT NULL
      );
      CREATE INDEX run_sessions_run ON run_sessions(run_id);

      CREATE TABLE run_cases (
        run_id               INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        case_id              TEXT    NOT NULL,
        seq                  INTEGER NOT NULL,
        session_id           INTEGER REFERENCES run_sessions(id),
        system               TEXT    NOT NULL,
        category             TEXT    NOT NULL,
        partition            TEXT    NOT NULL CHECK (partition IN ('holdout', 'train', 'none')),
        holdout              INTEGER GENERATED ALWAYS AS (partition = 'holdout') VIRTUAL,
        termination          TEXT    NOT NULL,
        error                TEXT,
        fallback             INTEGER NOT NULL,
        rejected_submissions INTEGER NOT NULL,
        api_rounds           INTEGER NOT NULL,
        tool_calls           INTEGER NOT NULL,
        e2e_ms               REAL    NOT NULL,
        ttft_ms              REAL    NOT NULL,
        input_tokens         INTEGER NOT NULL,
        output_tokens        INTEGER NOT NULL,
        tokens               INTEGER GENERATED ALWAYS AS (input_tokens + output_tokens) VIRTUAL,
        scored               INTEGER NOT NULL,
        total                REAL,
        max_possible         REAL,
        pct                  REAL,
        tier1_total          REAL,
        tier1_max            REAL,
        tier1_pct            REAL,
        score_note           TEXT,
        score_ms             REAL    NOT NULL,
        ending_json          TEXT    NOT NULL,
        transcript_json      TEXT    NOT NULL,
        score_json           TEXT,
        finished_at          TEXT    NOT NULL,
        PRIMARY KEY (run_id, case_id)
      );
      CREATE INDEX run_cases_seq ON run_cases(run_id, seq);
      CREATE INDEX run_cases_system_category ON run_cases(run_id, system, category);

      CREATE TABLE judgments (
        key        TEXT PRIMARY KEY,
        judge      TEXT NOT NULL,
        component  TEXT NOT NULL,
        case_id    TEXT NOT NULL,
        score      REAL NOT NULL,
        reason     TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    description: "runs record the judge's options (for resume) and settings (model file, endpoint)",
    sql: `
      ALTER TABLE runs ADD COLUMN judge_options_json  TEXT NOT NULL DEFAULT '{}';
      ALTER TABLE runs ADD COLUMN judge_settings_json TEXT NOT NULL DEFAULT '{}';
    `,
  },
  {
    version: 3,
    description: "repeated trials (bench run --trials k): a run's trial set (the first trial's id), its trial number and the set's size",
    sql: `
      ALTER TABLE runs ADD COLUMN trial_set INTEGER;
      ALTER TABLE runs ADD COLUMN trial     INTEGER;
      ALTER TABLE runs ADD COLUMN trials    INTEGER;
      CREATE INDEX runs_trial_set ON runs(trial_set);
    `,
  },
  {
    version: 4,
    description: "a case's transcript holds the reference record alone (written as is to --out files); our additions move to kiosk_json",
    sql: `
      ALTER TABLE run_cases ADD COLUMN kiosk_json TEXT NOT NULL DEFAULT '{}';
      UPDATE run_cases SET kiosk_json = json_extract(transcript_json, '$.kiosk'), transcript_json = json_remove(transcript_json, '$.kiosk')
        WHERE json_type(transcript_json, '$.kiosk') = 'object';
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

// ------------------------------------------------------------------------------------------------
// The JSON columns.

export const RUN_STATUSES = ["running", "finished", "interrupted", "failed"] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const PARTITIONS = ["holdout", "train", "none"] as const;
export const CasePartitionSchema = z.enum(PARTITIONS);
/** Where a case sits in the pack's split; "none" for an operator's case outside it. */
export type CasePartition = z.infer<typeof CasePartitionSchema>;

export const SplitFilterSchema = z.enum(["all", "holdout", "train"]);
export type SplitFilter = z.infer<typeof SplitFilterSchema>;

/** What a run selected: the filters as given, and the resulting case ids in run order. */
export const RunSelectionSchema = z.object({
  systems: z.array(SystemIdSchema).nullable(),
  categories: z.array(z.string()).nullable(),
  split: SplitFilterSchema,
  caseIds: z.array(z.string()).nullable(),
  /** An operator's case file (absolute path) instead of the pack's cases, and its SHA-256. */
  casesFile: z.string().nullable(),
  casesFileSha256: z.string().nullable(),
  /** The selected case ids, in run order (the pack's order). */
  selectedIds: z.array(z.string()),
  /** The distinct systems of the selected cases, in the pack's order. */
  selectedSystems: z.array(SystemIdSchema),
});
export type RunSelection = z.infer<typeof RunSelectionSchema>;

export const HardwareSchema = z.object({
  cpuModel: z.string(),
  cpuCores: z.number().int(),
  memoryBytes: z.number(),
  platform: z.string(),
  arch: z.string(),
  osRelease: z.string(),
  node: z.string(),
});
export type Hardware = z.infer<typeof HardwareSchema>;
