// The per-case differences of a comparison as a terminal block.
import type { CaseDifferences, ComponentChange } from "./case-diff.ts";
import { renderTable } from "./table.ts";

const signed = (x: number): string => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toFixed(1)}`;

/** "route_correct 10→0, fare_correct 0→15" (run's score after the arrow). */
export function componentChangeText(components: readonly ComponentChange[]): string {
  return components.map((c) => `${c.name} ${c.base ?? "–"}→${c.run ?? "–"}`).join(", ");
}

/** The terminal block: a count line and the first `limit` changed cases. */
export function caseDifferenceBlock(diff: CaseDifferences, runId: number, baseId: number, limit = 20): string {
  const head = `Per case, run ${runId} vs run ${baseId}: ${diff.compared} compared · ${diff.worsened} worse · ${diff.improved} better · ${diff.unchanged} same score`;
  if (diff.cases.length === 0) return `${head}\nno case changed`;
  const header = ["case", "T1 base", "T1 run", "Δ T1", "Δ comp", "components (base→run)"];
  const rows = diff.cases.slice(0, limit).map((c) => [c.caseId, c.base.tier1.toFixed(1), c.run.tier1.toFixed(1), signed(c.delta.tier1), signed(c.delta.composite), componentChangeText(c.components)]);
  const more = diff.cases.length > limit ? `\n… and ${diff.cases.length - limit} more changed case(s) (--json lists them all)` : "";
  return `${head}\n${renderTable([{ align: "l" }, { align: "r" }, { align: "r" }, { align: "r" }, { align: "r" }, { align: "l" }], header, rows)}${more}`;
}
