// Does the passenger want to travel (and so a ticket), even when the words name one station or
// none? "I need 3 tickets", "I'm leaving from O'Hare", "Book it for two people please": people at
// a ticket machine write the trip in parts, and a question settles the missing part — declining
// or answering from the knowledge base would turn away a sale a tap could make. Pure.
import { topicWords } from "./topic.ts";

/** Words that ask for tickets or seats (Tunisian Arabic too: "تكيه", "بلايص" — ticket, places). */
const TICKETS =
  /\b(?:tickets?|tix|seats?|(?:book|reserve|buy|purchase|get)\s+(?:it|them|one|that|those)|boletos?|billetes?|pasajes?|viajes? de ida|ida y vuelta|(?:book|order|buy|purchase|get|reserve)\s+(?:me\s+)?(?:a\s+)?(?:train\s+|metro\s+|subway\s+)?(?:ride|trip|journey)s?)\b|买票|買票|购票|購票|车票|車票|票|تذكرة|تذاكر|تكيه|تيكي|تيكيات|بلاصة|بلاصات|بلايص/iu;
/** Words of setting out somewhere; only with a station named (alone, "when does the last train leave?"). */
const GOING =
  /\b(?:leav(?:e|es|ing)|depart(?:s|ing|ure)?|heading|going|(?:i'?m|i am) (?:here )?at|here at|go (?:from|to)|(?:want|wanna|like|need|have) to go|get to|travel(?:l?ing)?|trip|destination|coming from|out of|starting out|start(?:ing)? (?:out )?(?:in|at|from)|(?:i'?m|i am) in|mov(?:e|ing) from|try from|cutting out from|arrival is|arriving (?:at|in)|(?:i'?m|i am|we'?re|we are) visiting|fro|salgo|salir|salida|llegada|viajar|viajes?|ir a|irme a|ir de|ir desde|voy a|van a|va a|llego|llegar|regresar|regreso|volver|vuelvo|directions?|how (?:do|can|would) (?:i|we) get)\b|^\s*from\b|出发|出發|去|到|坐地铁|搭捷運|乘坐|前往|怎么走|怎麼走|ذاهب|رحلة|ماشي|نمشي/iu;
/** A question about prices or rules, not a request to travel: answered, not asked about, when no station is named. */
const PRICE_QUESTION = /\b(?:how much|price|prices|cost|costs|fare|fares|cuánto|cuanto|precio|tarifa)\b|多少钱|多少錢|票价|票價|كم/iu;
/** Words of a trip request that are no topic of a question (after topicWords' own function words). */
const TRIP_TALK = new Set(
  `ticket seat tix book booking reserve reservation purchase buy repurchase leave leav depart departing departure head heading destination
  coming out people person pax adult child kid senior group party one two three four five six seven eight nine ten twelve
  ll ve re st nd rd th need want wanted wanna please perfect great yeah yes ok okay sure fine last later make actually total order ride train travel
  nope anything something available search find look looking option options here
  بالله بلله بربي فضلك سمحت ايه إيه اه آه أ آ معلم
  boleto billete pasaje persona personas`.split(/\s+/),
);

export interface TravelWish {
  /** The words ask to travel: tickets or seats, riders counted, or setting out from or to a station named. */
  travels: boolean;
  /** …and speak of nothing else a question could be about ("with my bike", "a coffee"). */
  only: boolean;
}

/**
 * `stationWords`: the words of the station names the text mentions (no topic of their own; a name
 * alone is a trip in parts);
 * `ridersCounted`: the words say how many travel ("it's for 2 people"), which only a trip needs.
 */
export function travelWish(text: string, stationWords: readonly string[], ridersCounted: boolean, endCued = false): TravelWish {
  const named = stationWords.length > 0;
  const topics = topicWords(text, stationWords).filter((w) => !TRIP_TALK.has(w) && !/\d/.test(w));
  // A station's name alone ("cermak/chinatown", "Main Station."): where the passenger goes or starts.
  const bare = named && topics.length === 0;
  const travels = !(!named && PRICE_QUESTION.test(text)) && (TICKETS.test(text) || ridersCounted || (named && (GOING.test(text) || endCued)) || bare);
  if (!travels) return { travels, only: false };
  return { travels, only: topics.length === 0 };
}

/** A question about when trains run ("when does the last train leave?", "horario", 末班车, آخر قطار). */
const SERVICE_HOURS =
  /\b(?:(?:first|last|earliest|latest) (?:train|metro|subway|service)s?|(?:opening|operating|service|business) hours|hours of (?:service|operation)|how (?:late|early)|until what time|what time (?:do|does|is) (?:the )?(?:trains?|metro|subway|service|it) (?:start|stop|open|close|run|end|finish)|when (?:do|does|is) (?:the )?(?:trains?|metro|subway|service) (?:start|stop|run|open|close|end|finish)|(?:primer|último|ultimo) (?:tren|metro)|horarios?)\b|首班车|末班车|运营时间|首班車|末班車|營運時間|营运时间|أول قطار|آخر قطار|ساعات (?:العمل|التشغيل)|مواعيد/iu;

export function asksServiceHours(text: string): boolean {
  return SERVICE_HOURS.test(text);
}
