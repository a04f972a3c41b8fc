// zod schemas for the GTFS (static) files the kiosk reads, after the GTFS Schedule reference
// (gtfs.org/documentation/schedule/reference). Each schema takes one CSV record as
// `{ column: cell | undefined, line }` — an empty cell or an absent column is `undefined`, the
// reader trims cells — and gives the typed row: numbers, enums as numbers, times in seconds since
// midnight, colours in upper case. A value that does not convert raises a custom issue whose
// `params.gtfsCode` is the problem code (after MobilityData's validator) and whose message says,
// in plain words, what is wrong with the value; the reader adds file, line and column.
// Conditionally required fields are optional here: the reader checks them across fields and files.
import { z } from "zod";

// ---------------------------------------------------------------------------------------------
// Problems

/**
 * Every problem code the reader reports, with its severity. The codes are MobilityData's GTFS
 * validator notice codes where one exists. Departures from its severities, on purpose:
 * `unexpected_enum_value` is an error (a typed row only holds the values the reference defines,
 * and a kiosk should not guess what an unknown `location_type` or `wheelchair_boarding` means),
 * and `new_line_in_value` a warning (the reference says "should not").
 */
export const GTFS_PROBLEM_SEVERITY = {
  // files and CSV structure
  missing_required_file: "error",
  missing_calendar_and_calendar_date_files: "error",
  empty_file: "error",
  csv_parsing_failed: "error",
  empty_column_name: "error",
  duplicated_column: "error",
  missing_required_column: "error",
  invalid_row_length: "error",
  unknown_file: "warning",
  unknown_column: "warning",
  empty_row: "warning",
  leading_or_trailing_whitespaces: "warning",
  new_line_in_value: "warning",
  // values
  missing_required_field: "error",
  invalid_integer: "error",
  invalid_float: "error",
  number_out_of_range: "error",
  unexpected_enum_value: "error",
  invalid_time: "error",
  invalid_date: "error",
  invalid_color: "error",
  invalid_currency: "error",
  invalid_timezone: "error",
  invalid_language_code: "error",
  invalid_url: "error",
  invalid_email: "error",
  // keys and references
  duplicate_key: "error",
  foreign_key_violation: "error",
  translation_foreign_key_violation: "error",
  translation_unknown_table_name: "warning",
  // rules across fields and rows
  inconsistent_agency_timezone: "error",
  route_both_short_and_long_name_missing: "error",
  stop_without_location: "error",
  location_without_parent_station: "error",
  station_with_parent_station: "error",
  wrong_parent_location_type: "error",
  location_with_unexpected_stop_time: "error",
  transfer_with_invalid_stop_location_type: "error",
  start_and_end_range_out_of_order: "error",
  start_and_end_range_equal: "error",
  missing_trip_edge: "error",
  stop_time_with_only_arrival_or_departure_time: "error",
  stop_time_timepoint_without_times: "error",
  stop_time_with_arrival_before_previous_departure_time: "error",
  stop_time_with_departure_before_arrival_time: "error",
  decreasing_or_equal_stop_time_distance: "error",
  decreasing_shape_distance: "error",
  unused_trip: "warning",
  unusable_trip: "warning",
} as const satisfies Record<string, "error" | "warning">;

export type GtfsProblemCode = keyof typeof GTFS_PROBLEM_SEVERITY;
export const GTFS_PROBLEM_CODES = Object.keys(GTFS_PROBLEM_SEVERITY) as [GtfsProblemCode, ...GtfsProblemCode[]];

export const GtfsProblemSchema = z.object({
  severity: z.enum(["error", "warning"]),
  code: z.enum(GTFS_PROBLEM_CODES),
  /** The file the problem is in, e.g. "stop_times.txt". */
  file: z.string(),
  /** 1-based line in the file: the header is line 1, the first record line 2. */
  line: z.number().int().positive().optional(),
  /** The column the problem is in. */
  field: z.string().optional(),
  /** What is wrong, in plain words, naming file, line and value. */
  message: z.string(),
});
export type GtfsProblem = z.infer<typeof GtfsProblemSchema>;

// ---------------------------------------------------------------------------------------------
// Field types of the reference

type Ctx = z.core.$RefinementCtx<string>;

/** Raise the problem `code` for `value`: the reader words it as "<column> '<value>' <message>". */
function fail(ctx: Ctx, code: GtfsProblemCode, value: string, message: string): never {
  ctx.issues.push({ code: "custom", input: value, message, params: { gtfsCode: code } });
  return z.NEVER;
}

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
// Hours may pass 24 (a service day's trips run past midnight); minutes and seconds may not pass 59.
const TIME = /^(\d{1,3}):([0-5]\d):([0-5]\d)$/;
const DATE = /^(\d{4})(\d{2})(\d{2})$/;
const COLOR = /^[0-9A-Fa-f]{6}$/;
const CURRENCY = /^[A-Z]{3}$/;
const TIMEZONE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface NumberRange {
  min?: number;
  max?: number;
}

function rangeText({ min, max }: NumberRange): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  if (min !== undefined) return min === 0 ? "zero or more" : `${min} or more`;
  return `${max} or less`;
}

function checkRange(ctx: Ctx, s: string, n: number, range: NumberRange): number {
  if ((range.min !== undefined && n < range.min) || (range.max !== undefined && n > range.max)) {
    return fail(ctx, "number_out_of_range", s, `is out of range: it must be ${rangeText(range)}`);
  }
  return n;
}

/** GTFS ID: any text (the reference recommends printable ASCII but requires nothing more). */
export const gtfsId = (): z.ZodString => z.string();
/** GTFS Text. */
export const gtfsText = (): z.ZodString => z.string();

/** GTFS Integer, optionally bounded. */
export const gtfsInteger = (range: NumberRange = {}) =>
  z.string().transform((s, ctx): number => {
    const n = INTEGER.test(s) ? Number(s) : NaN;
    if (!Number.isSafeInteger(n)) return fail(ctx, "invalid_integer", s, "is not a whole number");
    return checkRange(ctx, s, n, range);
  });

/** GTFS Float (also Latitude, Longitude, Currency amount), optionally bounded. */
export const gtfsFloat = (range: NumberRange = {}) =>
  z.string().transform((s, ctx): number => {
    const n = FLOAT.test(s) ? Number(s) : NaN;
    if (!Number.isFinite(n)) return fail(ctx, "invalid_float", s, "is not a number");
    return checkRange(ctx, s, n, range);
  });

/** GTFS Enum: one of `values`, as a number. */
export const gtfsEnum = <const V extends readonly number[]>(values: V) =>
  z.string().transform((s, ctx): V[number] => {
    const n = INTEGER.test(s) ? Number(s) : NaN;
    if (!Number.isSafeInteger(n)) return fail(ctx, "invalid_integer", s, `is not a whole number (expected one of ${values.join(", ")})`);
    if (!values.includes(n)) return fail(ctx, "unexpected_enum_value", s, `is not one of the values the reference defines (${values.join(", ")})`);
    return n;
  });

/** routes.route_type: the basic types, or one of Google's extended types (100–1799), which real feeds use. */
const BASIC_ROUTE_TYPES: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12];
export const gtfsRouteType = () =>
  z.string().transform((s, ctx): number => {
    const n = INTEGER.test(s) ? Number(s) : NaN;
    if (!Number.isSafeInteger(n)) return fail(ctx, "invalid_integer", s, "is not a whole number");
    if (!BASIC_ROUTE_TYPES.includes(n) && !(n >= 100 && n <= 1799)) {
      return fail(ctx, "unexpected_enum_value", s, "is not a route type (0 to 7, 11, 12, or an extended type 100 to 1799)");
    }
    return n;
  });

/** GTFS Time "H:MM:SS" or "HH:MM:SS", as seconds since midnight of the service day (past 24 h for trips after midnight). */
export const gtfsTime = () =>
  z.string().transform((s, ctx): number => {
    const m = TIME.exec(s);
    if (m === null) return fail(ctx, "invalid_time", s, "is not a time in H:MM:SS form (minutes and seconds 00 to 59)");
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  });

/** GTFS Date YYYYMMDD: kept as text (it sorts and compares as text), checked to be a calendar day. */
export const gtfsDate = () =>
  z.string().transform((s, ctx): string => {
    const m = DATE.exec(s);
    if (m !== null) {
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const date = new Date(Date.UTC(year, month - 1, day));
      if (month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return s;
    }
    return fail(ctx, "invalid_date", s, "is not a date in YYYYMMDD form");
  });

/** GTFS Color: six hex digits without '#', given back in upper case. */
export const gtfsColor = () =>
  z.string().transform((s, ctx): string => {
    if (!COLOR.test(s)) return fail(ctx, "invalid_color", s, "is not a colour of six hexadecimal digits without '#' (e.g. FFFFFF)");
    return s.toUpperCase();
  });

let knownCurrencies: ReadonlySet<string> | undefined;
/** ISO 4217 codes as the runtime's Intl knows them; a runtime without the list checks the form only. */
function isCurrency(s: string): boolean {
  if (!CURRENCY.test(s)) return false;
  knownCurrencies ??= new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : []);
  return knownCurrencies.size === 0 || knownCurrencies.has(s);
}

/** GTFS Currency code (ISO 4217, upper case). */
export const gtfsCurrency = () =>
  z.string().transform((s, ctx): string => (isCurrency(s) ? s : fail(ctx, "invalid_currency", s, "is not an ISO 4217 currency code (e.g. EUR)")));

const timezoneAnswers = new Map<string, boolean>();
function isTimezone(s: string): boolean {
  let ok = timezoneAnswers.get(s);
  if (ok === undefined) {
    try {
      // Intl knows the IANA names and their aliases; the pattern refuses the offsets it also takes.
      new Intl.DateTimeFormat("en-US", { timeZone: s });
      ok = TIMEZONE.test(s);
    } catch {
      ok = false;
    }
    timezoneAnswers.set(s, ok);
  }
  return ok;
}

/** GTFS Timezone: an IANA time zone name. */
export const gtfsTimezone = () =>
  z.string().transform((s, ctx): string => (isTimezone(s) ? s : fail(ctx, "invalid_timezone", s, "is not a time zone name (e.g. Asia/Kolkata)")));

/** GTFS Language code (BCP 47). */
export const gtfsLanguage = () =>
  z.string().transform((s, ctx): string => {
    try {
      if (Intl.getCanonicalLocales(s).length === 1) return s;
    } catch {
      // RangeError: not a well-formed language tag.
    }
    return fail(ctx, "invalid_language_code", s, "is not a language code (BCP 47, e.g. en)");
  });

/** GTFS URL: an absolute http(s) URL. */
export const gtfsUrl = () =>
  z.string().transform((s, ctx): string => {
    try {
      const url = new URL(s);
      if (url.protocol === "http:" || url.protocol === "https:") return s;
    } catch {
      // TypeError: not a URL at all.
    }
    return fail(ctx, "invalid_url", s, "is not a web address (http:// or https://)");
  });

/** GTFS Email. */
export const gtfsEmail = () =>
  z.string().transform((s, ctx): string => (EMAIL.test(s) ? s : fail(ctx, "invalid_email", s, "is not an e-mail address")));

// The reference requires some columns to be present while letting a row leave the value empty
// (fare_attributes.transfers: empty means unlimited transfers): such a schema is optional or has a
// default, and this registry marks its column as required.
const requiredColumns = z.registry<{ requiredColumn: true }>();
const requiredColumn = <S extends z.ZodType>(schema: S): S => {
  requiredColumns.add(schema, { requiredColumn: true });
  return schema;
};

/** Whether a file without this column is refused (missing_required_column). */
export function isRequiredColumn(schema: z.ZodType): boolean {
  return requiredColumns.has(schema) || !schema.safeParse(undefined).success;
}

/** A row of a file: its columns, and the line of the file the record starts on (not a column). */
const gtfsRow = <C extends z.ZodRawShape>(columns: C) => z.object({ ...columns, line: z.number().int().positive() });

// ---------------------------------------------------------------------------------------------
// Files

export const AgencySchema = gtfsRow({
  /** Required when the feed has more than one agency (checked by the reader). */
  agency_id: gtfsId().optional(),
  agency_name: gtfsText(),
  agency_url: gtfsUrl(),
  agency_timezone: gtfsTimezone(),
  agency_lang: gtfsLanguage().optional(),
  agency_phone: gtfsText().optional(),
  agency_fare_url: gtfsUrl().optional(),
  agency_email: gtfsEmail().optional(),
});
export type Agency = z.infer<typeof AgencySchema>;

/** 0 stop or platform, 1 station, 2 entrance or exit, 3 generic node, 4 boarding area. */
export const LOCATION_TYPES = [0, 1, 2, 3, 4] as const;
export const StopSchema = gtfsRow({
  stop_id: gtfsId(),
  stop_code: gtfsText().optional(),
  /** Required for location types 0, 1 and 2 (checked by the reader). */
  stop_name: gtfsText().optional(),
  tts_stop_name: gtfsText().optional(),
  stop_desc: gtfsText().optional(),
  /** Required, with stop_lon, for location types 0, 1 and 2 (checked by the reader). */
  stop_lat: gtfsFloat({ min: -90, max: 90 }).optional(),
  stop_lon: gtfsFloat({ min: -180, max: 180 }).optional(),
  zone_id: gtfsId().optional(),
  stop_url: gtfsUrl().optional(),
  location_type: gtfsEnum(LOCATION_TYPES).default(0),
  /** Required for location types 2, 3 and 4, forbidden for 1 (checked by the reader). */
  parent_station: gtfsId().optional(),
  stop_timezone: gtfsTimezone().optional(),
  /** 0 no information, 1 some accessible path, 2 not accessible. */
  wheelchair_boarding: gtfsEnum([0, 1, 2] as const).default(0),
  level_id: gtfsId().optional(),
  platform_code: gtfsText().optional(),
});
export type Stop = z.infer<typeof StopSchema>;

export const RouteSchema = gtfsRow({
  route_id: gtfsId(),
  /** Required when the feed has more than one agency (checked by the reader). */
  agency_id: gtfsId().optional(),
  /** One of the two names is required (checked by the reader). */
  route_short_name: gtfsText().optional(),
  route_long_name: gtfsText().optional(),
  route_desc: gtfsText().optional(),
  route_type: gtfsRouteType(),
  route_url: gtfsUrl().optional(),
  /** The reference's defaults (white, black) are left to the caller: undefined means "not given". */
  route_color: gtfsColor().optional(),
  route_text_color: gtfsColor().optional(),
  route_sort_order: gtfsInteger({ min: 0 }).optional(),
  /** 0 continuous stopping, 1 none (the default), 2 phone the agency, 3 ask the driver. */
  continuous_pickup: gtfsEnum([0, 1, 2, 3] as const).default(1),
  continuous_drop_off: gtfsEnum([0, 1, 2, 3] as const).default(1),
  network_id: gtfsId().optional(),
});
export type Route = z.infer<typeof RouteSchema>;

export const TripSchema = gtfsRow({
  route_id: gtfsId(),
  service_id: gtfsId(),
  trip_id: gtfsId(),
  trip_headsign: gtfsText().optional(),
  trip_short_name: gtfsText().optional(),
  direction_id: gtfsEnum([0, 1] as const).optional(),
  block_id: gtfsId().optional(),
  shape_id: gtfsId().optional(),
  /** 0 no information, 1 room for at least one wheelchair, 2 none. */
  wheelchair_accessible: gtfsEnum([0, 1, 2] as const).default(0),
  bikes_allowed: gtfsEnum([0, 1, 2] as const).default(0),
});
export type Trip = z.infer<typeof TripSchema>;

export const StopTimeSchema = gtfsRow({
  trip_id: gtfsId(),
  /** Seconds since midnight of the service day (may pass 24 h). Required at a trip's first and last stop (checked by the reader). */
  arrival_time: gtfsTime().optional(),
  departure_time: gtfsTime().optional(),
  /** Required: the kiosk reads no GTFS-Flex locations. */
  stop_id: gtfsId(),
  stop_sequence: gtfsInteger({ min: 0 }),
  stop_headsign: gtfsText().optional(),
  /** 0 regular, 1 none, 2 phone the agency, 3 ask the driver. */
  pickup_type: gtfsEnum([0, 1, 2, 3] as const).default(0),
  drop_off_type: gtfsEnum([0, 1, 2, 3] as const).default(0),
  /** Empty means the route's value. */
  continuous_pickup: gtfsEnum([0, 1, 2, 3] as const).optional(),
  continuous_drop_off: gtfsEnum([0, 1, 2, 3] as const).optional(),
  shape_dist_traveled: gtfsFloat({ min: 0 }).optional(),
  /** 0 approximate, 1 exact; when the feed gives none, all times are exact. */
  timepoint: gtfsEnum([0, 1] as const).optional(),
});
export type StopTime = z.infer<typeof StopTimeSchema>;

const serviceDay = () => gtfsEnum([0, 1] as const);
export const CalendarSchema = gtfsRow({
  service_id: gtfsId(),
  monday: serviceDay(),
  tuesday: serviceDay(),
  wednesday: serviceDay(),
  thursday: serviceDay(),
  friday: serviceDay(),
  saturday: serviceDay(),
  sunday: serviceDay(),
  start_date: gtfsDate(),
  end_date: gtfsDate(),
});
export type Calendar = z.infer<typeof CalendarSchema>;

export const CalendarDateSchema = gtfsRow({
  service_id: gtfsId(),
  date: gtfsDate(),
  /** 1 service added on that date, 2 service removed. */
  exception_type: gtfsEnum([1, 2] as const),
});
export type CalendarDate = z.infer<typeof CalendarDateSchema>;

export const FrequencySchema = gtfsRow({
  trip_id: gtfsId(),
  start_time: gtfsTime(),
  end_time: gtfsTime(),
  headway_secs: gtfsInteger({ min: 1 }),
  /** 0 frequency-based (the default), 1 schedule-based. */
  exact_times: gtfsEnum([0, 1] as const).default(0),
});
export type Frequency = z.infer<typeof FrequencySchema>;

export const TransferSchema = gtfsRow({
  /** Required for transfer types 1, 2 and 3 (checked by the reader). */
  from_stop_id: gtfsId().optional(),
  to_stop_id: gtfsId().optional(),
  from_route_id: gtfsId().optional(),
  to_route_id: gtfsId().optional(),
  /** Required for transfer types 4 and 5 (checked by the reader). */
  from_trip_id: gtfsId().optional(),
  to_trip_id: gtfsId().optional(),
  /** 0 recommended (the default), 1 timed, 2 needs min_transfer_time, 3 impossible, 4 in-seat, 5 re-board. */
  transfer_type: requiredColumn(gtfsEnum([0, 1, 2, 3, 4, 5] as const).default(0)),
  /** Seconds. */
  min_transfer_time: gtfsInteger({ min: 0 }).optional(),
});
export type Transfer = z.infer<typeof TransferSchema>;

export const FareAttributeSchema = gtfsRow({
  fare_id: gtfsId(),
  price: gtfsFloat({ min: 0 }),
  currency_type: gtfsCurrency(),
  /** 0 paid on board, 1 paid before boarding. */
  payment_method: gtfsEnum([0, 1] as const),
  /** 0 none, 1 one, 2 two transfers; undefined (an empty cell) means unlimited. */
  transfers: requiredColumn(gtfsEnum([0, 1, 2] as const).optional()),
  /** Required when the feed has more than one agency (checked by the reader). */
  agency_id: gtfsId().optional(),
  /** Seconds. */
  transfer_duration: gtfsInteger({ min: 0 }).optional(),
});
export type FareAttribute = z.infer<typeof FareAttributeSchema>;

export const FareRuleSchema = gtfsRow({
  fare_id: gtfsId(),
  route_id: gtfsId().optional(),
  /** Zones: stops.zone_id values. */
  origin_id: gtfsId().optional(),
  destination_id: gtfsId().optional(),
  contains_id: gtfsId().optional(),
});
export type FareRule = z.infer<typeof FareRuleSchema>;

export const ShapePointSchema = gtfsRow({
  shape_id: gtfsId(),
  shape_pt_lat: gtfsFloat({ min: -90, max: 90 }),
  shape_pt_lon: gtfsFloat({ min: -180, max: 180 }),
  shape_pt_sequence: gtfsInteger({ min: 0 }),
  shape_dist_traveled: gtfsFloat({ min: 0 }).optional(),
});
export type ShapePoint = z.infer<typeof ShapePointSchema>;

/** The tables a translation may name. */
export const TRANSLATION_TABLES = ["agency", "stops", "routes", "trips", "stop_times", "pathways", "levels", "feed_info", "attributions"] as const;
export const TranslationSchema = gtfsRow({
  /** One of TRANSLATION_TABLES (checked by the reader: an unknown table is a warning). */
  table_name: gtfsText(),
  field_name: gtfsText(),
  language: gtfsLanguage(),
  translation: gtfsText(),
  record_id: gtfsId().optional(),
  record_sub_id: gtfsId().optional(),
  field_value: gtfsText().optional(),
});
export type Translation = z.infer<typeof TranslationSchema>;

export const FeedInfoSchema = gtfsRow({
  feed_publisher_name: gtfsText(),
  feed_publisher_url: gtfsUrl(),
  feed_lang: gtfsLanguage(),
  default_lang: gtfsLanguage().optional(),
  feed_start_date: gtfsDate().optional(),
  feed_end_date: gtfsDate().optional(),
  feed_version: gtfsText().optional(),
  feed_contact_email: gtfsEmail().optional(),
  feed_contact_url: gtfsUrl().optional(),
});
export type FeedInfo = z.infer<typeof FeedInfoSchema>;

export const FareProductSchema = gtfsRow({
  fare_product_id: gtfsId(),
  fare_product_name: gtfsText().optional(),
  rider_category_id: gtfsId().optional(),
  fare_media_id: gtfsId().optional(),
  /** May be negative (a discount product). */
  amount: gtfsFloat(),
  currency: gtfsCurrency(),
});
export type FareProduct = z.infer<typeof FareProductSchema>;

export const FareLegRuleSchema = gtfsRow({
  leg_group_id: gtfsId().optional(),
  network_id: gtfsId().optional(),
  from_area_id: gtfsId().optional(),
  to_area_id: gtfsId().optional(),
  from_timeframe_group_id: gtfsId().optional(),
  to_timeframe_group_id: gtfsId().optional(),
  fare_product_id: gtfsId(),
  rule_priority: gtfsInteger({ min: 0 }).optional(),
});
export type FareLegRule = z.infer<typeof FareLegRuleSchema>;

export const AreaSchema = gtfsRow({
  area_id: gtfsId(),
  area_name: gtfsText().optional(),
});
export type Area = z.infer<typeof AreaSchema>;

export const StopAreaSchema = gtfsRow({
  area_id: gtfsId(),
  stop_id: gtfsId(),
});
export type StopArea = z.infer<typeof StopAreaSchema>;

/**
 * The files the kiosk reads: row schema, primary key (a duplicate is an error) and whether the
 * feed must have the file (calendar.txt and calendar_dates.txt: at least one of them).
 */
export const GTFS_FILES = {
  "agency.txt": { schema: AgencySchema, primaryKey: ["agency_id"], required: true },
  "stops.txt": { schema: StopSchema, primaryKey: ["stop_id"], required: true },
  "routes.txt": { schema: RouteSchema, primaryKey: ["route_id"], required: true },
  "trips.txt": { schema: TripSchema, primaryKey: ["trip_id"], required: true },
  "stop_times.txt": { schema: StopTimeSchema, primaryKey: ["trip_id", "stop_sequence"], required: true },
  "calendar.txt": { schema: CalendarSchema, primaryKey: ["service_id"], required: false },
  "calendar_dates.txt": { schema: CalendarDateSchema, primaryKey: ["service_id", "date"], required: false },
  "frequencies.txt": { schema: FrequencySchema, primaryKey: ["trip_id", "start_time"], required: false },
  "transfers.txt": {
    schema: TransferSchema,
    primaryKey: ["from_stop_id", "to_stop_id", "from_trip_id", "to_trip_id", "from_route_id", "to_route_id"],
    required: false,
  },
  "fare_attributes.txt": { schema: FareAttributeSchema, primaryKey: ["fare_id"], required: false },
  "fare_rules.txt": { schema: FareRuleSchema, primaryKey: ["fare_id", "route_id", "origin_id", "destination_id", "contains_id"], required: false },
  "shapes.txt": { schema: ShapePointSchema, primaryKey: ["shape_id", "shape_pt_sequence"], required: false },
  "translations.txt": {
    schema: TranslationSchema,
    primaryKey: ["table_name", "field_name", "language", "record_id", "record_sub_id", "field_value"],
    required: false,
  },
  "feed_info.txt": { schema: FeedInfoSchema, primaryKey: [], required: false },
  "fare_products.txt": { schema: FareProductSchema, primaryKey: ["fare_product_id", "rider_category_id", "fare_media_id"], required: false },
  "fare_leg_rules.txt": {
    schema: FareLegRuleSchema,
    primaryKey: ["network_id", "from_area_id", "to_area_id", "from_timeframe_group_id", "to_timeframe_group_id", "fare_product_id"],
    required: false,
  },
  "areas.txt": { schema: AreaSchema, primaryKey: ["area_id"], required: false },
  "stop_areas.txt": { schema: StopAreaSchema, primaryKey: ["area_id", "stop_id"], required: false },
} as const;

export type GtfsFileName = keyof typeof GTFS_FILES;
export const GTFS_FILE_NAMES = Object.keys(GTFS_FILES) as GtfsFileName[];
/** The typed row of a file. */
export type GtfsRow<F extends GtfsFileName> = z.infer<(typeof GTFS_FILES)[F]["schema"]>;

export function isGtfsFileName(name: string): name is GtfsFileName {
  return Object.hasOwn(GTFS_FILES, name);
}

/** A file's columns (the schema's fields but `line`), in the reference's order. */
export function columnsOf(file: GtfsFileName): string[] {
  return Object.keys(GTFS_FILES[file].schema.shape).filter((name) => name !== "line");
}
