// A stored run in the reference runner's results format, one file per system:
// {metadata, model, system, thinking, cases_total, cases_succeeded, cases_failed, results[]} with
// the exact reference records (toReferenceRecord), so either scorer reads them — plus, beside the
// reference fields, `kiosk`: what the kiosk would have done with the answer
// ({purchasable, interlock_problems, decided_by, fallback}; scorers ignore it).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { toReferenceRecord, type ReferenceRecord, type SessionRecord } from "../../runtime/session/record.ts";
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

/** A stored record as `--out` writes it: the reference record, and the kiosk's verdict when the run recorded one. */
export function resultRecord(record: SessionRecord): ResultRecord {
  const verdict = record.kiosk.verdict;
  const reference = toReferenceRecord(record);
  if (!verdict) return reference;
  return { ...reference, kiosk: { purchasable: verdict.purchasable, interlock_problems: verdict.interlockProblems, decided_by: verdict.decidedBy, fallback: verdict.fallback } };
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

/** The run's stored records as results files, per system (in the pack's system order). */
export function referenceResults(store: BenchStore, run: RunRow): Map<SystemId, ReferenceResultsFile> {
  const bySystem = new Map<SystemId, ResultRecord[]>();
  for (const c of store.casesWithRecords(run.id)) {
    const list = bySystem.get(c.system as SystemId) ?? [];
    list.push(resultRecord(c.record));
    bySystem.set(c.system as SystemId, list);
  }
  const settings = run.policySettings;
  const thinking = settings["thinking"] === true;
  const parallel = Math.max(1, ...store.sessions(run.id).map((s) => s.concurrency));
  const out = new Map<SystemId, ReferenceResultsFile>();
  for (const system of SYSTEM_IDS) {
    if (!run.selection.selectedSystems.includes(system)) continue;
    const results = bySystem.get(system) ?? [];
    const casesFile = run.selection.casesFile ?? `cases/${system}_cases.json`;
    const checksum = run.casesChecksums[casesFile] ?? null;
    const failed = results.filter((r) => r.error !== null).length;
    out.set(system, {
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
        cases_checksum_sha256: checksum,
        data_root: run.dataRoot,
        upstream_commit: run.upstreamCommit,
        git_commit: run.gitCommit,
      },
      model: run.model,
      system,
      thinking,
      cases_total: results.length,
      cases_succeeded: results.length - failed,
      cases_failed: failed,
      results,
    });
  }
  return out;
}

/**
 * Write the run's results: to `out` itself when the run selected one system, else to
 * `out/<system>.json` per system. Returns the files written.
 */
export function writeReferenceResults(store: BenchStore, run: RunRow, out: string): string[] {
  const files = referenceResults(store, run);
  const written: string[] = [];
  const write = (file: string, value: ReferenceResultsFile): void => {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
    written.push(file);
  };
  if (run.selection.selectedSystems.length === 1) {
    const only = files.values().next().value;
    if (only) write(out, only);
  } else {
    for (const [system, value] of files) write(path.join(out, `${system}.json`), value);
  }
  return written;
}
