// Per-case differences between two runs (`kiosk bench report --compare`): over the cases both runs
// scored, which cases moved, by how much, and which components changed — worst regressions first.
import type { CaseScore } from "../scorer/index.ts";
import type { CasePartition } from "../store/schema.ts";
import type { StoredCase } from "../store/store.ts";

export interface ComponentChange {
  name: string;
  tier: number;
  max: number;
  run: number | null;
  base: number | null;
}

export interface CaseDifference {
  caseId: string;
  system: string;
  category: string;
  partition: CasePartition;
  run: { tier1: number; composite: number; termination: string };
  base: { tier1: number; composite: number; termination: string };
  delta: { tier1: number; composite: number };
  components: ComponentChange[];
}

export interface CaseDifferences {
  /** Cases scored by both runs. */
  compared: number;
  improved: number;
  worsened: number;
  /** Same Tier 1 and composite (components may still have moved between each other). */
  unchanged: number;
  /** Every case whose score or components changed, largest Tier 1 loss first. */
  cases: CaseDifference[];
}

type ScoredCase = StoredCase & { score: CaseScore | null };

const round1 = (x: number): number => Math.round(x * 10) / 10;

export function caseDifferences(run: readonly ScoredCase[], base: readonly ScoredCase[], common: ReadonlySet<string>): CaseDifferences {
  const baseById = new Map(base.map((c) => [c.caseId, c]));
  const out: CaseDifferences = { compared: 0, improved: 0, worsened: 0, unchanged: 0, cases: [] };
  for (const a of run) {
    const b = baseById.get(a.caseId);
    if (!common.has(a.caseId) || !a.score || !b?.score) continue;
    out.compared++;
    const components: ComponentChange[] = [];
    for (const name of new Set([...Object.keys(a.score.breakdown), ...Object.keys(b.score.breakdown)])) {
      const x = a.score.breakdown[name];
      const y = b.score.breakdown[name];
      if (x?.score === y?.score) continue;
      components.push({ name, tier: (x ?? y)!.tier, max: (x ?? y)!.max, run: x?.score ?? null, base: y?.score ?? null });
    }
    const delta = { tier1: round1(a.score.tier1_pct - b.score.tier1_pct), composite: round1(a.score.pct - b.score.pct) };
    if (delta.tier1 > 0 || (delta.tier1 === 0 && delta.composite > 0)) out.improved++;
    else if (delta.tier1 < 0 || delta.composite < 0) out.worsened++;
    else out.unchanged++;
    if (delta.tier1 === 0 && delta.composite === 0 && components.length === 0) continue;
    out.cases.push({
      caseId: a.caseId,
      system: a.system,
      category: a.category,
      partition: a.partition,
      run: { tier1: a.score.tier1_pct, composite: a.score.pct, termination: a.termination },
      base: { tier1: b.score.tier1_pct, composite: b.score.pct, termination: b.termination },
      delta,
      components,
    });
  }
  out.cases.sort((x, y) => x.delta.tier1 - y.delta.tier1 || x.delta.composite - y.delta.composite || x.caseId.localeCompare(y.caseId));
  return out;
}
