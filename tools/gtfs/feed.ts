// Reads a GTFS (static) feed from its files' text into typed rows, and checks what the kiosk's
// importer relies on: the CSV structure, every value against the file's schema (schemas.ts), keys,
// references between files and the rules of the reference that span fields and rows. Pure: the
// caller reads the files (source.ts does it from a folder or a zip).
import { parse } from "csv-parse/sync";
import type { z } from "zod";
import { compiledSchema } from "../util/compiled-schema.ts";
import {
  columnsOf,
  GTFS_FILE_NAMES,
  GTFS_FILES,
  GTFS_PROBLEM_SEVERITY,
  isGtfsFileName,
  isRequiredColumn,
  TRANSLATION_TABLES,
  type Agency,
  type Area,
  type Calendar,
  type CalendarDate,
  type FareAttribute,
  type FareLegRule,
  type FareProduct,
  type FareRule,
  type FeedInfo,
  type Frequency,
  type GtfsFileName,
  type GtfsProblem,
  type GtfsProblemCode,
  type GtfsRow,
  type Route,
  type ShapePoint,
  type Stop,
  type StopArea,
  type StopTime,
  type Transfer,
  type Translation,
  type Trip,
} from "./schemas.ts";

export type { GtfsProblem, GtfsProblemCode } from "./schemas.ts";

/** A feed that passed every check that is an error: rows per file, each with its source `line`. */
export interface GtfsFeed {
  readonly agency: readonly Agency[];
  readonly stops: readonly Stop[];
  readonly routes: readonly Route[];
  readonly trips: readonly Trip[];
  /** Sorted by trip_id (code-unit order), then stop_sequence: the order the importer walks trip patterns in. */
  readonly stopTimes: readonly StopTime[];
  /** The same rows per trip_id, in the same order. Trips without stop times are absent. */
  readonly stopTimesByTrip: ReadonlyMap<string, readonly StopTime[]>;
  readonly calendar: readonly Calendar[];
  readonly calendarDates: readonly CalendarDate[];
  readonly frequencies: readonly Frequency[];
  readonly transfers: readonly Transfer[];
  readonly fareAttributes: readonly FareAttribute[];
  readonly fareRules: readonly FareRule[];
  readonly shapes: readonly ShapePoint[];
  readonly translations: readonly Translation[];
  readonly feedInfo: readonly FeedInfo[];
  readonly fareProducts: readonly FareProduct[];
  readonly fareLegRules: readonly FareLegRule[];
  readonly areas: readonly Area[];
  readonly stopAreas: readonly StopArea[];
}

export interface GtfsReading {
  /** Undefined when any problem is an error. */
  feed: GtfsFeed | undefined;
  /** Errors and warnings, in the order found: file by file, then across files. */
  problems: GtfsProblem[];
}

type Cells = Record<string, string | undefined> & { line: number };
type AnyRow = Record<string, unknown> & { line: number };

interface Table {
  readonly file: GtfsFileName;
  /** False when the rows could not be read or mean nothing (bad header, CSV failure, empty): checks that need them are skipped, the cause being reported already. */
  usable: boolean;
  readonly rows: AnyRow[];
  /** Cells of records that did not convert: they still count as defined for references, so one bad value is reported once. */
  readonly rejected: Cells[];
}

class Problems {
  readonly list: GtfsProblem[] = [];
  errors = 0;

  add(code: GtfsProblemCode, file: string, message: string, line?: number, field?: string): void {
    const severity = GTFS_PROBLEM_SEVERITY[code];
    if (severity === "error") this.errors++;
    this.list.push({ severity, code, file, line, field, message });
  }
}

const at = (file: string, line: number): string => `${file} line ${line}`;
const quoted = (value: unknown): string => `'${String(value)}'`;

const BOM = "\uFEFF";

/** Read and check a feed: `files` maps a file name ("stops.txt") to its text. */
export function readGtfsFeed(files: ReadonlyMap<string, string>): GtfsReading {
  const problems = new Problems();
  const tables = new Map<GtfsFileName, Table>();
  for (const name of [...files.keys()].sort()) {
    if (!isGtfsFileName(name)) problems.add("unknown_file", name, `${name} is not a GTFS file the kiosk reads; it is ignored`);
  }
  for (const file of GTFS_FILE_NAMES) {
    const text = files.get(file);
    if (text !== undefined) tables.set(file, readTable(file, text, problems));
  }
  checkPresence(tables, problems);
  const stopTimesByTrip = groupStopTimes(tables.get("stop_times.txt"));
  new FeedChecks(tables, problems, stopTimesByTrip).run();
  if (problems.errors > 0) return { feed: undefined, problems: problems.list };

  const rowsOf = <F extends GtfsFileName>(file: F): GtfsRow<F>[] => (tables.get(file)?.rows ?? []) as GtfsRow<F>[];
  const feed: GtfsFeed = {
    agency: rowsOf("agency.txt"),
    stops: rowsOf("stops.txt"),
    routes: rowsOf("routes.txt"),
    trips: rowsOf("trips.txt"),
    stopTimes: [...stopTimesByTrip.values()].flat(),
    stopTimesByTrip,
    calendar: rowsOf("calendar.txt"),
    calendarDates: rowsOf("calendar_dates.txt"),
    frequencies: rowsOf("frequencies.txt"),
    transfers: rowsOf("transfers.txt"),
    fareAttributes: rowsOf("fare_attributes.txt"),
    fareRules: rowsOf("fare_rules.txt"),
    shapes: rowsOf("shapes.txt"),
    translations: rowsOf("translations.txt"),
    feedInfo: rowsOf("feed_info.txt"),
    fareProducts: rowsOf("fare_products.txt"),
    fareLegRules: rowsOf("fare_leg_rules.txt"),
    areas: rowsOf("areas.txt"),
    stopAreas: rowsOf("stop_areas.txt"),
  };
  return { feed, problems: problems.list };
}

// ---------------------------------------------------------------------------------------------
// One file

interface Csv {
  readonly records: string[][];
  /** The line record `i` ends on (a quoted value may span lines). */
  readonly endLine: (i: number) => number;
}

function parseCsv(file: GtfsFileName, text: string, problems: Problems): Csv | undefined {
  try {
    // relax_column_count: a short or long record is reported with its line (invalid_row_length)
    // instead of stopping the whole file at the first.
    if (!text.includes('"')) {
      // Without quotes every record is one line (empty lines come back as records), so csv-parse
      // need not track lines: info costs it twice the time (1.2 s against 0.6 s on Busan's stop_times).
      const records = parse(text, { relax_column_count: true });
      return { records, endLine: (i) => i + 1 };
    }
    const parsed = parse(text, { relax_column_count: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
    return { records: parsed.map((r) => r.record), endLine: (i) => parsed[i]!.info.lines };
  } catch (error) {
    const { message, lines } = error as { message?: unknown; lines?: unknown };
    const line = typeof lines === "number" && lines > 0 ? lines : undefined;
    const where = line !== undefined ? at(file, line) : file;
    problems.add("csv_parsing_failed", file, `${where}: the file is not valid CSV (${String(message)})`, line);
    return undefined;
  }
}

function readTable(file: GtfsFileName, rawText: string, problems: Problems): Table {
  const table: Table = { file, usable: false, rows: [], rejected: [] };
  const text = rawText.startsWith(BOM) ? rawText.slice(1) : rawText;
  if (text.trim() === "") {
    problems.add("empty_file", file, `${file} is empty: it has not even a header line`);
    return table;
  }
  const csv = parseCsv(file, text, problems);
  const header = csv?.records[0];
  if (csv === undefined || header === undefined) return table;
  const { records, endLine } = csv;

  const columns = readHeader(file, header, problems);
  if (columns === undefined) return table;
  table.usable = true;
  // Plain arrays: the loop below runs once per cell (650 000 times for Busan's stop_times).
  const names = [...columns.keys()];
  const indexes = [...columns.values()];

  const { schema, primaryKey } = GTFS_FILES[file];
  const parser = compiledSchema(schema as z.ZodType);
  // Only a quoted value can hold a line break.
  const mayHoldLineBreaks = text.includes('"');
  const width = header.length;
  for (let r = 1; r < records.length; r++) {
    const record = records[r]!;
    // A record starts after the previous one ends (no line is skipped: empty lines are records).
    const line = endLine(r - 1) + 1;
    if (record.every((value) => value.trim() === "")) {
      problems.add("empty_row", file, `${at(file, line)}: the line is empty; it is ignored`, line);
      continue;
    }
    const cells = { line } as Cells;
    if (record.length !== width) {
      problems.add("invalid_row_length", file, `${at(file, line)}: the record has ${record.length} values but the header has ${width} columns`, line);
      // Its ids still count as defined (a reference to it is not a second problem).
      names.forEach((name, c) => {
        const value = record[indexes[c]!]?.trim();
        if (value) cells[name] = value;
      });
      table.rejected.push(cells);
      continue;
    }
    for (let c = 0; c < names.length; c++) {
      const name = names[c]!;
      let value = record[indexes[c]!];
      if (value === "" || value === undefined) continue;
      const last = value.length - 1;
      if (value.charCodeAt(0) <= 32 || value.charCodeAt(last) <= 32) {
        const trimmed = value.trim();
        problems.add("leading_or_trailing_whitespaces", file, `${at(file, line)}: ${name} ${quoted(value)} has spaces around it; read as ${quoted(trimmed)}`, line, name);
        if (trimmed === "") continue;
        value = trimmed;
      }
      if (mayHoldLineBreaks && (value.includes("\n") || value.includes("\r"))) {
        problems.add("new_line_in_value", file, `${at(file, line)}: ${name} holds a line break`, line, name);
      }
      cells[name] = value;
    }
    const result = parser.safeParse(cells);
    if (result.success) {
      table.rows.push(result.data as AnyRow);
      continue;
    }
    table.rejected.push(cells);
    for (const issue of result.error.issues) {
      const field = String(issue.path[0]);
      const value = cells[field];
      const gtfsCode = issue.code === "custom" ? (issue.params?.gtfsCode as GtfsProblemCode | undefined) : undefined;
      if (gtfsCode !== undefined) {
        problems.add(gtfsCode, file, `${at(file, line)}: ${field} ${quoted(value)} ${issue.message}`, line, field);
      } else if (value === undefined) {
        problems.add("missing_required_field", file, `${at(file, line)}: ${field} is required but empty`, line, field);
      } else {
        // Every column schema is a string schema whose own issues carry a code: anything else is a bug here.
        throw new Error(`gtfs: unexpected issue for ${file} ${field}: ${issue.message}`);
      }
    }
  }
  if (primaryKey.length > 0) checkDuplicateKeys(table, primaryKey, problems);
  return table;
}

/** The known columns present, name → index; undefined when the header leaves the rows meaningless. */
function readHeader(file: GtfsFileName, header: readonly string[], problems: Problems): Map<string, number> | undefined {
  const known = columnsOf(file);
  const columns = new Map<string, number>();
  let usable = true;
  header.forEach((raw, index) => {
    const name = raw.trim();
    if (name !== raw) {
      problems.add("leading_or_trailing_whitespaces", file, `${file} line 1: column ${quoted(raw)} has spaces around its name; read as ${quoted(name)}`, 1, name);
    }
    if (name === "") {
      problems.add("empty_column_name", file, `${file} line 1: column ${index + 1} of the header has no name`, 1);
      usable = false;
    } else if (columns.has(name)) {
      problems.add("duplicated_column", file, `${file} line 1: column ${name} appears twice in the header (columns ${columns.get(name)! + 1} and ${index + 1})`, 1, name);
      usable = false;
    } else {
      columns.set(name, index);
      if (!known.includes(name)) {
        problems.add("unknown_column", file, `${file} line 1: column ${name} is not a column of ${file} the kiosk reads; it is ignored`, 1, name);
      }
    }
  });
  const shape = GTFS_FILES[file].schema.shape as Record<string, z.ZodType>;
  for (const name of known) {
    if (!columns.has(name) && isRequiredColumn(shape[name]!)) {
      problems.add("missing_required_column", file, `${file} line 1: required column ${name} is missing from the header`, 1, name);
      usable = false;
    }
  }
  if (!usable) return undefined;
  for (const name of columns.keys()) if (!known.includes(name)) columns.delete(name);
  return columns;
}

function checkDuplicateKeys(table: Table, primaryKey: readonly string[], problems: Problems): void {
  const seen = new Map<string, number>();
  for (const row of table.rows) {
    const parts = primaryKey.map((field) => row[field]);
    // A single agency may leave agency_id empty; an empty key identifies nothing.
    if (parts.every((part) => part === undefined)) continue;
    const key = parts.map((part) => (part === undefined ? "" : String(part))).join("\u001f");
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, row.line);
      continue;
    }
    const named = primaryKey
      .flatMap((field, i) => (parts[i] === undefined ? [] : [`${field} ${quoted(parts[i])}`]))
      .join(", ");
    problems.add("duplicate_key", table.file, `${at(table.file, row.line)}: ${named} is already used on line ${first}`, row.line, primaryKey.join(","));
  }
}

// ---------------------------------------------------------------------------------------------
// The feed as a whole

function checkPresence(tables: Map<GtfsFileName, Table>, problems: Problems): void {
  for (const file of GTFS_FILE_NAMES) {
    const table = tables.get(file);
    if (GTFS_FILES[file].required) {
      if (table === undefined) problems.add("missing_required_file", file, `${file} is missing: every GTFS feed must have it`);
      else if (table.usable && table.rows.length + table.rejected.length === 0) {
        problems.add("empty_file", file, `${file} has a header but no records: every GTFS feed must have some`);
        table.usable = false;
      }
    }
  }
  // Service days come from calendar.txt, calendar_dates.txt or both: at least one must have records.
  const calendars = (["calendar.txt", "calendar_dates.txt"] as const).map((file) => tables.get(file));
  if (calendars.every((table) => table === undefined)) {
    problems.add("missing_calendar_and_calendar_date_files", "calendar.txt", "calendar.txt and calendar_dates.txt are both missing: the feed says on which days no trip runs");
  } else if (calendars.every((table) => table === undefined || (table.usable && table.rows.length + table.rejected.length === 0))) {
    for (const table of calendars) {
      if (table === undefined) continue;
      const other = table.file === "calendar.txt" ? "calendar_dates.txt" : "calendar.txt";
      problems.add("empty_file", table.file, `${table.file} has a header but no records, and ${other} has none either: the feed has no service days`);
      table.usable = false;
    }
  }
}

/** stop_times per trip_id (trip ids in code-unit order), each trip's rows by stop_sequence. */
function groupStopTimes(table: Table | undefined): Map<string, StopTime[]> {
  const byTrip = new Map<string, StopTime[]>();
  if (table === undefined || !table.usable) return byTrip;
  for (const row of table.rows as StopTime[]) {
    const rows = byTrip.get(row.trip_id);
    if (rows === undefined) byTrip.set(row.trip_id, [row]);
    else rows.push(row);
  }
  const sorted = new Map<string, StopTime[]>();
  for (const tripId of [...byTrip.keys()].sort()) {
    const rows = byTrip.get(tripId)!;
    // Feeds usually list a trip's stops in order already: sort only when needed.
    if (rows.some((row, i) => i > 0 && rows[i - 1]!.stop_sequence > row.stop_sequence)) rows.sort((a, b) => a.stop_sequence - b.stop_sequence);
    sorted.set(tripId, rows);
  }
  return sorted;
}

interface ForeignKey {
  readonly file: GtfsFileName;
  readonly field: string;
  /** The files the value may come from (trips.service_id: either calendar file). */
  readonly targets: readonly GtfsFileName[];
  readonly targetField: string;
  /** What the target is, for the message: "a stop" → "'X' is not a stop in stops.txt". */
  readonly what: string;
  /** Whether a reference is an error when no target file is in the feed (else the check is skipped). */
  readonly needsTarget: boolean;
}

const fk = (file: GtfsFileName, field: string, targets: GtfsFileName | readonly GtfsFileName[], targetField: string, what: string, needsTarget = false): ForeignKey => ({
  file,
  field,
  targets: typeof targets === "string" ? [targets] : targets,
  targetField,
  what,
  needsTarget,
});

/** References between files. Required files are not `needsTarget`: their absence is reported already. */
const FOREIGN_KEYS: readonly ForeignKey[] = [
  fk("routes.txt", "agency_id", "agency.txt", "agency_id", "an agency"),
  fk("trips.txt", "route_id", "routes.txt", "route_id", "a route"),
  fk("trips.txt", "service_id", ["calendar.txt", "calendar_dates.txt"], "service_id", "a service"),
  // A feed without shapes.txt may still name shapes: the kiosk then draws no shapes.
  fk("trips.txt", "shape_id", "shapes.txt", "shape_id", "a shape"),
  fk("stop_times.txt", "trip_id", "trips.txt", "trip_id", "a trip"),
  fk("stop_times.txt", "stop_id", "stops.txt", "stop_id", "a stop"),
  fk("stops.txt", "parent_station", "stops.txt", "stop_id", "a stop"),
  fk("fare_attributes.txt", "agency_id", "agency.txt", "agency_id", "an agency"),
  fk("fare_rules.txt", "fare_id", "fare_attributes.txt", "fare_id", "a fare", true),
  fk("fare_rules.txt", "route_id", "routes.txt", "route_id", "a route"),
  fk("fare_rules.txt", "origin_id", "stops.txt", "zone_id", "a zone (zone_id) of any stop"),
  fk("fare_rules.txt", "destination_id", "stops.txt", "zone_id", "a zone (zone_id) of any stop"),
  fk("fare_rules.txt", "contains_id", "stops.txt", "zone_id", "a zone (zone_id) of any stop"),
  fk("transfers.txt", "from_stop_id", "stops.txt", "stop_id", "a stop"),
  fk("transfers.txt", "to_stop_id", "stops.txt", "stop_id", "a stop"),
  fk("transfers.txt", "from_route_id", "routes.txt", "route_id", "a route"),
  fk("transfers.txt", "to_route_id", "routes.txt", "route_id", "a route"),
  fk("transfers.txt", "from_trip_id", "trips.txt", "trip_id", "a trip"),
  fk("transfers.txt", "to_trip_id", "trips.txt", "trip_id", "a trip"),
  fk("frequencies.txt", "trip_id", "trips.txt", "trip_id", "a trip"),
  fk("fare_leg_rules.txt", "fare_product_id", "fare_products.txt", "fare_product_id", "a fare product", true),
  fk("fare_leg_rules.txt", "from_area_id", "areas.txt", "area_id", "an area", true),
  fk("fare_leg_rules.txt", "to_area_id", "areas.txt", "area_id", "an area", true),
  fk("stop_areas.txt", "area_id", "areas.txt", "area_id", "an area", true),
  fk("stop_areas.txt", "stop_id", "stops.txt", "stop_id", "a stop"),
];

/** Translations that name a record by record_id: the table's file and its key column. */
const TRANSLATED_RECORDS: Partial<Record<string, { file: GtfsFileName; field: string }>> = {
  agency: { file: "agency.txt", field: "agency_id" },
  stops: { file: "stops.txt", field: "stop_id" },
  routes: { file: "routes.txt", field: "route_id" },
  trips: { file: "trips.txt", field: "trip_id" },
};

class FeedChecks {
  private readonly valueSets = new Map<string, Set<unknown>>();

  constructor(
    private readonly tables: ReadonlyMap<GtfsFileName, Table>,
    private readonly problems: Problems,
    private readonly stopTimesByTrip: ReadonlyMap<string, readonly StopTime[]>,
  ) {}

  run(): void {
    for (const key of FOREIGN_KEYS) this.checkForeignKey(key);
    this.checkAgencies();
    this.checkStops();
    this.checkRoutes();
    this.checkRanges();
    this.checkTrips();
    this.checkStopTimes();
    this.checkShapes();
    this.checkTransfers();
    this.checkTranslations();
  }

  /** Rows of a file whose rows mean something; none otherwise. */
  private rows<F extends GtfsFileName>(file: F): readonly GtfsRow<F>[] {
    const table = this.tables.get(file);
    return table?.usable === true ? (table.rows as GtfsRow<F>[]) : [];
  }

  private usable(file: GtfsFileName): boolean {
    return this.tables.get(file)?.usable === true;
  }

  /** Every value of a column, from rows that converted and from rows that did not. */
  private values(file: GtfsFileName, field: string): Set<unknown> {
    const id = `${file}\u001f${field}`;
    let set = this.valueSets.get(id);
    if (set === undefined) {
      set = new Set();
      const table = this.tables.get(file);
      for (const row of table?.rows ?? []) if (row[field] !== undefined) set.add(row[field]);
      for (const cells of table?.rejected ?? []) if (cells[field] !== undefined) set.add(cells[field]);
      this.valueSets.set(id, set);
    }
    return set;
  }

  private checkForeignKey({ file, field, targets, targetField, what, needsTarget }: ForeignKey): void {
    if (!this.usable(file)) return;
    const present = targets.filter((target) => this.tables.has(target));
    // A target that could not be read tells nothing about what exists.
    if (present.some((target) => !this.usable(target))) return;
    if (present.length === 0 && !needsTarget) return;
    const defined = present.map((target) => this.values(target, targetField));
    const where = targets.join(" or ") + (present.length === 0 ? ` (the feed has no ${targets.join(" or ")})` : "");
    for (const row of this.rows(file) as readonly AnyRow[]) {
      const value = row[field];
      if (value === undefined || defined.some((set) => set.has(value))) continue;
      this.problems.add("foreign_key_violation", file, `${at(file, row.line)}: ${field} ${quoted(value)} is not ${what} in ${where}`, row.line, field);
    }
  }

  private checkAgencies(): void {
    const agencies = this.rows("agency.txt");
    if (agencies.length > 1) {
      for (const agency of agencies) {
        if (agency.agency_id === undefined) {
          this.problems.add("missing_required_field", "agency.txt", `${at("agency.txt", agency.line)}: agency_id is required when the feed has more than one agency`, agency.line, "agency_id");
        }
      }
      const requireAgencyId = (file: "routes.txt" | "fare_attributes.txt"): void => {
        for (const row of this.rows(file)) {
          if (row.agency_id === undefined) {
            this.problems.add("missing_required_field", file, `${at(file, row.line)}: agency_id is required when the feed has more than one agency`, row.line, "agency_id");
          }
        }
      };
      requireAgencyId("routes.txt");
      requireAgencyId("fare_attributes.txt");
    }
    const first = agencies[0];
    for (const agency of agencies) {
      if (first !== undefined && agency.agency_timezone !== first.agency_timezone) {
        this.problems.add(
          "inconsistent_agency_timezone",
          "agency.txt",
          `${at("agency.txt", agency.line)}: agency_timezone ${quoted(agency.agency_timezone)} differs from ${quoted(first.agency_timezone)} on line ${first.line}: all agencies must share one time zone`,
          agency.line,
          "agency_timezone",
        );
      }
    }
  }

  private checkStops(): void {
    const stops = this.rows("stops.txt");
    const locationType = new Map<string, number>();
    for (const stop of stops) locationType.set(stop.stop_id, stop.location_type);
    const file = "stops.txt";
    for (const stop of stops) {
      const where = at(file, stop.line);
      const type = stop.location_type;
      if (type <= 2) {
        if (stop.stop_name === undefined) {
          this.problems.add("missing_required_field", file, `${where}: stop_name is required for location_type ${type}`, stop.line, "stop_name");
        }
        for (const field of ["stop_lat", "stop_lon"] as const) {
          if (stop[field] === undefined) {
            this.problems.add("stop_without_location", file, `${where}: ${field} is required for location_type ${type} (stop ${quoted(stop.stop_id)})`, stop.line, field);
          }
        }
      }
      if (stop.parent_station === undefined) {
        if (type >= 2) {
          this.problems.add("location_without_parent_station", file, `${where}: stop ${quoted(stop.stop_id)} of location_type ${type} needs a parent_station`, stop.line, "parent_station");
        }
        continue;
      }
      if (type === 1) {
        this.problems.add("station_with_parent_station", file, `${where}: station ${quoted(stop.stop_id)} (location_type 1) cannot have a parent_station`, stop.line, "parent_station");
        continue;
      }
      const parentType = locationType.get(stop.parent_station);
      // A boarding area sits on a platform; everything else in a station.
      const expected = type === 4 ? 0 : 1;
      if (parentType !== undefined && parentType !== expected) {
        this.problems.add(
          "wrong_parent_location_type",
          file,
          `${where}: parent_station ${quoted(stop.parent_station)} has location_type ${parentType}, but the parent of a location_type ${type} must have location_type ${expected}`,
          stop.line,
          "parent_station",
        );
      }
    }
  }

  private checkRoutes(): void {
    for (const route of this.rows("routes.txt")) {
      if (route.route_short_name === undefined && route.route_long_name === undefined) {
        this.problems.add(
          "route_both_short_and_long_name_missing",
          "routes.txt",
          `${at("routes.txt", route.line)}: route ${quoted(route.route_id)} has neither route_short_name nor route_long_name`,
          route.line,
          "route_short_name",
        );
      }
    }
  }

  private checkRange(file: GtfsFileName, row: AnyRow, startField: string, endField: string, show: (value: unknown) => string): void {
    const start = row[startField] as string | number | undefined;
    const end = row[endField] as string | number | undefined;
    if (start === undefined || end === undefined) return;
    if (start > end) {
      this.problems.add("start_and_end_range_out_of_order", file, `${at(file, row.line)}: ${startField} ${show(start)} is after ${endField} ${show(end)}`, row.line, startField);
    } else if (start === end && file === "frequencies.txt") {
      // A frequency window that starts as it ends runs no trip; a one-day calendar is fine.
      this.problems.add("start_and_end_range_equal", file, `${at(file, row.line)}: ${startField} and ${endField} are both ${show(start)}`, row.line, startField);
    }
  }

  private checkRanges(): void {
    for (const row of this.rows("calendar.txt")) this.checkRange("calendar.txt", row, "start_date", "end_date", quoted);
    for (const row of this.rows("feed_info.txt")) this.checkRange("feed_info.txt", row, "feed_start_date", "feed_end_date", quoted);
    for (const row of this.rows("frequencies.txt")) this.checkRange("frequencies.txt", row, "start_time", "end_time", (s) => quoted(formatTime(s as number)));
  }

  private checkTrips(): void {
    if (!this.usable("stop_times.txt")) return;
    const counted = new Set<string>();
    for (const trip of this.rows("trips.txt")) {
      if (counted.has(trip.trip_id)) continue;
      counted.add(trip.trip_id);
      const count = this.stopTimesByTrip.get(trip.trip_id)?.length ?? 0;
      if (count === 0) {
        this.problems.add("unused_trip", "trips.txt", `${at("trips.txt", trip.line)}: trip ${quoted(trip.trip_id)} has no stop times in stop_times.txt`, trip.line, "trip_id");
      } else if (count === 1) {
        this.problems.add("unusable_trip", "trips.txt", `${at("trips.txt", trip.line)}: trip ${quoted(trip.trip_id)} has one stop time; a trip needs at least two`, trip.line, "trip_id");
      }
    }
  }

  private checkStopTimes(): void {
    const file = "stop_times.txt";
    const locationType = new Map<string, number>();
    for (const stop of this.rows("stops.txt")) locationType.set(stop.stop_id, stop.location_type);
    for (const [tripId, stopTimes] of this.stopTimesByTrip) {
      // The latest time the vehicle left a stop, and the latest shape distance, with their lines.
      let lastDeparture: { time: number; line: number } | undefined;
      let lastDistance: { distance: number; line: number } | undefined;
      stopTimes.forEach((st, i) => {
        const where = at(file, st.line);
        const type = locationType.get(st.stop_id);
        if (type !== undefined && type !== 0) {
          this.problems.add("location_with_unexpected_stop_time", file, `${where}: stop_id ${quoted(st.stop_id)} has location_type ${type}; a trip can only stop at a stop or platform (location_type 0)`, st.line, "stop_id");
        }
        const hasArrival = st.arrival_time !== undefined;
        const hasDeparture = st.departure_time !== undefined;
        if (hasArrival !== hasDeparture) {
          const [given, missing] = hasArrival ? ["arrival_time", "departure_time"] : ["departure_time", "arrival_time"];
          this.problems.add("stop_time_with_only_arrival_or_departure_time", file, `${where}: ${given} is given but ${missing} is empty; give both or neither`, st.line, missing);
        } else if (!hasArrival && (i === 0 || i === stopTimes.length - 1)) {
          this.problems.add("missing_trip_edge", file, `${where}: the ${i === 0 ? "first" : "last"} stop of trip ${quoted(tripId)} has no arrival_time and departure_time`, st.line, "arrival_time");
        } else if (!hasArrival && st.timepoint === 1) {
          this.problems.add("stop_time_timepoint_without_times", file, `${where}: timepoint is 1 (exact) but arrival_time and departure_time are empty`, st.line, "arrival_time");
        }
        if (st.arrival_time !== undefined && st.departure_time !== undefined && st.departure_time < st.arrival_time) {
          this.problems.add(
            "stop_time_with_departure_before_arrival_time",
            file,
            `${where}: departure_time ${formatTime(st.departure_time)} is before arrival_time ${formatTime(st.arrival_time)}`,
            st.line,
            "departure_time",
          );
        }
        const arrival = st.arrival_time ?? st.departure_time;
        if (arrival !== undefined && lastDeparture !== undefined && arrival < lastDeparture.time) {
          this.problems.add(
            "stop_time_with_arrival_before_previous_departure_time",
            file,
            `${where}: trip ${quoted(tripId)} arrives at ${formatTime(arrival)}, before it leaves the previous stop (line ${lastDeparture.line}) at ${formatTime(lastDeparture.time)}`,
            st.line,
            "arrival_time",
          );
        }
        const departure = st.departure_time ?? st.arrival_time;
        if (departure !== undefined) lastDeparture = { time: departure, line: st.line };
        if (st.shape_dist_traveled !== undefined) {
          if (lastDistance !== undefined && st.shape_dist_traveled <= lastDistance.distance) {
            this.problems.add(
              "decreasing_or_equal_stop_time_distance",
              file,
              `${where}: shape_dist_traveled ${st.shape_dist_traveled} is not more than ${lastDistance.distance} at the previous stop of trip ${quoted(tripId)} (line ${lastDistance.line})`,
              st.line,
              "shape_dist_traveled",
            );
          }
          lastDistance = { distance: st.shape_dist_traveled, line: st.line };
        }
      });
    }
  }

  private checkShapes(): void {
    const byShape = new Map<string, ShapePoint[]>();
    for (const point of this.rows("shapes.txt")) {
      const points = byShape.get(point.shape_id);
      if (points === undefined) byShape.set(point.shape_id, [point]);
      else points.push(point);
    }
    for (const points of byShape.values()) {
      points.sort((a, b) => a.shape_pt_sequence - b.shape_pt_sequence);
      let last: ShapePoint | undefined;
      for (const point of points) {
        if (point.shape_dist_traveled === undefined) continue;
        if (last !== undefined && point.shape_dist_traveled < last.shape_dist_traveled!) {
          this.problems.add(
            "decreasing_shape_distance",
            "shapes.txt",
            `${at("shapes.txt", point.line)}: shape_dist_traveled ${point.shape_dist_traveled} of shape ${quoted(point.shape_id)} is less than ${last.shape_dist_traveled} at the previous point (line ${last.line})`,
            point.line,
            "shape_dist_traveled",
          );
        }
        last = point;
      }
    }
  }

  private checkTransfers(): void {
    const file = "transfers.txt";
    const locationType = new Map<string, number>();
    for (const stop of this.rows("stops.txt")) locationType.set(stop.stop_id, stop.location_type);
    for (const transfer of this.rows(file)) {
      const type = transfer.transfer_type;
      const required = type >= 1 && type <= 3 ? (["from_stop_id", "to_stop_id"] as const) : type >= 4 ? (["from_trip_id", "to_trip_id"] as const) : [];
      for (const field of required) {
        if (transfer[field] === undefined) {
          this.problems.add("missing_required_field", file, `${at(file, transfer.line)}: ${field} is required for transfer_type ${type}`, transfer.line, field);
        }
      }
      for (const field of ["from_stop_id", "to_stop_id"] as const) {
        const stopId = transfer[field];
        const stopType = stopId === undefined ? undefined : locationType.get(stopId);
        if (stopType !== undefined && stopType !== 0 && stopType !== 1) {
          this.problems.add(
            "transfer_with_invalid_stop_location_type",
            file,
            `${at(file, transfer.line)}: ${field} ${quoted(stopId)} has location_type ${stopType}; a transfer is between stops, platforms or stations (0 or 1)`,
            transfer.line,
            field,
          );
        }
      }
    }
  }

  private checkTranslations(): void {
    const file = "translations.txt";
    for (const translation of this.rows(file)) {
      const where = at(file, translation.line);
      if (!(TRANSLATION_TABLES as readonly string[]).includes(translation.table_name)) {
        this.problems.add("translation_unknown_table_name", file, `${where}: table_name ${quoted(translation.table_name)} is not a table translations can name; the row is ignored`, translation.line, "table_name");
        continue;
      }
      if (translation.table_name !== "feed_info" && translation.record_id === undefined && translation.field_value === undefined) {
        this.problems.add("missing_required_field", file, `${where}: a translation of ${translation.table_name} needs record_id or field_value`, translation.line, "record_id");
      }
      const target = TRANSLATED_RECORDS[translation.table_name];
      if (target === undefined || translation.record_id === undefined || !this.usable(target.file)) continue;
      if (!this.values(target.file, target.field).has(translation.record_id)) {
        this.problems.add(
          "translation_foreign_key_violation",
          file,
          `${where}: record_id ${quoted(translation.record_id)} is not a ${target.field} in ${target.file}`,
          translation.line,
          "record_id",
        );
      }
    }
  }
}

/** Seconds since midnight as GTFS writes them (H:MM:SS, hours past 24 kept). */
export function formatTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}
