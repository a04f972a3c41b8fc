// A stored run in the reference runner's results format, one file per system:
// {metadata, model, system, thinking, cases_total, cases_succeeded, cases_failed, results[]} with
// the exact reference records (toReferenceRecord, as stored), so either scorer reads them — plus, beside
// the reference fields, `kiosk`: what the kiosk would have done with the answer
// ({purchasable, interlock_problems, decided_by, fallback}; scorers ignore it).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { KioskVerdict, ReferenceRecord } from "../../runtime/session/record.ts";
import { SYSTEM_IDS, type SystemId } from "../../tools/data/schemas.ts";
import { DEFAULT_MAX_ROUNDS } from "../../runtime/session/session.ts";
import type { BenchStore, RunRow } from "../store/store.ts";

export const HARNESS = "metro-kiosk-runtime bench";

/** The kiosk's verdict on a case's answer, as `--out` writes it. */
export interface KioskVerdictOut {
  purchasable: boolean;
  interlock_problems: string[];
  decided_by: "rule" | "model" | "rule-fallback";
  fallback: boolean;
}

export type ResultRecord = ReferenceRecord & { kiosk?: KioskVerdictOut };

/** The kiosk's verdict in `--out`'s spelling. */
function verdictOut(verdict: KioskVerdict): KioskVerdictOut {
  return { purchasable: verdict.purchasable, interlock_problems: verdict.interlockProblems, decided_by: verdict.decidedBy, fallback: verdict.fallback };
}

/**
 * A stored reference record's JSON text as `--out` writes it: unchanged, or with the kiosk's
 * verdict appended as its last key (spliced: the record is not parsed).
 */
export function resultRecordJson(referenceJson: string, verdictJson: string | null): string {
  if (verdictJson === null) return referenceJson;
  const kiosk = JSON.stringify(verdictOut(JSON.parse(verdictJson) as KioskVerdict));
  // A reference record always has its fields (case_id, response, …), so it never ends in "{}".
  return `${referenceJson.slice(0, -1)},"kiosk":${kiosk}}`;
}

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

/**
 * The run's results files as JSON text, per system (in the pack's system order). The stored
 * reference records are spliced in as stored: a 955-case run's 15 MB are neither parsed nor
 * re-serialised.
 */
export function referenceResultsText(store: BenchStore, run: RunRow): Map<SystemId, string> {
  const bySystem = new Map<string, { json: string[]; failed: number }>();
  for (const r of store.referenceRecordsJson(run.id)) {
    const entry = bySystem.get(r.system) ?? { json: [], failed: 0 };
    entry.json.push(resultRecordJson(r.json, r.verdict));
    if (r.failed) entry.failed++;
    bySystem.set(r.system, entry);
  }
  const parallel = Math.max(1, ...store.sessions(run.id).map((s) => s.concurrency));
  const out = new Map<SystemId, string>();
  for (const system of SYSTEM_IDS) {
    if (!run.selection.selectedSystems.includes(system)) continue;
    const { json, failed } = bySystem.get(system) ?? { json: [], failed: 0 };
    const header = JSON.stringify(fileHeader(run, system, json.length, failed, parallel));
    out.set(system, `${header.slice(0, -1)},"results":[${json.join(",")}]}\n`);
  }
  return out;
}

/** The run's stored records as results files, per system (in the pack's system order). */
export function referenceResults(store: BenchStore, run: RunRow): Map<SystemId, ReferenceResultsFile> {
  return new Map([...referenceResultsText(store, run)].map(([system, text]) => [system, JSON.parse(text) as ReferenceResultsFile]));
}

/**
 * Write the run's results: to `out` itself when the run selected one system, else to
 * `out/<system>.json` per system. Returns the files written.
 */
export function writeReferenceResults(store: BenchStore, run: RunRow, out: string): string[] {
  const files = referenceResultsText(store, run);
  const written: string[] = [];
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, text);
    written.push(file);
  };
  if (run.selection.selectedSystems.length === 1) {
    const only = files.values().next().value;
    if (only !== undefined) write(out, only);
  } else {
    for (const [system, text] of files) write(path.join(out, `${system}.json`), text);
  }
  return written;
}
