// The operator calls for running the network live (issue 16): service alerts (list, add or edit,
// end, preview against stored sessions) and the session audit (today's sessions with filters, one
// session's timeline). Pure zod schemas, joined to OPERATOR_METHODS in bridge.ts (the renderer
// imports them from there).
import { z } from "zod";
import { RIDER_TYPES, SystemIdSchema, UnreadDecisionSchema } from "../../tools/data/schemas.ts";
import { AlertSchema } from "../alerts/model.ts";
import { DisruptionTypeSchema } from "../alerts/vocabulary.ts";
import { REPLAY_EFFECTS } from "../replay/effects.ts";

/** The disruption vocabulary the operator screen offers (the data pack's). */
export { DISRUPTION_SEVERITIES, DISRUPTION_TYPES, STATION_TYPES as STATION_DISRUPTION_TYPES } from "../alerts/vocabulary.ts";
/** What a changed answer means for a passenger, and who travels. */
export { REPLAY_EFFECTS, type ReplayEffect, type Riders } from "../replay/effects.ts";
/** The languages of an alert's passenger text per system (English, then the local one). */
export { alertLanguages } from "../alerts/languages.ts";

const Token = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, "not an operator token");

// --- Service alerts ------------------------------------------------------------------------------

export const ALERT_STATUSES = ["upcoming", "active", "expired", "ended"] as const;

export const AlertViewSchema = z.object({
  alert: AlertSchema,
  /** At the kiosk's time now: in force, announced, past its window, or ended by an operator. */
  status: z.enum(ALERT_STATUSES),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  endedAt: z.string().nullable(),
  endedBy: z.string().nullable(),
  endReason: z.string().nullable(),
});
export type AlertView = z.infer<typeof AlertViewSchema>;

export const AlertAuditViewSchema = z.object({
  at: z.string(),
  who: z.string(),
  action: z.enum(["add", "edit", "end", "import"]),
  alertId: z.string(),
  system: SystemIdSchema,
  detail: z.string().nullable(),
});
export type AlertAuditView = z.infer<typeof AlertAuditViewSchema>;

export const AlertsListRequestSchema = z.strictObject({ token: Token, system: SystemIdSchema.optional() });

/** A station or line: its id, its name in the system's data, and its name by language where the kiosk has one ("zh-Hans": "西直门"). */
export const PlaceNameSchema = z.object({ id: z.string(), name: z.string(), localized: z.record(z.string(), z.string()).optional() });
export type PlaceName = z.infer<typeof PlaceNameSchema>;

/** What the alerts form needs of a system: the languages of the passenger text (English first), station and line names. */
export const AlertPlacesSchema = z.object({
  system: SystemIdSchema,
  languages: z.array(z.string()).min(1),
  stations: z.array(PlaceNameSchema),
  lines: z.array(PlaceNameSchema),
});
export type AlertPlaces = z.infer<typeof AlertPlacesSchema>;

export const AlertsListSchema = z.object({
  /** The kiosk's local time the statuses were computed at. */
  now: z.string(),
  /** Newest first. */
  alerts: z.array(AlertViewSchema),
  /** Who added, edited and ended what, newest first. */
  audit: z.array(AlertAuditViewSchema),
  /** The listed system's languages and names (null when the request named no system). */
  places: AlertPlacesSchema.nullable(),
});
export type AlertsList = z.infer<typeof AlertsListSchema>;

/** A problem with one field of an alert ("stations[0]", "valid_until"). */
export const AlertIssueViewSchema = z.object({ path: z.string(), message: z.string() });
export type AlertIssueView = z.infer<typeof AlertIssueViewSchema>;

/** The alert in the file format (`kiosk alerts import`): checked field by field by the kiosk, so every error names its field. */
export const AlertDraftSchema = z.record(z.string(), z.unknown());

/** The operator's choices for an alert's unread words, in the order the screen offers them. */
export const UNREAD_DECISIONS = UnreadDecisionSchema.options;
export type { UnreadDecision } from "../../tools/data/schemas.ts";

export const AlertSaveRequestSchema = z.strictObject({
  token: Token,
  alert: AlertDraftSchema,
  /** add: a new alert (its id must not be in force); edit: replace the one with this id. */
  mode: z.enum(["add", "edit"]).default("add"),
  /**
   * The operator saw that the kiosk cannot map where the alert's words stop service, and decided:
   * refer the trips they may touch to staff, block those trips, or act only on what was read.
   */
  ifUnread: UnreadDecisionSchema.optional(),
});
export type AlertSaveRequest = z.input<typeof AlertSaveRequestSchema>;

export const AlertSaveResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), record: AlertViewSchema }),
  /**
   * invalid: the issues name the fields; conflict: the store refused it (issues[0] says why);
   * unread: its words stop service where the kiosk cannot map it — saved only with a decision (ifUnread).
   */
  z.object({ ok: z.literal(false), reason: z.enum(["invalid", "conflict", "unread"]), issues: z.array(AlertIssueViewSchema) }),
]);
export type AlertSaveResult = z.infer<typeof AlertSaveResultSchema>;

export const AlertEndRequestSchema = z.strictObject({ token: Token, id: z.string().min(1).max(80), reason: z.string().trim().min(1).max(200).optional() });
export type AlertEndRequest = z.input<typeof AlertEndRequestSchema>;

export const AlertEndResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), record: AlertViewSchema }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type AlertEndResult = z.infer<typeof AlertEndResultSchema>;

export const AlertPreviewRequestSchema = z.strictObject({ token: Token, alert: AlertDraftSchema, sessions: z.number().int().positive().max(1000).optional() });
export type AlertPreviewRequest = z.input<typeof AlertPreviewRequestSchema>;

export const ReplayReportViewSchema = z.object({
  sessions: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  changedSessions: z.number().int().nonnegative(),
  changedTurns: z.number().int().nonnegative(),
  byField: z.record(z.string(), z.number().int().nonnegative()),
  first: z.array(
    z.object({
      sessionId: z.string(),
      system: SystemIdSchema,
      startedAt: z.string(),
      turn: z.number().int().positive(),
      asked: z.string(),
      /** The passenger's trip by name (a station typed but not found: its text as the name), and who travelled (null: not said). */
      trip: z.object({
        from: PlaceNameSchema.nullable(),
        to: PlaceNameSchema.nullable(),
        riders: z.record(z.enum(RIDER_TYPES), z.number().int().nonnegative()).nullable(),
      }),
      /** What the change means for the passenger. */
      effect: z.enum(REPLAY_EFFECTS),
      changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
    }),
  ),
  errors: z.array(z.object({ sessionId: z.string(), message: z.string() })),
});
export type ReplayReportView = z.infer<typeof ReplayReportViewSchema>;

/** The previewed alert as the kiosk understood it, by name: its type and where it applies. */
export const AlertCauseSchema = z.object({
  type: DisruptionTypeSchema,
  stations: z.array(PlaceNameSchema),
  lines: z.array(PlaceNameSchema),
  segment: z.object({ from: PlaceNameSchema, to: PlaceNameSchema }).nullable(),
});
export type AlertCause = z.infer<typeof AlertCauseSchema>;

/**
 * What the kiosk reads in the alert, by name (runtime/kiosk/notice-reading.ts): what the interlock
 * will act on while it is in force.
 */
export const AlertReadingViewSchema = z.object({
  systemSuspended: z.boolean(),
  lines: z.array(PlaceNameSchema),
  sections: z.array(z.object({ from: PlaceNameSchema, to: PlaceNameSchema })),
  closed: z.array(PlaceNameSchema),
  passThrough: z.array(PlaceNameSchema),
  liftsOut: z.array(PlaceNameSchema),
  /** The words say service stops where the kiosk cannot map it. */
  unread: z.boolean(),
  /** The lines whose trips those words may touch (empty: every trip of the system). */
  unreadLines: z.array(PlaceNameSchema),
  /** What the operator decided for them (null: not yet). */
  decision: UnreadDecisionSchema.nullable(),
  /** The window the words give, where the alert has no valid_from / valid_until of its own. */
  window: z.object({ from: z.string().optional(), until: z.string().optional() }).nullable(),
});
export type AlertReadingView = z.infer<typeof AlertReadingViewSchema>;

export const AlertPreviewResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), report: ReplayReportViewSchema, cause: AlertCauseSchema, reading: AlertReadingViewSchema }),
  z.object({ ok: z.literal(false), reason: z.literal("invalid"), issues: z.array(AlertIssueViewSchema) }),
]);
export type AlertPreviewResult = z.infer<typeof AlertPreviewResultSchema>;

// --- Session audit -------------------------------------------------------------------------------

export const AuditFilterSchema = z.strictObject({
  system: SystemIdSchema.optional(),
  outcome: z.string().min(1).max(40).optional(),
  fallback: z.boolean().optional(),
  blocked: z.boolean().optional(),
  refused: z.boolean().optional(),
  language: z.string().min(2).max(20).optional(),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

export const AuditSessionsRequestSchema = z.strictObject({ token: Token, filter: AuditFilterSchema.default({}) });
export type AuditSessionsRequest = z.input<typeof AuditSessionsRequestSchema>;

export const SessionSummarySchema = z.object({
  sessionId: z.string(),
  system: SystemIdSchema,
  language: z.string(),
  startedAt: z.string(),
  turns: z.number().int().positive(),
  outcome: z.string(),
  action: z.string(),
  reasonCode: z.string(),
  answeredBy: z.enum(["rule", "model", "rule-fallback"]),
  fallback: z.boolean(),
  blocked: z.boolean(),
  refused: z.boolean(),
  sold: z.boolean(),
  blockCodes: z.array(z.string()),
});
export type SessionSummaryView = z.infer<typeof SessionSummarySchema>;

export const AuditSessionsSchema = z.object({
  /** The kiosk's local day listed (YYYY-MM-DD). */
  day: z.string(),
  /** Newest first. */
  sessions: z.array(SessionSummarySchema),
});
export type AuditSessions = z.infer<typeof AuditSessionsSchema>;

export const AuditTimelineRequestSchema = z.strictObject({ token: Token, sessionId: z.string().min(1).max(100) });
export type AuditTimelineRequest = z.input<typeof AuditTimelineRequestSchema>;

export const TIMELINE_KINDS = ["asked", "tool", "shown", "buy", "purchase", "end"] as const;
export const TimelineViewSchema = z.object({
  sessionId: z.string(),
  system: SystemIdSchema,
  language: z.string(),
  startedAt: z.string(),
  summary: SessionSummarySchema,
  entries: z.array(
    z.object({
      at: z.string(),
      turn: z.number().int().positive(),
      kind: z.enum(TIMELINE_KINDS),
      title: z.string(),
      lines: z.array(z.string()),
      ok: z.boolean().optional(),
      data: z.unknown().optional(),
    }),
  ),
});
export type TimelineView = z.infer<typeof TimelineViewSchema>;

/** The rows OPERATOR_METHODS gets from this module. */
export const OPERATOR_LIVE_METHODS = {
  listAlerts: { request: AlertsListRequestSchema, result: AlertsListSchema },
  saveAlert: { request: AlertSaveRequestSchema, result: AlertSaveResultSchema },
  endAlert: { request: AlertEndRequestSchema, result: AlertEndResultSchema },
  previewAlert: { request: AlertPreviewRequestSchema, result: AlertPreviewResultSchema },
  auditSessions: { request: AuditSessionsRequestSchema, result: AuditSessionsSchema },
  auditTimeline: { request: AuditTimelineRequestSchema, result: TimelineViewSchema },
} as const;
