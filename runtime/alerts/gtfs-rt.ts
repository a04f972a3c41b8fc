// GTFS-Realtime Service Alerts → the kiosk's alerts. The protobuf is decoded by MobilityData's
// gtfs-realtime-bindings; each Alert entity's informed_entity selectors are mapped to the pack's
// lines and stations (gtfs-ids.ts), its effect and cause to the pack's disruption types, its
// severity_level to a severity, its active_period to the validity window and its translated texts
// to the passenger text per language. Pure: bytes and a clock in, alerts and problems out.
import GtfsRealtimeBindings from "gtfs-realtime-bindings";
import type { SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { GtfsIdIndex } from "./gtfs-ids.ts";
import { ALERT_ID, FEED_ALERT_PREFIX, formatAlertIssues, idHash, localIso, validateAlert, type Alert } from "./model.ts";
import { defaultSeverity, type DisruptionSeverity, type DisruptionType } from "./vocabulary.ts";

const { transit_realtime: rt } = GtfsRealtimeBindings;
type FeedMessage = GtfsRealtimeBindings.transit_realtime.FeedMessage;
type IAlert = GtfsRealtimeBindings.transit_realtime.IAlert;
type ITranslatedString = GtfsRealtimeBindings.transit_realtime.ITranslatedString;
const Effect = rt.Alert.Effect;
const Cause = rt.Alert.Cause;
const Severity = rt.Alert.SeverityLevel;

/** A feed that cannot be used at all: nothing in the store changes. */
export class GtfsFeedError extends Error {
  override name = "GtfsFeedError";
  constructor(
    readonly kind: "malformed" | "stale" | "unreachable",
    message: string,
  ) {
    super(message);
  }
}

/** One entity of a usable feed that was skipped or only partly used. */
export interface FeedProblem {
  entity: string;
  kind: "unknown_entity" | "partial" | "invalid";
  message: string;
}

export interface MappedFeed {
  /** The feed's header timestamp as a local ISO time. */
  timestamp: string | null;
  fullDataset: boolean;
  alerts: Alert[];
  /** The alert ids of every alert entity in the feed, mapped or not. */
  presentIds: Set<string>;
  /** Entities the (differential) feed marked deleted. */
  deletedIds: Set<string>;
  /** Alert entities in the feed. */
  alertEntities: number;
  problems: FeedProblem[];
}

/** Decode a FeedMessage; anything that is not one is a "malformed" GtfsFeedError. */
export function decodeFeed(bytes: Uint8Array): FeedMessage {
  if (bytes.length === 0) throw new GtfsFeedError("malformed", "the feed is empty");
  let feed: FeedMessage;
  try {
    feed = rt.FeedMessage.decode(bytes);
  } catch (err) {
    throw new GtfsFeedError("malformed", `not a GTFS-Realtime FeedMessage (${(err as Error).message})`);
  }
  const problem = rt.FeedMessage.verify(feed);
  if (problem) throw new GtfsFeedError("malformed", `not a valid GTFS-Realtime FeedMessage (${problem})`);
  if (!feed.header.gtfsRealtimeVersion) throw new GtfsFeedError("malformed", "the feed header has no gtfs_realtime_version");
  return feed;
}

const seconds = (v: number | { toNumber(): number } | null | undefined): number | null => {
  if (v === null || v === undefined) return null;
  const n = typeof v === "number" ? v : v.toNumber();
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** Refuse a feed older than `maxAgeSec` (or from the future): its alerts may no longer be true. */
export function checkFresh(feed: FeedMessage, now: Date, maxAgeSec: number): void {
  const ts = seconds(feed.header.timestamp);
  if (ts === null) throw new GtfsFeedError("stale", "the feed header has no timestamp, so it cannot be told whether its alerts are current");
  const age = now.getTime() / 1000 - ts;
  const when = new Date(ts * 1000).toISOString();
  if (age > maxAgeSec) throw new GtfsFeedError("stale", `the feed is stale: its timestamp ${when} is ${Math.round(age)} s old (at most ${maxAgeSec} s accepted)`);
  if (age < -300) throw new GtfsFeedError("stale", `the feed's timestamp ${when} is ${Math.round(-age)} s ahead of this kiosk's clock`);
}

/**
 * A feed entity's alert id, unique to (system, feed, entity): "gtfs:<system>:<feed tag>:<entity id>",
 * the feed tag a hash of the feed's file or URL. Two systems' feeds both numbering their entities
 * from 1, or two feeds of one system, never share an alert. An entity id outside the id alphabet,
 * or too long, is replaced by its hash.
 */
export function feedAlertId(system: SystemId, feed: string, entityId: string): string {
  const prefix = `${FEED_ALERT_PREFIX}${system}:${idHash(feed)}:`;
  const id = prefix + entityId;
  return ALERT_ID.test(id) ? id : `${prefix}${idHash(entityId, 16)}`;
}

const LANGUAGE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

function translations(s: ITranslatedString | null | undefined, primary: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of s?.translation ?? []) {
    const text = (t.text ?? "").trim();
    if (!text) continue;
    const raw = (t.language ?? "").trim();
    const lower = raw.length <= 3 ? raw.toLowerCase() : raw;
    const lang = LANGUAGE.test(lower) ? lower : primary;
    if (!out.has(lang)) out.set(lang, text);
  }
  return out;
}

function passengerText(alert: IAlert, primary: string): Record<string, string> {
  const header = translations(alert.headerText, primary);
  const description = translations(alert.descriptionText, primary);
  const text: Record<string, string> = {};
  for (const lang of new Set([...header.keys(), ...description.keys()])) {
    const h = header.get(lang);
    const d = description.get(lang);
    text[lang] = h && d && h !== d ? `${h}${/[.!?]$/.test(h) ? "" : "."} ${d}` : (h ?? d ?? "");
  }
  return text;
}

function typeFor(effect: number, cause: number, stations: readonly string[], lines: readonly string[]): DisruptionType | null {
  switch (effect) {
    case Effect.NO_SERVICE:
      if (lines.length === 0 || stations.length === 1) return stations.length > 0 ? "station_closure" : "service_suspended";
      return cause === Cause.MAINTENANCE || cause === Cause.CONSTRUCTION ? "planned_maintenance" : "line_suspension";
    case Effect.ACCESSIBILITY_ISSUE:
      return stations.length > 0 ? "elevator_outage" : null;
    case Effect.SIGNIFICANT_DELAYS:
      return cause === Cause.WEATHER ? "weather_slow_zone" : "major_delay";
    case Effect.REDUCED_SERVICE:
      return cause === Cause.MAINTENANCE || cause === Cause.CONSTRUCTION ? "planned_works" : "major_delay";
    default:
      return cause === Cause.MAINTENANCE || cause === Cause.CONSTRUCTION ? "planned_works" : "minor_delay";
  }
}

function severityFor(level: number | null | undefined, type: DisruptionType, system: SystemData): DisruptionSeverity {
  if (level === Severity.SEVERE) return "critical";
  if (level === Severity.WARNING) return "warning";
  if (level === Severity.INFO) return "info";
  return defaultSeverity(type, system.framebook.advisory_severity_mapping);
}

/** The period in force at `now`, else the next one; null when every period is over. */
function window(alert: IAlert, now: number): { from: string | null; until: string | null } | null {
  const periods = (alert.activePeriod ?? []).map((p) => ({ start: seconds(p.start), end: seconds(p.end) }));
  if (periods.length === 0) return { from: null, until: null };
  const live = periods.filter((p) => p.end === null || p.end > now).sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  const current = live.find((p) => (p.start ?? 0) <= now) ?? live[0];
  if (!current) return null;
  const iso = (s: number | null): string | null => (s === null ? null : localIso(new Date(s * 1000)));
  return { from: iso(current.start), until: iso(current.end) };
}

export interface MapFeedOptions {
  system: SystemData;
  index: GtfsIdIndex;
  /** The feed's name in the alerts' source (its file or URL). */
  feed: string;
  now: Date;
}

/** The alerts of a decoded feed, and what could not be used. */
export function mapFeedAlerts(feed: FeedMessage, options: MapFeedOptions): MappedFeed {
  const { system, index } = options;
  const primary = system.framebook.primary_language;
  const nowSec = options.now.getTime() / 1000;
  const ts = seconds(feed.header.timestamp);
  const out: MappedFeed = {
    timestamp: ts === null ? null : localIso(new Date(ts * 1000)),
    fullDataset: (feed.header.incrementality ?? rt.FeedHeader.Incrementality.FULL_DATASET) === rt.FeedHeader.Incrementality.FULL_DATASET,
    alerts: [],
    presentIds: new Set(),
    deletedIds: new Set(),
    alertEntities: 0,
    problems: [],
  };
  for (const entity of feed.entity) {
    const id = feedAlertId(system.id, options.feed, entity.id);
    if (entity.isDeleted) {
      out.deletedIds.add(id);
      continue;
    }
    const alert = entity.alert;
    if (!alert) continue;
    out.alertEntities++;
    out.presentIds.add(id);
    const problem = (kind: FeedProblem["kind"], message: string): void => void out.problems.push({ entity: entity.id, kind, message });

    const lines = new Set<string>();
    const stations = new Set<string>();
    const unknown: string[] = [];
    let networkWide = false;
    for (const sel of alert.informedEntity ?? []) {
      const route = sel.routeId?.trim();
      const stop = sel.stopId?.trim();
      if (route) {
        const line = index.route(route);
        if (line) lines.add(line);
        else unknown.push(`route_id '${route}'`);
      }
      if (stop) {
        const station = index.stop(stop);
        if (station) stations.add(station);
        else unknown.push(`stop_id '${stop}'`);
      }
      if (!route && !stop) networkWide = true;
    }
    if (lines.size === 0 && stations.size === 0 && !networkWide) {
      problem("unknown_entity", unknown.length > 0 ? `no informed entity is a line or station of ${system.id}: ${unknown.join(", ")}` : "the alert has no informed_entity");
      continue;
    }
    if (unknown.length > 0) problem("partial", `not lines or stations of ${system.id}, left out: ${unknown.join(", ")}`);

    const period = window(alert, nowSec);
    if (!period) continue; // every active period is over: nothing to show
    const text = passengerText(alert, primary);
    if (Object.keys(text).length === 0) {
      problem("invalid", "the alert has no header_text or description_text");
      continue;
    }
    const lineList = [...lines];
    const type = typeFor(alert.effect ?? Effect.UNKNOWN_EFFECT, alert.cause ?? Cause.UNKNOWN_CAUSE, [...stations], lineList);
    if (!type) {
      problem("invalid", "an ACCESSIBILITY_ISSUE alert needs a stop");
      continue;
    }
    // No service on a line between stops: the section from the first to the last stop in line order.
    let segment: { from_station: string; to_station: string } | null = null;
    let stationList = [...stations];
    if ((type === "planned_maintenance" || type === "line_suspension") && lineList.length === 1 && stations.size >= 2) {
      const order = system.lineById(lineList[0]!)?.stations ?? [];
      const onLine = stationList.filter((s) => order.includes(s)).sort((a, b) => order.indexOf(a) - order.indexOf(b));
      if (onLine.length >= 2) {
        segment = { from_station: onLine[0]!, to_station: onLine[onLine.length - 1]! };
        stationList = [];
      }
    }
    const validated = validateAlert(
      {
        id,
        system: system.id,
        type,
        severity: severityFor(alert.severityLevel, type, system),
        lines: segment || type !== "station_closure" ? lineList : lineList.slice(0, 1),
        stations: stationList,
        segment,
        valid_from: period.from,
        valid_until: period.until,
        text,
      },
      { system: (s) => (s === system.id ? system : undefined), source: { kind: "gtfs-rt", feed: options.feed, entity: entity.id } },
    );
    if (!validated.ok) {
      problem("invalid", formatAlertIssues(validated.issues));
      continue;
    }
    out.alerts.push(validated.alert);
  }
  return out;
}
