// `kiosk bench generate`: a case file in the pack's format for any system (the pack's or an imported
// network), category by category, with ground truth computed in this folder from the system's
// files alone — never from the kiosk's planner, fare engine or policies. Categories that network
// data cannot answer are skipped with the reason.
import { CasesFileSchema, CATEGORIES, categoryLabel, type Case, type Category } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { accessibilityCases } from "./accessibility.ts";
import { adversarialCases, toolTrapCases } from "./adversarial.ts";
import { GenerationContext, SCORING, TOLERANCES, type CategoryResult } from "./common.ts";
import { disruptionCases } from "./disruptions.ts";
import { seededRng } from "./rng.ts";
import { serviceHoursCases } from "./service-hours.ts";
import { fareCases, multiTurnCases, policyCases, routeCases } from "./trips.ts";

export interface GenerateOptions {
  perCategory: number;
  seed: number;
  /** Only these categories (default: all). */
  categories?: readonly Category[];
}

export interface CategoryReport {
  category: Category;
  label: string;
  requested: number;
  generated: number;
  /** Why nothing was generated. */
  skipped?: string;
  notes: string[];
  /** Candidates left out, by reason (ambiguous routes, no fare, …). */
  dropped: Record<string, number>;
}

export interface GenerateResult {
  system: string;
  seed: number;
  cases: Case[];
  report: CategoryReport[];
}

type Generator = (ctx: GenerationContext, count: number) => CategoryResult;

const GENERATORS: Readonly<Record<Category, Generator | string>> = {
  A: routeCases,
  B: fareCases,
  C: disruptionCases,
  D: accessibilityCases,
  E: "cultural questions are answered from the framebook's cultural notes, against keywords a person chose; network data has neither",
  F: policyCases,
  G: multiTurnCases,
  H: adversarialCases,
  I: serviceHoursCases,
  J: toolTrapCases,
  K: "compound cases combine disruptions, accessibility, service hours and policy changes with hand-written answer keys; not generated",
};

/** A case-id prefix without "-": the scorer reads the category as the id's second "-" segment. */
export function caseIdPrefix(systemId: string): string {
  return `${systemId.toUpperCase().replace(/-/g, "_")}_GEN`;
}

export function generateCases(system: SystemData, options: GenerateOptions): GenerateResult {
  if (!Number.isSafeInteger(options.perCategory) || options.perCategory < 1) throw new RangeError(`perCategory must be a positive integer, got ${options.perCategory}`);
  if (!Number.isSafeInteger(options.seed) || options.seed < 0) throw new RangeError(`seed must be a non-negative integer, got ${options.seed}`);
  const wanted = new Set(options.categories ?? CATEGORIES);
  const cases: Case[] = [];
  const report: CategoryReport[] = [];
  const prefix = caseIdPrefix(system.id);
  for (const category of CATEGORIES) {
    if (!wanted.has(category)) continue;
    const generator = GENERATORS[category];
    const entry: CategoryReport = { category, label: categoryLabel(category), requested: options.perCategory, generated: 0, notes: [], dropped: {} };
    report.push(entry);
    if (typeof generator === "string") {
      entry.skipped = generator;
      continue;
    }
    // A stream per category: one category's draws never shift another's.
    const ctx = new GenerationContext(system, seededRng(options.seed, category));
    const result = generator(ctx, options.perCategory);
    entry.notes.push(...result.notes);
    entry.dropped = Object.fromEntries([...ctx.dropped.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
    if (result.drafts.length === 0) {
      const why = Object.entries(entry.dropped).sort(([, a], [, b]) => b - a).map(([reason]) => reason);
      entry.skipped = result.notes.length > 0 ? result.notes.join("; ") : why.length > 0 ? `every candidate was left out (${why.slice(0, 3).join("; ")})` : "the network has no two stations a rider can choose";
    }
    result.drafts.slice(0, options.perCategory).forEach((d, i) => {
      const kase: Record<string, unknown> = {
        id: `${prefix}-${category}-${String(i + 1).padStart(3, "0")}`,
        system: system.id,
        category,
        difficulty: d.difficulty,
        interaction_mode: d.interaction_mode,
      };
      Object.assign(kase, d.kind, { generated: { by: "kiosk bench generate", seed: options.seed }, title: d.title, events: d.events });
      if (d.multi_turn_events) kase.multi_turn_events = d.multi_turn_events;
      Object.assign(kase, { system_context: d.system_context, ground_truth: d.ground_truth, scoring: SCORING[category as keyof typeof SCORING], tolerances: { ...TOLERANCES } });
      cases.push(kase as Case);
      entry.generated++;
    });
  }
  // The file must read back as the pack's format: a generator slip fails here, not in a run. The
  // cases are kept as built (parsing would reorder their keys).
  const checked = CasesFileSchema.safeParse(cases);
  if (!checked.success) throw new Error(`generated cases do not match the case format: ${checked.error.message}`);
  return { system: system.id, seed: options.seed, cases, report };
}

/** The report as lines for people. */
export function reportLines(result: GenerateResult): string[] {
  const lines = [`${result.cases.length} cases for ${result.system} (seed ${result.seed})`];
  for (const r of result.report) {
    const head = `  ${r.label}: ${r.skipped !== undefined && r.generated === 0 ? `skipped: ${r.skipped}` : `${r.generated}/${r.requested}`}`;
    lines.push(head);
    for (const note of r.notes) lines.push(`      note: ${note}`);
    const dropped = Object.entries(r.dropped);
    if (dropped.length > 0) lines.push(`      left out: ${dropped.map(([why, n]) => `${n} × ${why}`).join("; ")}`);
  }
  return lines;
}
