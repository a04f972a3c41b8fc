// A stored run in the reference runner's results format, one file per system:
// {metadata, model, system, thinking, cases_total, cases_succeeded, cases_failed, results[]} with
// the exact reference records (toReferenceRecord, as stored), so either scorer reads them — plus, beside
// the reference fields, `kiosk`: what the kiosk would have done with the answer
// ({purchasable, interlock_problems, decided_by, fallback}; scorers ignore it).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inReportOrder, type SystemId } from "../../tools/data/schemas.ts";
import { DEFAULT_MAX_ROUNDS } from "../../runtime/session/session.ts";
import type { BenchStore, RunRow, StoredCase } from "../store/store.ts";
import { resultRecordJson, RESULTS_TAIL, type ResultRecord } from "./result-record.ts";

export { resultRecordJson, type KioskVerdictOut, type ResultRecord } from "./result-record.ts";

export const HARNESS = "metro-kiosk-runtime bench";

export interface ReferenceResultsFile {
  metadata: Record<string, unknown>;
  model: string;
  system: string;
  thinking: boolean;
  cases_total: number;
  cases_succeeded: number;
  cases_failed: number;
  results: ResultRecord[];
}

/** The file's fields other than `results`, for a system's records. */
function fileHeader(run: RunRow, system: SystemId, total: number, failed: number, parallel: number): Omit<ReferenceResultsFile, "results"> {
  const settings = run.policySettings;
  const thinking = settings["thinking"] === true;
  const casesFile = run.selection.casesFile ?? `cases/${system}_cases.json`;
  return {
    metadata: {
      harness_version: HARNESS,
      run_id: run.id,
      run_status: run.status,
      policy: run.policy,
      started_at: run.startedAt,
      finished_at: run.finishedAt,
      llm_base_url: typeof run.policyOptions["baseUrl"] === "string" ? run.policyOptions["baseUrl"] : run.deterministic ? "rule-based" : "in-process",
      llm_model: run.model,
      temperature: typeof settings["temperature"] === "number" ? settings["temperature"] : 0,
      max_tokens: typeof settings["maxTokens"] === "number" ? settings["maxTokens"] : 0,
      max_tool_rounds: DEFAULT_MAX_ROUNDS,
      thinking,
      parallel,
      system,
      cases_file: casesFile,
      cases_checksum_sha256: run.casesChecksums[casesFile] ?? null,
      data_root: run.dataRoot,
      upstream_commit: run.upstreamCommit,
      git_commit: run.gitCommit,
    },
    model: run.model,
    system,
    thinking,
    cases_total: total,
    cases_succeeded: total - failed,
    cases_failed: failed,
  };
}

type StoredRecord = ReturnType<BenchStore["referenceRecordsJson"]>[number];
type ResultKey = Pick<StoredRecord, "caseId" | "system" | "failed">;

/** One system's results file: its text before the records (RESULTS_TAIL follows them) and its records in run order. */
interface ResultsFileLayout<R extends ResultKey> {
  system: SystemId;
  head: string;
  records: R[];
}

/** The run's results files, per system (in the pack's system order), from its cases in run order. */
function resultsLayout<R extends ResultKey>(store: BenchStore, run: RunRow, cases: R[]): ResultsFileLayout<R>[] {
  const bySystem = new Map<string, { records: R[]; failed: number }>();
  for (const r of cases) {
    const entry = bySystem.get(r.system) ?? { records: [], failed: 0 };
    entry.records.push(r);
    if (r.failed) entry.failed++;
    bySystem.set(r.system, entry);
  }
  const parallel = Math.max(1, ...store.sessions(run.id).map((s) => s.concurrency));
  const files: ResultsFileLayout<R>[] = [];
  for (const system of inReportOrder(run.selection.selectedSystems)) {
    const { records, failed } = bySystem.get(system) ?? { records: [], failed: 0 };
    const header = JSON.stringify(fileHeader(run, system, records.length, failed, parallel));
    files.push({ system, head: `${header.slice(0, -1)},"results":[`, records });
  }
  return files;
}

/**
 * The run's results files as JSON text, per system (in the pack's system order). The stored
 * reference records are spliced in as stored: a 955-case run's 15 MB are neither parsed nor
 * re-serialised.
 */
export function referenceResultsText(store: BenchStore, run: RunRow): Map<SystemId, string> {
  return new Map(resultsLayout(store, run, store.referenceRecordsJson(run.id)).map((f) => [f.system, fileText(f)]));
}

function fileText(f: ResultsFileLayout<StoredRecord>): string {
  return `${f.head}${f.records.map((r) => resultRecordJson(r.json, r.verdict)).join(",")}${RESULTS_TAIL}`;
}

/** The run's stored records as results files, per system (in the pack's system order). */
export function referenceResults(store: BenchStore, run: RunRow): Map<SystemId, ReferenceResultsFile> {
  return new Map([...referenceResultsText(store, run)].map(([system, text]) => [system, JSON.parse(text) as ReferenceResultsFile]));
}

/** Where a system's results file goes: `out` itself when the run selected one system, else `out/<system>.json`. */
function resultsFilePath(run: RunRow, out: string, system: SystemId): string {
  return run.selection.selectedSystems.length === 1 ? out : path.join(out, `${system}.json`);
}

function writeFiles(run: RunRow, out: string, layout: ResultsFileLayout<StoredRecord>[]): string[] {
  return layout.map((f) => {
    const file = resultsFilePath(run, out, f.system);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, fileText(f));
    return file;
  });
}

/** Write the run's results files (resultsFilePath). Returns the files written. */
export function writeReferenceResults(store: BenchStore, run: RunRow, out: string): string[] {
  return writeFiles(run, out, resultsLayout(store, run, store.referenceRecordsJson(run.id)));
}

/**
 * Start writing the run's results files (as writeReferenceResults): on the run's case writer
 * thread when it kept every record (BenchStore.writeResultsInBackground), so that the caller can
 * go on meanwhile, else here and now. `finish()` waits for them and returns the files written.
 * `cases`: the run's stored cases in run order where the caller has them (RunOutcome.storedCases), else read here.
 */
export function startReferenceResults(store: BenchStore, run: RunRow, out: string, cases?: readonly StoredCase[]): { finish: () => string[] } {
  const keys = cases ? cases.map((c) => ({ caseId: c.caseId, system: c.system, failed: c.error !== null })) : store.resultKeys(run.id);
  const files = resultsLayout(store, run, keys).map((f) => ({
    file: resultsFilePath(run, out, f.system),
    head: f.head,
    caseIds: f.records.map((r) => r.caseId),
  }));
  const background = store.writeResultsInBackground(run.id, files);
  if (background) {
    return {
      finish: () => {
        background.finish();
        return files.map((f) => f.file);
      },
    };
  }
  const written = writeReferenceResults(store, run, out);
  return { finish: () => written };
}
