// A session's audit record as a readable timeline for the operator screen: what the passenger
// asked, what each tool returned, what was shown, why the buy button was on or off, what happened
// at the till. Pure data: the screen renders it (and keeps `data` behind a "details" toggle).
import type { KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import { problemCode, summarizeSession, type AuditTurn, type SessionAudit, type SessionSummary } from "./model.ts";

export type TimelineKind = "asked" | "tool" | "shown" | "buy" | "purchase" | "end";

export interface TimelineEntry {
  at: string;
  /** 1-based turn of the session. */
  turn: number;
  kind: TimelineKind;
  /** A short line ("Buy button off"). */
  title: string;
  /** The explanation, one fact per line. */
  lines: string[];
  /** For the buy button, a tool call or a purchase: did it go through. */
  ok?: boolean;
  /** The raw material (tool arguments and result) for a details view. */
  data?: unknown;
}

export interface Timeline {
  sessionId: string;
  system: SystemId;
  language: string;
  startedAt: string;
  summary: SessionSummary;
  entries: TimelineEntry[];
}

export interface TimelineOptions {
  /** Station id → name (the screen's system view); ids are shown as they are without it. */
  stationName?: (id: string) => string | undefined;
  /** Longest JSON excerpt of a tool result in `lines` (default 240 characters). */
  excerpt?: number;
}

/** Why an interlock problem code blocks a sale, in an operator's words. */
export const BLOCK_REASONS: Readonly<Record<string, string>> = {
  fare_mismatch: "the quoted fare differs from the kiosk's own fare calculation",
  currency_mismatch: "the quote is in another currency than the fare table",
  passengers_mismatch: "the quote is for other passengers than the passenger chose",
  too_many_passengers: "more passengers than one ticket may carry",
  no_passengers: "no passenger is on the quote",
  invalid_passenger_counts: "the passenger counts are not valid",
  passenger_summary_missing: "the quote does not say whom it is for",
  fare_quote_missing: "there is no fare quote",
  route_missing: "there is no route",
  route_too_short: "the route has fewer than two stops",
  route_not_plannable: "the kiosk's own planner finds no such route",
  not_a_path: "the route jumps between stations with no track between them",
  line_mismatch: "the route names a line that does not run there",
  unknown_station: "the route names a station this system does not have",
  not_the_chosen_origin: "the route does not start where the passenger chose",
  not_the_chosen_destination: "the route does not end where the passenger chose",
  origin_mismatch: "the route's origin is not the one requested",
  destination_mismatch: "the route's destination is not the one requested",
  origin_not_requested: "the passenger never chose this origin",
  destination_not_requested: "the passenger never chose this destination",
  station_closed: "a station of the route is closed",
  unknown_payment_method: "the payment method is not one this system takes",
  already_sold: "a ticket was already issued for this request",
  purchase_in_progress: "a payment for this request was already running",
  not_offered: "the answer did not offer a ticket",
  ledger_unavailable: "the sales ledger was unavailable",
};

const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  route_and_fare_ready: "route and fare ready",
  advisory_only: "an advisory only",
  service_unavailable: "no service",
  request_declined: "the request was declined",
  policy_answer_only: "an information answer",
};

const ACTION_WORDS: Readonly<Record<string, string>> = {
  prompt_purchase: "offer the ticket",
  display_info: "show information",
  block_purchase: "block the purchase",
  refer_to_staff: "refer the passenger to staff",
};

const REASON_WORDS: Readonly<Record<string, string>> = {
  ok: "",
  no_service: "no service (closure, suspension or outside service hours)",
  invalid_request: "the request could not be served as asked",
  unsupported_request: "the kiosk does not do this",
  accessibility_issue: "an accessibility problem on the route",
  policy_exception: "a fare or travel policy applies",
};

const RIDERS = { adults: ["adult", "adults"], children: ["child", "children"], seniors: ["senior", "seniors"], disabled: ["disabled rider", "disabled riders"] } as const;

function describeEvent(e: KioskEvent, name: (id: string) => string): string {
  switch (e.type) {
    case "station_selected":
      return `${e.field === "origin" ? "From" : "To"}: ${e.station_id ? `${name(e.station_id)} (${e.station_id})` : `"${e.value}"`}`;
    case "passenger_count_changed": {
      const parts = (Object.keys(RIDERS) as (keyof typeof RIDERS)[]).filter((k) => (e[k] ?? 0) > 0).map((k) => `${e[k]} ${RIDERS[k][e[k] === 1 ? 0 : 1]}`);
      return `Passengers: ${parts.join(", ") || "none"}`;
    }
    case "freetext_input":
      return `Typed: "${e.text}"`;
    case "payment_method_selected":
      return `Payment method: ${e.method}`;
    case "disruption_update":
      return `Disruption update: ${e.disruption ? `${e.disruption.type ?? "?"} (${e.disruption.severity ?? "?"})` : "cleared"}`;
  }
}

function excerpt(value: unknown, max: number): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function toolLines(call: AuditTurn["toolCalls"][number], max: number): string[] {
  if (call.error) return [`error: ${call.error}`];
  const r = call.result as Record<string, unknown> | null;
  if (r && typeof r === "object") {
    if (call.name === "route_planner" && Array.isArray(r.stops)) {
      return [`${r.stops.length} stops, ${String(r.transfers ?? 0)} transfer(s), ~${typeof r.estimated_minutes === "number" ? Math.round(r.estimated_minutes) : "?"} min, lines ${Array.isArray(r.line_sequence) ? r.line_sequence.join(" → ") : "?"}`];
    }
    if (call.name === "fare_calculator" && typeof r.total === "number") return [`total ${r.total} ${String(r.currency ?? "")}`.trim()];
    if (call.name === "disruption_feed" && Array.isArray(r.disruptions)) {
      const list = r.disruptions as { id?: unknown; severity?: unknown; type?: unknown }[];
      return [list.length === 0 ? "no disruption" : list.map((d) => `${String(d.id)} (${String(d.type)}, ${String(d.severity)})`).join("; ")];
    }
  }
  return [excerpt(call.result, max)];
}

function shownLines(turn: AuditTurn, name: (id: string) => string): string[] {
  const s = turn.state;
  const lines: string[] = [];
  if (s.route) {
    const stops = s.route.stops.map((x) => x.station_id);
    lines.push(`Route: ${name(stops[0] ?? s.route.origin)} → ${name(stops[stops.length - 1] ?? s.route.destination)}, ${stops.length} stops, ${s.route.transfers} transfer(s), ~${s.route.estimated_minutes} min`);
  }
  if (s.fare_quote) lines.push(`Fare: ${s.fare_quote.total} ${s.fare_quote.currency}`);
  for (const b of s.advisory_banners ?? []) lines.push(`Banner [${b.severity}] ${b.title}: ${b.body}`);
  lines.push(`Message: "${s.assistant_message}"`);
  return lines;
}

function buyEntry(turn: AuditTurn, index: number): TimelineEntry {
  const s = turn.state;
  const base = { at: turn.at, turn: index, kind: "buy" as const };
  if (turn.purchasable) {
    return { ...base, title: "Buy button on", ok: true, lines: ["The answer offers a ticket (route and fare ready, prompt purchase) and the safety interlock confirmed its route and fare."] };
  }
  const lines: string[] = [];
  if (s.outcome !== "route_and_fare_ready" || s.kiosk_action.action !== "prompt_purchase") {
    const { action, reason_code: reason } = s.kiosk_action;
    const why = REASON_WORDS[reason];
    lines.push(`The answer does not offer a ticket: ${OUTCOME_WORDS[s.outcome] ?? s.outcome} (${s.outcome}); the kiosk was told to ${ACTION_WORDS[action] ?? action} (${action})${why ? `, because of ${why} (${reason})` : ""}.`);
  } else {
    lines.push("The answer offered a ticket, but the safety interlock blocked it:");
    for (const p of turn.interlock.problems) lines.push(`• ${BLOCK_REASONS[problemCode(p)] ?? problemCode(p)} (${p})`);
  }
  if (turn.fallback) lines.push("The policy gave no valid answer: the kiosk's safe fallback was shown.");
  return { ...base, title: "Buy button off", ok: false, lines };
}

export function buildTimeline(audit: SessionAudit, options: TimelineOptions = {}): Timeline {
  const name = (id: string): string => options.stationName?.(id) ?? id;
  const max = options.excerpt ?? 240;
  const entries: TimelineEntry[] = [];
  audit.turns.forEach((turn, i) => {
    const n = i + 1;
    entries.push({ at: turn.at, turn: n, kind: "asked", title: n === 1 ? "The passenger asked" : "The passenger changed the request", lines: turn.events.map((e) => describeEvent(e, name)) });
    for (const call of turn.toolCalls) {
      entries.push({ at: turn.at, turn: n, kind: "tool", title: `${call.name}(${excerpt(call.arguments, 120)})`, lines: toolLines(call, max), ok: call.error === null, data: { arguments: call.arguments, result: call.result } });
    }
    const who = turn.answeredBy === "model" ? `the assistant model (${turn.policy})` : turn.answeredBy === "rule-fallback" ? `the standard kiosk (${turn.policy}), because the assistant could not answer` : `the standard kiosk (${turn.policy})`;
    const lines = shownLines(turn, name);
    if (turn.note) lines.push(`Note: ${turn.note}`);
    lines.push(`Answered by ${who} in ${Math.round(turn.elapsedMs)} ms · ${turn.disruptions.length} disruption(s) in force · framebook ${turn.framebookVersion}`);
    entries.push({ at: turn.at, turn: n, kind: "shown", title: `Shown: ${turn.state.outcome} · ${turn.state.kiosk_action.action}`, lines });
    entries.push(buyEntry(turn, n));
  });
  const lastTurn = audit.turns.length;
  for (const p of audit.purchases) {
    const at = p.at;
    const turn = audit.turns.filter((t) => t.at <= at).length || lastTurn;
    if (p.result === "sold") entries.push({ at, turn, kind: "purchase", title: `Sold ticket ${p.ticketId ?? "?"}`, ok: true, lines: [`${p.total ?? "?"} ${p.currency ?? ""} by ${p.paymentMethod}`.trim()] });
    else {
      const title = p.result === "refused" ? "Purchase refused" : p.result === "declined" ? "Payment declined" : "Sale failed";
      entries.push({ at, turn, kind: "purchase", title, ok: false, lines: p.problems.length > 0 ? p.problems.map((c) => `• ${BLOCK_REASONS[c] ?? c} (${c})`) : [`by ${p.paymentMethod}`] });
    }
  }
  if (audit.endedAt) entries.push({ at: audit.endedAt, turn: lastTurn, kind: "end", title: "Session ended", lines: [] });
  entries.sort((a, b) => a.at.localeCompare(b.at));
  return { sessionId: audit.sessionId, system: audit.system, language: audit.language, startedAt: audit.startedAt, summary: summarizeSession(audit), entries };
}
