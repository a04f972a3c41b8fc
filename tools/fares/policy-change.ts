// Temporary fare policies announced by the operator ("Seniors ride free today", "Weekend: half
// price") applied on top of the fare engine's quote. The kiosk only applies policies it can read
// unambiguously; everything else is shown to the passenger but leaves the fare unchanged.
import { pyRound } from "../py/number.ts";

export interface RiderMix {
  adults: number;
  children: number;
  seniors: number;
  disabled: number;
}

/** One priced item of the fare engine's result ("Adult x2", "Transbay tube crossing"). */
export interface PricedItem {
  label: string;
  amount: number;
}

export interface QuoteLine {
  rider_type: string;
  count: number;
  unit_fare: number;
  subtotal: number;
}

export interface AdjustedQuote {
  lines: QuoteLine[];
  discounts: { label: string; amount: number }[];
  total: number;
  /** Passengers who ride free (children under the limit, free rider types). */
  freeRiders: number;
  /** What the kiosk applied, in words, for the passenger. */
  applied: string[];
  /** True when the policy text changed the fare. */
  changed: boolean;
}

const RIDER_OF_LABEL: Record<string, keyof RiderMix> = { adult: "adults", senior: "seniors", disabled: "disabled", child: "children" };

/** Split "Adult x2" into rider type and count; surcharge labels are one item of their own. */
export function parseItemLabel(label: string): { riderType: string; count: number; rider?: keyof RiderMix } {
  const match = /^(.*?)\s+x(\d+)$/i.exec(label.trim());
  if (!match) return { riderType: label.trim().toLowerCase(), count: 1 };
  const base = (match[1] ?? "").toLowerCase().replace(/\s*\(.*\)$/, "").trim();
  const rider = RIDER_OF_LABEL[base];
  return { riderType: base, count: Number(match[2]), ...(rider ? { rider } : {}) };
}

interface PolicyRules {
  free: Set<keyof RiderMix>;
  childrenFree?: { perPayingAdult: number };
  multiplier: number;
  perTripSurcharge: number;
  perPayingSurcharge: number;
  baseCap?: number;
  waiveSurcharges: boolean;
  group?: { minAdults: number; percentOff: number };
  firstRideFree: boolean;
}

function amountIn(text: string): number | undefined {
  const m = /(?:[$¥€£]|NT\$|QR|QAR|USD|CNY|TWD)?\s*(\d+(?:\.\d+)?)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Read the fare rules a policy text announces (none when it is about something else). */
export function readPolicy(text: string): PolicyRules {
  const t = text.toLowerCase();
  const rules: PolicyRules = { free: new Set(), multiplier: 1, perTripSurcharge: 0, perPayingSurcharge: 0, waiveSurcharges: false, firstRideFree: false };
  if (/\bseniors?\b[^.]*?\bride free\b|\bsenior citizens?\b[^.]*?\bride free\b/.test(t)) rules.free.add("seniors");
  if (/\bdisabled (?:riders|passengers)?[^.]*?\bride free\b/.test(t)) rules.free.add("disabled");
  const children = /\bchildren(?: under \d+)? ride free(?: \(limit (\d+) per paying adult\))?/.exec(t);
  if (children) rules.childrenFree = { perPayingAdult: children[1] ? Number(children[1]) : Number.POSITIVE_INFINITY };
  if (/\bhalf[- ]price\b|\b50% off all\b/.test(t)) rules.multiplier = 0.5;
  const cap = /\bbase fare capped at ([^ .]*\d+(?:\.\d+)?)/.exec(t);
  if (cap) rules.baseCap = amountIn(cap[1] ?? "");
  if (/\ball surcharges waived\b/.test(t)) rules.waiveSurcharges = true;
  const perPaying = /([^ ]*\d+(?:\.\d+)?)[^.]*surcharge applies to each paying passenger/.exec(t);
  if (perPaying) rules.perPayingSurcharge = amountIn(perPaying[1] ?? "") ?? 0;
  const perTrip = /([^ ]*\d+(?:\.\d+)?)[^.]*surcharge applies to all trips/.exec(t);
  if (perTrip) rules.perTripSurcharge = amountIn(perTrip[1] ?? "") ?? 0;
  const group = /groups? of (\d+) or more adults get (\d+(?:\.\d+)?)% off/.exec(t);
  if (group) rules.group = { minAdults: Number(group[1]), percentOff: Number(group[2]) };
  if (/\bfirst ride of the day is free\b/.test(t) && /\bthis is the passenger'?s first ride\b/.test(t)) rules.firstRideFree = true;
  return rules;
}

/**
 * Does the text announce something about what travel costs (fares, prices, surcharges, discounts,
 * travelling free or at no charge)? Wide on purpose — a false alarm only stops sales until staff
 * look. "Free Wi-Fi" is not about fares.
 */
export function announcesFareChange(text: string): boolean {
  // Saying fares stay as they are ("same BART fare applies, no additional charge") is not a change.
  const t = text
    .toLowerCase()
    .replace(/\b(same|usual|regular|normal)\b[^.,;()]{0,20}\bfares?\b[^.,;()]{0,12}\b(appl(y|ies)|unchanged)\b/g, " ")
    .replace(/\bno (additional|extra) (charge|fare|cost)s?\b|\bfares? (are |remain |stay )?unchanged\b/g, " ");
  return (
    /\b(quarter|third|half)\s+off\b|\boff\s+(the\s+)?(total|fares?|prices?)\b/.test(t) ||
    /\b(fares?|prices?|priced|pricing|surcharges?|fees?|discount(?:s|ed)?|cheaper|reduced|no charge|free of charge|half|percent|per ?cent)\b|%|\bpay\b/.test(t) ||
    /\b(ride|rides|riding|travel|travels|go|goes|trips?|journeys?|tickets?)\b[^.]{0,40}\bfree\b|\bfree\b[^.]{0,20}\b(travel|rides?|trips?|journeys?|tickets?|fares?)\b/.test(t)
  );
}

/** The text announces a fare change that readPolicy cannot price: a quote under it is a guess. */
export function unpriceableFareAnnouncement(text: string | null | undefined): boolean {
  return !!text && announcesFareChange(text) && !policyChangesFare(readPolicy(text));
}

function policyChangesFare(r: PolicyRules): boolean {
  return (
    r.free.size > 0 ||
    r.childrenFree !== undefined ||
    r.multiplier !== 1 ||
    r.perTripSurcharge > 0 ||
    r.perPayingSurcharge > 0 ||
    r.baseCap !== undefined ||
    r.waiveSurcharges ||
    r.group !== undefined ||
    r.firstRideFree
  );
}

/**
 * The quote for a rider mix: the fare engine's items, with a temporary policy (if any) applied.
 * `baseFare` is the system's base fare (a "base fare cap" caps the per-ride fare at it).
 */
export function adjustQuote(
  engine: { items: readonly PricedItem[]; total: number },
  riders: RiderMix,
  baseFare: number,
  policyText?: string | null,
): AdjustedQuote {
  const items = engine.items;
  const unit: Partial<Record<keyof RiderMix, number>> = {};
  const engineAmount: Partial<Record<keyof RiderMix, number>> = {};
  const surcharges: QuoteLine[] = [];
  let engineChildrenPaying = 0;
  for (const item of items) {
    const parsed = parseItemLabel(item.label);
    if (parsed.rider) {
      unit[parsed.rider] = parsed.count > 0 ? item.amount / parsed.count : item.amount;
      engineAmount[parsed.rider] = item.amount;
      if (parsed.rider === "children") engineChildrenPaying = parsed.count;
    } else {
      surcharges.push({ rider_type: parsed.riderType, count: 1, unit_fare: pyRound(item.amount, 2), subtotal: item.amount });
    }
  }
  const rules = readPolicy(policyText ?? "");
  const applied: string[] = [];
  const unchanged = !policyChangesFare(rules);
  const adultFare = unit.adults ?? unit.seniors ?? unit.disabled ?? unit.children ?? baseFare;
  const fareOf = (rider: keyof RiderMix): number => {
    if (rules.free.has(rider)) return 0;
    let fare = unit[rider] ?? adultFare;
    if (rules.baseCap !== undefined && rider === "adults") fare = Math.min(baseFare, rules.baseCap);
    return fare * rules.multiplier;
  };
  const paying = (["adults", "seniors", "disabled"] as const).filter((r) => fareOf(r) > 0).reduce((n, r) => n + riders[r], 0);
  let payingChildren = engineChildrenPaying;
  if (rules.childrenFree) {
    // Without a limit every child rides free (0 paying adults × no limit is not NaN).
    const freeChildren = rules.childrenFree.perPayingAdult === Number.POSITIVE_INFINITY ? riders.children : Math.min(riders.children, paying * rules.childrenFree.perPayingAdult);
    payingChildren = Math.max(0, riders.children - freeChildren);
  }
  const lines: QuoteLine[] = [];
  for (const rider of ["adults", "seniors", "disabled", "children"] as const) {
    const count = rider === "children" ? payingChildren : riders[rider];
    if (count <= 0) continue;
    const fare = rider === "children" ? (unit.children ?? fareOf("adults")) * rules.multiplier : fareOf(rider);
    const label = { adults: "adult", seniors: "senior", disabled: "disabled", children: "child" }[rider];
    // Without a fare policy the engine's own amounts stand, to the cent.
    const subtotal = unchanged ? (engineAmount[rider] ?? pyRound(fare * count, 2)) : pyRound(fare * count, 2);
    lines.push({ rider_type: label, count, unit_fare: pyRound(fare, 2), subtotal });
  }
  if (!rules.waiveSurcharges) lines.push(...surcharges);
  const payingRiders = paying + payingChildren;
  if (rules.perPayingSurcharge > 0 && payingRiders > 0) {
    lines.push({ rider_type: "policy surcharge", count: payingRiders, unit_fare: rules.perPayingSurcharge, subtotal: pyRound(rules.perPayingSurcharge * payingRiders, 2) });
    applied.push(`surcharge of ${rules.perPayingSurcharge} per paying passenger`);
  }
  if (rules.perTripSurcharge > 0) {
    const trips = Math.max(1, payingRiders);
    lines.push({ rider_type: "policy surcharge", count: trips, unit_fare: rules.perTripSurcharge, subtotal: pyRound(rules.perTripSurcharge * trips, 2) });
    applied.push(`surcharge of ${rules.perTripSurcharge} per trip`);
  }
  let total = unchanged ? engine.total : pyRound(lines.reduce((s, l) => s + l.subtotal, 0), 2);
  const discounts: { label: string; amount: number }[] = [];
  if (rules.group && riders.adults >= rules.group.minAdults) {
    const off = pyRound((total * rules.group.percentOff) / 100, 2);
    discounts.push({ label: `Group discount (${rules.group.percentOff}% off)`, amount: off });
    total = pyRound(total - off, 2);
    applied.push(`group discount of ${rules.group.percentOff}%`);
  }
  if (rules.firstRideFree) {
    discounts.push({ label: "First ride of the day free", amount: total });
    total = 0;
    applied.push("first ride of the day free");
  }
  for (const r of rules.free) applied.push(`${r} ride free`);
  if (rules.childrenFree) applied.push("children ride free");
  if (rules.multiplier !== 1) applied.push("half price");
  if (rules.baseCap !== undefined) applied.push(`base fare capped at ${rules.baseCap}`);
  if (rules.waiveSurcharges && surcharges.length > 0) applied.push("surcharges waived");
  const ridersTotal = riders.adults + riders.children + riders.seniors + riders.disabled;
  const ticketedRiders = lines.filter((l) => l.rider_type in { adult: 1, senior: 1, disabled: 1, child: 1 }).reduce((n, l) => n + l.count, 0);
  const freeRiders = Math.max(0, ridersTotal - ticketedRiders);
  return { lines, discounts, total, freeRiders, applied, changed: applied.length > 0 };
}
