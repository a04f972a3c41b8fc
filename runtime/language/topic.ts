// Does a knowledge-base article answer the passenger's question? The benchmark's knowledge_base
// tool ranks articles by any shared word of three letters or more ("the", "can"), so it nearly
// always returns something: "Where can I buy a coffee?" came back with the card refund policy.
// Here a question's topic words (what is left after function words and the words every transit
// question shares) must appear in the article, as words, for the article to count as an answer;
// otherwise the kiosk says it does not know and refers the passenger to staff.

/** Function words (English, Spanish) and words every kiosk question shares: never a topic (stemmed, as words() gives them). */
const NOT_A_TOPIC: ReadonlySet<string> = new Set(
  `a an the and or but if of to in on at by for from with without about into onto over under near
  is are was were be been being am do does did done have has had having will would shall should can
  could may might must need needs want wants like get got go going come take taking bring bringing
  use using let allowed allow permitted ok okay please thanks thank hi hello hey
  i me my mine we us our you your he him his she her they them their it its this that these those
  there here what which who whom whose when where why how much many any some all every each no not
  yes just also too very really still now today tonight right only through across during before after
  somebody someone something anything anyone else
  train trains metro subway mrt tube rail station stations ride riding rides travel trip journey
  line lines system network kiosk service time car cars carriage carriages coach wagon board onboard
  el la los las un una unos unas de del al y o en con sin por para que qué es son está están hay
  puedo puede pueden quiero necesito mi mis tu su sus yo se lo le como cómo cuando cuándo donde dónde
  tren trenes estación estaciones línea viaje`
    .split(/\s+/)
    .filter(Boolean)
    .map(stem),
);

/** Letters and digits only, lower-cased; plural and verb endings trimmed so "bikes" finds "bike". */
function words(text: string): string[] {
  return (text.toLowerCase().normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The question's topic words: two letters or more, not a function word, not the system's own names. */
export function topicWords(question: string, ownNames: readonly string[] = []): string[] {
  const own = new Set(ownNames.flatMap(words));
  return [...new Set(words(question))].filter((w) => w.length > 1 && !NOT_A_TOPIC.has(w) && !own.has(w) && !/^\d+$/.test(w));
}

export interface Article {
  title: string;
  content: string;
  synonyms?: readonly string[];
}

/**
 * The article that answers a question of these topic words (topicWords): the one sharing the most
 * (the tool's order breaks ties) as long as it shares at least half of them ("Who won the Bulls
 * game last night?" shares only "last" and "night" with the operating hours), or undefined — the
 * kiosk does not know.
 */
export function answeringArticle<A extends Article>(topics: readonly string[], articles: readonly A[]): A | undefined {
  if (topics.length === 0) return undefined;
  let best: A | undefined;
  let bestHits = 0;
  for (const article of articles) {
    const vocabulary = new Set(words(`${article.title} ${article.content} ${(article.synonyms ?? []).join(" ")}`));
    const hits = topics.filter((t) => vocabulary.has(t)).length;
    if (hits > bestHits && hits * 2 >= topics.length) {
      best = article;
      bestHits = hits;
    }
  }
  return best;
}
