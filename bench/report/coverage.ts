// Which systems and categories a run covered (its selection, not just the cases finished so far),
// in a short form for lists: "bart, cta · A–C, F" or "all 6 systems · A–K".
import { CATEGORIES, PACK_SYSTEM_IDS, type SystemId } from "../../tools/data/schemas.ts";
import { categoryOf } from "../stats/index.ts";
import type { RunSelection } from "../store/schema.ts";

export interface RunCoverage {
  systems: SystemId[];
  categories: string[];
}

export function runCoverage(selection: Pick<RunSelection, "selectedIds" | "selectedSystems">): RunCoverage {
  const found = new Set(selection.selectedIds.map(categoryOf));
  const known = CATEGORIES.filter((c) => found.has(c));
  const other = [...found].filter((c) => c !== "" && !(CATEGORIES as readonly string[]).includes(c)).sort();
  return { systems: [...selection.selectedSystems], categories: [...known, ...other] };
}

/** Consecutive category letters as ranges: A, B, C, F → "A–C, F". */
export function categoryRanges(categories: readonly string[]): string {
  const order = CATEGORIES as readonly string[];
  const parts: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length > 0) parts.push(run.length >= 3 ? `${run[0]}–${run[run.length - 1]}` : run.join(", "));
    run = [];
  };
  for (const c of categories) {
    const prev = run[run.length - 1];
    if (prev !== undefined && order.indexOf(c) === order.indexOf(prev) + 1 && order.indexOf(c) > 0) run.push(c);
    else {
      flush();
      run = [c];
    }
  }
  flush();
  return parts.join(", ");
}

export function coverageText(coverage: RunCoverage): string {
  const systems = coverage.systems.length === PACK_SYSTEM_IDS.length ? `all ${PACK_SYSTEM_IDS.length} systems` : coverage.systems.join(", ") || "no system";
  const categories = coverage.categories.length === CATEGORIES.length ? `${CATEGORIES[0]}–${CATEGORIES[CATEGORIES.length - 1]}` : categoryRanges(coverage.categories) || "no category";
  return `${systems} · ${categories}`;
}
