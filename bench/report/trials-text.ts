// The repeated-trials section of a report as a terminal table.
import { categoryLabel } from "../../tools/data/schemas.ts";
import { renderTable } from "./table.ts";
import type { PassRow, TrialsReport } from "./trials.ts";

export function trialsBlock(t: TrialsReport): string {
  const k = t.counted;
  const header = ["", "n", ...Array.from({ length: k }, (_, i) => `pass^${i + 1}`)];
  const line = (r: PassRow): string[] => [categoryLabel(r.key), String(r.n), ...r.passAt.map((p) => p.toFixed(1))];
  const table = renderTable(header.map((_, i) => ({ align: i === 0 ? ("l" as const) : ("r" as const) })), header, [...t.categories.map(line), line(t.overall)]);
  const runs = t.runs.map((r) => `${r.id}${r.status === "finished" ? "" : ` (${r.status})`}`).join(", ");
  const notes = [
    `Repeated trials: ${k} of ${t.trials} trial(s) stored (runs ${runs}); ${t.cases} case(s) scored in every trial${t.leftOut > 0 ? `, ${t.leftOut} left out (not scored in some trial)` : ""}.`,
    `pass^k: the chance that k trials of a case all pass (τ-bench), estimated as C(c,k)/C(n,k) over the cases; ${t.passDefinition}.`,
  ];
  return `${notes[0]}\n${table}\n${notes[1]}`;
}
