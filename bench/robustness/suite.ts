// The robustness suite (cases/robustness/): our own variant texts keyed by pack case ids, assembled
// into full cases from the data pack at run time (never copied). Each variant keeps its base case's
// answer key except what its entry says it changes (riders, trip, an unmappable announcement); a
// changed fare is recomputed with the pack's own tools on the ground-truth route.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent } from "../../tools/data/schemas.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { caseTurns } from "../../runtime/session/case.ts";
import { BenchError } from "../errors.ts";

export const SUITE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../cases/robustness");
export const HALVES = ["report", "tune"] as const;
export type Half = (typeof HALVES)[number];

const Riders = z.object({ adults: z.number().int().min(0).optional(), children: z.number().int().min(0).optional(), seniors: z.number().int().min(0).optional(), disabled: z.number().int().min(0).optional() });

export const VariantSchema = z.strictObject({
  base: z.string().regex(/^[A-Z]+-[A-K]-\d{3}$/),
  kinds: z.array(z.string().min(1)).min(1),
  text: z.string().min(1).optional(),
  texts: z.array(z.string().min(1)).min(1).optional(),
  mode: z.enum(["typed", "replace", "add"]).optional(),
  riders: Riders.optional(),
  trip: z.object({ origin: z.string(), destination: z.string() }).optional(),
  clarify: z.enum(["origin", "destination", "riders"]).optional(),
  policy: z.string().min(1).optional(),
  unmappable: z.boolean().optional(),
  disruption: z.string().min(1).optional(),
  text_only: z.boolean().optional(),
  note: z.string().optional(),
});
export type Variant = z.infer<typeof VariantSchema>;

export interface SuiteCase {
  id: string;
  half: Half;
  file: string;
  variant: Variant;
  base: Case;
  kase: Case;
  /** Operator announcement or disruption notice (else a passenger's words). */
  operator: boolean;
}

export function loadVariants(dir = SUITE_DIR, halves: readonly Half[] = HALVES): { half: Half; file: string; variants: Variant[] }[] {
  const out: { half: Half; file: string; variants: Variant[] }[] = [];
  for (const half of halves) {
    const folder = path.join(dir, half);
    for (const name of readdirSync(folder).filter((f) => f.endsWith(".yaml")).sort()) {
      const file = path.join(folder, name);
      const raw: unknown = parseYaml(readFileSync(file, "utf8"));
      const parsed = z.array(VariantSchema).safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new BenchError(`${file}: entry ${String(issue?.path[0] ?? "?")}${issue?.path.length && issue.path.length > 1 ? `.${issue.path.slice(1).join(".")}` : ""}: ${issue?.message ?? "invalid"}`);
      }
      out.push({ half, file, variants: parsed.data });
    }
  }
  return out;
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function replaceTexts(turns: KioskEvent[][], texts: readonly string[], where: string): void {
  let i = 0;
  for (const turn of turns) for (const e of turn) if (e.type === "freetext_input") e.text = texts[Math.min(i++, texts.length - 1)]!;
  if (i === 0) throw new BenchError(`${where}: the base case has no free text to replace (use mode: typed or add)`);
}

/** The ground truth of a changed trip or rider mix, from the pack's own route planner and fares. */
function recomputeFare(pack: DataPack, kase: Case, origin: string, destination: string, riders: Required<z.infer<typeof Riders>>, where: string): void {
  const system = pack.system(kase.system);
  const tools = new ToolSession(system);
  const route = tools.call("route_planner", { origin, destination });
  if (!route.ok) throw new BenchError(`${where}: no route ${origin} → ${destination}`);
  const r = route.result as { route_id: string; stops: { station_id: string }[]; transfers: number; distance_miles: number; estimated_minutes: number; line_sequence: string[] };
  const payment = caseTurns(kase).flat().filter((e) => e.type === "payment_method_selected").pop();
  const fare = tools.call("fare_calculator", { route_id: r.route_id, passengers: riders, ...(payment?.type === "payment_method_selected" ? { payment_method: payment.method } : {}) });
  if (!fare.ok) throw new BenchError(`${where}: no fare`);
  const f = fare.result as { total: number; currency: string; line_items: { label: string; amount: number }[] };
  const gt = (kase.ground_truth ??= {} as NonNullable<Case["ground_truth"]>) as Record<string, unknown>;
  gt.route = { path: r.stops.map((s) => s.station_id), line_sequence: r.line_sequence, transfers: r.transfers, distance_miles: r.distance_miles, estimated_minutes: r.estimated_minutes };
  gt.fare = { total: f.total, currency: f.currency };
  const paying = f.line_items.filter((l) => / x\d+$/.test(l.label)).reduce((n, l) => n + Number(/ x(\d+)$/.exec(l.label)![1]), 0);
  const all = riders.adults + riders.children + riders.seniors + riders.disabled;
  gt.expected_fare_breakdown = {
    passenger_summary: { ...riders, free_riders: Math.max(0, all - paying) },
    line_items: f.line_items
      .filter((l) => / x\d+$/.test(l.label))
      .map((l) => {
        const count = Number(/ x(\d+)$/.exec(l.label)![1]);
        return { rider_type: l.label.replace(/ x\d+$/, "").toLowerCase(), count, unit_fare: Math.round((l.amount / count) * 100) / 100, subtotal: l.amount, currency: f.currency };
      }),
  };
}

/** One variant as a full case (its id keeps the base's SYSTEM-CATEGORY-NNN prefix). */
export function assemble(pack: DataPack, variant: Variant, id: string, where: string): Case {
  const base = pack.caseById(variant.base);
  if (!base) throw new BenchError(`${where}: unknown base case ${variant.base}`);
  const kase = clone(base) as Case & Record<string, unknown>;
  kase.id = id;
  const turns = clone(caseTurns(base));
  const texts = variant.texts ?? (variant.text ? [variant.text] : []);
  if (texts.length > 0) {
    const hasText = turns.flat().some((e) => e.type === "freetext_input");
    const mode = variant.mode ?? (hasText ? "replace" : "typed");
    const first = turns[0]!;
    if (mode === "replace") replaceTexts(turns, texts, where);
    else if (mode === "add") first.push({ type: "freetext_input", text: texts[0]! });
    else {
      turns[0] = first.filter((e) => e.type !== "station_selected" && e.type !== "passenger_count_changed" && e.type !== "freetext_input");
      turns[0].push({ type: "freetext_input", text: texts[0]! });
    }
  }
  if (base.multi_turn_events && base.multi_turn_events.length > 0) {
    kase.multi_turn_events = turns;
    kase.events = turns[0]!;
  } else kase.events = turns[0]!;
  const context = kase.system_context;
  if (variant.policy) context.policy_change = { policy_id: context.policy_change?.policy_id ?? "announcement", text: variant.policy };
  if (variant.disruption) {
    const d = context.active_disruptions[0];
    if (!d) throw new BenchError(`${where}: the base case has no disruption to reword`);
    d.message = variant.disruption;
    if (variant.text_only) {
      d.line = null;
      d.segment = null;
    }
    for (const e of kase.events) if (e.type === "disruption_update" && e.disruption) Object.assign(e.disruption, { message: d.message, line: d.line ?? null, segment: d.segment ?? null });
  }
  const gt = kase.ground_truth as Record<string, unknown> | undefined;
  if (gt && (variant.riders || variant.trip)) {
    const path0 = ((gt.route as { path?: string[] } | null)?.path ?? []) as string[];
    const origin = variant.trip?.origin ?? path0[0];
    const destination = variant.trip?.destination ?? path0[path0.length - 1];
    if (!origin || !destination) throw new BenchError(`${where}: the base case has no ground-truth route to re-price`);
    const summary = ((gt.expected_fare_breakdown as { passenger_summary?: Record<string, number> } | undefined)?.passenger_summary ?? {}) as Record<string, number>;
    const baseRiders = { adults: summary.adults ?? 1, children: summary.children ?? 0, seniors: summary.seniors ?? 0, disabled: summary.disabled ?? 0 };
    const riders = variant.riders ? { adults: 0, children: 0, seniors: 0, disabled: 0, ...variant.riders } : baseRiders;
    recomputeFare(pack, kase, origin, destination, riders, where);
  }
  if (gt && variant.unmappable) {
    gt.expected_outcome = "advisory_only";
    gt.expected_kiosk_action = "refer_to_staff";
    gt.expected_reason_code = "policy_exception";
    gt.admissible_outcomes = ["advisory_only", "policy_answer_only", "request_declined"];
    gt.admissible_kiosk_actions = ["refer_to_staff", "display_info", "block_purchase"];
    gt.fare = null;
  }
  return kase;
}

export function loadSuite(pack: DataPack, halves: readonly Half[] = HALVES, dir = SUITE_DIR): SuiteCase[] {
  const out: SuiteCase[] = [];
  const seq = new Map<string, number>();
  for (const { half, file, variants } of loadVariants(dir, halves)) {
    variants.forEach((variant, i) => {
      const n = (seq.get(variant.base) ?? 0) + 1;
      seq.set(variant.base, n);
      const id = `${variant.base}~${half[0]}${n}`;
      const where = `${path.relative(dir, file)} entry ${i + 1} (${variant.base})`;
      const base = pack.caseById(variant.base);
      if (!base) throw new BenchError(`${where}: unknown base case ${variant.base}`);
      out.push({ id, half, file, variant, base, kase: assemble(pack, variant, id, where), operator: variant.policy !== undefined || variant.disruption !== undefined });
    });
  }
  return out;
}
