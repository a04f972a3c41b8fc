// Is there service for this trip right now? The interlock's own reading (no policy code) of what
// the kiosk knows for certain: the framebook's service hours and the live disruption feed, never
// the passenger's or the model's words. Conservative: whatever it cannot rule out, it blocks.
//   - Hours: the framebook's operating_hours for the day (day key, weekend/weekday, default), a
//     range past midnight belonging to the day it opened; outside them only hops on a line the
//     framebook lists as running 24 hours may be travelled.
//   - Disruptions in effect (their valid_from/valid_until window; events shown on screen too):
//     structured fields first — `segment` (every track between two of its stations is closed,
//     whatever the line), `line` of a suspension or maintenance (the whole line), `station_id` of
//     a closure — then the operator's message: "All … suspended / holding", "all stations closed"
//     (the system is suspended), lines named in a sentence saying they are suspended or closed
//     (the disruption's own line, where its closed segment is given, only there), and stations named in a sentence saying they are closed. A closed station cannot be an end
//     of the trip, and cannot be passed through unless the message says trains skip or bypass it.
import type { Disruption } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { RouteError, routeEngineFor } from "../../../tools/network/router.ts";
import { lexiconFor } from "../../language/index.ts";
import { chineseLiftStations, pairKey, stationsListedClosed, chineseLinesNamed, closedStationPassable, CLOSURE_TYPES, singleTrackOnly, contingentMeasure, everyLineResumed, linesRunningInstead, namesStationPart, noticeSentences, OPENS_AGAIN, readArabicNotice, readChineseNotice, onEveryLine, saysLiftBack, SERVICE_OUT, saysLiftOut, skipDirection, skippedStations, speaksOfStationPartOnly, trackOnlyOn, trainsRunThrough, withoutAlternateService, withoutDependingClauses, withoutWordsThatStopNothing, withWordsWrittenOut, type SkipDirection } from "../../language/notices.ts";
import { disruptionInForce } from "../../language/when.ts";
import { mentionedStations } from "./stations.ts";
import { normalize } from "./text.ts";

export interface LocalTime {
  /** Local wall-clock time, "YYYY-MM-DDTHH:MM[:SS]" (no zone), as the kiosk clock or a case gives it. */
  iso: string;
  /** The day of the week when the clock's context names it (a case's temporal context). */
  day?: string | null;
}

const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
type Day = (typeof DAYS)[number];

function parseClock(time: LocalTime): { day: Day; minutes: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(time.iso);
  if (!m) return null;
  const named = (time.day ?? "").toLowerCase();
  const day = (DAYS as readonly string[]).includes(named) ? (named as Day) : DAYS[new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay()]!;
  return { day, minutes: Number(m[4]) * 60 + Number(m[5]) };
}

function range(text: unknown): { open: number; close: number } | null {
  if (typeof text !== "string") return null;
  const m = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const open = Number(m[1]) * 60 + Number(m[2]);
  let close = Number(m[3]) * 60 + Number(m[4]);
  if (close <= open) close += 24 * 60;
  return { open, close };
}

function hoursOf(system: SystemData, day: Day): { open: number; close: number } | null {
  const hours = system.framebook.operating_hours as Record<string, unknown>;
  const weekend = day === "saturday" || day === "sunday";
  for (const key of [day, weekend ? "weekend" : "weekday", "default"]) {
    const r = range(hours[key]);
    if (r) return r;
  }
  return null;
}

export type HoursVerdict = { open: true } | { open: false; reason: "outside_service_hours" | "service_hours_unknown"; detail: string };

/** Whether the system runs at `time` (its framebook's hours; yesterday's late service counts). */
export function serviceHours(system: SystemData, time: LocalTime): HoursVerdict {
  const clock = parseClock(time);
  if (!clock) return { open: false, reason: "service_hours_unknown", detail: `the kiosk clock '${time.iso}' is not a local time` };
  const today = hoursOf(system, clock.day);
  const yesterday = hoursOf(system, DAYS[(DAYS.indexOf(clock.day) + 6) % 7]!);
  if (!today) return { open: false, reason: "service_hours_unknown", detail: `the framebook gives no service hours for ${clock.day}` };
  if (clock.minutes >= today.open && clock.minutes < today.close) return { open: true };
  if (yesterday && clock.minutes + 24 * 60 < yesterday.close) return { open: true };
  return { open: false, reason: "outside_service_hours", detail: `${time.iso.slice(11, 16)} on ${clock.day} is outside service hours` };
}

/** The day of the week of the kiosk's clock ("monday"), as its hours are read. */
export function clockDay(time: LocalTime): string | undefined {
  return parseClock(time)?.day;
}

/** The framebook's close of the service day `time` belongs to (the early hours: the night before's), after its own midnight. */
export function usualClose(system: SystemData, time: LocalTime): number | undefined {
  const clock = parseClock(time);
  if (!clock) return undefined;
  const day = clock.minutes < 5 * 60 ? DAYS[(DAYS.indexOf(clock.day) + 6) % 7]! : clock.day;
  return hoursOf(system, day)?.close;
}

/** Line ids the framebook says run around the clock (operating_hours.twenty_four_hour_lines). */
export function allNightLines(system: SystemData): Set<string> {
  const list = (system.framebook.operating_hours as Record<string, unknown>).twenty_four_hour_lines;
  const out = new Set<string>();
  if (!Array.isArray(list)) return out;
  for (const name of list) {
    if (typeof name !== "string") continue;
    const id = system.aliasLine(name);
    if (system.lineById(id)) out.add(id);
  }
  return out;
}

/** What the live conditions close. */
export interface Closures {
  systemSuspended: string | null;
  /** Line id → why. */
  lines: Map<string, string>;
  /** Unordered station pair "A|B" → why (track closed between them, any line). */
  tracks: Map<string, string>;
  /** Station id → why, and whether trains still pass through it. */
  /** Stations closed or skipped; `bound`: only trains heading that way skip it ("Kimball-bound trains bypass Western"). */
  stations: Map<string, { why: string; passThrough: boolean; bound?: SkipDirection }>;
  /** Stations whose lift is out (for riders who need step-free access). */
  liftsOut: Map<string, string>;
  /**
   * Notices in force that say service stops somewhere the kiosk cannot map (no station, segment or
   * "all service" it can read), with the trips they may touch: those of the lines the notice names,
   * or every trip where it names none. Unless the operator decided otherwise (`if_unread`), the
   * trips they may touch are referred to staff; every other trip is sold.
   */
  unread: UnreadNotice[];
}

export interface UnreadNotice {
  notice: string;
  /** The lines whose trips it may touch; null: any trip of the system. */
  lines: readonly string[] | null;
  /** The operator's decision: refer those trips to staff (also when unconfirmed), or block them. */
  decision: "refer" | "block";
}

/**
 * Any wording that says trains stop, wider than CLOSING ("stopped every train", "shut every
 * station", "no L trains are running"): only ever used to refuse a sale, never to allow one. Not
 * where trains stop at a station ("Purple Line trains will stop at Sheridan") or "express stops".
 * Trains that "end at" or "turn back at" a station stop short of somewhere the words do not say;
 * buses that replace them ("shuttle buses replace … service") — but trains that "shuttle" run.
 */
const STOPPING =
  /\b((?:not|never|\w*n ?t) stops?|(?<!\b(?:express|local|all|only|regular|extra|additional|special) )stops?(?! (?:at|in) (?!\d|midnight|noon))|stopped|stopping|halt\w*|shut(?:s|ting| ?down)?|shuttle bus\w*|bus(?:es)? (?:will )?replac\w*|replac\w* (?:by|with) (?:shuttle )?bus\w*|bus bridges?|replacement bus\w*|close|closed|closes|closing|closure|closures|suspen\w*|cancel\w*|not (?:running|operating|in service|serving)|no (?:\w+ ){0,3}(?:service|services|trains?|metro|subway)|out of service|evacuat\w*|no longer (?:running|operating|serving)|ends? at|terminat\w*|turn(?:s|ing)? back|short[- ]turn\w*)\b/;

/**
 * The same in Chinese and Arabic ("全网…停止运营服务", "暂停营运", "封站", "只出不进", "إيقاف خدمات"),
 * and a notice that service resumes on some lines ("…号线恢复运行": the others may still be stopped).
 */
const STOPPING_ELSEWHERE = /停止运营|停止運營|停止营运|停止營運|暂停运营|暫停運營|暂停营运|暫停營運|停运|停運|停驶|停駛|封站|封闭|封閉|关闭|關閉|停止服务|停止服務|只出不进|只出不進|恢复运行|恢復運行|恢复运营|恢復營運|恢复营运|إيقاف|توقف|تعليق|إغلاق|مغلق/u;

/** "no down escalator service", "no elevator access", "no lift service": a station part out, not trains. */
const PART_SERVICE_OUT = /\bno (?:(?:up|down|up and down|upward|downward|street|platform)[- ]?(?:level )?)?(?:escalators?|elevators?|lifts?|stairs?|stairways?|entrances?|exits?) (?:service|access)\b/;
const CLOSING = /\b(suspended|suspension|closed|closure|out of service|replac(?:e|es|ed|ing) (?:\w+ ){0,3}(?:trains?|rail service|service|line)|no (?:\w+ ){0,4}service|no (?:\w+ ){0,2}trains?|not running|not operating|not run (?:any )?trains?|disrupted between|shut down|shutdown|shut|holding|halted)\b/;
const SYSTEM_NOUN = /^(service|services|trains|lines|stations|transit|rail)$/;
const SYSTEM_CLOSED = /\b(suspended|closed|holding|halted|shut down|out of service)\b/;

/**
 * "All MARTA rail service is suspended", "All stations are closed", "all public transit
 * suspended", "All BART trains holding" — but not "All Line 10 trains are out of service".
 */
function systemWide(clause: string, lineWords: ReadonlySet<string>): boolean {
  const w = clause.split(" ");
  for (let i = 0; i < w.length; i++) {
    if (w[i] !== "all") continue;
    for (let j = i + 1; j <= i + 4 && j < w.length; j++) {
      if (!SYSTEM_NOUN.test(w[j]!)) continue;
      const between = w.slice(i + 1, j);
      if (between.some((x) => x === "line" || x === "other" || lineWords.has(x) || /^\d/.test(x))) break;
      if (SYSTEM_CLOSED.test(w.slice(j).join(" "))) return true;
      break;
    }
  }
  return false;
}
const STATION_TYPES = new Set(["station_closure", "station_entry_restriction"]);

/**
 * Stations a sentence says are closed: a station named right before "station" or "closed"
 * ("Bay Fair station closed", "Taipei Main Station closed"); with `needsClosed`, the words after
 * it must also say closed ("… stations are closed").
 */
function closedStationMentions(system: SystemData, sentence: string, needsClosed: boolean): string[] {
  const w = normalize(sentence).split(" ");
  const out: string[] = [];
  const mentions = mentionedStations(system, sentence, null, true).filter((m) => m.start >= 0);
  // A list before the word "stations" ("the Al Shaqab and Al Messila Metro stations were closed"):
  // each name of it, read as the last one is.
  let listed: string[] = [];
  for (const [i, m] of mentions.entries()) {
    const after = w.slice(m.end, m.end + 6).join(" ");
    const before = w[m.start - 1] ?? "";
    if (before === "between" || before === "and" && w.slice(Math.max(0, m.start - 6), m.start).includes("between")) continue;
    const next = mentions[i + 1];
    if (next && /^(?:,|and|&|or)?$/.test(w.slice(m.end, next.start).join(" ").trim())) {
      listed.push(m.stationId);
      continue;
    }
    const group = [...listed, m.stationId];
    listed = [];
    const named = /^(?:(?:metro|subway|rail|train|mrt)\s+)?(station|stations|closed|is closed|is shut|shut|has closed)\b/.test(after) || /\bstation$/.test(w.slice(m.start, m.end).join(" "));
    if (!named) continue;
    // "the current Argyle station entrance is closed": a part of the station, which still serves riders.
    if (namesStationPart(after)) continue;
    if (needsClosed && !/\b(closed|suspended|out of service|shut)\b/.test(after)) continue;
    out.push(...group);
  }
  return out;
}

/** "No Brown, Green, Orange, Pink or Purple Line trains": "no" and "trains" with only line names between. */
function noLineTrains(clause: string, lineWords: ReadonlySet<string>): boolean {
  for (const m of clause.matchAll(/\bno ((?:\w+ ){1,12}?)trains?\b/g)) {
    const between = (m[1] ?? "").trim().split(" ");
    if (between.every((x) => lineWords.has(x) || ["line", "lines", "and", "or"].includes(x)) && between.some((x) => lineWords.has(x))) return true;
  }
  return false;
}

/** "between A and B", "from A (down) to B" in a sentence: its two ends, as the words name them. */
const SECTION_WORDS = /\b(?:between (.+?) and|from (.+?) (?:(?:down|up|out|over) )?to) (.+?)(?: (?:this|today|tonight|all|until|for|due|because)\b|$)/;

/**
 * The track pairs of one line between the two stations a sentence names as a section, as the
 * route planner closes a section (`expandLineClosures`: the stretch of the line's station list
 * between the two ends); none when the sentence names no section of that line, or names one the
 * planner cannot close alone (a loop line, where either way round may be meant): then the caller
 * closes the whole line.
 */
function sectionTracks(system: SystemData, lineId: string, sentence: string): string[] {
  const onLine = new Set(system.lineById(lineId)?.stations ?? []);
  // Every station the words may name, read by the kiosk's one station reader ("Civic Center" of
  // "Civic Center/UN Plaza"): the line tells two Belmonts apart.
  const end = (words: string): string | undefined => lexiconFor(system).find(words).flatMap((m) => m.candidates).find((id) => onLine.has(id));
  // The first "from … to" / "between … and" whose ends are stations of the line ("From Saturday 15
  // January to mid May 2022, the Wenhu line will be closed between Daan and Nanjing Fuxing").
  const words = normalize(sentence);
  for (const start of words.matchAll(/\b(?:between|from)\b/g)) {
    const m = SECTION_WORDS.exec(words.slice(start.index));
    if (!m) continue;
    const a = end(m[1] ?? m[2] ?? "");
    const b = end(m[3] ?? "");
    if (a && b && a !== b) return lineSectionTracks(system, lineId, a, b);
  }
  return [];
}

/** The track pairs the route planner closes for a section of a line (none where it cannot close it alone). */
function lineSectionTracks(system: SystemData, lineId: string, from: string, to: string): string[] {
  try {
    return routeEngineFor(system).expandLineClosures([{ line: lineId, from_station: from, to_station: to }]).map(([x, y]) => pairKey(x, y));
  } catch (err) {
    if (err instanceof RouteError) return [];
    throw err;
  }
}

/**
 * Each line with its own section ("replace the Line 4 between Xuanwu Men and Xidan, and the Line 1
 * between Fuxingmen and Xidan"): the section after the line's name, before the next line's.
 */
function ownSectionTracks(system: SystemData, line: { id: string; names: string[] }, named: readonly { id: string; names: string[] }[], sentence: string): string[] {
  const words = ` ${normalize(sentence)} `;
  const at = (names: readonly string[]): number => Math.min(...names.map((n) => words.indexOf(` ${n} `)).filter((i) => i >= 0));
  const start = at(line.names);
  if (!Number.isFinite(start)) return [];
  const next = Math.min(...named.filter((l) => l.id !== line.id).map((l) => at(l.names)).filter((i) => i > start));
  return sectionTracks(system, line.id, words.slice(start, Number.isFinite(next) ? next : undefined));
}

/** The sentence gives one section for the lines it names ("no [Brown] and [Purple] service between A and B"). */
function sectionFollowsLines(sentence: string): boolean {
  return (normalize(sentence).match(/\b(?:between|from)\b/g) ?? []).length === 1;
}

export { pairKey };

function segmentStations(segment: unknown): string[] {
  if (Array.isArray(segment)) return segment.filter((s): s is string => typeof s === "string");
  if (segment && typeof segment === "object") return segmentStations((segment as { stations?: unknown }).stations);
  return [];
}

/** Names by which an operator message may call a line ("Green Line", "Brown (Wenhu) Line", "Line 9", "Line S1"). */
function lineNames(system: SystemData): { id: string; names: string[] }[] {
  return system.lines.map((line) => {
    const names = new Set<string>([normalize(line.name)]);
    const base = line.name.replace(/\s*\(.*\)\s*/, " ").trim();
    names.add(normalize(base));
    const inside = /\(([^)]*)\)/.exec(line.name)?.[1];
    if (inside) names.add(normalize(`${inside} line`));
    // A colour-named line is called by its colour ("Brown, Green and Pink lines are suspended").
    if (/^[a-z]+$/.test(line.id) && !/^line\b/i.test(line.name)) {
      names.add(line.id);
      names.add(`${line.id} line`);
    }
    if (/^\w+$/.test(line.id)) names.add(`line ${line.id.toLowerCase()}`);
    return { id: line.id, names: [...names].filter((n) => n.length >= 3) };
  });
}

function sentences(message: string): string[] {
  return message.split(/(?<=[.!?;])\s+|\n+/).filter((s) => s.trim() !== "");
}

/** The part of a sentence before it turns to what still runs ("X suspended; Y operating normally"). */
function closingClause(sentence: string): string {
  sentence = withoutAlternateService(sentence);
  // Not at "not operating" / "no longer operating": that is the closing itself.
  return sentence.split(/\b(?<!\b(?:not|longer) )(?:operating|continu\w*|resum\w*|running normally|remains? open|unaffected)\b/i)[0] ?? sentence;
}

function hasWord(text: string, phrase: string): boolean {
  return ` ${text} `.includes(` ${phrase} `);
}

const namesWithLineWords = new WeakMap<SystemData, string[]>();

/**
 * The (normalized) text without the station names that carry a line's word ("Chicago (Brown)",
 * "Monroe (Red)"): a closed station's name does not name its line. Longest names first.
 */
function withoutStationNames(system: SystemData, text: string, lineWords: ReadonlySet<string>): string {
  let names = namesWithLineWords.get(system);
  if (!names) {
    names = [...new Set(system.stations.map((s) => normalize(s.name)))].filter((n) => n.split(" ").some((w) => lineWords.has(w))).sort((a, b) => b.length - a.length);
    namesWithLineWords.set(system, names);
  }
  let out = ` ${text} `;
  for (const name of names) out = out.split(` ${name} `).join(" ");
  return out.trim();
}

/** Read the disruptions in effect at `now` into what they close. */
function noClosures(): Closures {
  return { systemSuspended: null, lines: new Map(), tracks: new Map(), stations: new Map(), liftsOut: new Map(), unread: [] };
}

const readings = new WeakMap<SystemData, Map<string, Closures>>();

export function liveClosures(system: SystemData, disruptions: readonly Disruption[], now: string): Closures {
  const out = noClosures();
  let cache = readings.get(system);
  if (!cache) readings.set(system, (cache = new Map()));
  for (const d of disruptions) {
    if (!d || typeof d !== "object" || !disruptionInForce(d, now)) continue;
    // The same disruption is read once (every answer and purchase of a session checks it again).
    const key = JSON.stringify(d);
    let one = cache.get(key);
    if (!one) {
      one = readDisruption(system, d);
      if (cache.size > 256) cache.clear();
      cache.set(key, one);
    }
    out.systemSuspended ??= one.systemSuspended;
    out.unread.push(...one.unread);
    for (const field of ["lines", "tracks", "liftsOut"] as const) for (const [k, v] of one[field]) if (!out[field].has(k)) out[field].set(k, v);
    for (const [k, v] of one.stations) if (!out.stations.has(k)) out.stations.set(k, v);
  }
  return out;
}

/** What one disruption closes (whatever its validity window): the kiosk's reading of it. */
export function readDisruption(system: SystemData, d: Disruption): Closures {
  const out = noClosures();
  const names = lineNames(system);
  const lineWords = new Set(names.flatMap((l) => l.names.flatMap((n) => n.split(" "))).filter((x) => x !== "line"));
  const label = `${d.id ?? d.type}`;
  const type = String(d.type ?? "").toLowerCase();
  const message = typeof d.message === "string" ? withWordsWrittenOut(d.message) : "";
  const skip = trainsRunThrough(message);
  // A Chinese or Arabic notice, clause by clause (the one reading the policy gets too).
  const zh = readChineseNotice(system, message) ?? readArabicNotice(system, message);
  // Where its words place the stop, they are its scope, not the whole of the notice's own line.
  const zhPlaced = zh !== undefined && (zh.systemWide || zh.linesClosed.length + zh.sections.length + zh.stationsClosed.length > 0);
  // Structured scope.
  const segment = segmentStations(d.segment).filter((s) => system.hasStationId(s));
  const ownLine = typeof d.line === "string" && d.line !== "" ? system.aliasLine(d.line) : null;
  // A segment closes its tracks unless an advisory says nothing of closing ("reduced service").
  const saysClosing = CLOSING.test(normalize(message));
  const skipped = skippedStations(system, message, ownLine);
  if (segment.length >= 2 && (saysClosing || (CLOSURE_TYPES.has(type) && d.severity !== "info"))) {
    const inSegment = new Set(segment);
    for (const e of system.edges) if (inSegment.has(e.from) && inSegment.has(e.to)) out.tracks.set(pairKey(e.from, e.to), label);
    // A segment given by its ends ("DOHA-WKR", "DOHA-OQB") on the notice's own line: the line between them.
    if (ownLine !== null && system.lineById(ownLine)) for (const pair of lineSectionTracks(system, ownLine, segment[0]!, segment[segment.length - 1]!)) out.tracks.set(pair, label);
  } else if (skipped.length > 0) {
    // "Millbrae-bound trains skip Pittsburg/Bay Point": those stations, passed through; the line runs
    // (and trains the other way stop as usual).
    const bound = skipDirection(system, message, ownLine);
    for (const id of skipped) out.stations.set(id, { why: label, passThrough: true, ...(bound ? { bound } : {}) });
  } else if (typeof d.line === "string" && d.line !== "" && (type === "line_suspension" || type === "planned_maintenance" || type === "replacement_bus") && segment.length === 0 && !zhPlaced && !singleTrackOnly(message) && (saysClosing || d.severity !== "info")) {
    // (An advisory whose words close nothing — "Red and Purple line trains share tracks", "Boarding
    // Change at Belmont" — is no suspension of its line.)
    const id = system.aliasLine(d.line);
    // The section the words give ("[Blue] No trains between Ximen and Zhongxiao Fuxing"), else the whole line.
    const section = system.lineById(id) ? sentences(message).flatMap((sentence) => (CLOSING.test(normalize(sentence)) || SERVICE_OUT.test(sentence) ? sectionTracks(system, id, sentence) : [])) : [];
    // The line stopped (or a section of it) while others "provide alternate service": their shared track stays open.
    const instead = linesRunningInstead(system, message).filter((l) => l !== id);
    const ownTrack = new Set(trackOnlyOn(system, id, instead).map(([a, b]) => pairKey(a, b)));
    if (section.length > 0) for (const pair of section.filter((p) => instead.length === 0 || ownTrack.has(p))) out.tracks.set(pair, label);
    else if (instead.length > 0) for (const pair of ownTrack) out.tracks.set(pair, label);
    else if (system.lineById(id)) out.lines.set(id, label);
  }
  if (typeof d.station_id === "string" && system.hasStationId(d.station_id)) {
    if ((type === "elevator_outage" || /\b(elevator|lift)\b/i.test(message) || saysLiftOut(message)) && !saysLiftBack(message)) out.liftsOut.set(d.station_id, label);
    if (type === "station_closure") out.stations.set(d.station_id, { why: label, passThrough: closedStationPassable(message) });
  }
  // A Chinese lift notice names its stations in the sentence that says the lift is out.
  if (!saysLiftBack(message)) for (const id of chineseLiftStations(system, message)) out.liftsOut.set(id, label);
  // The operator's message, without the phrases that speak of stopping but stop nothing now
  // ("all stations will be closed at the normal time").
  const all = sentences(withoutWordsThatStopNothing(message));
  all.forEach((sentence, index) => {
    const norm = normalize(sentence);
    if (/\b(elevator|elevators|lift|lifts)\b/.test(norm) && (/\b(out of service|not working|broken|unavailable|closed)\b/.test(norm) || saysLiftOut(sentence))) {
      for (const m of mentionedStations(system, sentence)) out.liftsOut.set(m.stationId, label);
      return;
    }
    // A station closure's subject: "Guomao station closed…", "… active at Guomao station."
    // ("Argyle Temporary Station and Entrance Opens" names a station that opens, not one that closes.)
    if (index === 0 && STATION_TYPES.has(type) && !OPENS_AGAIN.test(sentence)) {
      for (const m of closedStationMentions(system, sentence, false)) if (!out.stations.has(m)) out.stations.set(m, { why: label, passThrough: closedStationPassable(message) });
    }
    const closing = (text: string): boolean => CLOSING.test(text) || SERVICE_OUT.test(text) || noLineTrains(text, lineWords);
    if (!closing(norm)) return;
    // "There will be no down escalator service to the Wenhu line platforms": a part of the station
    // is out (read as a lift above where it matters), not the line.
    if (PART_SERVICE_OUT.test(norm)) return;
    const clause = normalize(closingClause(sentence));
    if (!closing(clause)) return;
    if (systemWide(clause, lineWords) || onEveryLine(clause)) out.systemSuspended ??= label;
    const lineClause = withoutStationNames(system, clause, lineWords);
    const namedLines = names.filter((line) => line.names.some((n) => hasWord(lineClause, n)));
    for (const line of namedLines) {
      // The disruption's own line, named in its message, with a segment whose track is closed:
      // the segment is its scope ("Blue Line: no service between East Lake and Indian Creek").
      if (line.id === ownLine && out.tracks.size > 0) continue;
      // The lines named before the section its words give ("Line 1 is shut between A and B", "no
      // [Brown] and [Purple] train service between Belmont and Merchandise Mart"): their tracks
      // there; else the whole line.
      const section = namedLines.length === 1 || sectionFollowsLines(sentence) ? sectionTracks(system, line.id, sentence) : ownSectionTracks(system, line, namedLines, sentence);
      if (section.length > 0) for (const pair of section) out.tracks.set(pair, label);
      else if (!onClosedSection(system, line.id, sentence, out.tracks)) out.lines.set(line.id, label);
    }
    // "will not run trains between West Oakland and Embarcadero": no line named, so every line that has both ends.
    if (namedLines.length === 0 && sectionFollowsLines(sentence)) {
      for (const line of system.lines) for (const pair of sectionTracks(system, line.id, sentence)) out.tracks.set(pair, label);
    }
    for (const m of [...closedStationMentions(system, closingClause(sentence), true), ...stationsListedClosed(system, sentence)]) if (!out.stations.has(m)) out.stations.set(m, { why: label, passThrough: skip });
  });
  if (zh) {
    if (zh.systemWide) out.systemSuspended ??= label;
    for (const id of zh.linesClosed) out.lines.set(id, label);
    for (const section of zh.sections) for (const pair of lineSectionTracks(system, section.line, section.from, section.to)) out.tracks.set(pair, label);
    // (Its words that trains pass a station hold for the feed's station too: "北京南站临时停止运营服务".)
    for (const id of zh.stationsClosed) if (!out.stations.has(id) || zh.passThrough) out.stations.set(id, { ...out.stations.get(id), why: label, passThrough: zh.passThrough });
    // A clause it could not read may stop any trip of the lines it names (else of the notice's line, else any).
    const lines = zh.unreadLines.length > 0 ? zh.unreadLines : ownLine !== null && system.lineById(ownLine) ? [ownLine] : null;
    if (zh.unread.length > 0) out.unread.push(unreadNotice(d, label, lines));
  }
  const mapped = out.systemSuspended !== null || out.lines.size + out.tracks.size + out.stations.size + out.liftsOut.size > 0;
  // A measure taken only if something happens stops nothing now: it is no unread stop.
  // Nor does a part of a station that shuts ("the station entrance is closed"), or trains that
  // "resume stopping" somewhere.
  const inForce = noticeSentences(withoutWordsThatStopNothing(withoutDependingClauses(message)))
    .filter((sentence) => !contingentMeasure(sentence) && !speaksOfStationPartOnly(sentence))
    .join(" ")
    .replace(/\b(?:resumes?|resumed|resuming) stopping\b/gi, "resume")
    // "Some southbound [Green] trains end at Dapinglin or Jingmei": the others run on.
    .replace(/\b(?:some|a few|several)\b([^.]*?\btrains?) (?:will )?(?:end|terminate|turn back) at\b/gi, "$1 run to");
  // "…线路均已全部恢复运营": every line runs again, so its resume words leave nothing stopped.
  const elsewhere = everyLineResumed(inForce) ? inForce.replace(/恢复运行|恢復運行|恢复运营|恢復營運|恢复营运/gu, "") : inForce;
  // A planned-work notice whose words speak only of delays ("Delays between South Hayward and Fremont")
  // stops nothing: its type alone is no stop.
  const onlyDelays = (/\b(?:delays?|delayed|single[- ]track\w*|slower|reduced (?:service|frequency))\b/i.test(inForce) && !STOPPING.test(normalize(inForce))) || singleTrackOnly(inForce);
  const saysStopping = STOPPING.test(normalize(inForce)) || SERVICE_OUT.test(inForce) || STOPPING_ELSEWHERE.test(elsewhere) || (CLOSURE_TYPES.has(type) && d.severity !== "info" && !onlyDelays);
  if (!mapped && saysStopping) {
    const named = linesNamedIn(system, message);
    out.unread.push(unreadNotice(d, label, ownLine !== null && system.lineById(ownLine) ? [ownLine] : named.length > 0 ? named : null));
  }
  // The operator read the notice and said its unread words change nothing.
  if (d.if_unread === "ignore") out.unread = [];
  return out;
}

/**
 * "During this time, there will be no Wenhu line at Zhongxiao Fuxing station": the sentence names
 * stations of the line that a section this notice already closed reaches — the line is out there,
 * not everywhere.
 */
function onClosedSection(system: SystemData, line: string, sentence: string, tracks: ReadonlyMap<string, string>): boolean {
  const onLine = new Set(system.lineById(line)?.stations ?? []);
  const named = mentionedStations(system, sentence).map((m) => m.stationId).filter((id) => onLine.has(id));
  const reached = new Set([...tracks.keys()].flatMap((key) => key.split("|")));
  return named.length > 0 && named.every((id) => reached.has(id));
}

/** The lines a notice's words name, in English, Chinese or Arabic ("Line 2", "[Red]", "2号线", "文湖線", "الخط الأحمر"). */
export function linesNamedIn(system: SystemData, message: string): string[] {
  const words = normalize(message);
  const lineWords = lineNames(system);
  return [...new Set([...lineWords.filter((line) => line.names.some((n) => hasWord(words, n))).map((line) => line.id), ...chineseLinesNamed(system, message), ...lexiconFor(system).arabicLines(message)])];
}

function unreadNotice(d: Disruption, label: string, lines: readonly string[] | null): UnreadNotice {
  return { notice: label, lines, decision: d.if_unread === "block" ? "block" : "refer" };
}

const hopIndex = new WeakMap<SystemData, Map<string, Set<string>>>();

/** Lines joining two stations directly (the graph is undirected). */
export function hopLines(system: SystemData, a: string, b: string): ReadonlySet<string> {
  let index = hopIndex.get(system);
  if (!index) {
    index = new Map();
    for (const e of system.edges) {
      const key = pairKey(e.from, e.to);
      (index.get(key) ?? index.set(key, new Set()).get(key)!).add(e.line);
    }
    hopIndex.set(system, index);
  }
  return index.get(pairKey(a, b)) ?? new Set();
}

const PERMANENT = /\bstation is (?:now )?permanently closed\b|\bis (?:now )?permanently closed\b/;

/**
 * Stations the operator announced as permanently closed — in the system's knowledge base
 * (policies.json) or a fare/policy announcement in force: a station named right before
 * "(station) is permanently closed".
 */
const permanentCache = new WeakMap<SystemData, Map<string, Map<string, string>>>();

export function permanentClosures(system: SystemData, policyText: string | null): ReadonlyMap<string, string> {
  let bySystem = permanentCache.get(system);
  if (!bySystem) permanentCache.set(system, (bySystem = new Map()));
  const cached = bySystem.get(policyText ?? "");
  if (cached) return cached;
  const out = new Map<string, string>();
  if (bySystem.size > 16) bySystem.clear();
  bySystem.set(policyText ?? "", out);
  for (const text of [...system.policies.map((p) => p.content), policyText ?? ""]) {
    for (const sentence of sentences(text)) {
      if (!PERMANENT.test(normalize(sentence))) continue;
      const w = normalize(sentence).split(" ");
      for (const m of mentionedStations(system, sentence)) {
        if (m.start < 0) continue;
        if (/^(?:station )?is (?:now )?permanently closed\b/.test(w.slice(m.end, m.end + 5).join(" ")) && !out.has(m.stationId)) out.set(m.stationId, sentence.trim());
      }
    }
  }
  return out;
}
