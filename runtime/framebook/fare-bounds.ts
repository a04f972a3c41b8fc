// Fare policies that would produce absurd fares are rejected before they reach passengers
// (issue 13, finding 5): "150% off" (a total below zero), a ¥500 surcharge in a USD system, a
// 99,999,999 surcharge, "capped at 0". Each policy is priced, through the fare path the kiosk
// sells with (fare_calculator, then tools/fares/policy-change adjustQuote — so this follows
// whatever reads the policies), over probe trips (each line end to end, surcharge stations), rider
// mixes and payment methods; every total must be within tools/fares/bounds.ts, and 0 only where a
// rule says the trip is free. The text must name amounts in the system's own currency and without
// thousands separators (which the fare reader cannot read), and never a negative amount.
// A policy entry with a `rule` is priced from the rule (what the kiosk sells under), not its text.
// Beyond those hard bounds, a paid fare under 1/10 or over 10 times the fare table's for the same
// trip and riders, or a multiplier outside that range, is implausible: refused unless the
// framebook's `fare_override` confirms it (validate.ts). Pure.
import type { Framebook } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { freeByRule, implausibleFare, implausibleMultiplier, perRiderCap, totalOutOfBounds } from "../../tools/fares/bounds.ts";
import { adjustQuote, readPolicy, type PricedItem, type RiderMix } from "../../tools/fares/policy-change.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { announcedText, FarePolicyEntrySchema, type FarePolicyEntry } from "./fare-rules.ts";

export interface BoundIssue {
  path: (string | number)[];
  message: string;
  /** Outside the plausible bounds only: an explicit `fare_override` may accept it. */
  implausible?: true;
}

const MIXES: RiderMix[] = [
  { adults: 1, children: 0, seniors: 0, disabled: 0 },
  { adults: 0, children: 0, seniors: 1, disabled: 0 },
  { adults: 0, children: 1, seniors: 0, disabled: 0 },
  { adults: 0, children: 0, seniors: 0, disabled: 1 },
  { adults: 1, children: 1, seniors: 0, disabled: 0 },
  { adults: 3, children: 0, seniors: 0, disabled: 0 },
  { adults: 9, children: 0, seniors: 0, disabled: 0 },
  { adults: 2, children: 2, seniors: 2, disabled: 0 },
];

/** Currency markers a policy text may use, and the currency each means. */
const MARKERS: [RegExp, string][] = [
  [/NT\$/g, "TWD"],
  [/(?<![A-Z])\$/g, "$"],
  [/[¥￥]|\bRMB\b|\byuan\b/gi, "CNY"],
  [/€|\bEUR\b|\beuros?\b/gi, "EUR"],
  [/£|\bGBP\b/g, "GBP"],
  [/\bQR\b|\bQAR\b|\briyals?\b/gi, "QAR"],
  [/\bUSD\b|\bdollars?\b/gi, "USD"],
  [/\bCNY\b/g, "CNY"],
  [/\bTWD\b/g, "TWD"],
  [/\bJPY\b|\byen\b/gi, "JPY"],
];

/** Station pairs to price: every line end to end, and each surcharge or override station from a line end. */
function probeTrips(system: SystemData): [string, string][] {
  const trips: [string, string][] = [];
  const seen = new Set<string>();
  const add = (a: string | undefined, b: string | undefined): void => {
    if (!a || !b || a === b || seen.has(`${a}>${b}`)) return;
    seen.add(`${a}>${b}`);
    trips.push([a, b]);
  };
  for (const line of system.lines) add(line.stations[0], line.stations[line.stations.length - 1]);
  const fares = system.fares as Record<string, unknown>;
  const special = new Set<string>();
  for (const s of Object.values((fares.surcharges ?? {}) as Record<string, Record<string, unknown>>)) {
    if (typeof s.station === "string") special.add(s.station);
    if (Array.isArray(s.stations)) for (const id of s.stations) if (typeof id === "string") special.add(id);
  }
  for (const id of Object.keys((fares.station_overrides ?? {}) as object)) special.add(id);
  const from = system.lines[0]?.stations[0];
  for (const id of special) add(from, id);
  return trips.slice(0, 16);
}

function textIssues(text: string, system: SystemData, at: (string | number)[]): BoundIssue[] {
  const issues: BoundIssue[] = [];
  const own = new Set([system.framebook.currency_code.toUpperCase(), system.fares.currency.toUpperCase()]);
  const symbol = system.framebook.currency_symbol;
  for (const [re, currency] of MARKERS) {
    for (const m of text.matchAll(re)) {
      const ok = currency === "$" ? symbol.endsWith("$") : own.has(currency) || (currency === "TWD" && symbol === "NT$");
      if (!ok) issues.push({ path: at, message: `the amount '${text.slice(m.index, m.index + 12).trim()}' is not in ${system.framebook.currency_code}, the currency this system charges` });
    }
  }
  for (const m of text.matchAll(/\d{1,3}(?:[,\s]\d{3})+(?:\.\d+)?/g)) {
    issues.push({ path: at, message: `write the amount '${m[0]}' without thousands separators (the fare reader would read it as ${m[0].split(/[,\s]/)[0]})` });
  }
  // The fare reader keeps the sign ("-$1.00" is −1): a negative amount is no fare, cap or surcharge.
  for (const m of text.matchAll(/(?<![\w.])[-\u2212](?:[$¥€£]|NT\$)?\d+(?:\.\d+)?|(?:[$¥€£]|NT\$)[-\u2212]\d+(?:\.\d+)?/g)) {
    issues.push({ path: at, message: `the amount '${m[0]}' is negative: a fare, cap or surcharge is an amount above 0` });
  }
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*%/g)) {
    if (Number(m[1]) > 100) issues.push({ path: at, message: `${m[1]}% is more than the whole fare` });
  }
  return issues;
}

/**
 * Price `text` over the probes: the first result out of the hard bounds, else the first
 * implausible one (so an override can never hide a hard one), else null.
 */
function pricingIssue(text: string, system: SystemData, framebook: Framebook): Omit<BoundIssue, "path"> | null {
  const methods = Object.keys(system.fares.payment_methods ?? {});
  let implausible: Omit<BoundIssue, "path"> | null = null;
  for (const [origin, destination] of probeTrips(system)) {
    const tools = new ToolSession(system);
    const planned = tools.call("route_planner", { origin, destination });
    if (!planned.ok) continue;
    const routeId = (planned.result as { route_id: string }).route_id;
    for (const riders of MIXES) {
      for (const method of methods.length > 0 ? methods : [undefined]) {
        const fare = tools.call("fare_calculator", { route_id: routeId, passengers: { ...riders }, ...(method ? { payment_method: method } : {}) });
        if (!fare.ok) continue;
        const engine = fare.result as { total: number; line_items: PricedItem[] };
        const adjusted = adjustQuote({ items: engine.line_items, total: engine.total }, riders, system.fares.base_fare, text);
        const count = riders.adults + riders.children + riders.seniors + riders.disabled;
        // A party the sale limit excludes anyway says nothing about the policy.
        if (totalOutOfBounds(engine.total, count, system.fares, framebook)) continue;
        const who = `${count} rider(s) (${Object.entries(riders).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(", ")}) from ${origin} to ${destination}${method ? ` by ${method}` : ""}`;
        const bounds = totalOutOfBounds(adjusted.total, count, system.fares, framebook);
        if (bounds) return { message: `with this policy the fare for ${who} would be out of bounds: ${bounds}` };
        if (adjusted.total === 0 && engine.total > 0 && !freeByRule(adjusted.applied)) return { message: `with this policy ${who} would ride for 0 without a rule saying it is free (${adjusted.applied.join(", ") || "no rule applied"})` };
        // The engine's total is the fare table's own (free riders included), with no policy.
        const odd: string | null = implausible ? null : implausibleFare(adjusted.total, engine.total);
        if (odd) implausible = { message: `with this policy the fare for ${who} would be implausible: ${odd}`, implausible: true };
      }
    }
  }
  return implausible;
}

/** What a policy entry does to fares, checked on its own (before pricing). */
function effectIssues(entry: FarePolicyEntry, at: (string | number)[]): BoundIssue[] {
  const read = entry.rule ? undefined : readPolicy(entry.text);
  const multiplier = entry.rule ? entry.rule.multiplier : read?.multiplier;
  const cap = entry.rule ? entry.rule.base_fare_cap : read?.baseCap;
  const field = (name: string): (string | number)[] => (entry.rule ? [...at, name] : at);
  const issues: BoundIssue[] = [];
  const odd = multiplier === undefined ? null : implausibleMultiplier(multiplier);
  if (odd) issues.push({ path: field("multiplier"), message: odd, implausible: true });
  if (cap !== undefined && !(cap > 0)) issues.push({ path: field("base_fare_cap"), message: `base fare cap ${cap} is not above 0: a cap is the most a base fare may cost` });
  return issues;
}

/**
 * Errors of a framebook's fare policies and sale limit against its system (empty: none);
 * `combinedText` is the announcement all policies make together (validate.ts framebookPolicyChange).
 */
export function farePolicyIssues(framebook: Framebook, system: SystemData, combinedText?: string | null): BoundIssue[] {
  const issues: BoundIssue[] = [];
  const fb = framebook as Record<string, unknown>;
  if (fb.max_sale_total !== undefined) {
    const v = fb.max_sale_total;
    const ceiling = perRiderCap(system.fares) * 30 * 10;
    if (!(typeof v === "number" && Number.isFinite(v) && v > 0 && v <= ceiling)) {
      issues.push({ path: ["framebook", "max_sale_total"], message: `max_sale_total ${String(v)} is not an amount between 0 and ${ceiling} ${system.framebook.currency_code}` });
    }
  }
  const list = Array.isArray(fb.fare_policies) ? (fb.fare_policies as unknown[]) : [];
  const hard = (from: number): boolean => issues.slice(from).some((i) => !i.implausible);
  list.forEach((p, i) => {
    const text = (p as { text?: unknown })?.text;
    if (typeof text !== "string" || text.trim() === "") return;
    const from = issues.length;
    issues.push(...textIssues(text, system, ["framebook", "fare_policies", i, "text"]));
    // An entry the schema refuses is reported by validate.ts.
    const entry = FarePolicyEntrySchema.safeParse(p);
    if (!entry.success) return;
    const at = ["framebook", "fare_policies", i, entry.data.rule ? "rule" : "text"];
    issues.push(...effectIssues(entry.data, at));
    if (hard(from)) return;
    const pricing = pricingIssue(announcedText(entry.data), system, framebook);
    if (pricing) issues.push({ path: at, ...pricing });
  });
  // Several policies are applied together: their combined effect must be in bounds too.
  const combined = list.length > 1 ? combinedText : undefined;
  if (combined && !hard(0)) {
    const pricing = pricingIssue(combined, system, framebook);
    if (pricing) issues.push({ path: ["framebook", "fare_policies"], ...pricing, message: `together, ${pricing.message}` });
  }
  return issues;
}
