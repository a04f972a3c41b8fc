// A framebook's temporary fare policies as data (issue 12, part 3): beside its display text, an
// entry of `fare_policies` may say exactly what it does, so the kiosk never has to read the words:
//
//   fare_policies:
//     - policy_id: seniors-free-week
//       text: "This week, seniors travel free on every line."   # what passengers see
//       rule: { applies_to: [seniors], free: true }
//       valid_from: "2026-03-09T00:00"
//       valid_until: "2026-03-15T23:59"
//
// A rule becomes one sentence in the wording the fare engine, the interlock and the model all read
// (tools/fares/policy-change.ts), so the one reading of a policy is the operator's own data.
import { z } from "zod";
import { UnreadDecisionSchema } from "../../tools/data/schemas.ts";
import { readPart, unpriceableFareAnnouncement } from "../../tools/fares/policy-change.ts";

const Amount = z.number().finite().positive().max(1000);
const LocalMinute = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, "must be a local time YYYY-MM-DDTHH:MM");

export const FareRuleSchema = z
  .strictObject({
    /** Who it is for: rider types, or every rider. */
    applies_to: z.union([z.literal("all"), z.array(z.enum(["seniors", "disabled", "children"])).min(1)]).default("all"),
    /** The riders it names travel free. */
    free: z.literal(true).optional(),
    /** Children free: at most this many per paying adult (no limit when absent). */
    children_per_paying_adult: z.number().int().min(1).max(10).optional(),
    /** Every fare times this (0.5 = half price); for everyone only. */
    multiplier: z.number().gt(0).lt(1).optional(),
    /** An extra charge per paying rider. */
    surcharge: z.strictObject({ amount: Amount, per: z.enum(["paying_rider", "trip"]) }).optional(),
    /** The base fare is at most this (adult single rides). */
    base_fare_cap: Amount.optional(),
    waive_surcharges: z.literal(true).optional(),
    group: z.strictObject({ min_adults: z.number().int().min(2).max(20), percent_off: z.number().gt(0).lt(100) }).optional(),
  })
  .superRefine((rule, ctx) => {
    const effects = [rule.free, rule.multiplier, rule.surcharge, rule.base_fare_cap, rule.waive_surcharges, rule.group].filter((x) => x !== undefined).length;
    if (effects === 0) ctx.addIssue({ code: "custom", message: "a fare rule needs an effect: free, multiplier, surcharge, base_fare_cap, waive_surcharges or group" });
    if (rule.free && rule.applies_to === "all") ctx.addIssue({ code: "custom", path: ["applies_to"], message: "free for every rider is not a fare rule the kiosk sells under; name the rider types" });
    if (!rule.free && rule.applies_to !== "all") ctx.addIssue({ code: "custom", path: ["applies_to"], message: "only `free` can apply to some rider types; the other effects apply to all riders" });
    if (rule.children_per_paying_adult !== undefined && !(rule.free && rule.applies_to !== "all" && rule.applies_to.includes("children"))) {
      ctx.addIssue({ code: "custom", path: ["children_per_paying_adult"], message: "children_per_paying_adult needs free: true for children" });
    }
  });
export type FareRule = z.infer<typeof FareRuleSchema>;

export const FarePolicyEntrySchema = z.object({
  policy_id: z.string().min(1),
  text: z.string().trim().min(1),
  rule: FareRuleSchema.optional(),
  valid_from: LocalMinute.optional(),
  valid_until: LocalMinute.optional(),
  /**
   * The operator's decision for fare clauses of `text` the kiosk cannot read (without a `rule`):
   * `refer` — while in force, sales are referred to staff; `ignore` — tickets are sold at the fare
   * of what was read (the usual fare if nothing was), the whole text still shown to passengers.
   * (No `block`: a fare is either priced or referred.)
   */
  if_unread: UnreadDecisionSchema.exclude(["block"]).optional(),
});
export type FarePolicyEntry = z.infer<typeof FarePolicyEntrySchema>;

/**
 * The operator's explicit confirmation of fare policies outside the plausible bounds
 * (tools/fares/bounds.ts PLAUSIBLE_FARE_RATIO), a framebook key of its own:
 *
 *   fare_override:
 *     allow_implausible: true
 *     reason: "Staff day: every fare 95% off, approved by the fares board"
 *     confirmed_by: "Dana Reyes, fares manager"
 *
 * It turns only those plausibility errors into warnings (never a total below zero, above the sale
 * limits, a cap of 0 or below, or 0 without a rule saying it is free), and every apply of a
 * framebook carrying it records it in the audit.
 */
export const FareOverrideSchema = z.strictObject({
  allow_implausible: z.literal(true),
  reason: z.string().trim().min(1),
  confirmed_by: z.string().trim().min(1),
});
export type FareOverride = z.infer<typeof FareOverrideSchema>;

/** A framebook's valid `fare_override`, if it has one. */
export function fareOverrideOf(framebook: object): FareOverride | undefined {
  const parsed = FareOverrideSchema.safeParse((framebook as { fare_override?: unknown }).fare_override);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A framebook's `fare_override`: the confirmation when it is valid and needed, and its problems —
 * one that confirms nothing is refused too, so that it cannot silently cover a later edit.
 */
export function fareOverrideIssues(framebook: object, needed: boolean): { confirmed: FareOverride | undefined; issues: { path: (string | number)[]; message: string }[] } {
  const raw = (framebook as { fare_override?: unknown }).fare_override;
  if (raw === undefined) return { confirmed: undefined, issues: [] };
  const parsed = FareOverrideSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: ["framebook", "fare_override", ...i.path.map((k) => (typeof k === "symbol" ? String(k) : k))], message: `fare_override: ${i.message}` }));
    return { confirmed: undefined, issues };
  }
  if (!needed) return { confirmed: undefined, issues: [{ path: ["framebook", "fare_override"], message: "fare_override confirms nothing: every fare policy is within the plausible bounds; remove it" }] };
  return { confirmed: parsed.data, issues: [] };
}

/** Whether an entry is in force at a local time (no window: always). */
export function inForce(entry: Pick<FarePolicyEntry, "valid_from" | "valid_until">, nowIso: string | undefined): boolean {
  if (nowIso === undefined) return true;
  if (entry.valid_from && entry.valid_from > nowIso) return false;
  if (entry.valid_until && entry.valid_until < nowIso) return false;
  return true;
}

const money = (amount: number): string => amount.toFixed(2);

/** The rule as sentences in the wording tools/fares/policy-change.ts reads exactly. */
export function ruleSentences(rule: FareRule): string[] {
  const out: string[] = [];
  if (rule.free && rule.applies_to !== "all") {
    if (rule.applies_to.includes("seniors")) out.push("Seniors ride free.");
    if (rule.applies_to.includes("disabled")) out.push("Disabled riders ride free.");
    if (rule.applies_to.includes("children")) {
      out.push(rule.children_per_paying_adult !== undefined ? `Children ride free (limit ${rule.children_per_paying_adult} per paying adult).` : "Children ride free.");
    }
  }
  if (rule.multiplier !== undefined) out.push(rule.multiplier === 0.5 ? "All single fares are half price." : `All fares are ${Number(((1 - rule.multiplier) * 100).toFixed(2))}% off.`);
  if (rule.base_fare_cap !== undefined) out.push(`Base fare capped at ${money(rule.base_fare_cap)}.`);
  if (rule.waive_surcharges) out.push("All surcharges waived.");
  if (rule.surcharge) {
    out.push(rule.surcharge.per === "trip" ? `A ${money(rule.surcharge.amount)} surcharge applies to all trips.` : `A ${money(rule.surcharge.amount)} surcharge applies to each paying passenger.`);
  }
  if (rule.group) out.push(`Groups of ${rule.group.min_adults} or more adults get ${rule.group.percent_off}% off the total fare.`);
  return out;
}

/**
 * What an entry announces to the fare engine: its rule's sentences; else its own text, or only the
 * part of it that was read when the operator chose to ignore the rest.
 */
export function announcedText(entry: FarePolicyEntry): string {
  if (entry.rule) return ruleSentences(entry.rule).join(" ");
  if (entry.if_unread === "ignore" && unpriceableFareAnnouncement(entry.text)) return readPart(entry.text);
  return entry.text.trim();
}
