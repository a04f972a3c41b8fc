// "The airport" in every system, from the names themselves: a station is an airport station when
// its official, local or operator name says airport in any of the kiosk's scripts (an imported GTFS
// feed's "Airport" station, Beijing's "Daxing Jichang" and 2号航站楼, Doha's مطار حمد الدولي, an
// operator alias "O'Hare airport"). Landmarks do not count: a landmark near an airport is not one.
// "Terminal" alone does not either: bus and ferry terminals are stations too.
import { foldLatin } from "./text.ts";

/** What a passenger types for "the airport" in the kiosk's languages (English, Spanish, Chinese, Arabic). */
export const AIRPORT_WORDS: readonly string[] = ["airport", "aeropuerto", "机场", "機場", "مطار", "المطار"];

/** A name that says airport: the words above, pinyin jichang, and air terminal buildings (航站楼 hangzhanlou, 航廈). */
const AIRPORT_IN_NAME = /\b(?:airport|aeropuerto|jichang|hangzhanlou)\b|机场|機場|航站楼|航站樓|航廈|مطار/u;

/**
 * "Old Airport", "المطار القديم", "旧机场": a district named after an airport that moved (Doha's Al
 * Matar Al Qadeem), not where a passenger asking for "the airport" wants to go.
 */
const FORMER_AIRPORT = /\b(?:old|former)\s+airport\b|\bairport\s+(?:old|former)\b|المطار القديم|مطار قديم|旧机场|舊機場|老机场|老機場/u;

export function namesAnAirport(name: string): boolean {
  const folded = foldLatin(name);
  return AIRPORT_IN_NAME.test(folded) && !FORMER_AIRPORT.test(folded);
}

/** The ids of airport stations among `names` (station id → every name it goes by). */
export function airportStations(names: Iterable<readonly [string, readonly string[]]>): Set<string> {
  const out = new Set<string>();
  for (const [id, list] of names) if (list.some(namesAnAirport)) out.add(id);
  return out;
}
