// The one typed contract between the kiosk screen (renderer) and the kiosk runtime (Electron main
// process or `kiosk serve`). Pure zod schemas: the renderer imports this file and nothing else from
// the runtime; every payload crossing the boundary is validated on the receiving side.
import { z } from "zod";
import { AssistantStateSchema } from "../contract/index.ts";
import { ClarificationChoiceSchema, ClarificationSchema } from "../contract/clarification.ts";
import { CATEGORIES, categoryLabel, EventSchema, RIDER_TYPES, SystemIdSchema } from "../../tools/data/schemas.ts";
import { OPERATOR_LIVE_METHODS } from "./operator-live.ts";

export * from "./operator-live.ts";

export const RiderTypeSchema = z.enum(RIDER_TYPES);
export type RiderType = z.infer<typeof RiderTypeSchema>;

export const StationViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Names in the local language(s) (e.g. Chinese for Beijing), for type-ahead search. */
  localNames: z.array(z.string()),
  lines: z.array(z.string()),
  /** WGS84 coordinates when the system's data has them (the pack's gtfs files, an imported stations.json), for the network map. */
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  /** The station's name by passenger language (e.g. "zh-Hans": "西直门"), where the pack or the operator has it. */
  localized: z.record(z.string(), z.string()).optional(),
  /**
   * Other words passengers use for it, for type-ahead search: the operator's aliases and codes
   * ("SFO"), the landmarks it serves ("Capital Airport"), and "airport" in the kiosk's languages
   * at an airport station.
   */
  aliases: z.array(z.string()).optional(),
  /** Toneless pinyin of its Chinese names, by name ("天安门东": "tiananmendong"): pinyin search and the keyboard's candidate bar. */
  pinyin: z.record(z.string(), z.string()).optional(),
});
export type StationView = z.infer<typeof StationViewSchema>;

export const LineViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  stations: z.array(z.string()),
  /** The line's course as WGS84 [lat, lon] points (an imported feed's shapes, simplified), for the map; absent: drawn station to station. */
  shape: z.array(z.tuple([z.number(), z.number()])).optional(),
  /** The line's name by passenger language, from the operator's local-names file. */
  localized: z.record(z.string(), z.string()).optional(),
});

export const SystemSummarySchema = z.object({
  id: SystemIdSchema,
  orgName: z.string(),
  fullName: z.string(),
  /**
   * Imported from a feed (`kiosk network import`), not one of the benchmark pack's systems: the
   * benchmark has no cases for it, so the technician generates them (a "generated" bench selection).
   * Set by `listSystems`; absent elsewhere.
   */
  imported: z.boolean().optional(),
});
export type SystemSummary = z.infer<typeof SystemSummarySchema>;

/** Everything the screen needs to draw a system: stations, lines, and the framebook's wording. */
export const SystemViewSchema = SystemSummarySchema.extend({
  primaryLanguage: z.string(),
  currencySymbol: z.string(),
  /** ISO 4217 ("INR"): the screen formats every amount with Intl.NumberFormat in this currency. */
  currencyCode: z.string(),
  /** e.g. "$X.XX", "¥X", "QRX" — how the framebook wants fares shown (a sign that is not the currency's gives way to it). */
  fareDisplayFormat: z.string(),
  terminology: z.record(z.string(), z.string().nullable()),
  /** Payment method keys with their display label from the framebook's terminology. */
  paymentMethods: z.array(z.object({ id: z.string(), label: z.string(), localized: z.record(z.string(), z.string()).optional() })),
  riderTypes: z.array(RiderTypeSchema),
  /** What the fare card states about a rider type: who qualifies ("under 5") and whether they ride free. */
  riderRules: z
    .record(z.string(), z.object({ qualifier: z.string().nullable(), free: z.boolean(), maxPerAdult: z.number().nullable() }))
    .optional(),
  /** How distances are shown: the framebook's `distance_unit`, else miles where fares are in US dollars, kilometres elsewhere. */
  distanceUnit: z.enum(["mi", "km"]).optional(),
  operatingHours: z.record(z.string(), z.union([z.string(), z.number()])),
  stations: z.array(StationViewSchema),
  lines: z.array(LineViewSchema),
  framebookVersion: z.string(),
  /** Attribution the data licence requires wherever the data is shown. */
  attribution: z.string(),
});
export type SystemView = z.infer<typeof SystemViewSchema>;

/**
 * The languages a passenger can use at the kiosk (BCP 47): English, simplified Chinese (Beijing),
 * traditional Chinese (Taipei), Arabic (Doha), Spanish (the US systems).
 */
export const PASSENGER_LANGUAGES = ["en", "zh-Hans", "zh-Hant", "ar", "es"] as const;
export const PassengerLanguageSchema = z.enum(PASSENGER_LANGUAGES);
export type PassengerLanguage = z.infer<typeof PassengerLanguageSchema>;

/**
 * The passenger language a BCP 47 tag (a framebook's `primary_language`, a local-names file's
 * `language`) is written in: "zh"/"zh-CN" → simplified, "zh-TW"/"zh-HK" → traditional Chinese.
 */
export function passengerLanguageOf(tag: string): PassengerLanguage | null {
  const lower = tag.trim().toLowerCase();
  if (/^zh(-hant|-tw|-hk|-mo)\b/.test(lower)) return "zh-Hant";
  if (/^zh\b/.test(lower)) return "zh-Hans";
  const base = lower.split("-")[0];
  return base === "en" || base === "ar" || base === "es" ? base : null;
}

/** A passenger request: the UI's events, exactly the benchmark's event vocabulary. */
export const AskRequestSchema = z.object({
  system: SystemIdSchema,
  /** Continue this passenger session (a follow-up), or start a new one when absent. */
  sessionId: z.string().min(1).max(100).optional(),
  events: z.array(EventSchema).min(1).max(50),
  accessibilityMode: z.boolean().optional(),
  /**
   * The language chosen on screen. The assistant answers in the language the passenger typed in,
   * else in this one (bench mode never sets it: the benchmark's prompts stay byte-identical).
   */
  language: PassengerLanguageSchema.optional(),
});
export type AskRequest = z.infer<typeof AskRequestSchema>;

/**
 * Why the purchase interlock (runtime/kiosk/interlock.ts) refused an offered ticket: the screen
 * explains each code in every screen language and the operator log records them.
 */
export const INTERLOCK_CODES = [
  "route_missing",
  "route_too_short",
  "unknown_station",
  "not_a_path",
  "line_mismatch",
  "origin_mismatch",
  "destination_mismatch",
  "not_the_chosen_origin",
  "not_the_chosen_destination",
  "origin_not_requested",
  "destination_not_requested",
  "trip_reversed",
  "same_station",
  "system_suspended",
  "outside_service_hours",
  "service_hours_unknown",
  "station_closed",
  "line_suspended",
  "track_closed",
  "not_step_free",
  "step_free_unconfirmed",
  "passenger_summary_missing",
  "invalid_passenger_counts",
  "no_passengers",
  "too_many_passengers",
  "passengers_mismatch",
  "riders_differ_from_text",
  "fare_quote_missing",
  "fare_mismatch",
  "currency_mismatch",
  "fare_out_of_bounds",
  "free_without_rule",
  "unknown_payment_method",
  "fare_unavailable",
  "route_not_plannable",
  "sales_unavailable",
  "fare_announcement_unpriceable",
  "disruption_unmapped",
  "disruption_blocked",
] as const;
export const InterlockCodeSchema = z.enum(INTERLOCK_CODES);
export type InterlockCode = z.infer<typeof InterlockCodeSchema>;

/** What the passenger confirms before paying: checked by the kiosk, not taken from the answer's words. */
export const PurchaseConfirmationSchema = z.object({
  /** Fingerprint of this summary: a purchase naming another one is refused (the answer changed). */
  id: z.string(),
  from: z.string(),
  to: z.string(),
  /** The stations' ids: the screen names them in its own language. */
  fromId: z.string(),
  toId: z.string(),
  riders: z.object({ adults: z.number().int(), children: z.number().int(), seniors: z.number().int(), disabled: z.number().int() }),
  total: z.number(),
  currency: z.string(),
});
export type PurchaseConfirmation = z.infer<typeof PurchaseConfirmationSchema>;

export const ToolStepSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  ms: z.number(),
});

/**
 * A trip to, from or through a closed station (runtime/kiosk/closed-trip.ts): what is closed in
 * plain words and the open stations to choose instead. `end` and `through` are not sold (the screen
 * shows no fare); `pass_through` is (trains run through the closed station without stopping).
 */
export const ClosedTripSchema = z.object({
  kind: z.enum(["end", "through", "pass_through"]),
  /** The closed stations concerned (ids). */
  stations: z.array(z.string()),
  /** What is closed, until when, the notice's text and the alternative it names, in the screen's language. */
  notice: z.string(),
  /** Shown before the choices ("" when there are none). */
  question: z.string(),
  /** Each tap replaces the closed end (or the trip's end) with an open station: the session's next turn. */
  choices: z.array(ClarificationChoiceSchema).max(8),
});
export type ClosedTrip = z.infer<typeof ClosedTripSchema>;

export const AskResultSchema = z.object({
  sessionId: z.string(),
  state: AssistantStateSchema,
  /** True when the state is the safe fallback (no purchase), not the assistant's answer. */
  fallback: z.boolean(),
  /** The model failed and the deterministic policy answered instead. */
  assistantUnavailable: z.boolean(),
  /** Whether the purchase button may be enabled (route_and_fare_ready + prompt_purchase + interlock). */
  purchasable: z.boolean(),
  steps: z.array(ToolStepSchema),
  elapsedMs: z.number(),
  policy: z.string(),
  /**
   * Hybrid kiosks: who answered, and whether the assistant's check changed the provisional answer
   * the passenger already saw (with a note saying what changed).
   */
  check: z
    .object({
      decidedBy: z.enum(["rule", "model", "rule-fallback"]),
      reason: z.string(),
      changed: z.boolean(),
      note: z.string().nullable(),
    })
    .optional(),
  /**
   * Present when the state offers a purchase: whether the kiosk's own safety interlock (real path
   * in the network, fare recomputed by fare_calculator) confirmed it. `ok: false` flags a state
   * whose purchase button must stay disabled; `problems` are machine-readable codes with details.
   */
  interlock: z.object({ ok: z.boolean(), problems: z.array(z.string()), codes: z.array(InterlockCodeSchema).optional() }).optional(),
  /** Present when purchasable: the summary (from, to, riders, total) the passenger taps to confirm. */
  confirmation: PurchaseConfirmationSchema.optional(),
  /**
   * The assistant asks one short question (which station, where from, who travels, or "is this
   * right?"): the screen shows its choices as buttons, and a tap sends the choice's events as the
   * session's next turn.
   */
  clarification: ClarificationSchema.optional(),
  /** The trip is to, from or through a closed station: said plainly, with open stations to choose instead. */
  closedTrip: ClosedTripSchema.optional(),
});
export type AskResult = z.infer<typeof AskResultSchema>;

/** Live progress while the assistant works (for the "working" indicator). */
export const ProgressEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("tool_started"), sessionId: z.string(), name: z.string() }),
  z.object({ type: z.literal("tool_finished"), sessionId: z.string(), name: z.string(), ok: z.boolean() }),
  z.object({ type: z.literal("state_submitted"), sessionId: z.string(), accepted: z.boolean() }),
  /** The deterministic answer, shown at once while the assistant checks it ("checking…"). */
  z.object({ type: z.literal("provisional"), sessionId: z.string(), result: AskResultSchema }),
]);
export type ProgressEvent = z.infer<typeof ProgressEventSchema>;

export const PurchaseRequestSchema = z.object({
  sessionId: z.string().min(1).max(100),
  paymentMethod: z.string().min(1).max(60),
  /**
   * Chosen by the screen once per purchase attempt: a retry with the same id (the answer was lost)
   * returns the ticket already issued instead of selling again.
   */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/).optional(),
  /** The confirmation summary the passenger tapped (its id); a different one is refused. */
  confirmation: z.string().min(1).max(64).optional(),
});
export type PurchaseRequest = z.infer<typeof PurchaseRequestSchema>;

export const TicketSchema = z.object({
  ticketId: z.string(),
  system: SystemIdSchema,
  issuedAt: z.string(),
  origin: z.string(),
  destination: z.string(),
  /** The stations' ids (the ticket names them in the screen's language). */
  originId: z.string(),
  destinationId: z.string(),
  riders: z.record(z.string(), z.number().int()),
  total: z.number(),
  currency: z.string(),
  paymentMethod: z.string(),
});
export type Ticket = z.infer<typeof TicketSchema>;

export const PurchaseResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), ticket: TicketSchema }),
  z.object({ ok: z.literal(false), reason: z.enum(["not_purchasable", "payment_declined", "ledger_unavailable", "unknown_session"]), message: z.string() }),
]);

/** An issued ticket fetched again (KIOSK_METHODS.ticket; `kiosk serve`: GET /api/tickets/:ticketId). */
export const TicketLookupResultSchema = z.discriminatedUnion("found", [z.object({ found: z.literal(true), ticket: TicketSchema, voided: z.boolean() }), z.object({ found: z.literal(false) })]);
export type TicketLookupResult = z.infer<typeof TicketLookupResultSchema>;
export type PurchaseResult = z.infer<typeof PurchaseResultSchema>;

/** The passenger model's process, as the operator sees it (models/worker/supervisor.ts). */
export const ModelProcessViewSchema = z.object({
  state: z.enum(["starting", "ready", "restarting", "stopped"]),
  /** Restarts after a crash or a hang since the kiosk started. */
  restarts: z.number().int().nonnegative(),
  /** Why it last went down (null: never). */
  lastFailure: z.string().nullable(),
  /** While restarting: when the next start is due (ISO time). */
  nextStartAt: z.string().nullable(),
});
export type ModelProcessView = z.infer<typeof ModelProcessViewSchema>;

/** Store and forward to the fleet's back office (issue 18): how far behind it is (runtime/kiosk/node/replicator.ts). */
export const ReplicationViewSchema = z.object({
  kioskId: z.string(),
  backOffice: z.string(),
  /** Records (sales, voids, session lines) not yet acknowledged by the back office. */
  pending: z.number().int().nonnegative(),
  /** When the oldest of them was committed (ISO), null when none is pending. */
  oldestPendingAt: z.string().nullable(),
  /** Its age in ms (0 when none is pending). */
  lagMs: z.number().nonnegative(),
  /** Records acknowledged and failed tries since the kiosk started. */
  sent: z.number().int().nonnegative(),
  /** Records the back office refused as ones no kiosk could make: kept in the ledger, not resent. */
  parked: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  lastSentAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** While backing off after a failure: when the next try is due. */
  retryAt: z.string().nullable(),
});
export type ReplicationView = z.infer<typeof ReplicationViewSchema>;

// =================================================================================================
// Speech. Headset mode plays audio that a platform engine rendered on the kiosk (runtime/speech/),
// routed to the headset output; the browser's own speechSynthesis only ever speaks on the loudspeaker.

/** The longest text one `speak` call reads (a result screen with its notices fits). */
export const MAX_SPOKEN_CHARS = 3000;

/** The voice that reads a screen language on the headset, or why there is none (`voice` null). */
export const SpeechVoiceStatusSchema = z.object({
  engine: z.string().nullable(),
  voice: z.string().nullable(),
  note: z.string().nullable(),
});
export type SpeechVoiceStatus = z.infer<typeof SpeechVoiceStatusSchema>;

export const SpeechStatusSchema = z.object({
  /** The engines found, in the order they are tried; "samples": can speak on the headset. */
  engines: z.array(z.object({ id: z.string(), label: z.string(), output: z.enum(["samples", "loudspeaker"]), voices: z.number().int().nonnegative() })),
  /** Every screen language's headset voice. */
  voices: z.record(PassengerLanguageSchema, SpeechVoiceStatusSchema),
});
export type SpeechStatus = z.infer<typeof SpeechStatusSchema>;

export const SpeakRequestSchema = z.object({
  text: z.string().trim().min(1).max(MAX_SPOKEN_CHARS),
  language: PassengerLanguageSchema,
});
export type SpeakRequest = z.infer<typeof SpeakRequestSchema>;

/** A rendered reading (a base64 WAV), or why nothing can be rendered — never a fallback to the loudspeaker. */
export const SpeechResultSchema = z.discriminatedUnion("spoken", [
  z.object({ spoken: z.literal(true), audio: z.base64(), engine: z.string(), voice: z.string() }),
  z.object({ spoken: z.literal(false), reason: z.enum(["no_engine", "no_voice", "failed"]), message: z.string() }),
]);
export type SpeechResult = z.infer<typeof SpeechResultSchema>;

/**
 * The kiosk's state: answered by `status()` and pushed to the screen on every change (the `state`
 * push), so a bench run, a framebook change or the model going down reach the screen at once.
 */
export const KioskStatusSchema = z.object({
  assistant: z.enum(["model", "rule", "unavailable"]),
  /** A technician bench run is in progress: passengers are refused meanwhile. */
  benchRunning: z.boolean(),
  message: z.string().nullable(),
  /** The passenger model's process; null when the kiosk has no model. */
  model: ModelProcessViewSchema.nullable(),
  /** Tickets can be sold: false when the sales ledger is missing, corrupt or failing (information only, no sales). */
  salesAvailable: z.boolean(),
  /** The active framebook version of every system. */
  framebookVersions: z.record(z.string(), z.string()),
  /** Which audio output is the headset in headset mode: a case-insensitive label pattern (kiosk config; else the screen's default). */
  headsetPattern: z.string().max(200).optional(),
  /** The speech engines found on this machine and the headset voice of each screen language; absent: not probed (tests). */
  speech: SpeechStatusSchema.optional(),
  /** Replication to the back office; absent when this kiosk is not part of a fleet. */
  replication: ReplicationViewSchema.optional(),
});
export type KioskStatus = z.infer<typeof KioskStatusSchema>;

// =================================================================================================
// The passenger calls. One table, KIOSK_METHODS, defines every call: its positional arguments and
// its result. Everything else is derived from it: the KioskBridge type the screen codes against,
// the Electron IPC channels, dispatch and preload, the HTTP routes of `kiosk serve`, and the
// renderer's browser and validating bridges. Adding a call = a row here + the implementation
// (KioskApp) + the fake (renderer/bridge/fakeBridge.ts); the compiler points at each.

/** A passenger session id as the bridge carries it. */
export const SessionIdSchema = z.string().min(1).max(100);

/**
 * How `kiosk serve` exposes a call: the HTTP verb and the path under /api/. `:name` segments take
 * the call's arguments in order; a POST call's remaining argument (if any) is the JSON body.
 */
export interface KioskHttpRoute {
  readonly verb: "GET" | "POST";
  readonly path: string;
}

export const KIOSK_METHODS = {
  listSystems: { args: z.tuple([]), result: z.array(SystemSummarySchema), http: { verb: "GET", path: "systems" } },
  systemView: { args: z.tuple([SystemIdSchema]), result: SystemViewSchema, http: { verb: "GET", path: "systems/:system" } },
  ask: { args: z.tuple([AskRequestSchema]), result: AskResultSchema, http: { verb: "POST", path: "ask" } },
  purchase: { args: z.tuple([PurchaseRequestSchema]), result: PurchaseResultSchema, http: { verb: "POST", path: "purchase" } },
  endSession: { args: z.tuple([SessionIdSchema]), result: z.null(), http: { verb: "POST", path: "sessions/:sessionId/end" } },
  status: { args: z.tuple([]), result: KioskStatusSchema, http: { verb: "GET", path: "status" } },
  /** An issued ticket fetched again (the screen lost the purchase's answer; a receipt reprint). */
  ticket: { args: z.tuple([z.string().min(1).max(100)]), result: TicketLookupResultSchema, http: { verb: "GET", path: "tickets/:ticketId" } },
  /** Words rendered to audio by the kiosk's speech engine, for headset mode. */
  speak: { args: z.tuple([SpeakRequestSchema]), result: SpeechResultSchema, http: { verb: "POST", path: "speech" } },
} as const satisfies Record<string, { args: z.ZodTuple; result: z.ZodType; http: KioskHttpRoute }>;
export type KioskMethod = keyof typeof KIOSK_METHODS;
export const KIOSK_METHOD_NAMES = Object.keys(KIOSK_METHODS) as KioskMethod[];
export type KioskArgs<M extends KioskMethod> = z.infer<(typeof KIOSK_METHODS)[M]["args"]>;
export type KioskResult<M extends KioskMethod> = z.infer<(typeof KIOSK_METHODS)[M]["result"]>;

/**
 * What the kiosk pushes to the screen, unasked: live progress of an answer, and the kiosk's state
 * on every change (`kiosk serve`: one WebSocket per push at /api/<name>; Electron: one IPC channel).
 * `current`: the call whose answer is the push's present value — every new subscriber gets it first.
 */
export const KIOSK_PUSHES = {
  progress: { event: ProgressEventSchema },
  state: { event: KioskStatusSchema, current: "status" },
} as const satisfies Record<string, { event: z.ZodType; current?: KioskMethod }>;
export type KioskPush = keyof typeof KIOSK_PUSHES;
export const KIOSK_PUSH_NAMES = Object.keys(KIOSK_PUSHES) as KioskPush[];
export type KioskPushEvent<P extends KioskPush> = z.infer<(typeof KIOSK_PUSHES)[P]["event"]>;
/** The subscription function of a push: `onProgress`, … */
export type KioskSubscription<P extends KioskPush = KioskPush> = `on${Capitalize<P>}`;

/** The call giving a push's present value, if it has one (see KIOSK_PUSHES). */
export function pushCurrent(push: KioskPush): KioskMethod | undefined {
  const entry: { event: z.ZodType; current?: KioskMethod } = KIOSK_PUSHES[push];
  return entry.current;
}

/** `progress` → `onProgress`. */
export function subscriptionName<P extends KioskPush>(push: P): KioskSubscription<P> {
  return `on${push.charAt(0).toUpperCase()}${push.slice(1)}` as KioskSubscription<P>;
}

/** A call as an HTTP request: the path under api/ (arguments encoded) and the JSON body, if any. */
export function kioskHttpRequest<M extends KioskMethod>(method: M, args: KioskArgs<M>): { verb: KioskHttpRoute["verb"]; path: string; body?: unknown } {
  const route: KioskHttpRoute = KIOSK_METHODS[method].http;
  const rest: unknown[] = [...args];
  const path = route.path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? encodeURIComponent(String(rest.shift())) : segment))
    .join("/");
  return rest.length > 0 ? { verb: route.verb, path, body: rest[0] } : { verb: route.verb, path };
}

/**
 * The call an HTTP request names: its method, the raw (still percent-encoded) path arguments, and
 * whether the JSON body is its last argument. "wrong_verb": the path exists for another verb.
 */
export function matchKioskRoute(verb: string, segments: readonly string[]): { method: KioskMethod; pathArgs: string[]; body: boolean } | "wrong_verb" | null {
  let wrongVerb = false;
  for (const method of KIOSK_METHOD_NAMES) {
    const route: KioskHttpRoute = KIOSK_METHODS[method].http;
    const pattern = route.path.split("/");
    if (pattern.length !== segments.length || !pattern.every((p, i) => p.startsWith(":") || p === segments[i])) continue;
    if (route.verb !== verb) {
      wrongVerb = true;
      continue;
    }
    const pathArgs = segments.filter((_, i) => pattern[i]!.startsWith(":"));
    return { method, pathArgs, body: KIOSK_METHODS[method].args.def.items.length > pathArgs.length };
  }
  return wrongVerb ? "wrong_verb" : null;
}

/** The bridge the renderer codes against (the Electron preload or the browser client implement it). */
export type KioskBridge = { [M in KioskMethod]: (...args: KioskArgs<M>) => Promise<KioskResult<M>> } & {
  [P in KioskPush as KioskSubscription<P>]: (listener: (event: KioskPushEvent<P>) => void) => () => void;
} & {
  /** Operator and technician tools (PIN-protected); absent when this kiosk offers none. */
  operator?: OperatorBridge;
};

// =================================================================================================
// Operator and technician tools, behind the operator PIN (`KioskBridge.operator`). One table,
// OPERATOR_METHODS, defines every call: its request and result schemas. `kiosk serve` answers
// `POST api/operator/<method>` with the request as the JSON body; Electron answers the IPC channel
// `kiosk:operator:<method>`. Every request but `login` carries the token `login` returned.
// Failures carry an OperatorFailureCode (HTTP status in OPERATOR_FAILURE_STATUS).

export const OperatorNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, "no control characters");
export const OperatorPinSchema = z.string().regex(/^\d{4,12}$/, "4 to 12 digits");
export const OperatorTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, "not an operator token");

export const OperatorLoginRequestSchema = z.strictObject({ operator: OperatorNameSchema, pin: OperatorPinSchema });
export type OperatorLoginRequest = z.input<typeof OperatorLoginRequestSchema>;

export const OperatorLoginResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), token: OperatorTokenSchema, operator: z.string(), idleTimeoutMs: z.number().int().positive() }),
  z.object({
    ok: z.literal(false),
    /** wrong_pin: attempts remain; locked: too many wrong PINs, wait retryAfterMs; not_configured: no PIN set up. */
    reason: z.enum(["wrong_pin", "locked", "not_configured"]),
    retryAfterMs: z.number().int().nonnegative(),
    attemptsLeft: z.number().int().nonnegative(),
  }),
]);
export type OperatorLoginResult = z.infer<typeof OperatorLoginResultSchema>;

/** A request that needs nothing but the operator session. */
export const OperatorTokenRequestSchema = z.strictObject({ token: OperatorTokenSchema });
export type OperatorTokenRequest = z.input<typeof OperatorTokenRequestSchema>;

export const OperatorOkSchema = z.object({ ok: z.literal(true) });

/** The technician's override of a PIN lockout: one source (as the log names it), or every source. */
export const ClearPinLockoutRequestSchema = OperatorTokenRequestSchema.extend({ source: z.string().min(1).max(200).optional() });
export type ClearPinLockoutRequest = z.input<typeof ClearPinLockoutRequestSchema>;
/** `cleared`: the sources that were locked out. */
export const ClearPinLockoutResultSchema = z.object({ ok: z.literal(true), cleared: z.array(z.string()) });

// --- Framebooks --------------------------------------------------------------------------------

/** Largest framebook accepted from the operator screen (the data pack's are about 2,000 characters). */
export const MAX_FRAMEBOOK_CHARS = 64_000;

export const FramebookIssueViewSchema = z.object({
  severity: z.enum(["error", "warning"]),
  message: z.string(),
  /** Key path, e.g. "framebook.operating_hours.weekday" ("(root)" for the whole file). */
  path: z.string(),
  /** 1-based position in the candidate text, when it could be located. */
  line: z.number().int().positive().nullable(),
  column: z.number().int().positive().nullable(),
});
export type FramebookIssueView = z.infer<typeof FramebookIssueViewSchema>;

/** One changed key; before/after are JSON text, null when the key is absent on that side. */
export const FramebookChangeViewSchema = z.object({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() });
export type FramebookChangeView = z.infer<typeof FramebookChangeViewSchema>;

export const FramebookAuditEntrySchema = z.object({
  at: z.string(),
  who: z.string(),
  system: SystemIdSchema,
  action: z.enum(["apply", "rollback"]),
  version: z.string(),
  previous: z.string().nullable(),
  /** The framebook made active confirms implausible fares (its `fare_override`): who, and why. */
  fare_override: z.object({ reason: z.string(), confirmed_by: z.string() }).optional(),
});
export type FramebookAuditEntry = z.infer<typeof FramebookAuditEntrySchema>;

export const FramebookSystemRequestSchema = OperatorTokenRequestSchema.extend({ system: SystemIdSchema });
export type FramebookSystemRequest = z.input<typeof FramebookSystemRequestSchema>;

export const FramebookStatusSchema = z.object({
  system: SystemIdSchema,
  source: z.enum(["data-pack", "operator"]),
  version: z.string(),
  text: z.string(),
  /** Versions a rollback can restore, oldest first (the last one is restored next). */
  previousVersions: z.array(z.string()),
  /** This system's audit log, newest first. */
  audit: z.array(FramebookAuditEntrySchema),
  /** The operator's framebook file is invalid, so `source`/`version`/`text` are the data pack's: why. */
  problem: z.string().nullable().optional(),
  /** Audit log lines that could not be read (skipped), e.g. "audit.jsonl line 3: not JSON". */
  auditProblems: z.array(z.string()).optional(),
});
export type FramebookStatus = z.infer<typeof FramebookStatusSchema>;

export const FramebookCandidateRequestSchema = FramebookSystemRequestSchema.extend({
  text: z.string().min(1).max(MAX_FRAMEBOOK_CHARS),
  /** The uploaded file's name (shown in messages); default "framebook.yaml". */
  fileName: z.string().min(1).max(200).optional(),
});
export type FramebookCandidateRequest = z.input<typeof FramebookCandidateRequestSchema>;

export const FramebookCheckResultSchema = z.object({
  ok: z.boolean(),
  issues: z.array(FramebookIssueViewSchema),
  /** What applying the candidate would change (empty when it is invalid). */
  changes: z.array(FramebookChangeViewSchema),
  activeVersion: z.string(),
  candidateVersion: z.string(),
  /** The candidate's fare policies as the kiosk reads them, one line each (as `kiosk framebook apply` prints them). */
  farePolicies: z.array(z.string()),
});
export type FramebookCheckResult = z.infer<typeof FramebookCheckResultSchema>;

export const FramebookApplyRequestSchema = FramebookCandidateRequestSchema.extend({
  /** The active version the operator reviewed the diff against; a different one refuses ("stale"). */
  expectedVersion: z.string().min(1).max(64).optional(),
});
export type FramebookApplyRequest = z.input<typeof FramebookApplyRequestSchema>;

export const FramebookApplyResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), entry: FramebookAuditEntrySchema, changes: z.array(FramebookChangeViewSchema) }),
  z.object({ ok: z.literal(false), reason: z.enum(["invalid", "stale"]), issues: z.array(FramebookIssueViewSchema), activeVersion: z.string() }),
]);
export type FramebookApplyResult = z.infer<typeof FramebookApplyResultSchema>;

export const FramebookRollbackResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), entry: FramebookAuditEntrySchema }),
  z.object({ ok: z.literal(false), reason: z.literal("no_previous") }),
]);
export type FramebookRollbackResult = z.infer<typeof FramebookRollbackResultSchema>;

// --- Technician: the on-device bench ---------------------------------------------------------

/** The benchmark's case categories, A–K. */
export const BENCH_CATEGORIES = CATEGORIES;
export type BenchCategory = (typeof CATEGORIES)[number];
/** "C · Disruption": the letter and the benchmark's name for it. */
export const benchCategoryLabel = categoryLabel;

export const BenchPolicyNameSchema = z.enum(["rule", "rule-ref", "llm", "hybrid"]);
export type BenchPolicyName = z.infer<typeof BenchPolicyNameSchema>;

/** Cases generated for an imported system: how many per category the technician may ask for, and the defaults. */
export const GENERATED_PER_CATEGORY = { min: 1, max: 50, default: 10 } as const;
/** The generator's seed (the same seed and network write the same cases); `kiosk bench generate --seed` takes the same range. */
export const GENERATION_SEED = { min: 0, max: 0xffffffff, default: 1 } as const;

/**
 * Generate cases for an imported system from its own network and fare files (bench/generate, as
 * `kiosk bench generate` does), store them beside the bench database and run them. Whether the
 * system is known and imported is checked where the systems are known (the technician's bench).
 */
export const GeneratedSelectionSchema = z.strictObject({
  kind: z.literal("generated"),
  system: z.string({ error: "name the imported system to generate cases for" }).pipe(SystemIdSchema),
  perCategory: z
    .number({ error: "cases per category must be a number" })
    .int({ error: "cases per category must be a whole number" })
    .min(GENERATED_PER_CATEGORY.min, { error: `cases per category must be from ${GENERATED_PER_CATEGORY.min} to ${GENERATED_PER_CATEGORY.max}` })
    .max(GENERATED_PER_CATEGORY.max, { error: `cases per category must be from ${GENERATED_PER_CATEGORY.min} to ${GENERATED_PER_CATEGORY.max}` })
    .default(GENERATED_PER_CATEGORY.default),
  seed: z
    .number({ error: "the seed must be a number" })
    .int({ error: "the seed must be a whole number" })
    .min(GENERATION_SEED.min, { error: `the seed must be from ${GENERATION_SEED.min} to ${GENERATION_SEED.max}` })
    .max(GENERATION_SEED.max, { error: `the seed must be from ${GENERATION_SEED.min} to ${GENERATION_SEED.max}` })
    .default(GENERATION_SEED.default),
});
export type GeneratedSelection = z.infer<typeof GeneratedSelectionSchema>;

/**
 * Which cases: the pack's probe set (one per category), one category, the held-out partition, or
 * all; or cases generated for an imported system.
 */
export const BenchSelectionSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("probe") }),
  z.strictObject({ kind: z.literal("category"), category: z.enum(CATEGORIES) }),
  z.strictObject({ kind: z.literal("holdout") }),
  z.strictObject({ kind: z.literal("all") }),
  GeneratedSelectionSchema,
]);
export type BenchSelection = z.infer<typeof BenchSelectionSchema>;

/** What the generator wrote for one category, or why it wrote nothing. */
export const BenchGeneratedCategorySchema = z.object({
  category: z.enum(CATEGORIES),
  requested: z.number().int().nonnegative(),
  generated: z.number().int().nonnegative(),
  /** Why none were generated (network data cannot answer the category, or every candidate was left out); null when some were. */
  skipped: z.string().nullable(),
  /** What the generator noted (e.g. no step-free route in the sample). */
  notes: z.array(z.string()),
  /** Candidates left out, by reason (ambiguous routes, no fare, …). */
  dropped: z.record(z.string(), z.number().int().nonnegative()),
});
export type BenchGeneratedCategory = z.infer<typeof BenchGeneratedCategorySchema>;

/** The cases generated for a "generated" run: the case file it runs (as `--cases-file`) and the per-category account. */
export const BenchGenerationSchema = z.object({
  system: SystemIdSchema,
  perCategory: z.number().int().positive(),
  seed: z.number().int().nonnegative(),
  /** Cases written (the run's total). */
  cases: z.number().int().nonnegative(),
  /** The case file, beside the bench database; the run records its checksum and resumes from it. */
  casesFile: z.string(),
  categories: z.array(BenchGeneratedCategorySchema),
});
export type BenchGeneration = z.infer<typeof BenchGenerationSchema>;

export const TechnicianInfoSchema = z.object({
  policies: z.array(
    z.object({
      name: BenchPolicyNameSchema,
      available: z.boolean(),
      /** Why not: "no_model" (no model configured) or "not_registered" (this build has no factory). */
      unavailableReason: z.enum(["no_model", "not_registered"]).nullable(),
    }),
  ),
  counts: z.object({
    probe: z.number().int().nonnegative(),
    holdout: z.number().int().nonnegative(),
    all: z.number().int().nonnegative(),
    categories: z.array(z.object({ category: z.enum(CATEGORIES), cases: z.number().int().nonnegative() })),
  }),
  model: z.object({ configured: z.boolean(), name: z.string().nullable() }),
  /** The bench database runs are stored in (shared with `kiosk bench run`). */
  database: z.string(),
  /** Where generated case files are written (beside the bench database); null: this kiosk cannot generate cases. */
  generatedCasesDir: z.string().nullable().optional(),
});
export type TechnicianInfo = z.infer<typeof TechnicianInfoSchema>;

export const BenchStartRequestSchema = OperatorTokenRequestSchema.extend({ policy: BenchPolicyNameSchema, selection: BenchSelectionSchema });
export type BenchStartRequest = z.input<typeof BenchStartRequestSchema>;

const Score = z.number().nullable();

/** Running figures of one category (means over the scored cases so far). */
export const BenchCategoryProgressSchema = z.object({
  category: z.enum(CATEGORIES),
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  tier1: Score,
  composite: Score,
});
export type BenchCategoryProgress = z.infer<typeof BenchCategoryProgressSchema>;

export const BenchJobSchema = z.object({
  /** Null until the run is recorded in the bench database. */
  runId: z.number().int().positive().nullable(),
  state: z.enum(["starting", "running", "finished", "interrupted", "failed"]),
  policy: BenchPolicyNameSchema,
  model: z.string().nullable(),
  selection: BenchSelectionSchema,
  startedBy: z.string(),
  startedAt: z.string(),
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  tier1: Score,
  composite: Score,
  elapsedMs: z.number().nonnegative(),
  categories: z.array(BenchCategoryProgressSchema),
  error: z.string().nullable(),
  /** A "generated" selection: what was generated, per category (absent for the pack's cases). */
  generation: BenchGenerationSchema.optional(),
});
export type BenchJob = z.infer<typeof BenchJobSchema>;

/** A stored run (from this screen or `kiosk bench run`). */
export const BenchRunSummarySchema = z.object({
  runId: z.number().int().positive(),
  status: z.string(),
  policy: z.string(),
  model: z.string(),
  startedAt: z.string(),
  casesTotal: z.number().int().nonnegative(),
  casesDone: z.number().int().nonnegative(),
  casesScored: z.number().int().nonnegative(),
  systems: z.array(SystemIdSchema),
  /** The categories its selection covered, and the coverage in a short form ("bart, cta · A–C, F"). */
  categories: z.array(z.string()).optional(),
  covers: z.string().optional(),
});
export type BenchRunSummary = z.infer<typeof BenchRunSummarySchema>;

export const BenchStatusSchema = z.object({
  /** The job of this kiosk session (running, or the last one), null before the first. */
  job: BenchJobSchema.nullable(),
  /** Recent stored runs, newest first. */
  runs: z.array(BenchRunSummarySchema),
});
export type BenchStatus = z.infer<typeof BenchStatusSchema>;

export const BenchRunRequestSchema = OperatorTokenRequestSchema.extend({ runId: z.number().int().positive() });
export type BenchRunRequest = z.input<typeof BenchRunRequestSchema>;

/** The bench HTML report (inline CSS and SVG, no scripts), shown in a sandboxed iframe. */
export const BenchReportSchema = z.object({ runId: z.number().int().positive(), html: z.string() });
export type BenchReport = z.infer<typeof BenchReportSchema>;

export const BenchExportRequestSchema = BenchRunRequestSchema.extend({
  /** summary: the run's figures and per-case scores; reference: the reference runner's results file of one system. */
  format: z.enum(["summary", "reference"]),
  system: SystemIdSchema.optional(),
});
export type BenchExportRequest = z.input<typeof BenchExportRequestSchema>;

export const BenchExportSchema = z.object({ fileName: z.string(), mediaType: z.literal("application/json"), content: z.string() });
export type BenchExport = z.infer<typeof BenchExportSchema>;

export const LatencyProbeResultSchema = z.discriminatedUnion("available", [
  /** no_model: no model is configured; not_built: this build has no latency probe. */
  z.object({ available: z.literal(false), reason: z.enum(["no_model", "not_built"]) }),
  z.object({ available: z.literal(true), model: z.string(), figures: z.array(z.object({ label: z.string(), value: z.string() })) }),
]);
export type LatencyProbeResult = z.infer<typeof LatencyProbeResultSchema>;

/** Every operator call: its request and result. */
export const OPERATOR_METHODS = {
  login: { request: OperatorLoginRequestSchema, result: OperatorLoginResultSchema },
  logout: { request: OperatorTokenRequestSchema, result: OperatorOkSchema },
  clearPinLockout: { request: ClearPinLockoutRequestSchema, result: ClearPinLockoutResultSchema },
  framebookStatus: { request: FramebookSystemRequestSchema, result: FramebookStatusSchema },
  checkFramebook: { request: FramebookCandidateRequestSchema, result: FramebookCheckResultSchema },
  applyFramebook: { request: FramebookApplyRequestSchema, result: FramebookApplyResultSchema },
  rollbackFramebook: { request: FramebookSystemRequestSchema, result: FramebookRollbackResultSchema },
  technicianInfo: { request: OperatorTokenRequestSchema, result: TechnicianInfoSchema },
  startBench: { request: BenchStartRequestSchema, result: BenchJobSchema },
  benchStatus: { request: OperatorTokenRequestSchema, result: BenchStatusSchema },
  stopBench: { request: OperatorTokenRequestSchema, result: BenchStatusSchema },
  benchReport: { request: BenchRunRequestSchema, result: BenchReportSchema },
  exportBench: { request: BenchExportRequestSchema, result: BenchExportSchema },
  latencyProbe: { request: OperatorTokenRequestSchema, result: LatencyProbeResultSchema },
  // Service alerts and the session audit (operator-live.ts).
  ...OPERATOR_LIVE_METHODS,
} as const;
export type OperatorMethod = keyof typeof OPERATOR_METHODS;
export const OPERATOR_METHOD_NAMES = Object.keys(OPERATOR_METHODS) as OperatorMethod[];
export type OperatorRequest<M extends OperatorMethod> = z.input<(typeof OPERATOR_METHODS)[M]["request"]>;
export type OperatorResult<M extends OperatorMethod> = z.infer<(typeof OPERATOR_METHODS)[M]["result"]>;

/** What an operator call can fail with (besides the results' own ok:false answers). */
export const OPERATOR_FAILURE_CODES = ["unauthorized", "conflict", "rejected", "unavailable", "failed"] as const;
export type OperatorFailureCode = (typeof OPERATOR_FAILURE_CODES)[number];
export const OPERATOR_FAILURE_STATUS: Readonly<Record<OperatorFailureCode, number>> = {
  /** No, expired or ended operator session: log in again. */
  unauthorized: 401,
  /** Not now: e.g. a bench run is already in progress. */
  conflict: 409,
  /** Malformed or impossible request (unknown run, invalid payload). */
  rejected: 400,
  /** The tool is not available on this kiosk (e.g. no bench database). */
  unavailable: 503,
  failed: 500,
};

/** The operator side of the bridge (Electron preload or the browser client implement it). */
export type OperatorBridge = { [M in OperatorMethod]: (request: OperatorRequest<M>) => Promise<OperatorResult<M>> };
