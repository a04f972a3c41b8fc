// What the kiosk reads in a notice, in plain words for the operator who is about to put it in force:
// the lines, sections and stations it stops, the lifts it says are out, the window its words give,
// and — the part that needs the operator's decision — whether it says service stops somewhere the
// kiosk cannot map. The interlock acts on exactly this reading (interlock/service.ts readDisruption),
// so what the operator confirms is what the kiosk will do. Pure.
import type { Disruption, UnreadDecision } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { alertDisruptions } from "../alerts/active.ts";
import type { Alert } from "../alerts/model.ts";
import { noticeWindow } from "../language/when.ts";
import { readDisruption } from "./interlock/service.ts";

export interface NoticeReading {
  systemSuspended: boolean;
  lines: string[];
  /** Track between two stations closed (a section, whatever the line). */
  tracks: [string, string][];
  stations: { id: string; passThrough: boolean }[];
  liftsOut: string[];
  /** The words say service stops but name nothing the kiosk can map. */
  unread: boolean;
  /** The lines whose trips those words may touch (empty: every trip of the system). */
  unreadLines: string[];
  /** What the operator decided for them; null: not decided (the trips they may touch are referred to staff). */
  decision: UnreadDecision | null;
  /** The window the words give, where the notice has no valid_from / valid_until of its own. */
  window?: { from?: string; until?: string };
}

/** What the kiosk reads in an operator's alert, from its start (or `now`). */
export function alertReading(alert: Alert, system: SystemData, now: string): NoticeReading {
  return readNotice(system, alertDisruptions(alert, undefined, system.framebook.primary_language), alert.valid_from ?? now);
}

export function readNotice(system: SystemData, disruptions: readonly Disruption[], now: string): NoticeReading {
  const reading: NoticeReading = { systemSuspended: false, lines: [], tracks: [], stations: [], liftsOut: [], unread: false, unreadLines: [], decision: null };
  let everyTrip = false;
  for (const d of disruptions) {
    // Read as it stands, before the operator's decision: the decision is shown beside the reading.
    const { if_unread: decision, ...words } = d;
    if (decision) reading.decision = decision;
    const c = readDisruption(system, words);
    reading.systemSuspended ||= c.systemSuspended !== null;
    for (const u of c.unread) {
      reading.unread = true;
      if (u.lines === null) everyTrip = true;
      else for (const id of u.lines) if (!reading.unreadLines.includes(id)) reading.unreadLines.push(id);
    }
    for (const id of c.lines.keys()) if (!reading.lines.includes(id)) reading.lines.push(id);
    for (const pair of c.tracks.keys()) reading.tracks.push(pair.split("|") as [string, string]);
    for (const [id, s] of c.stations) if (!reading.stations.some((x) => x.id === id)) reading.stations.push({ id, passThrough: s.passThrough });
    for (const id of c.liftsOut.keys()) if (!reading.liftsOut.includes(id)) reading.liftsOut.push(id);
    if (!d.valid_from && !d.valid_until && typeof d.message === "string" && !reading.window) {
      const w = noticeWindow(d.message, now);
      if (w) reading.window = w;
    }
  }
  if (everyTrip) reading.unreadLines = [];
  return reading;
}

/** The reading as the operator reads it, one line each, station and line names as the pack gives them. */
export function readingInWords(system: SystemData, r: NoticeReading): string[] {
  const station = (id: string): string => system.stationById(id)?.name ?? id;
  const line = (id: string): string => system.lineById(id)?.name ?? id;
  const out: string[] = [];
  if (r.systemSuspended) out.push(`the whole ${system.framebook.org_name} network stops`);
  if (r.lines.length > 0) out.push(`no trains on ${r.lines.map(line).join(", ")}`);
  if (r.tracks.length > 0) out.push(`no trains between ${sectionWords(r.tracks, station)}`);
  const through = r.stations.filter((s) => s.passThrough).map((s) => station(s.id));
  const shut = r.stations.filter((s) => !s.passThrough).map((s) => station(s.id));
  if (shut.length > 0) out.push(`closed: ${shut.join(", ")} (no trains pass)`);
  if (through.length > 0) out.push(`trains pass without stopping: ${through.join(", ")}`);
  if (r.liftsOut.length > 0) out.push(`lift out of service: ${r.liftsOut.map(station).join(", ")} (riders who need step-free access are asked)`);
  if (r.window) out.push(`in force ${r.window.from ? `from ${r.window.from.replace("T", " ")}` : ""}${r.window.from && r.window.until ? " " : ""}${r.window.until ? `until ${r.window.until.replace("T", " ")}` : r.window.from ? " on" : ""} (read from the words)`);
  if (r.unread) {
    const trips = r.unreadLines.length === 0 ? `every trip of ${system.framebook.org_name}` : `trips on ${r.unreadLines.map(line).join(", ")}`;
    const effect = r.decision === "ignore" ? `the operator keeps only what was read: ${trips} sold as usual` : r.decision === "block" ? `the operator blocks them: ${trips} not sold while it is in force` : `${trips} referred to staff while it is in force`;
    out.push(`NOT READ: the words say service stops, but not where — ${effect}`);
  }
  if (out.length === 0) out.push("nothing the kiosk must refuse: tickets are sold as usual, with the notice shown");
  return out;
}

/** Closed track as stretches by their two ends ("Ximen" to "Zhongxiao Fuxing") where it is one run, else each closed hop. */
export function sections(tracks: readonly [string, string][]): [string, string][] {
  const degree = new Map<string, number>();
  for (const pair of tracks) for (const id of pair) degree.set(id, (degree.get(id) ?? 0) + 1);
  const ends = [...degree].filter(([, n]) => n === 1).map(([id]) => id);
  return ends.length === 2 ? [[ends[0]!, ends[1]!]] : tracks.map(([a, b]) => [a, b]);
}

function sectionWords(tracks: readonly [string, string][], station: (id: string) => string): string {
  return sections(tracks)
    .map(([a, b]) => `${station(a)} and ${station(b)}`)
    .join("; ");
}
