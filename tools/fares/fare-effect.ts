// What one fare offer or fare change does to each rider's fare, read from its words alone — "women
// travel for free", "a 3% rebate", "车费半价", "打7折", "a 20-cent fee", "will increase from $1.70 to
// $1.80", "never pay more than $5 each day". Who the offer is for is not read here: the kiosk asks the
// passenger (runtime/language/offers.ts). A text that names two different effects ("from 20% to
// 50%", "$1.75 more … 25 cents more") reads as none, so nothing is priced on a guess. Pure.
import { pyRound } from "../py/number.ts";
import { adjustQuote, amountIn, type AdjustedQuote, type PricedItem, type RiderMix } from "./policy-change.ts";

export type FareEffect =
  | { kind: "free" }
  /** The fare × factor (0.5 = half fare, 1.054 = 5.4 % more). */
  | { kind: "multiplier"; factor: number }
  /** Taken off each rider's fare (not below 0). */
  | { kind: "amount_off"; amount: number }
  /** Added to each rider's fare. */
  | { kind: "surcharge"; amount: number }
  /** No rider pays more than this. */
  | { kind: "cap"; amount: number };

const CHINESE_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** ASCII digits and percent signs, lower case ("٥٠٪" → "50%", "５折" → "5折"). */
function normalized(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\uff10-\uff19]/g, (d) => String(d.charCodeAt(0) - 0xff10))
    .replace(/[\u066a\uff05]/g, "%")
    .toLowerCase();
}

// Written with escapes: the compiled CLI is ASCII-only (scripts/ascii-output.ts).
const CURRENCY = String.raw`(?:[$\u00a5\u20ac\u00a3]|nt\$|qr|qar|usd|cny|twd|rmb)`;
const MONEY = String.raw`(?:${CURRENCY}\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s*(?:dollars?|yuan|riyals?|\u5143)|\d+\s*-?\s*cents?)`;


const FREE =
  /\b(?:ride|rides|riding|travel|travels|go|goes)\s+(?:\w+\s+){0,4}?(?:for\s+)?free\b|\bfree (?:travel|rides?|trips?|journeys?|fares?|of (?:charge|cost))\b|\bfor free\b|\bcomplimentary\b|\bat no (?:charge|cost)\b|\bwithout (?:a |any )?(?:tickets?|fares?|paying)\b|\bwaive[sd]? (?:the |all |their )?fares\b|\bride free\b|\bbe free\b|\u514d\u8d39|\u514d\u8cbb|\u0645\u062c\u0627\u0646/u;
const PERCENT_OFF =
  /(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)\s*(?:off|discount(?:ed)?|rebate|reduction|cheaper|lower|less)\b|\b(?:discount|rebate|reduction) of (\d+(?:\.\d+)?)\s*(?:%|percent|per cent)|\u062e\u0635\u0645\s*(\d+(?:\.\d+)?)\s*%/u;
const HALF = /\bhalf[- ](?:price|fare)s?\b|\bhalf (?:the|of the) (?:usual |normal |regular )?(?:fare|price)\b|\bhalf off\b|\u534a\u4ef7|\u534a\u50f9/u;
/** "打7折", "票价7折", "八折": the fare × 0.7, 0.8. */
const ZHE = /(?:^|[^\d.])(\d(?:\.\d)?)\s*\u6298|([\u4e00\u4e8c\u4e24\u5169\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d])\u6298/gu;
const AMOUNT_OFF = new RegExp(String.raw`(${MONEY})\s*(?:off\b|discount\b|\u8eca\u8cbb\u6298\u6263|\u8f66\u8d39\u6298\u6263|\u6298\u6263)`, "u");
const RISE_WORDS = String.raw`(?:increase[sd]?|rise[sn]?|rose|go(?:es)? up|went up|raised?|higher|more)`;
/** "from $1.70 to $1.80", "the single-ride fare of $1.25 will increase to $1.50". */
const FROM_TO = new RegExp(String.raw`\b(?:from|of) (${MONEY}) (?:(?:will |would )?(?:increase|rise|go up|change)s? )?to (${MONEY})`, "g");
const RISE_BY = new RegExp(String.raw`\b${RISE_WORDS}\s+(?:\w+\s+){0,3}?(?:by|of)\s+(${MONEY})|(${MONEY})\s+(?:more|extra|(?:fare\s+)?(?:increase|rise|hike))\b|(${MONEY})\)?\s+(?:[\w-]+\s+){0,3}?(?:fee|surcharge)\b|\b(?:fee|surcharge) of (${MONEY})`, "g");
const PERCENT_UP = new RegExp(String.raw`\b${RISE_WORDS}\s+(?:\w+\s+){0,8}?(?:by|of)\s+(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)|(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)\s+(?:fare\s+)?(?:increase|rise)|(?:\u4e0a\u8c03|\u4e0a\u8abf|\u8c03\u6da8|\u8abf\u6f32|\u4e0a\u6da8|\u4e0a\u6f32|\u6da8\u4ef7|\u6f32\u50f9)\s*(\d+(?:\.\d+)?)\s*%`, "gu");
const CAP = new RegExp(String.raw`\b(?:never|not|no more than|nobody|no one)\s+(?:\w+\s+){0,3}?(?:more than|over|exceed(?:ing)?)\s+(${MONEY})|\bfor (?:just|only) (${MONEY})|\bcost(?:s)? only (${MONEY})`, "g");

/** Every percentage the text gives ("62% of the commuters", "from 15% to 5%"). */
function percentages(t: string): Set<number> {
  return new Set([...t.matchAll(/(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)/g)].map((m) => Number(m[1])));
}

/** The one fare effect the text names, or null when it names none or more than one. */
export function readFareEffect(text: string): FareEffect | null {
  const t = normalized(text);
  const found: FareEffect[] = [];
  if (FREE.test(t)) found.push({ kind: "free" });
  const off = PERCENT_OFF.exec(t);
  if (off) found.push({ kind: "multiplier", factor: pyRound(1 - Number(off[1] ?? off[2] ?? off[3]) / 100, 4) });
  if (HALF.test(t)) found.push({ kind: "multiplier", factor: 0.5 });
  for (const zhe of t.matchAll(ZHE)) found.push({ kind: "multiplier", factor: pyRound((zhe[1] !== undefined ? Number(zhe[1]) : (CHINESE_DIGITS[zhe[2] ?? ""] ?? 0)) / 10, 4) });
  const amountOff = AMOUNT_OFF.exec(t);
  if (amountOff) found.push({ kind: "amount_off", amount: amountIn(amountOff[1] ?? "") ?? 0 });
  const rises = /\b(?:increase|rise|raise|go up|more)/.test(t);
  for (const m of t.matchAll(FROM_TO)) {
    const [from, to] = [amountIn(m[1] ?? ""), amountIn(m[2] ?? "")];
    if (from !== undefined && to !== undefined && to > from && rises) found.push({ kind: "surcharge", amount: pyRound(to - from, 2) });
  }
  for (const m of t.matchAll(RISE_BY)) found.push({ kind: "surcharge", amount: amountIn(m[1] ?? m[2] ?? m[3] ?? m[4] ?? "") ?? 0 });
  for (const m of t.matchAll(PERCENT_UP)) found.push({ kind: "multiplier", factor: pyRound(1 + Number(m[1] ?? m[2] ?? m[3]) / 100, 4) });
  for (const m of t.matchAll(CAP)) found.push({ kind: "cap", amount: amountIn(m[1] ?? m[2] ?? m[3] ?? "") ?? 0 });
  const distinct = new Map(found.map((f) => [JSON.stringify(f), f]));
  if (distinct.size !== 1) return null;
  const [effect] = distinct.values();
  if (!effect || !sensible(effect)) return null;
  // A percentage read beside another ("revised from 15% to 5%", "62% of the commuters"): which is the offer is a guess.
  if (effect.kind === "multiplier" && percentages(t).size > 1) return null;
  return effect;
}

function sensible(e: FareEffect): boolean {
  if (e.kind === "multiplier") return e.factor > 0 && e.factor < 2 && e.factor !== 1;
  if (e.kind === "free") return true;
  return e.amount > 0;
}

/**
 * The quote for a rider mix under the effect: the fare engine's items, the effect applied to the
 * whole (a multiplier to the total, amounts to each rider), rounded to the cent.
 */
export function quoteWithEffect(engine: { items: readonly PricedItem[]; total: number }, riders: RiderMix, baseFare: number, effect: FareEffect): AdjustedQuote {
  const plain = adjustQuote(engine, riders, baseFare, null);
  const heads = riders.adults + riders.children + riders.seniors + riders.disabled;
  const total = cents(
    effect.kind === "free"
      ? 0
      : effect.kind === "multiplier"
        ? plain.total * effect.factor
        : effect.kind === "amount_off"
          ? Math.max(0, plain.total - effect.amount * heads)
          : effect.kind === "surcharge"
            ? plain.total + effect.amount * heads
            : Math.min(plain.total, effect.amount * heads),
  );
  const words = fareEffectInWords(effect);
  const change = cents(plain.total - total);
  if (change > 0) return { ...plain, discounts: [...plain.discounts, { label: `Offer: ${words}`, amount: change }], total, applied: [words], changed: true };
  if (change < 0) return { ...plain, lines: [...plain.lines, { rider_type: "fare change", count: 1, unit_fare: -change, subtotal: -change }], total, applied: [words], changed: true };
  return { ...plain, applied: [words], changed: effect.kind === "free" };
}

/** To the cent, a half cent up, as a price is written in decimals (3.71 × 0.5 = 1.855 → 1.86). */
function cents(amount: number): number {
  return Math.round(Number((amount * 100).toPrecision(12))) / 100;
}

/** The effect in words, for the passenger and the operator ("free", "30% off", "0.25 more per rider"). */
export function fareEffectInWords(e: FareEffect): string {
  if (e.kind === "free") return "travel free";
  if (e.kind === "multiplier") return e.factor < 1 ? (e.factor === 0.5 ? "half price" : `${pyRound((1 - e.factor) * 100, 2)}% off`) : `${pyRound((e.factor - 1) * 100, 2)}% more`;
  if (e.kind === "amount_off") return `${e.amount.toFixed(2)} off per rider`;
  if (e.kind === "surcharge") return `${e.amount.toFixed(2)} more per rider`;
  return `at most ${e.amount.toFixed(2)} per rider`;
}
