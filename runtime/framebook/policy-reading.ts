// What the kiosk understood of a framebook's fare policies, read once per entry so that the
// operator sees it before it takes effect (validation, `kiosk framebook apply|preview`, a
// publication): the effects it prices, when, whether it asks the passenger, and what it could not
// read. Pure.
import { readAnnouncement, readPart, readPolicy, unpriceableFareAnnouncement, type PolicyRules } from "../../tools/fares/policy-change.ts";
import { asksAboutOffer } from "../language/offers.ts";
import { announcedText, FarePolicyEntrySchema, type FarePolicyEntry } from "./fare-rules.ts";

export interface FarePolicyReading {
  policy_id: string;
  /** The operator's rule (exact) or the text as the fare engine reads it. */
  source: "rule" | "text";
  /** What the kiosk prices while the entry is in force. */
  effects: PolicyRules;
  valid_from?: string | undefined;
  valid_until?: string | undefined;
  /** The offer depends on something the passenger has (a card, an ID): the kiosk asks them. */
  asksPassenger: boolean;
  /** Fare clauses of the text the kiosk cannot read (none with a rule). */
  unread: string[];
  if_unread?: FarePolicyEntry["if_unread"];
}

/** The reading of one valid entry. */
export function readFarePolicy(entry: FarePolicyEntry): FarePolicyReading {
  const priced = announcedText(entry);
  const unpriceable = !entry.rule && unpriceableFareAnnouncement(entry.text);
  // Nothing read at all: the whole text is what was not understood.
  const clauses = unpriceable ? readAnnouncement(entry.text).unread : [];
  const unread = unpriceable && clauses.length === 0 ? [entry.text.trim()] : clauses;
  return {
    policy_id: entry.policy_id,
    source: entry.rule ? "rule" : "text",
    // Where a clause is not read, only what was read counts (a clause of an unread sentence is not).
    effects: readPolicy(unpriceable ? readPart(entry.text) : priced),
    valid_from: entry.valid_from,
    valid_until: entry.valid_until,
    asksPassenger: asksAboutOffer(priced),
    unread,
    if_unread: entry.if_unread,
  };
}

/** The readings of a framebook's valid `fare_policies` entries, with each one's index in the list. */
export function farePolicyReadings(framebook: object): { index: number; reading: FarePolicyReading }[] {
  const list = (framebook as { fare_policies?: unknown }).fare_policies;
  if (!Array.isArray(list)) return [];
  return list.flatMap((p: unknown, index) => {
    const entry = FarePolicyEntrySchema.safeParse(p);
    return entry.success ? [{ index, reading: readFarePolicy(entry.data) }] : [];
  });
}

/** The entry has fare clauses the kiosk cannot read and the operator has not said what to do. */
export function needsDecision(reading: FarePolicyReading): boolean {
  return reading.unread.length > 0 && reading.if_unread === undefined;
}

const money = (amount: number): string => amount.toFixed(2);
const minute = (iso: string): string => iso.replace("T", " ").slice(0, 16);

/** The effects in words ("seniors travel free", "every fare half price"). */
export function effectsInWords(effects: PolicyRules): string[] {
  const out: string[] = [];
  if (effects.free.has("seniors")) out.push("seniors travel free");
  if (effects.free.has("disabled")) out.push("disabled riders travel free");
  if (effects.childrenFree) {
    const limit = effects.childrenFree.perPayingAdult;
    out.push(Number.isFinite(limit) ? `children travel free (at most ${limit} per paying adult)` : "children travel free");
  }
  if (effects.multiplier !== 1) out.push(effects.multiplier === 0.5 ? "every fare half price" : `every fare ${Number(((1 - effects.multiplier) * 100).toFixed(2))}% off`);
  if (effects.baseCap !== undefined) out.push(`base fare capped at ${money(effects.baseCap)}`);
  if (effects.waiveSurcharges) out.push("surcharges waived");
  if (effects.perTripSurcharge > 0) out.push(`a ${money(effects.perTripSurcharge)} surcharge on every trip`);
  if (effects.perPayingSurcharge > 0) out.push(`a ${money(effects.perPayingSurcharge)} surcharge per paying passenger`);
  if (effects.group) out.push(`groups of ${effects.group.minAdults} or more adults get ${effects.group.percentOff}% off`);
  if (effects.firstRideFree) out.push("the first ride of the day is free");
  return out;
}

function windowInWords(reading: FarePolicyReading): string {
  const from = reading.valid_from ? `from ${minute(reading.valid_from)}` : "";
  const until = reading.valid_until ? `until ${minute(reading.valid_until)}` : "";
  return [from, until].filter(Boolean).join(" ") || "always in force";
}

/** What the kiosk does while in force with a clause it cannot read, by the operator's decision. */
const UNREAD_OUTCOME: Record<"refer" | "ignore" | "undecided", string> = {
  refer: "while in force, sales are referred to staff",
  ignore: "ignored: tickets are sold as if it were not there (the usual fare if nothing else is read); the text is still shown to passengers",
  undecided: "no if_unread decision: the framebook is refused until it has a rule or if_unread",
};

/** The reading in plain words, one line each. */
export function readingInWords(reading: FarePolicyReading): string[] {
  const effects = effectsInWords(reading.effects);
  const id = reading.policy_id;
  const lines = [`${id}: ${effects.length > 0 ? effects.join(", ") : "no fare change read"}; ${windowInWords(reading)}${reading.source === "rule" ? " (from its rule)" : ""}`];
  if (reading.asksPassenger) lines.push(`${id}: the offer depends on the passenger: the kiosk asks the passenger whether it applies to them (if it does, staff sell the ticket)`);
  for (const clause of reading.unread) lines.push(`${id}: NOT READ: "${clause}" \u2014 ${UNREAD_OUTCOME[reading.if_unread ?? "undecided"]}`);
  return lines;
}

/** Every fare policy of a framebook as JSON (`--json`): the reading with its effects in words. */
export function farePolicyReadingJson(framebook: object): Record<string, unknown>[] {
  return farePolicyReadings(framebook).map(({ reading }) => ({
    policy_id: reading.policy_id,
    source: reading.source,
    effects: effectsInWords(reading.effects),
    valid_from: reading.valid_from ?? null,
    valid_until: reading.valid_until ?? null,
    asks_passenger: reading.asksPassenger,
    unread: reading.unread,
    if_unread: reading.if_unread ?? null,
    in_words: readingInWords(reading),
  }));
}

/** Every fare policy of a framebook in words, one line each (none when it has none). */
export function farePolicyLines(framebook: object): string[] {
  return farePolicyReadings(framebook).flatMap(({ reading }) => readingInWords(reading));
}

/** Every fare policy of a framebook in words, under a heading ("" when it has none). */
export function farePolicyReadingText(framebook: object): string {
  const lines = farePolicyLines(framebook);
  if (lines.length === 0) return "";
  return `fare policies as the kiosk reads them:\n${lines.map((l) => `  ${l}`).join("\n")}\n`;
}
