// Reading the disruption feed like a station supervisor would: which stations or lines are out,
// whether the planned route is affected, and which restrictions to plan around.
import type { SystemData } from "../../../tools/data/system.ts";
import { routeEngineFor } from "../../../tools/network/router.ts";
import { findStations } from "./freetext.ts";
import { lexiconFor } from "../../language/index.ts";
import { chineseLiftStations, pairKey, stationsListedClosed, CLOSURE_TYPES, linesRunningInstead, singleTrackOnly, readArabicNotice, readChineseNotice, onEveryLine, saysLiftBack, SERVICE_OUT, saysLiftOut, skipDirection, skippedStations, trackOnlyOn, trainsRunThrough, withoutAlternateService, withWordsWrittenOut, type SkipDirection } from "../../language/notices.ts";
import { disruptionInForce } from "../../language/when.ts";

export interface FeedDisruption {
  id?: string | null;
  line?: string | null;
  segment?: unknown;
  type?: string | null;
  severity?: string | null;
  message?: string | null;
  alternative?: string | null;
  eta_resolution?: string | null;
  valid_from?: string | null;
  valid_until?: string | null;
  station_id?: string | null;
}

export interface Restrictions {
  station_restrictions: { station: string; restriction: "closed" | "skip" | "no_transfer" }[];
  line_closures: { line: string; from_station?: string; to_station?: string }[];
  segment_closures: [string, string][];
}

export interface DisruptionImpact {
  disruption: FeedDisruption;
  inEffect: boolean;
  /** Every line of the system is suspended / all stations closed. */
  systemWide: boolean;
  /** Stations the passenger cannot use to board or alight. */
  unusableStations: Set<string>;
  /** Stations whose lift or step-free access is out: usable by riders who can take the stairs. */
  liftsOut: Set<string>;
  /** Lines without service (whole line) or with a closed section. */
  closedLines: Set<string>;
  restrictions: Restrictions;
  /** A station closure whose notice says trains still run through the station without stopping. */
  passThrough: boolean;
  /** Skipped stations are skipped only by trains heading this way ("Kimball-bound trains bypass Western"). */
  skipBound?: SkipDirection;
}


const SUSPENDED = /\b(suspended|closed|no service|not running|shut ?down|holding)\b/i;
const SYSTEM_WIDE =
  /\ball\b[^.]*\b(service|trains|lines|stations|public transit)\b[^.]*\b(suspended|closed|holding)\b|\ball stations (?:are )?closed\b/i;

function segmentIds(segment: unknown): string[] {
  if (Array.isArray(segment)) return segment.filter((s): s is string => typeof s === "string");
  if (segment && typeof segment === "object" && Array.isArray((segment as { stations?: unknown }).stations)) {
    return segmentIds((segment as { stations: unknown }).stations);
  }
  return [];
}

/** Lines named in sentences that say the service is suspended. */
/** "No Brown, Green, Orange, Pink or Purple Line trains": "no" and "trains" with only line names between. */
function noLineTrains(sentence: string, lineWords: ReadonlySet<string>): boolean {
  for (const m of sentence.toLowerCase().matchAll(/\bno ((?:[\p{L}\p{N}]+,? ){1,12}?)trains?\b/gu)) {
    const between = (m[1] ?? "").replace(/,/g, " ").trim().split(/\s+/);
    if (between.every((x) => lineWords.has(x) || ["line", "lines", "and", "or"].includes(x)) && between.some((x) => lineWords.has(x))) return true;
  }
  return false;
}

function suspendedLines(system: SystemData, message: string): Set<string> {
  const out = new Set<string>();
  const lineWords = new Set(system.lines.flatMap((l) => l.name.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w !== "" && w !== "line"));
  for (const sentence of message.split(/(?<=[.!;])\s+/)) {
    if (!/\b(suspended|remain suspended|not running|closed|out of service|no service|not operating|not in service|not run (?:any )?trains?|disrupted between|shut ?down|shut|no (?:\w+ ){0,2}trains|replac(?:e|es|ed|ing) (?:\w+ ){0,3}(?:trains?|rail service|service|line))\b/i.test(sentence) && !SERVICE_OUT.test(sentence) && !noLineTrains(sentence, lineWords)) continue;
    // "The elevator at X on Line 10 is out of service" says nothing about the trains.
    if (/\b(elevators?|lifts?|escalators?|ticket (?:machines?|office)|toilets?|restrooms?|entrances?|exits?)\b/i.test(sentence)) continue;
    if (/\b(operating normally|resuming|continue)\b/i.test(sentence) && !/\bsuspended\b/i.test(sentence)) continue;
    // Only the clause before "suspended" names what is out ("X suspended. Y operating normally").
    const clause = withoutAlternateService(sentence).split(/\b(?:operating|continu|resum)/i)[0] ?? sentence;
    for (const line of system.lines) {
      const names = [line.name, line.name.replace(/\s*\(.*\)$/, ""), `${line.id} line`];
      const color = line.name.match(/^(\w+) Line/i)?.[1];
      if (color) names.push(`${color}`);
      const lower = clause.toLowerCase();
      if (
        names.some((n) => {
          const t = n.toLowerCase();
          const at = lower.indexOf(t);
          return at >= 0 && !/[\p{L}\p{N}]/u.test(lower[at + t.length] ?? "") && !/[\p{L}\p{N}]/u.test(lower[at - 1] ?? "");
        })
      ) {
        out.add(line.id);
      }
    }
  }
  return out;
}

export function analyseDisruption(system: SystemData, d: FeedDisruption, now: string): DisruptionImpact {
  const message = withWordsWrittenOut(d.message ?? "");
  const impact: DisruptionImpact = {
    disruption: d,
    inEffect: disruptionInForce(d, now),
    systemWide: false,
    unusableStations: new Set(),
    liftsOut: new Set(),
    closedLines: new Set(),
    restrictions: { station_restrictions: [], line_closures: [], segment_closures: [] },
    passThrough: trainsRunThrough(message),
  };
  if (!impact.inEffect) return impact;
  const type = d.type ?? "";
  // A lift out is read whatever the notice's severity: it decides whether a rider's trip suits them.
  if ((type === "elevator_outage" || (type !== "station_closure" && d.station_id && saysLiftOut(message))) && !saysLiftBack(message)) {
    for (const sid of d.station_id ? [d.station_id] : liftStations(system, message, d.line)) impact.liftsOut.add(sid);
    return impact;
  }
  if (d.severity === "info") return impact;
  const line = d.line ? system.aliasLine(d.line) : undefined;
  const knownLine = line && system.lineById(line) ? line : undefined;
  const segment = segmentIds(d.segment);
  // A Chinese notice, clause by clause (the one reading the interlock gets too), after the feed's own
  // section where it gives one: the structured fields come first.
  const zh = readChineseNotice(system, message) ?? readArabicNotice(system, message);
  if (zh) {
    if (segment.length >= 2 && knownLine) {
      impact.closedLines.add(knownLine);
      impact.restrictions.line_closures.push({ line: knownLine, from_station: segment[0]!, to_station: segment[segment.length - 1]! });
    }
    impact.systemWide = zh.systemWide;
    for (const id of zh.linesClosed) {
      impact.closedLines.add(id);
      impact.restrictions.line_closures.push({ line: id });
    }
    for (const section of zh.sections) {
      impact.closedLines.add(section.line);
      impact.restrictions.line_closures.push({ line: section.line, from_station: section.from, to_station: section.to });
    }
    for (const id of zh.stationsClosed) {
      impact.unusableStations.add(id);
      impact.restrictions.station_restrictions.push({ station: id, restriction: zh.passThrough ? "skip" : "closed" });
    }
    impact.passThrough = zh.passThrough;
    return impact;
  }

  const everyLine = (SERVICE_OUT.test(message) || SUSPENDED.test(message)) && onEveryLine(message);
  if ((SYSTEM_WIDE.test(message) || everyLine) && d.severity === "critical") {
    impact.systemWide = true;
    return impact;
  }

  // (A delay on a section — "福寿岭至八宝山区段列车限速运行" — closes nothing.)
  if (segment.length >= 2 && (CLOSURE_TYPES.has(type) || SUSPENDED.test(message) || SERVICE_OUT.test(message))) {
    // "No service between A and B": the section's track is closed on that line (or on any line).
    const first = segment[0] as string;
    const last = segment[segment.length - 1] as string;
    if (knownLine) impact.restrictions.line_closures.push({ line: knownLine, from_station: first, to_station: last });
    else for (let i = 0; i + 1 < segment.length; i++) impact.restrictions.segment_closures.push([segment[i] as string, segment[i + 1] as string]);
    if (knownLine) impact.closedLines.add(knownLine);
    // The section's inner stations have no trains on that line.
    for (const sid of segment) impact.unusableStations.add(sid);
    return impact;
  }

  // "Millbrae-bound trains skip Pittsburg/Bay Point": those stations, passed through; the line runs.
  const skipped = type === "station_closure" ? [] : skippedStations(system, message, knownLine);
  if (skipped.length > 0) {
    for (const sid of skipped) {
      impact.unusableStations.add(sid);
      impact.restrictions.station_restrictions.push({ station: sid, restriction: "skip" });
    }
    impact.passThrough = true;
    const bound = skipDirection(system, message, knownLine);
    if (bound) impact.skipBound = bound;
    return impact;
  }

  if (type === "station_closure" || type === "station_entry_restriction") {
    const listed = stationsListedClosed(system, message);
    const named = d.station_id ? [d.station_id] : listed.length > 0 ? listed : findStations(system, message).slice(0, 1).map((m) => m.station.id);
    for (const sid of named) {
      impact.unusableStations.add(sid);
      if (type === "station_closure") impact.restrictions.station_restrictions.push({ station: sid, restriction: "skip" });
    }
    return impact;
  }

  if (knownLine && (type === "line_suspension" || type === "planned_maintenance" || type === "replacement_bus") && !singleTrackOnly(message)) {
    const closure = lineClosure(system, knownLine, message, /\bbetween\s+(.+?)\s+and\s+(.+?)(?:[.,;]|$)/i);
    // The line stopped (or a section of it) while others "provide alternate service": their shared track stays open.
    const instead = linesRunningInstead(system, message).filter((l) => l !== knownLine);
    const ownTrack = trackOnlyOn(system, knownLine, instead);
    if (instead.length > 0 && closure.from_station === undefined) impact.restrictions.segment_closures.push(...ownTrack);
    else if (instead.length > 0) impact.restrictions.segment_closures.push(...sectionOffTrack(system, closure, ownTrack));
    else impact.restrictions.line_closures.push(closure);
    impact.closedLines.add(knownLine);
    return impact;
  }

  // Weather and other advisories: lines named as suspended in the message.
  const named = suspendedLines(system, message);
  for (const id of named) {
    impact.closedLines.add(id);
    // A line named only in the words, with its section ("No Red Line trains from Howard to Belmont").
    // One section for the lines named ("no [Brown] and [Purple] service between A and B"): on each;
    // else each line's own ("replace the Line 4 between Xuanwu Men and Xidan, and the Line 1 between
    // Fuxingmen and Xidan"): the first section whose ends are both on it.
    impact.restrictions.line_closures.push(lineClosure(system, id, message, SECTION));
  }
  if (knownLine && (SUSPENDED.test(message) || SERVICE_OUT.test(message)) && impact.closedLines.size === 0) {
    impact.closedLines.add(knownLine);
    impact.restrictions.line_closures.push({ line: knownLine });
  }
  return impact;
}

/**
 * The station a lift notice names (the feed gives no station id): the first station the kiosk's
 * one station reader finds, every candidate of it — on the notice's line where it names one ("Irving
 * Park (Brown Line)" is not the Blue Line's Irving Park). Asking one rider too many costs a tap.
 */
function liftStations(system: SystemData, message: string, line: string | null | undefined): string[] {
  const chinese = chineseLiftStations(system, message);
  if (chinese.length > 0) return chinese;
  // "The elevator to the Ashland/63rd & Cottage Grove-bound platform at Garfield": the station the
  // lift is at, not the terminus naming its platform.
  const found = lexiconFor(system).find(message);
  const first = found.find((m) => /\bat\s+(?:the\s+)?$/i.test(message.slice(Math.max(0, m.start - 8), m.start))) ?? found[0];
  if (!first) return [];
  const onLine = line ? new Set(system.lineById(system.aliasLine(line))?.stations ?? []) : undefined;
  const narrowed = onLine ? first.candidates.filter((id) => onLine.has(id)) : [];
  return narrowed.length > 0 ? narrowed : first.candidates;
}

/** "between A and B", "from A (down) to B": the section of a line a notice closes. */
const SECTION = /\b(?:between\s+(.+?)\s+and|from\s+(.+?)\s+(?:(?:down|up|out|over)\s+)?to)\s+(.+?)(?:[.,;]|\s+(?:this|today|tonight|all|until|for|due|because)\b|$)/i;

/**
 * A line's closure: the first section the message names with both ends on the line ("From Saturday
 * 15 January to mid May 2022, the Wenhu line will be closed between Daan and Nanjing Fuxing": the
 * dates are no section), else the whole line.
 */
function lineClosure(system: SystemData, line: string, message: string, section: RegExp): Restrictions["line_closures"][number] {
  const stations = system.lineById(line)?.stations ?? [];
  for (const start of message.matchAll(/\b(?:between|from)\b/gi)) {
    const m = section.exec(message.slice(start.index));
    if (!m) continue;
    const groups = m.slice(1).filter((g): g is string => g !== undefined);
    if (groups.length < 2) continue;
    const a = findStations(system, groups[0]!)[0];
    const b = findStations(system, groups[groups.length - 1]!)[0];
    if (a && b && stations.includes(a.station.id) && stations.includes(b.station.id)) return { line, from_station: a.station.id, to_station: b.station.id };
  }
  return { line };
}

/** A line's section, less the track other lines share ("[Blue] Trains provide alternate service"); the whole section where the planner cannot close it alone. */
function sectionOffTrack(system: SystemData, closure: Restrictions["line_closures"][number], ownTrack: readonly [string, string][]): [string, string][] {
  const own = new Set(ownTrack.map(([a, b]) => pairKey(a, b)));
  try {
    return routeEngineFor(system).expandLineClosures([closure]).filter(([a, b]) => own.has(pairKey(a, b)));
  } catch {
    return ownTrack.slice();
  }
}

export function mergeRestrictions(impacts: readonly DisruptionImpact[]): Restrictions {
  const merged: Restrictions = { station_restrictions: [], line_closures: [], segment_closures: [] };
  for (const i of impacts) {
    merged.station_restrictions.push(...i.restrictions.station_restrictions);
    merged.line_closures.push(...i.restrictions.line_closures);
    merged.segment_closures.push(...i.restrictions.segment_closures);
  }
  return merged;
}

export function hasRestrictions(r: Restrictions): boolean {
  return r.station_restrictions.length + r.line_closures.length + r.segment_closures.length > 0;
}
