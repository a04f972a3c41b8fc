// The fake operator bridge's service alerts and session audit (renderer tests, the dev entry): an
// in-memory alert list with a small field checker, an audit log, demo sessions of today with their
// timelines, and a canned replay preview.
import {
  alertLanguages,
  DISRUPTION_TYPES,
  type AlertAuditView,
  type AlertCause,
  type AlertPlaces,
  type AlertReadingView,
  type AlertView,
  type OperatorBridge,
  type PlaceName,
  type SessionSummaryView,
  type TimelineView,
} from "../../runtime/kiosk/bridge.ts";
import { DEMO_SYSTEMS } from "./demoSystems.ts";
import { OperatorBridgeError } from "./operatorBridge.ts";

type LiveMethods = Pick<OperatorBridge, "listAlerts" | "saveAlert" | "endAlert" | "previewAlert" | "auditSessions" | "auditTimeline">;

export interface FakeLiveOptions {
  /** Audited sessions (default: demoTimelines()). */
  timelines?: TimelineView[];
  /** How many stored answers a preview says would change (default 2). */
  previewChanges?: number;
}

const STATION_TYPES = new Set(["station_closure", "station_entry_restriction", "elevator_outage"]);

/** A few BART stations and lines (the renderer tests' system), the demo systems' own data otherwise. */
const BART_PLACES: Omit<AlertPlaces, "system" | "languages"> = {
  stations: [
    { id: "BART-WOAK", name: "West Oakland" },
    { id: "BART-EMBR", name: "Embarcadero" },
    { id: "BART-MONT", name: "Montgomery St" },
  ],
  lines: [{ id: "yellow", name: "Yellow Line" }],
};

export function demoPlaces(system: AlertPlaces["system"]): AlertPlaces {
  const demo = DEMO_SYSTEMS.find((s) => s.id === system);
  const names = demo ? { stations: demo.stations.map((s) => ({ id: s.id, name: s.name })), lines: demo.lines.map((l) => ({ id: l.id, name: l.name })) } : system === "bart" ? BART_PLACES : { stations: [], lines: [] };
  return { system, languages: alertLanguages(system), ...names };
}

/** A station or line given by id or name, as its id (as the kiosk's checker resolves them); unknown ones as given. */
function idOf(places: readonly { id: string; name: string }[], value: string): string {
  const v = value.trim().toLowerCase();
  return places.find((p) => p.id.toLowerCase() === v || p.name.toLowerCase() === v)?.id ?? value;
}

function localIso(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function summary(over: Partial<SessionSummaryView> & Pick<SessionSummaryView, "sessionId" | "startedAt">): SessionSummaryView {
  return { system: "bart", language: "en", turns: 1, outcome: "route_and_fare_ready", action: "prompt_purchase", reasonCode: "ok", answeredBy: "rule", fallback: false, blocked: false, refused: false, sold: false, blockCodes: [], ...over };
}

/** Two sessions of today: a sale, and a trip across a closed segment with the buy button off. */
export function demoTimelines(now: Date = new Date()): TimelineView[] {
  const at = (minutes: number): string => new Date(now.getTime() - minutes * 60_000).toISOString();
  const sold = summary({ sessionId: "s-demo-sold", startedAt: at(40), sold: true, language: "es" });
  const closed = summary({ sessionId: "s-demo-closed", startedAt: at(10), outcome: "service_unavailable", action: "display_info", reasonCode: "no_service" });
  return [
    {
      sessionId: closed.sessionId,
      system: "bart",
      language: "en",
      startedAt: closed.startedAt,
      summary: closed,
      entries: [
        { at: at(10), turn: 1, kind: "asked", title: "The passenger asked", lines: ["From: West Oakland (BART-WOAK)", "To: Embarcadero (BART-EMBR)", "Passengers: 1 adult"] },
        { at: at(10), turn: 1, kind: "tool", title: 'disruption_feed({"system":"bart"})', lines: ["tube (planned_maintenance, critical)"], ok: true },
        { at: at(10), turn: 1, kind: "tool", title: 'route_planner({"origin":"BART-WOAK","destination":"BART-EMBR"})', lines: ["2 stops, 0 transfer(s), ~7 min, lines yellow"], ok: true },
        {
          at: at(10),
          turn: 1,
          kind: "shown",
          title: "Shown: service_unavailable · display_info",
          lines: ["Banner [critical] Service disruption: Transbay Tube closed: no service between West Oakland and Embarcadero.", 'Message: "There is no service on this route right now."', "Answered by the standard kiosk (rule) in 14 ms · 1 disruption(s) in force · framebook 3f2a9c1b7d00"],
        },
        { at: at(10), turn: 1, kind: "buy", title: "Buy button off", ok: false, lines: ["The answer does not offer a ticket: no service (service_unavailable); the kiosk was told to show information (display_info), because of no service (closure, suspension or outside service hours) (no_service)."] },
      ],
    },
    {
      sessionId: sold.sessionId,
      system: "bart",
      language: "es",
      startedAt: sold.startedAt,
      summary: sold,
      entries: [
        { at: at(40), turn: 1, kind: "asked", title: "The passenger asked", lines: ["From: Richmond (BART-RICH)", "To: Downtown Berkeley (BART-DBRK)", "Passengers: 1 adult"] },
        { at: at(40), turn: 1, kind: "shown", title: "Shown: route_and_fare_ready · prompt_purchase", lines: ["Fare: 2.6 USD"] },
        { at: at(40), turn: 1, kind: "buy", title: "Buy button on", ok: true, lines: ["The answer offers a ticket (route and fare ready, prompt purchase) and the safety interlock confirmed its route and fare."] },
        { at: at(39), turn: 1, kind: "purchase", title: "Sold ticket T-DEMO", ok: true, lines: ["2.6 USD by clipper_card"] },
      ],
    },
  ];
}

export function createFakeLiveOperator(context: { operatorOf: (token: string) => string; calls: string[]; now: () => Date }, options: FakeLiveOptions = {}): LiveMethods {
  const alerts: AlertView[] = [];
  const audit: AlertAuditView[] = [];
  const timelines = options.timelines ?? demoTimelines(context.now());
  const stamp = (): string => context.now().toISOString();

  /** The fake's checker: the fields the real one names most often. */
  function check(input: Record<string, unknown>): { path: string; message: string }[] {
    const issues: { path: string; message: string }[] = [];
    const type = input["type"];
    if (typeof type !== "string" || !(DISRUPTION_TYPES as readonly string[]).includes(type)) issues.push({ path: "type", message: `expected one of ${DISRUPTION_TYPES.join(", ")}` });
    const stations = Array.isArray(input["stations"]) ? (input["stations"] as unknown[]) : [];
    if (typeof type === "string" && STATION_TYPES.has(type) && stations.length === 0) issues.push({ path: "stations", message: `a ${type} names the station(s) it concerns` });
    stations.forEach((s, i) => {
      if (typeof s === "string" && /^nowhere$/i.test(s)) issues.push({ path: `stations[${i}]`, message: `unknown station '${s}' for ${String(input["system"])}` });
    });
    const until = input["valid_until"];
    if (until !== undefined && until !== null && (typeof until !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(until))) issues.push({ path: "valid_until", message: 'expected a local time "YYYY-MM-DDTHH:MM" (or an ISO time with a zone)' });
    const text = input["text"] as Record<string, unknown> | undefined;
    if (!text || Object.keys(text).length === 0 || Object.values(text).some((t) => typeof t !== "string" || !t.trim())) issues.push({ path: "text", message: "at least one language's text is needed" });
    if (!text || !Object.hasOwn(text, "en")) issues.push({ path: "text.en", message: "the English text is required (every screen language falls back to it)" });
    return issues;
  }

  return {
    async listAlerts(request) {
      context.operatorOf(request.token);
      context.calls.push("listAlerts");
      const now = localIso(context.now());
      const list = alerts.filter((a) => !request.system || a.alert.system === request.system).map((a) => ({ ...a, status: a.endedAt ? ("ended" as const) : a.alert.valid_until && a.alert.valid_until <= now ? ("expired" as const) : ("active" as const) }));
      return { now, alerts: list, audit: audit.filter((a) => !request.system || a.system === request.system), places: request.system ? demoPlaces(request.system) : null };
    },
    async saveAlert(request) {
      const who = context.operatorOf(request.token);
      context.calls.push(`saveAlert ${request.mode ?? "add"}`);
      if (!request.ifUnread && demoUnread(request.alert)) {
        return { ok: false, reason: "unread", issues: [{ path: "text", message: "the words say service stops, but not where: give its lines, stations or section, or decide what happens to the trips it may touch." }] };
      }
      const issues = check(request.alert);
      if (issues.length > 0) return { ok: false, reason: "invalid", issues };
      const input = request.alert;
      const system = input["system"] as AlertView["alert"]["system"];
      const id = typeof input["id"] === "string" ? input["id"] : `${system}-${String(input["type"]).replace(/_/g, "-")}-${alerts.length + 1}`;
      const existing = alerts.find((a) => a.alert.id === id && !a.endedAt);
      if ((request.mode ?? "add") === "add" && existing) return { ok: false, reason: "conflict", issues: [{ path: "id", message: `alert '${id}' already exists (edit it, or end it first)` }] };
      if (request.mode === "edit" && !existing) return { ok: false, reason: "conflict", issues: [{ path: "id", message: `there is no alert '${id}' to edit` }] };
      const places = demoPlaces(system);
      const segment = input["segment"] as { from_station: string; to_station: string } | undefined;
      const from = segment ? idOf(places.stations, segment.from_station) : "";
      const to = segment ? idOf(places.stations, segment.to_station) : "";
      const alert: AlertView["alert"] = {
        id,
        system,
        type: input["type"] as AlertView["alert"]["type"],
        severity: (input["severity"] as AlertView["alert"]["severity"] | undefined) ?? "warning",
        lines: ((input["lines"] as string[] | undefined) ?? []).map((l) => idOf(places.lines, l)),
        stations: ((input["stations"] as string[] | undefined) ?? []).map((s) => idOf(places.stations, s)),
        segment: segment ? { from_station: from, to_station: to, stations: [from, to] } : null,
        valid_from: null,
        valid_until: (input["valid_until"] as string | null | undefined) ?? null,
        text: input["text"] as Record<string, string>,
        alternative: null,
        eta_resolution: null,
        source: { kind: "operator" },
      };
      const created = existing ? { createdAt: existing.createdAt, createdBy: existing.createdBy } : { createdAt: stamp(), createdBy: who };
      const view: AlertView = { alert, status: "active", ...created, updatedAt: stamp(), updatedBy: who, endedAt: null, endedBy: null, endReason: null };
      if (existing) alerts.splice(alerts.indexOf(existing), 1);
      alerts.unshift(view);
      audit.unshift({ at: stamp(), who, action: existing ? "edit" : "add", alertId: id, system, detail: null });
      return { ok: true, record: view };
    },
    async endAlert(request) {
      const who = context.operatorOf(request.token);
      context.calls.push(`endAlert ${request.id}`);
      const view = alerts.find((a) => a.alert.id === request.id);
      if (!view) return { ok: false, message: `there is no alert '${request.id}'` };
      if (view.endedAt) return { ok: false, message: `alert '${request.id}' already ended at ${view.endedAt} (by ${view.endedBy ?? "?"})` };
      Object.assign(view, { endedAt: stamp(), endedBy: who, endReason: request.reason ?? null, status: "ended" });
      audit.unshift({ at: stamp(), who, action: "end", alertId: request.id, system: view.alert.system, detail: request.reason ?? null });
      return { ok: true, record: { ...view } };
    },
    async previewAlert(request) {
      context.operatorOf(request.token);
      context.calls.push("previewAlert");
      const issues = check(request.alert);
      if (issues.length > 0) return { ok: false, reason: "invalid", issues };
      const changed = options.previewChanges ?? 2;
      const input = request.alert;
      const places = demoPlaces(input["system"] as AlertPlaces["system"]);
      const place = (list: readonly PlaceName[], value: string): PlaceName => list.find((p) => p.id === idOf(list, value)) ?? { id: value, name: value };
      const segment = input["segment"] as { from_station: string; to_station: string } | undefined;
      const cause: AlertCause = {
        type: input["type"] as AlertCause["type"],
        stations: ((input["stations"] as string[] | undefined) ?? []).map((s) => place(places.stations, s)),
        lines: ((input["lines"] as string[] | undefined) ?? []).map((l) => place(places.lines, l)),
        segment: segment ? { from: place(places.stations, segment.from_station), to: place(places.stations, segment.to_station) } : null,
      };
      // Every replayed trip is West Oakland → Embarcadero for one adult, and loses its ticket.
      const trip = { from: place(places.stations, "BART-WOAK"), to: place(places.stations, "BART-EMBR"), riders: { adults: 1, children: 0, seniors: 0, disabled: 0 } };
      const first = timelines.slice(0, changed).map((t) => ({ sessionId: t.sessionId, system: t.system, startedAt: t.startedAt, turn: 1, asked: "BART-WOAK → BART-EMBR, 1 adult", trip, effect: "not_sold" as const, changes: [{ field: "action", before: "prompt_purchase", after: "display_info" }] }));
      return { ok: true, report: { sessions: timelines.length, turns: timelines.length, changedSessions: first.length, changedTurns: first.length, byField: { outcome: first.length, action: first.length, route: 0, fare: 0, banners: first.length }, first, errors: [] }, cause, reading: demoReading(cause, input) };
    },
    async auditSessions(request) {
      context.operatorOf(request.token);
      const f = request.filter ?? {};
      context.calls.push(`auditSessions ${JSON.stringify(f)}`);
      const sessions = timelines
        .map((t) => t.summary)
        .filter((s) => (f.outcome === undefined || s.outcome === f.outcome) && (f.language === undefined || s.language === f.language) && (f.system === undefined || s.system === f.system))
        .filter((s) => (f.fallback === undefined || s.fallback === f.fallback) && (f.blocked === undefined || s.blocked === f.blocked) && (f.refused === undefined || s.refused === f.refused));
      return { day: localIso(context.now()).slice(0, 10), sessions };
    },
    async auditTimeline(request) {
      context.operatorOf(request.token);
      context.calls.push(`auditTimeline ${request.sessionId}`);
      const timeline = timelines.find((t) => t.sessionId === request.sessionId);
      if (!timeline) throw new OperatorBridgeError("rejected", `There is no audited session '${request.sessionId}'`);
      return structuredClone(timeline);
    },
  };
}

/**
 * The demo's stand-in for the kiosk's reading of an alert (the real one is runtime/kiosk/notice-reading.ts):
 * the structure the alert gives, and — with none — words saying service stops are "not read".
 */
function demoReading(cause: AlertCause, input: Record<string, unknown>): AlertReadingView {
  return {
    systemSuspended: false,
    lines: cause.segment ? [] : cause.lines,
    sections: cause.segment ? [cause.segment] : [],
    closed: cause.type === "station_closure" ? cause.stations : [],
    passThrough: [],
    liftsOut: cause.type === "elevator_outage" ? cause.stations : [],
    unread: demoUnread(input),
    unreadLines: [],
    decision: null,
    window: null,
  };
}

function demoUnread(input: Record<string, unknown>): boolean {
  const text = Object.values((input["text"] as Record<string, string> | undefined) ?? {}).join(" ");
  const structured = ((input["stations"] as unknown[] | undefined) ?? []).length + ((input["lines"] as unknown[] | undefined) ?? []).length > 0 || !!input["segment"];
  return !structured && /\b(stop|stops|suspended|closed|no service)\b/i.test(text);
}
