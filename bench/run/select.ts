// Which cases a run replays: the pack's cases (or an operator's case file) filtered by system,
// category, split partition and explicit ids, in the pack's order.
import path from "node:path";
import { readCaseFile, type CaseFileRead, type DataPack } from "../../tools/data/datapack.ts";
import { CATEGORIES, inReportOrder, SystemIdSchema, type Case, type SystemId } from "../../tools/data/schemas.ts";
import { BenchError } from "../errors.ts";
import type { CasePartition, RunSelection, SplitFilter } from "../store/schema.ts";

export interface SelectionSpec {
  systems?: readonly SystemId[];
  categories?: readonly string[];
  split?: SplitFilter;
  caseIds?: readonly string[];
  casesFile?: string;
}

export interface SelectedCases {
  cases: Case[];
  selection: RunSelection;
  /** Case file (relative to the pack, or the operator's file) → SHA-256 (12 hex). */
  checksums: Record<string, string>;
}

/** A case's answer key is what the scorer needs: `ground_truth` and `scoring`. */
export function missingAnswerKey(kase: Case): string[] {
  return (["ground_truth", "scoring"] as const).filter((k) => kase[k] === undefined);
}

/** Where each case sits in the pack's split. */
export function partitioner(pack: DataPack): (caseId: string) => CasePartition {
  const split = pack.split();
  const holdout = new Set(split.holdout_ids);
  const train = new Set(split.train_ids);
  return (caseId) => (holdout.has(caseId) ? "holdout" : train.has(caseId) ? "train" : "none");
}

/** Parse a comma-separated list ("A,C" or "marta, doha"); undefined for none. */
export function parseList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length > 0 ? items : undefined;
}

/** Categories from "A,C", "a..d" or "B-E" (inclusive ranges). */
export function parseCategories(value: string | undefined): string[] | undefined {
  const items = parseList(value);
  if (!items) return undefined;
  const out = new Set<string>();
  for (const item of items) {
    const range = /^([A-Za-z])\s*(?:\.\.|-)\s*([A-Za-z])$/.exec(item);
    const [from, to] = range ? [range[1]!.toUpperCase(), range[2]!.toUpperCase()] : [item.toUpperCase(), item.toUpperCase()];
    const a = (CATEGORIES as readonly string[]).indexOf(from);
    const b = (CATEGORIES as readonly string[]).indexOf(to);
    if (a < 0 || b < 0 || a > b) throw new BenchError(`unknown category '${item}' (expected ${CATEGORIES[0]}..${CATEGORIES[CATEGORIES.length - 1]}, a list like A,C or a range like B..E)`);
    for (let i = a; i <= b; i++) out.add(CATEGORIES[i]!);
  }
  return CATEGORIES.filter((c) => out.has(c));
}

export function parseSystems(value: string | undefined): SystemId[] | undefined {
  const items = parseList(value);
  if (!items) return undefined;
  const wanted = items.map((s) => s.toLowerCase());
  const bad = wanted.find((s) => !SystemIdSchema.safeParse(s).success);
  if (bad !== undefined) throw new BenchError(`'${bad}' is not a system id (lowercase letters, digits, '-' or '_')`);
  return inReportOrder(wanted);
}

export function selectCases(pack: DataPack, spec: SelectionSpec): SelectedCases {
  const split = spec.split ?? "all";
  let pool: Case[];
  const checksums: Record<string, string> = {};
  let casesFile: string | null = null;
  let casesFileSha256: string | null = null;
  if (spec.casesFile) {
    casesFile = path.resolve(spec.casesFile);
    // Read once: the checksum recorded is of the bytes the cases come from.
    const read = readCaseFile(casesFile);
    pool = read.cases();
    casesFileSha256 = read.sha256;
    checksums[casesFile] = casesFileSha256.slice(0, 12);
    const seen = new Set<string>();
    for (const c of pool) {
      if (seen.has(c.id)) throw new BenchError(`case file ${spec.casesFile} has case id '${c.id}' twice`);
      seen.add(c.id);
    }
  } else {
    pool = pack.allCases();
  }

  let cases = pool;
  if (spec.systems) {
    const inPool = new Set(pool.map((c) => c.system));
    const unknown = spec.systems.find((s) => !inPool.has(s));
    if (unknown !== undefined) {
      const where = spec.casesFile ? `the case file ${spec.casesFile}` : "the data pack";
      throw new BenchError(`unknown system '${unknown}': ${where} has cases for ${inReportOrder(inPool).join(", ")}`);
    }
    const systems = new Set<string>(spec.systems);
    cases = cases.filter((c) => systems.has(c.system));
  }
  if (spec.categories) {
    const categories = new Set(spec.categories);
    cases = cases.filter((c) => categories.has(c.category));
  }
  if (split !== "all") {
    const partitionOf = partitioner(pack);
    cases = cases.filter((c) => partitionOf(c.id) === split);
  }
  if (spec.caseIds) {
    const known = new Set(pool.map((c) => c.id));
    const unknown = spec.caseIds.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      const where = spec.casesFile ? `in ${spec.casesFile}` : "in the data pack";
      throw new BenchError(`unknown case id${unknown.length > 1 ? "s" : ""} ${where}: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", …" : ""}`);
    }
    const wanted = new Set(spec.caseIds);
    cases = cases.filter((c) => wanted.has(c.id));
  }
  if (cases.length === 0) throw new BenchError("the selection matches no cases (check --system, --category, --split, --cases)");

  const selectedSystems = inReportOrder(cases.map((c) => c.system));
  if (!spec.casesFile) {
    for (const s of selectedSystems) checksums[`cases/${s}_cases.json`] = pack.caseFileChecksum(s).slice(0, 12);
  }
  return {
    cases,
    checksums,
    selection: {
      systems: spec.systems ? [...spec.systems] : null,
      categories: spec.categories ? [...spec.categories] : null,
      split,
      caseIds: spec.caseIds ? [...spec.caseIds] : null,
      casesFile,
      casesFileSha256,
      selectedIds: cases.map((c) => c.id),
      selectedSystems,
    },
  };
}

/** The cases of a stored selection, for a resume; refuses a case file that changed since. */
export function reloadSelection(pack: DataPack, selection: RunSelection): Case[] {
  let byId: Map<string, Case>;
  if (selection.casesFile) {
    let read: CaseFileRead;
    try {
      read = readCaseFile(selection.casesFile);
    } catch {
      throw new BenchError(`cannot resume: the run's case file ${selection.casesFile} is gone`);
    }
    if (read.sha256 !== selection.casesFileSha256) throw new BenchError(`cannot resume: the run's case file ${selection.casesFile} changed since the run started`);
    byId = new Map(read.cases().map((c) => [c.id, c]));
  } else {
    byId = new Map(pack.allCases().map((c) => [c.id, c]));
  }
  return selection.selectedIds.map((id) => {
    const kase = byId.get(id);
    if (!kase) throw new BenchError(`cannot resume: case ${id} is no longer in ${selection.casesFile ?? "the data pack"}`);
    return kase;
  });
}
