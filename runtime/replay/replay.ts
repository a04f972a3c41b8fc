// Look before you apply: replay stored passenger sessions (the session audit) with the kiosk's
// deterministic policy twice — once as things stand, once with a draft framebook or a draft alert
// set — and report which answers would change (outcome, action, route, fare, banners), how many, and
// the first differences. Both sides run the same policy through the same live-session path, so every
// difference comes from the draft, not from which policy happened to answer at the time.
import type { DataPack } from "../../tools/data/datapack.ts";
import { RIDER_TYPES, type Disruption, type KioskEvent, type SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { AssistantState } from "../contract/index.ts";
import { localIso } from "../alerts/model.ts";
import type { SessionAudit } from "../audit/model.ts";
import { KioskService } from "../kiosk/service.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import type { Policy } from "../session/policy.ts";
import { AnswerPipeline } from "../answer/pipeline.ts";
import type { ReplayEffect, Riders } from "./effects.ts";

export const DEFAULT_REPLAY_SESSIONS = 200;
export const ANSWER_FIELDS = ["outcome", "action", "route", "fare", "banners"] as const;
export type AnswerField = (typeof ANSWER_FIELDS)[number];

/** What a side of the comparison runs with. */
export interface ReplaySide {
  systemData: (system: SystemId) => SystemData;
  /** The disruptions in force for this session (default: those it ran under). */
  disruptions?: (session: SessionAudit) => readonly Disruption[];
  /** The session's local time (default: when it ran). */
  now?: (session: SessionAudit) => Date;
}

export interface AnswerChange {
  field: AnswerField;
  before: string;
  after: string;
}

/** The trip a turn was about: station ids (or names as typed), and who travels (null: not said). */
export interface ReplayTrip {
  origin: string | null;
  destination: string | null;
  riders: Riders | null;
}

export interface ReplayDifference {
  sessionId: string;
  system: SystemId;
  startedAt: string;
  /** 1-based turn whose answer changed. */
  turn: number;
  /** What the passenger asked in that turn, briefly. */
  asked: string;
  trip: ReplayTrip;
  effect: ReplayEffect;
  changes: AnswerChange[];
}

export interface ReplayReport {
  sessions: number;
  turns: number;
  changedSessions: number;
  changedTurns: number;
  /** Turns whose field changed, per field. */
  byField: Record<AnswerField, number>;
  /** The first `firstN` differences, newest session first. */
  first: ReplayDifference[];
  /** Sessions that could not be replayed (e.g. a system this kiosk no longer serves). */
  errors: { sessionId: string; message: string }[];
}

export interface ReplayOptions {
  pack: DataPack;
  /** The stored sessions, newest first (SessionAuditStore.recent). */
  sessions: readonly SessionAudit[];
  baseline: ReplaySide;
  draft: ReplaySide;
  /** The policy both sides replay with (default: the kiosk's deterministic `rule`). */
  policy?: Policy;
  /** How many differences to list (default 10). */
  firstN?: number;
  onProgress?: (done: number, total: number) => void;
}

/** The fields an operator compares, as short text. */
export function answerFields(state: AssistantState): Record<AnswerField, string> {
  return {
    outcome: state.outcome,
    action: `${state.kiosk_action.action} (${state.kiosk_action.reason_code})`,
    route: state.route ? state.route.stops.map((s) => s.station_id).join(" › ") || "(no stops)" : "(none)",
    fare: state.fare_quote ? `${state.fare_quote.total.toFixed(2)} ${state.fare_quote.currency}` : "(none)",
    banners:
      (state.advisory_banners ?? [])
        .map((b) => `${b.severity}: ${b.title}`)
        .sort()
        .join("; ") || "(none)",
  };
}

const offersTicket = (state: AssistantState): boolean => state.outcome === "route_and_fare_ready" && state.kiosk_action.action === "prompt_purchase";

/** The effect of a changed answer: a sale lost or gained first, else the first changed part. */
export function effectOf(before: AssistantState, after: AssistantState, changes: readonly AnswerChange[]): ReplayEffect {
  if (offersTicket(before) && !offersTicket(after)) return "not_sold";
  if (!offersTicket(before) && offersTicket(after)) return "now_sold";
  const fields = new Set(changes.map((c) => c.field));
  if (fields.has("route")) return "route";
  if (fields.has("fare")) return "fare";
  if (fields.has("banners")) return "notice";
  return "answer";
}

/**
 * The trip of a session up to a turn: what the passenger chose on the screen so far (a later choice
 * replaces an earlier one), else the answer's route (which may give names) and riders.
 */
export function tripOf(turns: readonly (readonly KioskEvent[])[], state: AssistantState): ReplayTrip {
  let origin: string | null = null;
  let destination: string | null = null;
  let riders: Riders | null = null;
  for (const e of turns.flat()) {
    if (e.type === "station_selected") {
      if (e.field === "origin") origin = e.station_id ?? e.value;
      else destination = e.station_id ?? e.value;
    } else if (e.type === "passenger_count_changed") {
      const counts = riders ?? { adults: 0, children: 0, seniors: 0, disabled: 0 };
      riders = Object.fromEntries(RIDER_TYPES.map((k) => [k, e[k] ?? counts[k]])) as Riders;
    }
  }
  const summary = state.fare_quote?.passenger_summary;
  return {
    origin: origin ?? state.route?.origin ?? null,
    destination: destination ?? state.route?.destination ?? null,
    riders: riders ?? (summary ? { adults: summary.adults, children: summary.children, seniors: summary.seniors, disabled: summary.disabled } : null),
  };
}

/** Local ISO time of the audit ("2026-03-09T14:00:00") → Date. */
function localDate(text: string): Date {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? new Date() : date;
}

function asked(events: readonly KioskEvent[]): string {
  return events
    .map((e) => {
      if (e.type === "station_selected") return `${e.field} ${e.station_id ?? e.value}`;
      if (e.type === "passenger_count_changed") return `passengers ${["adults", "children", "seniors", "disabled"].map((k) => (e as Record<string, unknown>)[k] ?? 0).join("/")}`;
      if (e.type === "freetext_input") return `"${e.text.length > 60 ? `${e.text.slice(0, 59)}…` : e.text}"`;
      if (e.type === "payment_method_selected") return `pay ${e.method}`;
      return e.type;
    })
    .join(", ");
}

/** Answer every turn of a stored session again with `policy` under one side's data and conditions. */
export async function replaySession(pack: DataPack, session: SessionAudit, side: ReplaySide, policy: Policy): Promise<AssistantState[]> {
  const first = session.turns[0]!;
  const now = side.now?.(session) ?? localDate(first.now);
  const disruptions = [...(side.disruptions?.(session) ?? first.disruptions)];
  const service = new KioskService({
    pack,
    pipeline: new AnswerPipeline({ rule: policy, profile: pack.promptProfile() }),
    systemData: side.systemData,
    conditions: () => ({ now, disruptions }),
    clock: () => now,
  });
  const id = `replay-${session.sessionId}`;
  const states: AssistantState[] = [];
  try {
    let result = await service.start({ system: session.system, events: [...first.events], accessibilityMode: session.accessibilityMode, sessionId: id });
    states.push(result.record.kiosk.state);
    for (const turn of session.turns.slice(1)) {
      result = await service.continue(id, [...turn.events]);
      states.push(result.record.kiosk.state);
    }
  } finally {
    service.end(id);
  }
  return states;
}

export async function replayBeforeApply(options: ReplayOptions): Promise<ReplayReport> {
  const policy = options.policy ?? rulePolicy;
  const firstN = options.firstN ?? 10;
  const report: ReplayReport = {
    sessions: 0,
    turns: 0,
    changedSessions: 0,
    changedTurns: 0,
    byField: Object.fromEntries(ANSWER_FIELDS.map((f) => [f, 0])) as Record<AnswerField, number>,
    first: [],
    errors: [],
  };
  let done = 0;
  for (const session of options.sessions) {
    try {
      const before = await replaySession(options.pack, session, options.baseline, policy);
      const after = await replaySession(options.pack, session, options.draft, policy);
      report.sessions++;
      report.turns += before.length;
      let changed = false;
      before.forEach((state, i) => {
        const a = answerFields(state);
        const b = answerFields(after[i]!);
        const changes = ANSWER_FIELDS.filter((f) => a[f] !== b[f]).map((field) => ({ field, before: a[field], after: b[field] }));
        if (changes.length === 0) return;
        changed = true;
        report.changedTurns++;
        for (const c of changes) report.byField[c.field]++;
        if (report.first.length < firstN) {
          const turns = session.turns.slice(0, i + 1).map((t) => t.events);
          const trip = tripOf(turns, state.route ? state : after[i]!);
          report.first.push({ sessionId: session.sessionId, system: session.system, startedAt: session.startedAt, turn: i + 1, asked: asked(session.turns[i]!.events), trip, effect: effectOf(state, after[i]!, changes), changes });
        }
      });
      if (changed) report.changedSessions++;
    } catch (err) {
      report.errors.push({ sessionId: session.sessionId, message: (err as Error).message });
    }
    options.onProgress?.(++done, options.sessions.length);
  }
  return report;
}

/** The report for a terminal. */
export function replayReportText(report: ReplayReport, what: string): string {
  if (report.sessions === 0 && report.errors.length === 0) return `Replay: no stored passenger session to replay ${what} against (the session audit is empty).\n`;
  const lines = [
    `Replay of the last ${report.sessions} passenger session(s) (${report.turns} answers) ${what}: ${report.changedTurns} answer(s) in ${report.changedSessions} session(s) would change.`,
  ];
  const fields = ANSWER_FIELDS.filter((f) => report.byField[f] > 0).map((f) => `${f} ${report.byField[f]}`);
  if (fields.length > 0) lines.push(`By field: ${fields.join(", ")}`);
  for (const d of report.first) {
    lines.push("", `${d.sessionId} (${d.system}, ${localIso(new Date(d.startedAt)).replace("T", " ").slice(0, 16)}) turn ${d.turn}: ${d.asked}`);
    for (const c of d.changes) lines.push(`  ${c.field}: ${c.before}  →  ${c.after}`);
  }
  if (report.changedTurns > report.first.length) lines.push("", `… and ${report.changedTurns - report.first.length} more changed answer(s)`);
  for (const e of report.errors) lines.push(`could not replay ${e.sessionId}: ${e.message}`);
  return `${lines.join("\n")}\n`;
}
