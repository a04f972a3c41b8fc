// Fare offers that depend on the passenger: "for free with your Hayya Card", "qualifying lower-income
// riders", "a surcharge for each ride using blue tickets", "凡持应届高考准考证的考生",
// "憑身分證明文件正本", "凡持电子票证…进站". The kiosk cannot see a card, an exam ticket or an ID, so it
// asks; the passenger's answer is one of two fixed statements the policies and the interlock read
// alike (the tap sends it as the passenger's words). Pure.
import type { SystemData } from "../../tools/data/system.ts";
import { readFareEffect, type FareEffect } from "../../tools/fares/fare-effect.ts";
import { unpriceableFareAnnouncement } from "../../tools/fares/policy-change.ts";
import { SURE } from "./index.ts";
import { lexiconFor } from "./lexicon.ts";
import type { StationMatch } from "./types.ts";
import { faresResumeLater, namesClockTime, namesUndatedDay, takesEffectFrom } from "./when.ts";

const CONDITION =
  /\bwith (?:your|a|an|the) ["“”']?[\p{L}\p{N} '-]{2,30}["“”']? (?:card|pass|ticket|id)\b|\b(?:holders? of|eligible|valid (?:id|card|pass)|show(?:ing)? (?:your|a|an) )|\b(?:qualifying|qualify|qualified|income[- ]qualified|enrolled|enrol|enroll|low[- ]income|means[- ]based)\b|\b(?:using|paid with|paying with|pay with) (?:\S+ ){0,3}?(?:paper |blue |magnetic )?(?:tickets?|fare ?cards?)\b|\bpay(?:s|ing)? (?:\S+ ){0,3}?(?:in|with|by) cash\b|\bcash fares?\b|\b(?:match |event |game )?ticket holders?\b|\b(?:[\w-]+ )?card ?holders?\b|\bsmart ?cards?\b|\bdesignated (?:[\w-]+ ){0,2}?stations\b|凡持|持有|持[^，,。；;]{0,12}?(?:票券|票|卡|证|證)|憑|凭|准考证|准考證|身分證|身份证|电子票证|電子票證|使用[^，,。；;]{0,8}?卡|以二维码|以二維碼|بطاقة|لحاملي|حاملي|لحملة/iu;

/**
 * A card or way of paying the offer names ("50% off all fares on Clipper", "with Ventra"): a name
 * written with a capital, not a day, a month or a holiday ("on Earth Day").
 */
const PAID_WITH =
  /\b(?:on|with|using|via) (?:a |an |the |your )?(?:same )?(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|New Year|Christmas|Labor|Memorial)\b)[A-Z][a-z][\w-]*\b(?! (?:Metro|Line|Rail|Transit|Subway|MRT|Day|Eve)\b)/u;
/** Who qualifies by what they are, which the counter does not say ("youth", "students", "ages 5 years through 18", "لطلاب"). */
const WHO = /\b(?:youths?|students?|veterans?|women|ladies|mothers|ages? \d+(?: years?)? (?:through|to|-) \d+)\b|\u0637\u0644\u0627\u0628/iu;

/** The announcement's offer depends on something the passenger has or is (a card, an ID, an exam ticket). */
export function offerNeedsPassenger(text: string): boolean {
  return CONDITION.test(text) || PAID_WITH.test(text) || WHO.test(text);
}

/** The kiosk asks whether the announcement's offer applies: it depends on the passenger and its fare is not read for everyone. */
export function asksAboutOffer(announcement: string | null | undefined): boolean {
  return !!announcement && unpriceableFareAnnouncement(announcement) && offerNeedsPassenger(announcement);
}

/** What the passenger's tap says (sent as their words; fixed, so every reader reads it the same). */
export const OFFER_APPLIES = "The offer in the notice applies to me";
export const OFFER_DOES_NOT_APPLY = "The offer in the notice does not apply to me";

/** The passenger's latest answer about the notice's offer, if they gave one. */
export function offerAnswer(texts: readonly string[]): "applies" | "does_not_apply" | undefined {
  let answer: "applies" | "does_not_apply" | undefined;
  for (const t of texts) {
    if (t.includes(OFFER_DOES_NOT_APPLY)) answer = "does_not_apply";
    else if (t.includes(OFFER_APPLIES)) answer = "applies";
  }
  return answer;
}

/** How the kiosk prices a trip under the fare announcement in force (one decision: the rule policy and the interlock both follow it). */
export type FarePricing =
  /** Ask whether the offer applies to the passenger. */
  | { kind: "ask" }
  /** The passenger says it applies and the kiosk reads no one price for it: staff decide. */
  | { kind: "staff" }
  /** The fare rules the announcement's words make (none: the usual fare); unread clauses leave it unpriceable. */
  | { kind: "rules"; text: string | null }
  /** The one effect the announcement names. */
  | { kind: "effect"; effect: FareEffect };

/**
 * The pricing under the announcement `text`, given `announced` (what announcementInForce read of
 * it: the text while its words say it is in force, else null) and the passenger's answer about its
 * offer. An offer that depends on the passenger is asked about: "it
 * does not apply" is the usual fare, "it applies" its one effect. An announcement for everyone that
 * the fare rules cannot read is priced by its one effect where that is a rise. Either way, only where
 * the kiosk reads exactly one effect and the announcement names no station or line (an offer for
 * some trips only) and no day it does not date; else the rules stand (and leave the trip
 * unpriceable) or staff decide. Before the day fares resume ("will resume fare collection on June
 * 29"), no fare is taken.
 */
export function farePricing(system: SystemData, text: string | null | undefined, announced: string | null, answer: "applies" | "does_not_apply" | undefined, now: string): FarePricing {
  if (announced === null) return text && faresResumeLater(text, now) && !namesPlace(system, text) ? { kind: "effect", effect: { kind: "free" } } : { kind: "rules", text: null };
  const asks = asksAboutOffer(announced);
  if (asks && answer === undefined) return { kind: "ask" };
  if (asks && answer === "does_not_apply") return { kind: "rules", text: null };
  if (asks) {
    const effect = oneEffect(system, announced, now);
    return effect ? { kind: "effect", effect } : { kind: "staff" };
  }
  const rise = unpriceableFareAnnouncement(announced) ? riseForEveryone(system, announced, now) : null;
  // A rise whose words say it takes effect later ("approved today … will take effect on March 1"): the usual fare until then.
  if (rise) return takesEffectFrom(announced, now) > now ? { kind: "rules", text: null } : { kind: "effect", effect: rise };
  return { kind: "rules", text: announced };
}

/**
 * A rise for everyone ("will increase from $1.70 to $1.80", "by 3.4%"), at any hour: an offer for
 * everyone may have a condition the kiosk does not see ("at designated stations", "on Transit Equity
 * Day"), and a lower fare sold on a missed condition is a wrong sale; a rise at some hours only
 * ("between 7:30 and 9 a.m.") is not read.
 */
function riseForEveryone(system: SystemData, text: string, now: string): FareEffect | null {
  const effect = namesClockTime(text) ? null : oneEffect(system, text, now);
  return effect && (effect.kind === "surcharge" || (effect.kind === "multiplier" && effect.factor > 1)) ? effect : null;
}

function oneEffect(system: SystemData, text: string, now: string): FareEffect | null {
  if (namesPlace(system, text) || namesUndatedDay(text, now)) return null;
  return readFareEffect(text);
}

const STATION_BEFORE = /(?:\b(?:at|from|to|entering|exiting|via)\s+(?:the\s+)?|\u81ea|\u5f9e|\u4ece|\u5728|\u0645\u062d\u0637\u0629\s*)$/iu;
const STATION_AFTER = /^\s*(?:\bstations?\b|\bstn\b|\u7ad9)/iu;

/** A station or line of the system, named in the text (an offer for some trips only). */
function namesPlace(system: SystemData, text: string): boolean {
  const lexicon = lexiconFor(system);
  // A station as a place of the offer ("from Nanjing Sanmin station", "at Irving Park"), not a name
  // in another's ("Lusail Tram").
  const asStation = (m: StationMatch): boolean => STATION_BEFORE.test(text.slice(Math.max(0, m.start - 16), m.start)) || STATION_AFTER.test(text.slice(m.end, m.end + 12));
  if (lexicon.find(text).some((m) => m.confidence >= SURE && asStation(m))) return true;
  if (lexicon.chineseLines(text).length > 0 || lexicon.arabicLines(text).length > 0) return true;
  const folded = text.toLowerCase();
  return system.lines.some((l) => {
    const name = l.name.replace(/\s*\(.*\)\s*$/, "").toLowerCase();
    return new RegExp(`(?<![\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "u").test(folded);
  });
}
