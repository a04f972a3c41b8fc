// The one typed contract between the kiosk screen (renderer) and the kiosk runtime (Electron main
// process or `kiosk serve`). Pure zod schemas: the renderer imports this file and nothing else from
// the runtime; every payload crossing the boundary is validated on the receiving side.
import { z } from "zod";
import { AssistantStateSchema } from "../contract/index.ts";
import { EventSchema, SystemIdSchema } from "../../tools/data/schemas.ts";

export const RiderTypeSchema = z.enum(["adults", "children", "seniors", "disabled"]);
export type RiderType = z.infer<typeof RiderTypeSchema>;

export const StationViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Names in the local language(s) (e.g. Chinese for Beijing), for type-ahead search. */
  localNames: z.array(z.string()),
  lines: z.array(z.string()),
  /** WGS84 coordinates when the data pack has them (for the network map). */
  lat: z.number().nullable(),
  lon: z.number().nullable(),
});
export type StationView = z.infer<typeof StationViewSchema>;

export const LineViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  stations: z.array(z.string()),
});

export const SystemSummarySchema = z.object({
  id: SystemIdSchema,
  orgName: z.string(),
  fullName: z.string(),
});
export type SystemSummary = z.infer<typeof SystemSummarySchema>;

/** Everything the screen needs to draw a system: stations, lines, and the framebook's wording. */
export const SystemViewSchema = SystemSummarySchema.extend({
  primaryLanguage: z.string(),
  currencySymbol: z.string(),
  currencyCode: z.string(),
  /** e.g. "$X.XX", "¥X", "QRX" — how the framebook wants fares shown. */
  fareDisplayFormat: z.string(),
  terminology: z.record(z.string(), z.string().nullable()),
  /** Payment method keys with their display label from the framebook's terminology. */
  paymentMethods: z.array(z.object({ id: z.string(), label: z.string() })),
  riderTypes: z.array(RiderTypeSchema),
  operatingHours: z.record(z.string(), z.union([z.string(), z.number()])),
  stations: z.array(StationViewSchema),
  lines: z.array(LineViewSchema),
  framebookVersion: z.string(),
  /** Attribution the data licence requires wherever the data is shown. */
  attribution: z.string(),
});
export type SystemView = z.infer<typeof SystemViewSchema>;

/** A passenger request: the UI's events, exactly the benchmark's event vocabulary. */
export const AskRequestSchema = z.object({
  system: SystemIdSchema,
  /** Continue this passenger session (a follow-up), or start a new one when absent. */
  sessionId: z.string().min(1).max(100).optional(),
  events: z.array(EventSchema).min(1).max(50),
  accessibilityMode: z.boolean().optional(),
});
export type AskRequest = z.infer<typeof AskRequestSchema>;

export const ToolStepSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  ms: z.number(),
});

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
   * Present when the state offers a purchase: whether the kiosk's own safety interlock (real path
   * in the network, fare recomputed by fare_calculator) confirmed it. `ok: false` flags a state
   * whose purchase button must stay disabled; `problems` are machine-readable codes with details.
   */
  interlock: z.object({ ok: z.boolean(), problems: z.array(z.string()) }).optional(),
});
export type AskResult = z.infer<typeof AskResultSchema>;

/** Live progress while the assistant works (for the "working" indicator). */
export const ProgressEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("tool_started"), sessionId: z.string(), name: z.string() }),
  z.object({ type: z.literal("tool_finished"), sessionId: z.string(), name: z.string(), ok: z.boolean() }),
  z.object({ type: z.literal("state_submitted"), sessionId: z.string(), accepted: z.boolean() }),
]);
export type ProgressEvent = z.infer<typeof ProgressEventSchema>;

export const PurchaseRequestSchema = z.object({
  sessionId: z.string().min(1).max(100),
  paymentMethod: z.string().min(1).max(60),
});
export type PurchaseRequest = z.infer<typeof PurchaseRequestSchema>;

export const TicketSchema = z.object({
  ticketId: z.string(),
  system: SystemIdSchema,
  issuedAt: z.string(),
  origin: z.string(),
  destination: z.string(),
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
export type PurchaseResult = z.infer<typeof PurchaseResultSchema>;

export const KioskStatusSchema = z.object({
  assistant: z.enum(["model", "rule", "unavailable"]),
  /** A technician bench run is in progress: passengers are refused meanwhile. */
  benchRunning: z.boolean(),
  message: z.string().nullable(),
});
export type KioskStatus = z.infer<typeof KioskStatusSchema>;

/** The bridge the renderer codes against (Electron preload or the browser client implement it). */
export interface KioskBridge {
  listSystems(): Promise<SystemSummary[]>;
  systemView(system: SystemSummary["id"]): Promise<SystemView>;
  ask(request: AskRequest): Promise<AskResult>;
  onProgress(listener: (event: ProgressEvent) => void): () => void;
  purchase(request: PurchaseRequest): Promise<PurchaseResult>;
  endSession(sessionId: string): Promise<void>;
  status(): Promise<KioskStatus>;
}
