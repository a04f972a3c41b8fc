// Is a typed request a plain trip — two stations the kiosk is sure of, riders read with confidence
// and not one word beyond that? The hybrid router answers such a text with the deterministic policy
// alone (no model time); anything else — a word it does not account for ("bike", "hotel", "by 9",
// "broken"), an ambiguous or unknown place, riders it cannot read, a return journey, a script it
// does not tokenise by spaces — goes to the model. Closed-world on purpose: a word outside the list
// is a reason to think, never something to ignore. Pure.
import type { SystemData } from "../../tools/data/system.ts";
import { sureStation, understand } from "./index.ts";

/** Words a plain trip request may contain besides station names (English and Spanish, lower-cased). */
const PLAIN_WORDS: ReadonlySet<string> = new Set(
  `i im i'm id i'd me my myself we us our need want wanna would like to from go get going travel travelling traveling ride take
  a an the one two three four five six seven eight nine ten single way one-way oneway trip journey ticket tickets fare fares
  price cost costs how much is it its it's what whats what's please pls plz thanks thank you and with plus for of just only
  adult adults child children kid kids senior seniors people person passengers riders grown-up grown-ups grownups
  wife husband partner friend son daughter mum mom mother dad father baby toddler infant he she he's she's hes shes is are
  aged age years year old yo yrs both over can could buy hi hello hey then at in there
  de a al del la el los las para quiero necesito ir boleto boletos billete billetes por favor uno una dos tres cuatro
  adulto adultos niño niños niña niñas mayor mayores y yo mi mis con cuánto cuanto cuesta años hijo hija`
    .split(/\s+/)
    .filter(Boolean),
);
/** Rider words: where one appears, the rider reading must be confident. */
const RIDER_WORDS = /\b(?:adults?|child(?:ren)?|kids?|seniors?|people|persons?|passengers|riders|grown-?ups?|wife|husband|partner|friend|son|daughter|mum|mom|mother|dad|father|baby|toddler|infant|aged?|years?|adultos?|niñ[oa]s?|mayores?|hij[oa]s?|años)\b/iu;
const MAX_PLAIN_CHARS = 200;

export type PlainReading = { plain: true } | { plain: false; why: string };

/**
 * Whether `text` asks only for a trip the kiosk can answer without judgement. `onScreen` says
 * which ends the passenger already chose on screen (the text need not name those).
 */
export function readPlainRequest(system: SystemData, text: string, onScreen: { origin: boolean; destination: boolean }): PlainReading {
  if (text.length > MAX_PLAIN_CHARS) return { plain: false, why: "a long text" };
  if (/[^\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]/u.test(text)) return { plain: false, why: "a script read by the model" };
  const u = understand(system, text);
  if (u.unknownPlace) return { plain: false, why: `an unknown place ('${u.unknownPlace}')` };
  if (u.trip.roundTrip) return { plain: false, why: "a return journey" };
  for (const m of u.trip.mentions) if (!sureStation(m)) return { plain: false, why: `an unsure station ('${m.words}')` };
  if (!onScreen.origin && !sureStation(u.trip.origin)) return { plain: false, why: "no origin the kiosk is sure of" };
  if (!onScreen.destination && !sureStation(u.trip.destination)) return { plain: false, why: "no destination the kiosk is sure of" };
  if (RIDER_WORDS.test(text) && (!u.riders || u.riders.confidence < 0.8)) return { plain: false, why: "riders the kiosk cannot read with confidence" };
  // Every word outside the station names must be one of the plain words.
  let rest = "";
  let from = 0;
  for (const m of [...u.trip.mentions].sort((a, b) => a.start - b.start)) {
    rest += ` ${text.slice(from, m.start)} `;
    from = Math.max(from, m.end);
  }
  rest += text.slice(from);
  const words = (rest.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? []).map((w) => w.replace(/’/g, "'").replace(/^[-']+|[-']+$/g, "")).filter(Boolean);
  for (const [i, w] of words.entries()) {
    // A number counts riders or tells an age ("2 adults", "she's 70"); any other ("at 9") is a time.
    if (/^\d{1,3}$/.test(w)) {
      const next = words[i + 1];
      const prev = words[i - 1];
      if ((next !== undefined && RIDER_WORDS.test(next)) || (prev !== undefined && /^(?:aged?|is|are|he's|she's|hes|shes|i'm|im|am)$/.test(prev))) continue;
      return { plain: false, why: `the number '${w}'` };
    }
    if (!PLAIN_WORDS.has(w)) return { plain: false, why: `the word '${w}'` };
  }
  return { plain: true };
}
