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

/** The fare rules an announcement makes, as the quote applies them. */
export interface PolicyRules {
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

/** A signed amount: "-$1.00" and "$-1.00" are −1, never 1 (a minus sign is never dropped). */
export function amountIn(text: string): number | undefined {
  const m = /((?<!\w)[-\u2212]\s*)?(?:[$¥€£]|NT\$|QR|QAR|USD|CNY|TWD)?\s*([-\u2212]\s*)?(\d+(?:\.\d+)?)(\s*-?\s*cents?\b)?/i.exec(text);
  if (!m) return undefined;
  const sign = m[1] || m[2] ? -1 : 1;
  // "50-cent", "50 cents": hundredths.
  return sign * (m[4] ? pyRound(Number(m[3]) / 100, 2) : Number(m[3]));
}

// Ordinary rewordings of the rules above ("Pensioners travel at no charge", "every single fare is
// 50% off"). Read clause by clause; a clause with a negation, a future start or a rider-specific
// discount is not read at all, so the announcement stays unpriced (and nothing is sold under it).
const SENIORS = /\b(seniors?|senior citizens?|pensioners?|retirees?|the elderly|elderly (?:riders|passengers|people)|older (?:riders|passengers|people|adults)|over[- ]6[0-9]s|(?:riders|passengers|people|travell?ers|those|anyone|everyone|customers)\s+(?:aged\s+|over\s+|of\s+)?6[0-9]\s*(?:\+|(?:years? (?:old )?)?(?:and|or) (?:over|above|older|up))|aged 6[0-9]\s*(?:\+|and (?:over|above|older))|6[0-9]\+)/;
const DISABLED = /\b(disabled (?:riders|passengers|people|travell?ers|customers)|(?:riders|passengers|people|travell?ers|customers) with (?:a )?disabilit(?:y|ies)|wheelchair users)\b/;
const CHILDREN = /\b(children|kids|child|minors|under[- ]1[0-9]s)\b/;
const TRAVEL_FREE = /\b(?:ride|rides|travel|travels|go|goes)\s+(?:for\s+)?free\b|\bat no (?:charge|cost)\b|\bno (?:charge|cost|fare) for\b|\bfree of charge\b|\bwithout (?:charge|paying)\b|\bpay nothing\b|\bno fare\b|\b(?:ride|rides|travel|travels) for nothing\b|\bfree (?:travel|rides?|trips?|journeys?|fares?)\b|\bfree to (?:ride|travel|use)\b/;
const NOT_NOW = /\b(no longer|not|never|isn'?t|aren'?t|won'?t|ends?|ended|ending|discontinued|cancell?ed|withdrawn|tomorrow|next (?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|from (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|will (?:be|ride|travel|get|cost|pay))\b/;
const GROUP =
  /\b(?:groups?|parties|party) of (\d+)(?:\+| or more)? (?:adults|people|passengers|riders)\b[^.]*?\b(\d+(?:\.\d+)?)\s*(?:%|percent|per cent) (?:off|discount)|\b(\d+) or more adults (?:travell?ing |riding )?together\b[^.]*?\b(\d+(?:\.\d+)?)\s*(?:%|percent|per cent) (?:off|discount)/;
/** Small numbers in words, as group sizes are written ("parties of four or more adults"). */
const SMALL_NUMBERS: Record<string, string> = { two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", ten: "10" };
// [$¥€£], escaped: a String.raw template keeps what it is written with, and the compiled CLI is ASCII-only (scripts/ascii-output.ts).
// A leading minus sign stays part of the amount, so "-$1" reads as −1 (and is then not read as a fee or cap).
const MONEY = String.raw`((?:(?<!\w)[-\u2212]\s*)?(?:(?:[$\u00a5\u20ac\u00a3]|nt\$|qr|qar|usd|cny|twd)\s*[-\u2212]?\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s*(?:dollars?|yuan|riyals?)|\d+\s*-?\s*cents?))`;
/** An amount added to a fare: "a $0.50 fee applies", "an added $0.50 surcharge", "$1 extra". */
const FEE = new RegExp(
  String.raw`${MONEY}\s+(?:\w+\s+){0,2}?(?:fee|surcharge|charge|extra)\b|\b(?:added|extra|additional)\s+${MONEY}\s+(?:\w+\s+){0,2}?(?:fee|surcharge|charge)\b|\b(?:fee|surcharge|charge) of ${MONEY}|\b(?:fares?|prices?)\s+(?:rise|rises|go up|goes up|increase|increases|are raised|is raised)\s+by\s+${MONEY}`,
);
const PER_TRIP = /\b(?:every|each|all|per|any)\s+(?:single\s+)?(?:trips?|rides?|journeys?|fares?|tickets?)\b/;
const PER_PASSENGER = /\b(?:every|each|per)\s+(?:paying\s+)?(?:passenger|rider|person|traveller|traveler)\b/;
const BASE_CAP = new RegExp(
  [
    String.raw`\bbase fares?\s+(?:are\s+|is\s+)?(?:capped|limited)\s+(?:at|to)\s+${MONEY}`,
    String.raw`\bbase fares?\s+(?:of\s+)?no more than\s+${MONEY}`,
    String.raw`\bno base fares?\s+(?:will\s+|shall\s+|may\s+|can\s+)?(?:exceeds?|be more than|costs? more than)\s+${MONEY}`,
    String.raw`\b(?:nobody|no one|no-one|no passenger|no rider)\s+pays more than\s+${MONEY}\s+(?:in\s+|for\s+(?:the\s+)?)?base fares?`,
  ].join("|"),
);
/** Conditions on a fee or cap that the quote cannot see. */
const CONDITION = /\b(?:if|when|unless|paid|paying by|using|cash|cards?|peak|rush|between|before|after|during|only|except|airport|stations?)\b/;
const WAIVED = /\b(?:all\s+|any\s+)?surcharges?\s+(?:are\s+|is\s+)?(?:waived|dropped|removed|suspended|lifted)\b|\bno surcharges?\b/;
const PERCENT_OFF =
  /\b(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)\s+(?:off|discount|reduction|cheaper|lower|less)\b|\b(?:discount|reduction) of (\d+(?:\.\d+)?)\s*(?:%|percent|per cent)|\b(?:save|saving|cut by|reduced by|lowered by|discounted(?: by)?|marked down(?: by)?)\s+(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)/;
const HALF = /\bhalf[- ](?:price|fare)s?\b|\b(?:cut|reduced|lowered) (?:by|in) half\b|\bhalf the (?:usual |normal |regular )?(?:fare|price)\b|\b(?:fares?|prices?|tickets?) (?:are |is |will be )?halved\b|\bhalf off\b/;
/** An offer on a later ride of the day, not the one being bought. */
const LATER_RIDE = /\b(?:second|2nd|third|3rd|next|subsequent|return|connecting|onward)\b[^.]{0,24}\b(?:trips?|rides?|journeys?)\b|\bsame day\b/;

/** Free for every rider: the offer names no one ("free rides on buses and trains", "everyone … at no charge", "our entire system is free to ride"). */
const EVERYONE_FREE = /\b(?:everyone|everybody|all (?:riders|passengers|customers)|(?:our |the )?(?:entire|whole) (?:system|network)|free rides? on|rides? (?:are|is) free|free (?:travel|rides?|trips?) (?:on|across|throughout)|at no charge|offer(?:s|ing)? (?:\w+ ){0,2}?a free ride)\b/;
/** Words naming who qualifies for an offer, or what they must hold. */
const QUALIFIER = /\b(?:with (?:a|an|your|the|their)|holders?|holding|show(?:ing)?|present(?:ing)?|cards?|ticket holders|pass(?:es)?|ids?|students?|members?|veterans?|employees?|eligible|qualifying|low[- ]income|candidates?)\b/;
const PENNY = /\bpenny (?:rides?|fares?|tickets?)\b/;
const PERCENT_UP = /\b(?:fares?|prices?)\s+(?:will\s+)?(?:increase|rise|go up)\s+(?:by\s+)?(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)/;
const ALL_FARES = /\b(all|every|each|any)\b[^.]{0,30}\b(fares?|tickets?|rides?|trips?|journeys?)\b|\b(fares?|tickets?|prices?)\b[^.]{0,30}\b(are|is|cost|costs)\b/;

/**
 * No fare is taken from anyone: "CTA will not be collecting fares", "customers will not have to
 * purchase mobile tickets", "service … fare free on July 10 and 11", "#ZeroFare". Read before the
 * negations below, which these words contain; an end or a later start ("no longer", "tomorrow") still
 * leaves the clause unread.
 */
const NO_FARE_TAKEN = /\b(?:will not|won'?t|do not|does not) be collecting (?:any )?fares\b|\b(?:will not|won'?t|do not|don'?t|does not|doesn'?t) have to (?:pay|purchase|buy)\b|\bfare[- ]free\b|\bzero[- ]?fares?\b/;
function takesNoFare(lower: string): boolean {
  return NO_FARE_TAKEN.test(lower) && !QUALIFIER.test(lower) && !/\b(?:no longer|ends?|ended|ending|tomorrow|next)\b/.test(lower);
}
/** Every rider rides free and no surcharge is taken (a new object each time: readers add to its set). */
function freeForAll(): Partial<PolicyRules> {
  return { free: new Set(["adults", "seniors", "disabled"]), childrenFree: { perPayingAdult: Number.POSITIVE_INFINITY }, waiveSurcharges: true };
}

/** One clause's rules in other words than the pack's, or null when it is not read with confidence. */
function rewordedClause(clause: string): Partial<PolicyRules> | null {
  const t = clause.toLowerCase();
  if (takesNoFare(t)) return freeForAll();
  if (NOT_NOW.test(t)) return null;
  const group = GROUP.exec(t.replace(/\b(two|three|four|five|six|seven|eight|nine|ten)\b/g, (w) => SMALL_NUMBERS[w] ?? w));
  if (group) {
    const percentOff = Number(group[2] ?? group[4]);
    return percentOff > 0 && percentOff < 100 ? { group: { minAdults: Number(group[1] ?? group[3]), percentOff } } : null;
  }
  const riderGroups = [SENIORS.test(t) && "seniors", DISABLED.test(t) && "disabled", CHILDREN.test(t) && "children"].filter((g): g is "seniors" | "disabled" | "children" => !!g);
  if (riderGroups.length > 0) {
    // Only "travel free" is read for a rider type; a rider-specific discount is not.
    if (!TRAVEL_FREE.test(t) || PERCENT_OFF.test(t) || HALF.test(t)) return null;
    const out: Partial<PolicyRules> = { free: new Set(riderGroups.filter((g) => g !== "children")) };
    if (riderGroups.includes("children")) {
      const limit = /\b(?:limit(?:ed to)?|up to|maximum(?: of)?|max\.?)\s*(\d+)\b[^.]*\bper (?:paying )?adult/.exec(t) ?? /\b(\d+) (?:children|kids) per (?:paying )?adult/.exec(t);
      out.childrenFree = { perPayingAdult: limit ? Number(limit[1]) : Number.POSITIVE_INFINITY };
    }
    return out;
  }
  // "A $0.50 fee applies to every trip", "each trip has an added $0.50 surcharge", "$1 extra per
  // paying passenger".
  const fee = FEE.exec(t);
  // A condition the kiosk cannot check ("paid in cash", "at peak times"): not read.
  if ((fee || BASE_CAP.test(t)) && CONDITION.test(t)) return null;
  if (fee) {
    const amount = amountIn(fee[1] ?? fee[2] ?? fee[3] ?? fee[4] ?? "");
    if (amount === undefined || amount <= 0) return null;
    return PER_PASSENGER.test(t) ? { perPayingSurcharge: amount } : PER_TRIP.test(t) ? { perTripSurcharge: amount } : null;
  }
  // "base fares capped at $2.00", "surcharges waived".
  const cap = BASE_CAP.exec(t);
  if (cap) {
    const amount = amountIn(cap.slice(1).find((g) => g !== undefined) ?? "");
    return amount !== undefined && amount > 0 ? { baseCap: amount } : null;
  }
  if (WAIVED.test(t)) return { waiveSurcharges: true };
  // "offering free rides on CTA buses and trains", "inviting everyone to ride … at no charge": every
  // rider, unless the clause names who qualifies (a card, a ticket, students: the passenger is asked).
  if (TRAVEL_FREE.test(t) && EVERYONE_FREE.test(t) && !QUALIFIER.test(t)) return freeForAll();
  // "penny rides": each ride costs one cent.
  if (PENNY.test(t) && !QUALIFIER.test(t)) return { baseCap: 0.01 };
  const rise = PERCENT_UP.exec(t);
  if (rise && !CONDITION.test(t.replace(PERCENT_UP, ""))) {
    const percent = Number(rise[1]);
    return percent > 0 && percent < 100 ? { multiplier: pyRound(1 + percent / 100, 4) } : null;
  }
  // "a 10% discount … for every second fare-paying trip made on the same day": not this ride's fare.
  if (LATER_RIDE.test(t)) return null;
  if (HALF.test(t) && ALL_FARES.test(t)) return { multiplier: 0.5 };
  const off = PERCENT_OFF.exec(t);
  if (off && ALL_FARES.test(t)) {
    const percent = Number(off[1] ?? off[2] ?? off[3]);
    return percent > 0 && percent < 100 ? { multiplier: pyRound(1 - percent / 100, 4) } : null;
  }
  return null;
}

/**
 * Clauses: sentences split again at ",", ";", "but" and "and" (not "65 and over"), so that each
 * rule stands alone ("Seniors ride free, and students pay a reduced fare" is two). A bare subject
 * list ("Pensioners and wheelchair users travel free") is joined back to the clause it belongs to.
 */
function clauses(text: string): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    let pending = "";
    for (const raw of sentence.split(/\s*(?:[,;]|\bbut\b|\band\b(?!\s+(?:over|above|older|up|under)\b))\s*/i)) {
      const piece = raw.trim();
      if (!piece) continue;
      const joined = pending ? `${pending} and ${piece}` : piece;
      if (!announcesFareChange(piece) && piece.split(/\s+/).length <= 3) {
        pending = joined;
        continue;
      }
      out.push(joined);
      pending = "";
    }
    if (pending) out.push(pending);
  }
  return out;
}

/** Add what `more` announces to `into` (the first reading of each rule wins; free riders add up). */
function mergeRules(into: PolicyRules, more: Partial<PolicyRules>): void {
  for (const r of more.free ?? []) into.free.add(r);
  into.childrenFree ??= more.childrenFree;
  if (into.multiplier === 1 && more.multiplier !== undefined) into.multiplier = more.multiplier;
  into.group ??= more.group;
  into.baseCap ??= more.baseCap;
  into.waiveSurcharges ||= more.waiveSurcharges ?? false;
  into.perPayingSurcharge ||= more.perPayingSurcharge ?? 0;
  into.perTripSurcharge ||= more.perTripSurcharge ?? 0;
}

/** The pack's exact wording, else the rewordings, for one clause (null: not read). */
function clauseRules(clause: string): PolicyRules | null {
  const t = clause.toLowerCase();
  if (NOT_NOW.test(t) && !takesNoFare(t)) return null;
  const exact = readExact(clause);
  // "Seniors pay half price": a discount for one rider type is not one for every fare.
  if (exact.multiplier !== 1 && (SENIORS.test(t) || DISABLED.test(t) || CHILDREN.test(t))) return null;
  if (policyChangesFare(exact)) return exact;
  const reworded = rewordedClause(clause);
  if (!reworded) return null;
  const rules = readExact("");
  mergeRules(rules, reworded);
  return rules;
}

const FIRST_RIDE = /\bfirst ride of the day is free\b|\b(?:the |your |a passenger'?s )?(?:day'?s )?first (?:ride|trip|journey)(?: of the day| today| of today)? (?:is free|is free of charge|costs nothing|is on us)\b/i;
const PAY_WAY = String.raw`(?:pay(?:ing)? (?:by|with|using|via|in)|when (?:you )?pay|if you pay|with (?:a |an |your )?[\w-]+ card)`;
const SAVING = String.raw`(?:save|saving|off|discount\w*|cheaper|reduced|half)`;
const PAYMENT_DISCOUNT = new RegExp(String.raw`\b${PAY_WAY}\b[^.]*\b${SAVING}\b|\b${SAVING}\b[^.]*\b${PAY_WAY}\b`);
/** The announcement says this passenger has not ridden yet today ("This is the passenger's first ride"). */
const IS_FIRST_RIDE = /\bthis is (?:the passenger'?s|your|their) first (?:ride|trip|journey)\b|\b(?:this|the) passenger (?:has|hasn'?t) not (?:ridden|travell?ed)(?: yet)? today\b|\b(?:this|the) passenger has not (?:ridden|travell?ed)(?: yet)? today\b/i;

/** One reading of an announcement (readAnnouncement). */
export interface AnnouncementReading {
  rules: PolicyRules;
  /** The fare clauses read on their own, outside any sentence left unread. */
  read: string[];
  /** The fare clauses the kiosk cannot read (each would make a quote a guess). */
  unread: string[];
}

/** One reading of an announcement: the rules it makes, clause by clause, and what was and was not read. */
export function readAnnouncement(text: string): AnnouncementReading {
  const rules = readExact("");
  const parts = clauses(text);
  // The one rule the pack spreads over two sentences ("First ride … is free. This is … first ride.").
  rules.firstRideFree =
    (readExact(text).firstRideFree || (parts.some((c) => FIRST_RIDE.test(c)) && IS_FIRST_RIDE.test(text))) && !parts.some((c) => FIRST_RIDE.test(c) && NOT_NOW.test(c.toLowerCase()));
  const unread: string[] = [];
  // A discount for one way of paying ("pay by card and save 10%"): the quote cannot know how the
  // passenger pays, so the whole sentence stays unread.
  for (const sentence of text.split(/(?<=[.!?])\s+/)) if (PAYMENT_DISCOUNT.test(sentence.toLowerCase())) unread.push(sentence);
  const unreadSentences = [...unread];
  const read: string[] = [];
  for (const clause of parts) {
    if (!announcesFareChange(clause)) continue;
    const more = clauseRules(clause);
    if (more) mergeRules(rules, more);
    else if (!(rules.firstRideFree && FIRST_RIDE.test(clause))) unread.push(clause);
    // A clause of a sentence left unread ("pay by card and save 10% on all fares") only has a
    // meaning with the rest of it.
    if (more && !unreadSentences.some((s) => s.includes(clause))) read.push(clause);
  }
  return { rules, read, unread };
}

/**
 * The part of an announcement the kiosk reads, as an announcement of its own: its fare clauses
 * read, one sentence each ("" when none was).
 */
export function readPart(text: string): string {
  return readAnnouncement(text)
    .read.map((c) => (/[.!?]$/.test(c) ? c : `${c}.`))
    .join(" ");
}

/** Read the fare rules a policy text announces (none when it is about something else). */
export function readPolicy(text: string): PolicyRules {
  return readAnnouncement(text).rules;
}

/** The benchmark's own wordings, read from the whole text. */
function readExact(text: string): PolicyRules {
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
/** An Arabic sentence saying prices stay as they are ("أسعار الاشتراكات للطلاب ثابتة، ولا تختلف عن العام الماضي"). */
const ARABIC_UNCHANGED = /[^.!?\u061f]*(?:ثابتة|لا تختلف|لن تتغير|دون تغيير|بدون تغيير|دون زيادة|بدون زيادة)[^.!?\u061f]*/gu;

export function announcesFareChange(text: string): boolean {
  // Saying fares stay as they are ("same BART fare applies, no additional charge") is not a change.
  const t = text
    .toLowerCase()
    .replace(/\b(same|usual|regular|normal)\b[^.,;()]{0,20}\bfares?\b[^.,;()]{0,12}\b(appl(y|ies)|unchanged)\b/g, " ")
    .replace(/\bno (additional|extra) (charge|fare|cost)s?\b|\bfares? (are |remain |stay )?unchanged\b/g, " ")
    // The gates, media and offices fares go through are not what travel costs ("fare gates will be
    // open", "new fare media", "Reduced Fare offices"), nor is a reference to a free period already read.
    .replace(/\bfare ?(?:gates?|box(?:es)?|media|products?|balances?|collection|machines?|vending machines?|readers?|inspectors?|evasion)\b|\breduced fare (?:offices?|programs?|cards?|ids?)\b|\b(?:this|the|that) (?:period of free rides?|free[- ]ride period)\b|\b(?:touch|tap|swipe|scan|validate|present)\w*\s+(?:their|your|a|the)\s+fare\b/g, " ")
    // How to pay is not what it costs ("please pay by Yikatong Card or contactless").
    .replace(/\bpay (?:by|with|using|via) (?:a |an |the )?(?:[\w-]+ ){0,2}?(?:cards?|contactless|app|phone)(?: or (?:a |an |the )?(?:[\w-]+ ){0,2}?(?:cards?|contactless|app|phone))?\b/g, " ");
  return (
    /\b(quarter|third|half)\s+off\b|\boff\s+(the\s+)?(total|fares?|prices?)\b|\bpenny\s+(rides?|fares?|tickets?)\b|\bcomplimentary\b/.test(t) ||
    /\b(fares?|prices?|priced|pricing|surcharges?|charge[sd]?|fees?|discount(?:s|ed)?|cheaper|reduced|no charge|no cost|at no cost|free of charge|half|percent|per ?cent|on us|costs?)\b|%|\bpay\b/.test(t) ||
    /\b(ride|rides|riding|travel|travels|go|goes|trips?|journeys?|tickets?)\b[^.]{0,40}\bfree\b|\bfree\b[^.]{0,20}\b(travel|rides?|trips?|journeys?|tickets?|fares?)\b|\bfor free\b/.test(t) ||
    // "#ZeroFare for #BetterAir", "customers will not have to purchase tickets": no fare is charged.
    /\bzero[- ]?fares?\b|\bfare[- ]?free\b|\b(?:not|n'?t|no longer) (?:have|need) to (?:pay|purchase|buy)\b/.test(t) ||
    // "allow riders to board any train without a ticket", "Free service continues Sunday": no fare, in other words.
    /\bwithout (?:a |any )?(?:tickets?|fares?|paying)\b|(?<!\b(?:bus|shuttle) )\bfree (?:train |metro |subway |rail )?service\b/.test(t) ||
    // "Fixed-route bus and rail services will be free on Tuesday", "All … lines will be free beginning at 9 p.m.".
    /\b(?:services?|lines?|trains?|rail|metro|subway|system|transit|rides?)\b[^.]{0,30}?\b(?:will be|are|is|be)\s+free\b/.test(t) ||
    // Chinese and Arabic fare words: free, offer, discount, fare, charge, price, reduction ("免费乘坐",
    // "车资免费", "مجانا", "زيادة سعر تذكرة المترو").
    /免费|免費|优惠|優惠|折扣|打折|半价|半價|票价|票價|车资|車資|车费|車費|收费|收費|减免|減免|مجان|خصم|أجرة|تعرفة|رسوم|سعر|أسعار|اسعار|تخفيض/u.test(text.replace(ARABIC_UNCHANGED, " "))
  );
}

/**
 * The text announces a fare change that readPolicy cannot price — nothing in it is read, or one of
 * its fare clauses is not — so a quote under it is a guess.
 */
export function unpriceableFareAnnouncement(text: string | null | undefined): boolean {
  if (!text || !announcesFareChange(text)) return false;
  const { rules, unread } = readAnnouncement(text);
  return !policyChangesFare(rules) || unread.length > 0;
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
  if (rules.multiplier !== 1) applied.push(rules.multiplier === 0.5 ? "half price" : `${pyRound((1 - rules.multiplier) * 100, 2)}% off`);
  if (rules.baseCap !== undefined) applied.push(`base fare capped at ${rules.baseCap}`);
  if (rules.waiveSurcharges && surcharges.length > 0) applied.push("surcharges waived");
  const ridersTotal = riders.adults + riders.children + riders.seniors + riders.disabled;
  const ticketedRiders = lines.filter((l) => l.rider_type in { adult: 1, senior: 1, disabled: 1, child: 1 }).reduce((n, l) => n + l.count, 0);
  const freeRiders = Math.max(0, ridersTotal - ticketedRiders);
  return { lines, discounts, total, freeRiders, applied, changed: applied.length > 0 };
}
