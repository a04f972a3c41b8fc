// zod schemas for every file of the MetroLLM-Bench data pack. Types are inferred from them.
// The schemas describe what the runtime relies on; the pack's files are kept in their original key
// order (the prompt and some tool results serialise them as they are).
import { z } from "zod";

/**
 * The benchmark pack's systems, in the paper's order (the order of its reports). Any other system is
 * imported data (a GTFS feed): this list orders reports and names the bench's own cases, it does not
 * limit which systems exist.
 */
export const PACK_SYSTEM_IDS = ["marta", "doha", "bart", "taipei", "cta", "beijing"] as const;
/** A system's id: also a folder name and a URL path part, hence lowercase letters, digits, "-" and "_". */
export const SystemIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, "a system id is 1 to 40 lowercase letters, digits, '-' or '_', starting with a letter");
export type SystemId = z.infer<typeof SystemIdSchema>;

/** Systems in report order: the pack's in the paper's order, then any other in id order. */
export function inReportOrder(ids: Iterable<string>): string[] {
  const rank = (id: string): number => {
    const i = (PACK_SYSTEM_IDS as readonly string[]).indexOf(id);
    return i < 0 ? PACK_SYSTEM_IDS.length : i;
  };
  return [...new Set(ids)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const nonEmpty = z.string().min(1);

/** null: not known (an imported feed's silence), which is never shown or routed as accessible. */
const knownOrNot = z.boolean().nullable();
export const AccessibilitySchema = z.looseObject({
  elevator: knownOrNot,
  escalator: knownOrNot,
  step_free: knownOrNot,
  tactile_paving: knownOrNot,
  wide_gate: knownOrNot,
});

export const StationSchema = z.looseObject({
  id: nonEmpty,
  name: nonEmpty,
  lines: z.array(z.string()),
  type: z.string(),
  accessibility: AccessibilitySchema,
  connections: z.array(z.string()),
  zone: z.string(),
  /** An imported station's own stop ids in its feed (platforms included): realtime alerts name those. */
  gtfs_stop_ids: z.array(z.string()).optional(),
  /** Minutes to change lines here (an imported feed's minimum transfer time); absent: the router's default. */
  transfer_min: z.number().nonnegative().optional(),
  /** An imported station's fare zones, one per line where the feed gives each platform its own (zone_table fares). */
  fare_zones: z.array(z.string()).min(1).optional(),
});
export type Station = z.infer<typeof StationSchema>;
export const StationsFileSchema = z.array(StationSchema).min(1);

export const LineSchema = z.looseObject({
  id: nonEmpty,
  name: nonEmpty,
  color: z.string(),
  stations: z.array(z.string()).min(1),
  type: z.string(),
  "24h": z.boolean(),
  typical_headway_min: z.number().nonnegative(),
  branches: z.unknown().optional(),
});
export type Line = z.infer<typeof LineSchema>;
export const LinesFileSchema = z.array(LineSchema).min(1);

export const GraphEdgeSchema = z.looseObject({
  from: nonEmpty,
  to: nonEmpty,
  distance_miles: z.number().nonnegative(),
  travel_time_min: z.number().nonnegative(),
  line: nonEmpty,
  type: z.string(),
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;
export const GraphFileSchema = z.looseObject({
  directed: z.boolean(),
  edges: z.array(GraphEdgeSchema).min(1),
});

const money = z.number().nonnegative();

/**
 * A bracket of the distance model: up to `max_miles`, up to `max_km`, or up to `max_stations`
 * stations travelled (the last two: an operator's own model) costs `fare`.
 */
export const FareBracketSchema = z
  .looseObject({ max_miles: z.number().positive().optional(), max_km: z.number().positive().optional(), max_stations: z.number().int().min(1).optional(), fare: money })
  .refine((b) => [b.max_miles, b.max_km, b.max_stations].filter((v) => v !== undefined).length === 1, { message: "a fare bracket gives max_miles, max_km or max_stations (exactly one of the three)" });
const BRACKET_UNITS = ["max_miles", "max_km", "max_stations"] as const;
/** A fare table's brackets, all in one unit: the first bracket a trip fits is its fare, which needs one scale to read them on. */
export const FareBracketsSchema = z
  .array(FareBracketSchema)
  .min(1)
  .superRefine((brackets, ctx) => {
    const units = new Map<string, number[]>();
    brackets.forEach((b, i) => {
      const unit = BRACKET_UNITS.find((u) => b[u] !== undefined);
      if (unit !== undefined) units.set(unit, [...(units.get(unit) ?? []), i + 1]);
    });
    if (units.size < 2) return;
    const found = [...units].map(([unit, at]) => `${unit} in bracket${at.length > 1 ? "s" : ""} ${at.join(", ")}`).join("; ");
    ctx.addIssue({ code: "custom", message: `the fare brackets mix units (${found}); every bracket of a table gives the same one of max_miles, max_km or max_stations` });
  });
export const SurchargeSchema = z.looseObject({
  amount: money,
  description: z.string(),
  replaces_base: z.boolean().optional(),
  station: z.string().optional(),
  stations: z.array(z.string()).optional(),
  sf_side: z.array(z.string()).optional(),
  east_bay_side: z.array(z.string()).optional(),
});
export type Surcharge = z.infer<typeof SurchargeSchema>;

export const PaymentMethodSchema = z.looseObject({
  fare: money.optional(),
  fare_adjustment: z.number().optional(),
  class: z.string().optional(),
  transfers: z.string().optional(),
});

const RiderDiscountSchema = z.looseObject({
  fare: money.optional(),
  multiplier: z.number().nonnegative().optional(),
  note: z.string().optional(),
});

export const FaresFileSchema = z.looseObject({
  system: z.string().optional(),
  model: z.enum(["flat", "flat_with_exceptions", "distance", "zone_table"]),
  currency: nonEmpty,
  currency_symbol: nonEmpty,
  base_fare: money,
  gold_fare: money.optional(),
  fare_brackets: FareBracketsSchema.optional(),
  surcharges: z.record(z.string(), SurchargeSchema).optional(),
  station_overrides: z
    .record(
      z.string(),
      z.looseObject({
        fare: money,
        description: z.string().optional(),
        ignores_payment_adjustment: z.boolean().optional(),
      }),
    )
    .optional(),
  payment_methods: z.record(z.string(), PaymentMethodSchema).optional(),
  discounts: z
    .looseObject({
      children: z
        .looseObject({
          fare: money.optional(),
          max_per_adult: z.number().int().nonnegative().optional(),
          qualifier: z.string().optional(),
        })
        .optional(),
      senior_65_plus: RiderDiscountSchema.optional(),
      disabled: RiderDiscountSchema.optional(),
    })
    .optional(),
  passes: z.record(z.string(), z.looseObject({ price: money })).optional(),
  /**
   * zone_table (an imported feed's fare_rules): one adult's fare from an origin zone to a
   * destination zone, the zones being the stations' `zone`. A pair the table lacks has no fare.
   */
  zone_fares: z.record(z.string(), z.record(z.string(), money)).optional(),
}).refine((f) => f.model !== "zone_table" || f.zone_fares !== undefined, { message: "the zone_table fare model needs zone_fares", path: ["zone_fares"] });
export type Fares = z.infer<typeof FaresFileSchema>;

export const PolicySchema = z.looseObject({
  policy_id: nonEmpty,
  category: z.string(),
  title: z.string(),
  content: z.string(),
  synonyms: z.array(z.string()),
});
export type Policy = z.infer<typeof PolicySchema>;
export const PoliciesFileSchema = z.looseObject({
  system: z.string().optional(),
  policies: z.array(PolicySchema),
});

const hoursRange = z
  .string()
  .regex(/^\d{2}:\d{2}-\d{2}:\d{2}$/, 'expected "HH:MM-HH:MM"');

export const FramebookSchema = z.looseObject({
  org_name: nonEmpty,
  full_name: nonEmpty,
  primary_language: nonEmpty,
  secondary_languages: z.array(z.string()).optional(),
  currency_symbol: nonEmpty,
  currency_code: nonEmpty,
  fare_display_format: nonEmpty,
  terminology: z.looseObject({
    smartcard: nonEmpty,
    contactless: nonEmpty,
    smartcard_premium: z.string().nullable().optional(),
  }),
  advisory_severity_mapping: z.record(z.string(), z.string()).optional(),
  accessibility_labels: z.record(z.string(), z.string()).optional(),
  ui_components_available: z.array(z.string()).optional(),
  operating_hours: z.looseObject({
    default: hoursRange,
    late_night_headway_min: z.number().optional(),
    notes: z.string().optional(),
  }),
  cultural_notes: z.array(z.string()),
});
export type Framebook = z.infer<typeof FramebookSchema>;
export const FramebookFileSchema = z.looseObject({ framebook: FramebookSchema });

// ---------------------------------------------------------------------------------------------
// Cases. Running a case needs only its events and context; ground_truth, scoring and tolerances
// are the answer key and may be absent (an operator's own case file).

/**
 * What the operator decided about a notice's words the kiosk could not read: refer the trips they
 * may touch to staff, block those trips, or act only on what was read.
 */
export const UnreadDecisionSchema = z.enum(["refer", "block", "ignore"]);
export type UnreadDecision = z.infer<typeof UnreadDecisionSchema>;

export const DisruptionSchema = z.looseObject({
  id: z.string().optional(),
  line: z.string().nullable().optional(),
  segment: z.unknown().optional(),
  type: z.string(),
  severity: z.string(),
  message: z.string().optional(),
  alternative: z.string().nullable().optional(),
  eta_resolution: z.string().nullable().optional(),
  valid_from: z.string().nullable().optional(),
  valid_until: z.string().nullable().optional(),
  station_id: z.string().optional(),
  /** A kiosk extension (operator alerts): absent in the benchmark's feeds, which no one confirmed. */
  if_unread: UnreadDecisionSchema.optional(),
});
export type Disruption = z.infer<typeof DisruptionSchema>;

const passengerCount = z.number().int();

export const EventSchema = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("station_selected"),
    field: z.enum(["origin", "destination"]),
    value: z.string(),
    station_id: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal("passenger_count_changed"),
    adults: passengerCount.optional(),
    children: passengerCount.optional(),
    seniors: passengerCount.optional(),
    disabled: passengerCount.optional(),
  }),
  z.looseObject({ type: z.literal("freetext_input"), text: z.string() }),
  z.looseObject({ type: z.literal("payment_method_selected"), method: z.string() }),
  z.looseObject({ type: z.literal("disruption_update"), disruption: DisruptionSchema.partial().nullable() }),
]);
export type KioskEvent = z.infer<typeof EventSchema>;

export const TemporalContextSchema = z.looseObject({
  current_time: z.string(),
  day_of_week: z.string().optional(),
  notes: z.string().optional(),
});

export const SystemContextSchema = z.looseObject({
  current_time: z.string(),
  active_disruptions: z.array(DisruptionSchema),
  framebook: z.string(),
  accessibility_mode: z.boolean().nullable().optional(),
  temporal_context: TemporalContextSchema.nullable().optional(),
  // `text` is what is priced; `display_text`, when passengers are shown more (a framebook entry whose
  // unread part the operator chose to ignore), is what their banner says.
  policy_change: z.looseObject({ policy_id: z.string().optional(), text: z.string(), display_text: z.string().optional() }).nullable().optional(),
  knowledge_query: z.unknown().optional(),
});
export type SystemContext = z.infer<typeof SystemContextSchema>;

/** The rider types a passenger count names (passenger_count_changed, fare quotes, the screen's counter). */
export const RIDER_TYPES = ["adults", "children", "seniors", "disabled"] as const;

export const CATEGORIES = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * The benchmark's own names for its categories (MetroLLM-Bench's README: "A Routing, B Fare, …";
 * the data pack only has the letters). Reports keep the letter the paper uses and add the name.
 */
export const CATEGORY_NAMES: Readonly<Record<Category, string>> = {
  A: "Routing",
  B: "Fare",
  C: "Disruption",
  D: "Accessibility",
  E: "Cultural",
  F: "Policy",
  G: "Multi-turn",
  H: "Adversarial",
  I: "Temporal",
  J: "Tool-Hallucination",
  K: "Compound Stress",
};

/** "C · Disruption" for a known category; anything else (a row key like "overall") as given. */
export function categoryLabel(key: string): string {
  return isCategory(key) ? `${key} · ${CATEGORY_NAMES[key]}` : key;
}

function isCategory(key: string): key is Category {
  return (CATEGORIES as readonly string[]).includes(key);
}

export const CaseSchema = z.looseObject({
  id: nonEmpty,
  system: SystemIdSchema,
  category: z.enum(CATEGORIES),
  difficulty: z.string().optional(),
  interaction_mode: z.string().optional(),
  title: z.string().optional(),
  events: z.array(EventSchema),
  multi_turn_events: z.array(z.array(EventSchema)).min(1).optional(),
  system_context: SystemContextSchema,
  ground_truth: z.record(z.string(), z.unknown()).optional(),
  scoring: z.record(z.string(), z.number()).optional(),
  tolerances: z.record(z.string(), z.number()).optional(),
});
export type Case = z.infer<typeof CaseSchema>;
export const CasesFileSchema = z.array(CaseSchema);

export const SplitFileSchema = z.looseObject({
  spec_version: z.string(),
  train_ids: z.array(z.string()),
  holdout_ids: z.array(z.string()),
});
export type Split = z.infer<typeof SplitFileSchema>;

// ---------------------------------------------------------------------------------------------
// Prompt profile (the prompt text the students were trained with) and tool definitions.

export const ToolDefinitionSchema = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: nonEmpty,
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;
export const ToolDefinitionsFileSchema = z.array(ToolDefinitionSchema).min(1);

export const PromptProfileSchema = z.record(z.string(), z.unknown());
export type PromptProfile = z.infer<typeof PromptProfileSchema>;

export const JudgeRubricsSchema = z.record(z.string(), z.unknown());
