// The terminal state a policy submits through `submit_assistant_state`, as the model is asked to
// produce it (the strict, LLM-facing shape of prompt-profile/tool-definitions.json). The renderer
// and the constrained-decoding grammar derive from this schema; the reference server's laxer
// acceptance rules live in lax.ts.
import { z } from "zod";

export const OUTCOMES = [
  "route_and_fare_ready",
  "advisory_only",
  "service_unavailable",
  "request_declined",
  "policy_answer_only",
] as const;
export const KIOSK_ACTIONS = ["display_info", "prompt_purchase", "block_purchase", "refer_to_staff"] as const;
export const REASON_CODES = [
  "ok",
  "no_service",
  "invalid_request",
  "unsupported_request",
  "accessibility_issue",
  "policy_exception",
] as const;
export const BANNER_SEVERITIES = ["info", "warning", "critical", "positive"] as const;

/** Outcomes that need a route (the server rejects them without one). */
export const ROUTE_OUTCOMES: ReadonlySet<string> = new Set(["route_and_fare_ready", "advisory_only"]);
/** Outcomes that need a fare quote. */
export const FARE_OUTCOMES: ReadonlySet<string> = new Set(["route_and_fare_ready"]);

export const OutcomeSchema = z.enum(OUTCOMES);
export const KioskActionNameSchema = z.enum(KIOSK_ACTIONS);
export const ReasonCodeSchema = z.enum(REASON_CODES);
export const BannerSeveritySchema = z.enum(BANNER_SEVERITIES);

export const RouteStopSchema = z.object({
  station_id: z.string(),
  station_name: z.string().optional(),
  line: z.string().optional(),
  is_transfer: z.boolean().optional(),
});

export const RouteSchema = z.object({
  origin: z.string(),
  destination: z.string(),
  stops: z.array(RouteStopSchema),
  transfers: z.int(),
  // The LLM schema asks for whole minutes; the server itself accepts any number.
  estimated_minutes: z.int(),
  distance_miles: z.number(),
  line_sequence: z.array(z.string()),
});

export const PassengerSummarySchema = z.object({
  adults: z.int().default(0),
  children: z.int().default(0),
  seniors: z.int().default(0),
  disabled: z.int().default(0),
  free_riders: z.int().default(0),
});

export const FareLineItemSchema = z.object({
  rider_type: z.string(),
  count: z.int(),
  unit_fare: z.number(),
  subtotal: z.number(),
  currency: z.string(),
});

export const FareDiscountSchema = z.object({
  label: z.string().optional(),
  amount: z.number().optional(),
  currency: z.string().optional(),
});

export const FareQuoteSchema = z.object({
  passenger_summary: PassengerSummarySchema.optional(),
  line_items: z.array(FareLineItemSchema).optional(),
  discounts: z.array(FareDiscountSchema).optional(),
  total: z.number(),
  currency: z.string(),
});

export const KioskActionSchema = z.object({
  action: KioskActionNameSchema,
  reason_code: ReasonCodeSchema,
});

export const AdvisoryBannerSchema = z.object({
  severity: BannerSeveritySchema,
  title: z.string(),
  body: z.string(),
});

/** The `submit_assistant_state` arguments as the model is asked to write them (key order as sent). */
export const AssistantStateSchema = z.object({
  outcome: OutcomeSchema,
  route: RouteSchema.optional(),
  fare_quote: FareQuoteSchema.optional(),
  kiosk_action: KioskActionSchema,
  advisory_banners: z.array(AdvisoryBannerSchema).optional(),
  assistant_message: z.string(),
  reasoning: z.string().optional(),
});

export type AssistantState = z.infer<typeof AssistantStateSchema>;
export type AssistantStateInput = z.input<typeof AssistantStateSchema>;
export type RouteStop = z.infer<typeof RouteStopSchema>;
export type Outcome = z.infer<typeof OutcomeSchema>;
export type KioskActionName = z.infer<typeof KioskActionNameSchema>;
export type ReasonCode = z.infer<typeof ReasonCodeSchema>;
export type BannerSeverity = z.infer<typeof BannerSeveritySchema>;

const SAFE_INT_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/**
 * JSON Schema of the arguments as the model sees them (input side: defaults are not required).
 * zod's implicit safe-integer bounds on integers are dropped, so the result has the structure of
 * the `parameters` of prompt-profile/tool-definitions.json (which also carries descriptions).
 */
export function assistantStateJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(AssistantStateSchema, {
    io: "input",
    override: (ctx) => {
      const js = ctx.jsonSchema as Record<string, unknown>;
      if (js.type === "integer") {
        if (SAFE_INT_BOUNDS.has(js.minimum as number)) delete js.minimum;
        if (SAFE_INT_BOUNDS.has(js.maximum as number)) delete js.maximum;
      }
    },
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
