import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SHARED_DIR } from "../../test/paths.ts";
import { formatTime, readGtfsFeed, type GtfsReading } from "./feed.ts";
import { GTFS_FILE_NAMES, GTFS_FILES, GTFS_PROBLEM_CODES, GTFS_PROBLEM_SEVERITY, GtfsProblemSchema, type GtfsProblem, type GtfsProblemCode } from "./schemas.ts";
import { readFeedSource } from "./source.ts";

const HYDERABAD_DIR = path.join(SHARED_DIR, "gtfs", "hyderabad");
const BUSAN_DIR = path.join(SHARED_DIR, "gtfs", "busan");

// Each real feed is read once for the whole file.
const hyderabad = readGtfsFeed(readFeedSource(HYDERABAD_DIR));
const busan = readGtfsFeed(readFeedSource(BUSAN_DIR));

const errorsOf = (reading: GtfsReading): GtfsProblem[] => reading.problems.filter((p) => p.severity === "error");
/** Hyderabad's problems but the six trailing spaces it has as published. */
const newProblems = (reading: GtfsReading): GtfsProblem[] => reading.problems.filter((p) => p.code !== "leading_or_trailing_whitespaces");

describe("the Hyderabad Metro feed", () => {
  const feed = hyderabad.feed!;

  it("reads without errors; its only warnings are six stop names with trailing spaces, which are trimmed", () => {
    expect(errorsOf(hyderabad)).toEqual([]);
    expect(hyderabad.problems.map((p) => [p.code, p.file, p.field])).toEqual(Array(6).fill(["leading_or_trailing_whitespaces", "stops.txt", "stop_name"]));
    expect(hyderabad.problems[0]).toMatchObject({ line: 196, message: expect.stringContaining("'KUK Arm A  Staircase '") });
    expect(feed.stops.find((s) => s.line === 196)?.stop_name).toBe("KUK Arm A  Staircase");
  });

  it("has 3 routes with their colours, and 57 stations whose platforms name them as parent", () => {
    expect(feed.routes.map((r) => [r.route_id, r.route_type, r.route_color, r.route_text_color, r.route_sort_order])).toEqual([
      ["RED", 1, "E31E24", "FFFFFF", 1],
      ["GREEN", 1, "009846", "000000", 2],
      ["BLUE", 1, "007ABB", "000000", 3],
    ]);
    const stations = feed.stops.filter((s) => s.location_type === 1);
    expect(stations).toHaveLength(57);
    expect(feed.stops[0]).toEqual({ stop_id: "MYP", stop_name: "Miyapur", stop_lat: 17.4965452, stop_lon: 78.3730262, zone_id: "MYP", location_type: 1, wheelchair_boarding: 0, line: 2 });
    const stationIds = new Set(stations.map((s) => s.stop_id));
    const platforms = feed.stops.filter((s) => s.location_type === 0);
    expect(platforms.length).toBeGreaterThan(100);
    expect(platforms.every((p) => p.parent_station !== undefined && stationIds.has(p.parent_station))).toBe(true);
  });

  it("has a fare table in INR: 10 fares of 12 to 75, and 3249 origin–destination rules between stations' zones", () => {
    expect(feed.fareAttributes.map((f) => f.currency_type)).toEqual(Array(10).fill("INR"));
    expect(feed.fareAttributes.map((f) => f.price)).toEqual([12, 18, 30, 40, 50, 55, 60, 66, 70, 75]);
    // An empty transfers cell means unlimited transfers.
    expect(feed.fareAttributes.every((f) => f.transfers === undefined && f.payment_method === 1)).toBe(true);
    expect(feed.fareRules).toHaveLength(3249);
    expect(feed.fareRules[0]).toEqual({ fare_id: "F_12", origin_id: "NAG", destination_id: "NAG", line: 2 });
    const zones = new Set(feed.stops.map((s) => s.zone_id));
    expect(feed.fareRules.every((r) => zones.has(r.origin_id) && zones.has(r.destination_id))).toBe(true);
  });

  it("gives stop times in seconds, grouped by trip and sorted by (trip_id, stop_sequence), each with its line", () => {
    expect(feed.stopTimes).toHaveLength(61037);
    expect(feed.stopTimesByTrip.size).toBe(feed.trips.length);
    expect(feed.trips).toHaveLength(2810);
    const first = feed.stopTimesByTrip.get("SA_101482")!;
    expect(first.slice(0, 2)).toEqual([
      { trip_id: "SA_101482", arrival_time: 21600, departure_time: 21600, stop_id: "MGB3", stop_sequence: 1, pickup_type: 0, drop_off_type: 0, shape_dist_traveled: 647, timepoint: 1, line: 2 },
      { trip_id: "SA_101482", arrival_time: 21701, departure_time: 21701, stop_id: "SUB1", stop_sequence: 2, pickup_type: 0, drop_off_type: 0, shape_dist_traveled: 1424, timepoint: 1, line: 3 },
    ]);
    const sorted = feed.stopTimes.every((st, i) => {
      const prev = feed.stopTimes[i - 1];
      return prev === undefined || prev.trip_id < st.trip_id || (prev.trip_id === st.trip_id && prev.stop_sequence < st.stop_sequence);
    });
    expect(sorted).toBe(true);
    expect([...feed.stopTimesByTrip.values()].flat()).toEqual(feed.stopTimes);
  });
});

describe("the Busan Metro feed", () => {
  const feed = busan.feed!;

  it("reads without any problem", () => {
    expect(busan.problems).toEqual([]);
  });

  it("has 4 routes, 114 stops with wheelchair boarding, and trips read from CRLF lines", () => {
    expect(feed.routes.map((r) => [r.route_id, r.route_color])).toEqual([
      ["1", "F26921"],
      ["2", "50B848"],
      ["3", "CE8A2B"],
      ["4", "426AB3"],
    ]);
    expect(feed.stops).toHaveLength(114);
    expect(feed.stops.every((s) => s.wheelchair_boarding === 1 && s.location_type === 0)).toBe(true);
    // trips.txt ends its lines with \r\n: the last column must not keep the \r.
    expect(feed.trips[0]).toEqual({
      route_id: "1",
      service_id: "WD",
      trip_id: "134_1_1_WD_2002",
      trip_headsign: "Nopo",
      direction_id: 1,
      shape_id: "1_1_shp",
      wheelchair_accessible: 1,
      bikes_allowed: 0,
      line: 2,
    });
    expect(feed.calendar.map((c) => c.service_id)).toEqual(["WD", "SAT", "SUN"]);
  });

  it("has transfers between lines with a min_transfer_time of 180 s, and no fare files", () => {
    expect(feed.transfers).toHaveLength(12);
    expect(feed.transfers.every((t) => t.transfer_type === 2 && t.min_transfer_time === 180)).toBe(true);
    expect(feed.transfers[0]).toEqual({ from_stop_id: "119", to_stop_id: "219", transfer_type: 2, min_transfer_time: 180, line: 2 });
    expect(feed.fareAttributes).toEqual([]);
    expect(feed.fareRules).toEqual([]);
  });

  it("keeps times past midnight as hours beyond 24", () => {
    const latest = Math.max(...feed.stopTimes.map((st) => st.departure_time ?? 0));
    expect(latest).toBeGreaterThan(24 * 3600);
    expect(formatTime(latest)).toMatch(/^24:\d\d:\d\d$/);
    expect(feed.stopTimes).toHaveLength(109140);
  });
});

// ---------------------------------------------------------------------------------------------
// Corrupted copies of the Hyderabad feed, written to a temporary folder and read back from disk.

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

type Edit = (text: string) => string;

/** Hyderabad with some files edited, as a folder on disk, read as a kiosk would. */
function corruptedHyderabad(edits: Record<string, Edit>): GtfsReading {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gtfs-corrupt-"));
  tempDirs.push(dir);
  for (const name of readdirSync(HYDERABAD_DIR)) {
    const text = readFileSync(path.join(HYDERABAD_DIR, name), "utf8");
    writeFileSync(path.join(dir, name), edits[name]?.(text) ?? text);
  }
  return readGtfsFeed(readFeedSource(dir));
}

/** Replace line `n` (1-based) through `edit`. */
const editLine =
  (n: number, edit: Edit): Edit =>
  (text) => {
    const lines = text.split("\n");
    lines[n - 1] = edit(lines[n - 1]!);
    return lines.join("\n");
  };
/** Replace the value of column `column` (0-based) on one line. */
const setCell = (column: number, value: string): Edit => (line) => line.split(",").map((cell, i) => (i === column ? value : cell)).join(",");

describe("a corrupted copy of the Hyderabad feed is refused, naming file, line and field", () => {
  it("stop_times.txt without its stop_id column: missing_required_column, and nothing that follows from it", () => {
    const dropStopId: Edit = (text) =>
      text
        .split("\n")
        .map((line) => (line === "" ? line : line.split(",").filter((_, i) => i !== 2).join(",")))
        .join("\n");
    const reading = corruptedHyderabad({ "stop_times.txt": dropStopId });
    expect(reading.feed).toBeUndefined();
    expect(newProblems(reading)).toEqual([
      {
        severity: "error",
        code: "missing_required_column",
        file: "stop_times.txt",
        line: 1,
        field: "stop_id",
        message: "stop_times.txt line 1: required column stop_id is missing from the header",
      },
    ]);
  });

  it("a stop_times row naming an unknown stop: foreign_key_violation on that line", () => {
    const reading = corruptedHyderabad({ "stop_times.txt": editLine(1234, setCell(2, "XYZ")) });
    expect(reading.feed).toBeUndefined();
    expect(newProblems(reading)).toEqual([
      {
        severity: "error",
        code: "foreign_key_violation",
        file: "stop_times.txt",
        line: 1234,
        field: "stop_id",
        message: "stop_times.txt line 1234: stop_id 'XYZ' is not a stop in stops.txt",
      },
    ]);
  });

  it("a fare rule naming an unknown zone: foreign_key_violation on origin_id", () => {
    const reading = corruptedHyderabad({ "fare_rules.txt": editLine(100, setCell(0, "NOWHERE")) });
    expect(reading.feed).toBeUndefined();
    expect(newProblems(reading)).toEqual([
      {
        severity: "error",
        code: "foreign_key_violation",
        file: "fare_rules.txt",
        line: 100,
        field: "origin_id",
        message: "fare_rules.txt line 100: origin_id 'NOWHERE' is not a zone (zone_id) of any stop in stops.txt",
      },
    ]);
  });

  it("an empty calendar (header only) and no calendar_dates.txt: empty_file", () => {
    const reading = corruptedHyderabad({ "calendar.txt": (text) => text.split("\n")[0] + "\n" });
    expect(reading.feed).toBeUndefined();
    expect(newProblems(reading)).toEqual([
      {
        severity: "error",
        code: "empty_file",
        file: "calendar.txt",
        line: undefined,
        field: undefined,
        message: "calendar.txt has a header but no records, and calendar_dates.txt has none either: the feed has no service days",
      },
    ]);
  });

  it("a time of 25:61:00 and a colour that is not six hex digits: invalid_time and invalid_color", () => {
    const reading = corruptedHyderabad({
      "stop_times.txt": editLine(500, setCell(3, "25:61:00")),
      "routes.txt": editLine(3, setCell(5, "#009846")),
    });
    expect(reading.feed).toBeUndefined();
    expect(newProblems(reading)).toEqual([
      {
        severity: "error",
        code: "invalid_color",
        file: "routes.txt",
        line: 3,
        field: "route_color",
        message: "routes.txt line 3: route_color '#009846' is not a colour of six hexadecimal digits without '#' (e.g. FFFFFF)",
      },
      {
        severity: "error",
        code: "invalid_time",
        file: "stop_times.txt",
        line: 500,
        field: "arrival_time",
        message: "stop_times.txt line 500: arrival_time '25:61:00' is not a time in H:MM:SS form (minutes and seconds 00 to 59)",
      },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// A small feed, in memory, with one thing wrong at a time.

const MINIMAL: Readonly<Record<string, string>> = {
  "agency.txt": "agency_id,agency_name,agency_url,agency_timezone,agency_lang,agency_email\nA,Metro,https://metro.example,Europe/Paris,fr,info@metro.example\n",
  "stops.txt": [
    "stop_id,stop_name,stop_lat,stop_lon,zone_id,location_type,parent_station",
    "S1,Alpha,48.85,2.35,Z1,1,",
    "P1,Alpha,48.85,2.35,Z1,0,S1",
    "S2,Beta,48.86,2.36,Z2,1,",
    "P2,Beta,48.86,2.36,Z2,,S2",
    "E1,Alpha exit,48.85,2.35,,2,S1",
    "",
  ].join("\n"),
  "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type,route_color\nR1,A,1,Line 1,1,ff0000\n",
  "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WK,T1,SH1\nR1,WK,T2,SH1\n",
  // T2 comes first and T1's stops out of order: the feed gives them sorted.
  "stop_times.txt": [
    "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled,timepoint",
    "T2,24:50:00,24:50:30,P2,1,0,",
    "T2,25:05:00,25:05:00,P1,2,1000,",
    "T1,08:10:00,08:10:00,P2,3,1000,1",
    "T1,8:00:00,08:00:30,P1,1,0,1",
    "",
  ].join("\n"),
  "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20250101,20251231\n",
  "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nSH1,48.85,2.35,1,0\nSH1,48.86,2.36,2,1000\n",
  "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF1,1.90,EUR,1,\n",
  "fare_rules.txt": "fare_id,origin_id,destination_id\nF1,Z1,Z2\n",
  "transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nP1,P2,2,120\n",
  "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\nMetro,https://metro.example,fr,20250101,20251231\n",
};

/** Files to replace (a text) or remove (undefined). */
type Edits = Record<string, string | undefined>;

function read(edits: Edits = {}): GtfsReading {
  const files = new Map<string, string>();
  for (const [name, text] of Object.entries({ ...MINIMAL, ...edits })) if (text !== undefined) files.set(name, text);
  return readGtfsFeed(files);
}

/** MINIMAL's `file` with line `n` (1-based) replaced. */
function withLine(file: string, n: number, line: string): string {
  const lines = MINIMAL[file]!.split("\n");
  lines[n - 1] = line;
  return lines.join("\n");
}

/** MINIMAL's `file` with lines added at the end. */
const withRows = (file: string, ...rows: string[]): string => MINIMAL[file] + rows.map((row) => `${row}\n`).join("");

describe("a small valid feed", () => {
  const reading = read();
  const feed = reading.feed!;

  it("reads without any problem", () => {
    expect(reading.problems).toEqual([]);
  });

  it("converts at parse: numbers, enums with their defaults, times, colours; empty optional cells are undefined", () => {
    expect(feed.stops.find((s) => s.stop_id === "P2")).toEqual({
      stop_id: "P2",
      stop_name: "Beta",
      stop_lat: 48.86,
      stop_lon: 2.36,
      zone_id: "Z2",
      location_type: 0,
      parent_station: "S2",
      wheelchair_boarding: 0,
      line: 5,
    });
    expect(feed.routes[0]).toEqual({
      route_id: "R1",
      agency_id: "A",
      route_short_name: "1",
      route_long_name: "Line 1",
      route_type: 1,
      route_color: "FF0000",
      continuous_pickup: 1,
      continuous_drop_off: 1,
      line: 2,
    });
    expect("route_text_color" in feed.routes[0]!).toBe(false);
    expect(feed.fareAttributes[0]).toEqual({ fare_id: "F1", price: 1.9, currency_type: "EUR", payment_method: 1, line: 2 });
    expect(feed.transfers[0]).toEqual({ from_stop_id: "P1", to_stop_id: "P2", transfer_type: 2, min_transfer_time: 120, line: 2 });
    expect(feed.calendar[0]).toMatchObject({ monday: 1, saturday: 0, start_date: "20250101" });
  });

  it("sorts stop times by trip_id then stop_sequence, times in seconds (H:MM:SS and hours past 24 too)", () => {
    expect(feed.stopTimes.map((st) => [st.trip_id, st.stop_sequence, st.arrival_time, st.departure_time, st.line])).toEqual([
      ["T1", 1, 8 * 3600, 8 * 3600 + 30, 5],
      ["T1", 3, 8 * 3600 + 600, 8 * 3600 + 600, 4],
      ["T2", 1, 24 * 3600 + 50 * 60, 24 * 3600 + 50 * 60 + 30, 2],
      ["T2", 2, 25 * 3600 + 5 * 60, 25 * 3600 + 5 * 60, 3],
    ]);
    expect([...feed.stopTimesByTrip.keys()]).toEqual(["T1", "T2"]);
    expect(feed.stopTimesByTrip.get("T1")!.map((st) => st.stop_sequence)).toEqual([1, 3]);
    expect(feed.stopTimesByTrip.get("T1")![0]).toBe(feed.stopTimes[0]);
  });

  it("gives every file the kiosk reads, empty where the feed has none", () => {
    expect(feed.frequencies).toEqual([]);
    expect(feed.calendarDates).toEqual([]);
    expect(feed.fareProducts).toEqual([]);
    expect(feed.feedInfo).toHaveLength(1);
  });

  it("reads the same with a byte-order mark and with CRLF line ends", () => {
    const crlf = new Map(Object.entries(MINIMAL).map(([name, text]) => [name, text.replaceAll("\n", "\r\n")]));
    crlf.set("stops.txt", "\uFEFF" + crlf.get("stops.txt"));
    expect(readGtfsFeed(crlf)).toEqual(reading);
  });

  it("takes calendar_dates.txt alone, or an empty calendar.txt beside a calendar_dates.txt with records", () => {
    const dates = "service_id,date,exception_type\nWK,20250102,1\n";
    const header = MINIMAL["calendar.txt"]!.split("\n")[0] + "\n";
    for (const edits of [{ "calendar.txt": undefined, "calendar_dates.txt": dates }, { "calendar.txt": header, "calendar_dates.txt": dates }]) {
      const other = read(edits);
      expect(other.problems).toEqual([]);
      expect(other.feed!.calendarDates).toEqual([{ service_id: "WK", date: "20250102", exception_type: 1, line: 2 }]);
    }
  });

  it("accepts what the reference allows: trips naming shapes when shapes.txt is absent, interpolated times, extended route types", () => {
    expect(read({ "shapes.txt": undefined }).problems).toEqual([]);
    const interpolated = withRows("stop_times.txt", "T1,,,P2,2,500,");
    expect(read({ "stop_times.txt": interpolated }).problems).toEqual([]);
    expect(read({ "routes.txt": withLine("routes.txt", 2, "R1,A,1,Line 1,401,ff0000") }).feed?.routes[0]?.route_type).toBe(401);
    const boardingArea = read({ "stops.txt": withRows("stops.txt", "B1,Alpha door 1,48.85,2.35,,4,P1") });
    expect(boardingArea.problems).toEqual([]);
    // One agency needs no agency_id, and its routes name none.
    const oneAgency = read({
      "agency.txt": "agency_name,agency_url,agency_timezone\nMetro,https://metro.example,Europe/Paris\n",
      "routes.txt": "route_id,route_long_name,route_type\nR1,Line 1,1\n",
    });
    expect(oneAgency.problems).toEqual([]);
  });

  it("reads the optional files the kiosk uses: frequencies, translations, GTFS-Fares v2", () => {
    const reading = read({
      ...FARES_V2,
      "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nT1,06:00:00,24:00:00,300,\n",
      "translations.txt": "table_name,field_name,language,translation,record_id,field_value\nstops,stop_name,en,Alpha Square,S1,\nroutes,route_long_name,en,Line One,,Line 1\n",
    });
    expect(reading.problems).toEqual([]);
    const feed = reading.feed!;
    expect(feed.frequencies).toEqual([{ trip_id: "T1", start_time: 21600, end_time: 86400, headway_secs: 300, exact_times: 0, line: 2 }]);
    expect(feed.translations.map((t) => [t.table_name, t.record_id, t.field_value, t.translation])).toEqual([
      ["stops", "S1", undefined, "Alpha Square"],
      ["routes", undefined, "Line 1", "Line One"],
    ]);
    expect(feed.fareProducts).toEqual([{ fare_product_id: "FP1", amount: 2, currency: "EUR", line: 2 }]);
    expect(feed.fareLegRules).toEqual([{ leg_group_id: "G1", from_area_id: "AR1", to_area_id: "AR1", fare_product_id: "FP1", line: 2 }]);
    expect(feed.areas).toEqual([{ area_id: "AR1", area_name: "Centre", line: 2 }]);
    expect(feed.stopAreas).toEqual([{ area_id: "AR1", stop_id: "P1", line: 2 }]);
  });

  it("reports a value that does not convert once: rows that refer to its row are not reported as well", () => {
    // P1 is rejected (latitude out of range) but stop_times, transfers and E1 still refer to it.
    const reading = read({ "stops.txt": withLine("stops.txt", 3, "P1,Alpha,95,2.35,Z1,0,S1") });
    expect(reading.problems.map((p) => p.code)).toEqual(["number_out_of_range"]);
  });

  it("describes every problem with the problem schema", () => {
    const problems = [...hyderabad.problems, ...read({ "stops.txt": withLine("stops.txt", 3, "P1,Alpha,95,2.35,Z1,9,S1") }).problems];
    expect(problems.length).toBeGreaterThan(6);
    for (const problem of problems) expect(GtfsProblemSchema.parse(problem)).toEqual(problem);
  });
});

interface Case {
  name: string;
  edits: Edits;
  expected: { code: GtfsProblemCode; file: string; line?: number; field?: string };
  /** Text the message must hold. */
  message?: string;
  /** How many problems the edit causes, when more than the expected one. */
  count?: number;
}

const STOP_TIMES_HEADER = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled,timepoint";
const FARES_V2 = {
  "fare_products.txt": "fare_product_id,amount,currency\nFP1,2.00,EUR\n",
  "areas.txt": "area_id,area_name\nAR1,Centre\n",
  "stop_areas.txt": "area_id,stop_id\nAR1,P1\n",
  "fare_leg_rules.txt": "leg_group_id,from_area_id,to_area_id,fare_product_id\nG1,AR1,AR1,FP1\n",
};

const CASES: Case[] = [
  // files
  { name: "stops.txt removed", edits: { "stops.txt": undefined }, expected: { code: "missing_required_file", file: "stops.txt" } },
  { name: "calendar.txt removed, no calendar_dates.txt", edits: { "calendar.txt": undefined }, expected: { code: "missing_calendar_and_calendar_date_files", file: "calendar.txt" } },
  { name: "routes.txt empty", edits: { "routes.txt": "" }, expected: { code: "empty_file", file: "routes.txt" }, message: "routes.txt is empty" },
  { name: "routes.txt with a header only", edits: { "routes.txt": "route_id,route_short_name,route_type\n" }, expected: { code: "empty_file", file: "routes.txt" } },
  { name: "calendar.txt with a header only", edits: { "calendar.txt": MINIMAL["calendar.txt"]!.split("\n")[0] }, expected: { code: "empty_file", file: "calendar.txt" } },
  { name: "a file the kiosk does not read", edits: { "levels.txt": "level_id,level_index\nL1,0\n" }, expected: { code: "unknown_file", file: "levels.txt" } },
  // CSV structure
  { name: "a stray quote", edits: { "stops.txt": withLine("stops.txt", 3, 'P1,"Alpha"x,48.85,2.35,Z1,0,S1') }, expected: { code: "csv_parsing_failed", file: "stops.txt", line: 3 } },
  {
    name: "a header with an empty name",
    edits: { "stops.txt": withLine("stops.txt", 1, "stop_id,stop_name,stop_lat,stop_lon,zone_id,location_type,parent_station,") },
    expected: { code: "empty_column_name", file: "stops.txt", line: 1 },
    message: "column 8 of the header has no name",
  },
  {
    name: "a column twice",
    edits: { "routes.txt": "route_id,route_short_name,route_type,route_type\nR1,1,1,1\n" },
    expected: { code: "duplicated_column", file: "routes.txt", line: 1, field: "route_type" },
  },
  { name: "no route_type column", edits: { "routes.txt": "route_id,agency_id,route_short_name\nR1,A,1\n" }, expected: { code: "missing_required_column", file: "routes.txt", line: 1, field: "route_type" } },
  {
    name: "fare_attributes.txt without its transfers column (required, though its cells may be empty)",
    edits: { "fare_attributes.txt": "fare_id,price,currency_type,payment_method\nF1,1.90,EUR,1\n" },
    expected: { code: "missing_required_column", file: "fare_attributes.txt", line: 1, field: "transfers" },
  },
  {
    name: "transfers.txt without its transfer_type column (required, though its cells may be empty)",
    edits: { "transfers.txt": "from_stop_id,to_stop_id\nP1,P2\n" },
    expected: { code: "missing_required_column", file: "transfers.txt", line: 1, field: "transfer_type" },
  },
  {
    name: "spaces around a column name",
    edits: { "routes.txt": "route_id,agency_id,route_short_name, route_type\nR1,A,1,1\n" },
    expected: { code: "leading_or_trailing_whitespaces", file: "routes.txt", line: 1, field: "route_type" },
  },
  { name: "a record with a value too many", edits: { "stops.txt": withLine("stops.txt", 3, "P1,Alpha,48.85,2.35,Z1,0,S1,x") }, expected: { code: "invalid_row_length", file: "stops.txt", line: 3 } },
  {
    name: "a column the kiosk does not read",
    edits: { "routes.txt": "route_id,agency_id,route_short_name,route_type,route_fancy\nR1,A,1,1,yes\n" },
    expected: { code: "unknown_column", file: "routes.txt", line: 1, field: "route_fancy" },
  },
  { name: "an empty line", edits: { "stops.txt": withLine("stops.txt", 3, "P1,Alpha,48.85,2.35,Z1,0,S1\n") }, expected: { code: "empty_row", file: "stops.txt", line: 4 } },
  { name: "spaces around a value", edits: { "stops.txt": withLine("stops.txt", 2, "S1, Alpha ,48.85,2.35,Z1,1,") }, expected: { code: "leading_or_trailing_whitespaces", file: "stops.txt", line: 2, field: "stop_name" } },
  { name: "a line break in a value", edits: { "stops.txt": withLine("stops.txt", 2, 'S1,"Alpha\nCentre",48.85,2.35,Z1,1,') }, expected: { code: "new_line_in_value", file: "stops.txt", line: 2, field: "stop_name" } },
  // values
  { name: "an empty service_id", edits: { "trips.txt": withLine("trips.txt", 2, "R1,,T1,SH1") }, expected: { code: "missing_required_field", file: "trips.txt", line: 2, field: "service_id" }, message: "service_id is required but empty" },
  { name: "min_transfer_time '2 min'", edits: { "transfers.txt": withLine("transfers.txt", 2, "P1,P2,2,2 min") }, expected: { code: "invalid_integer", file: "transfers.txt", line: 2, field: "min_transfer_time" } },
  { name: "a price in words", edits: { "fare_attributes.txt": withLine("fare_attributes.txt", 2, "F1,one,EUR,1,") }, expected: { code: "invalid_float", file: "fare_attributes.txt", line: 2, field: "price" } },
  {
    name: "a latitude of 95",
    edits: { "stops.txt": withLine("stops.txt", 3, "P1,Alpha,95,2.35,Z1,0,S1") },
    expected: { code: "number_out_of_range", file: "stops.txt", line: 3, field: "stop_lat" },
    message: "stop_lat '95' is out of range: it must be between -90 and 90",
  },
  {
    name: "location_type 7",
    edits: { "stops.txt": withLine("stops.txt", 6, "E1,Alpha exit,48.85,2.35,,7,S1") },
    expected: { code: "unexpected_enum_value", file: "stops.txt", line: 6, field: "location_type" },
  },
  { name: "route_type 99", edits: { "routes.txt": withLine("routes.txt", 2, "R1,A,1,Line 1,99,ff0000") }, expected: { code: "unexpected_enum_value", file: "routes.txt", line: 2, field: "route_type" } },
  {
    name: "a frequency ending at 6:6:00",
    edits: { "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,6:6:00,300\n" },
    expected: { code: "invalid_time", file: "frequencies.txt", line: 2, field: "end_time" },
  },
  {
    name: "30 February",
    edits: { "calendar.txt": withLine("calendar.txt", 2, "WK,1,1,1,1,1,0,0,20250230,20251231") },
    expected: { code: "invalid_date", file: "calendar.txt", line: 2, field: "start_date" },
  },
  { name: "a colour with '#'", edits: { "routes.txt": withLine("routes.txt", 2, "R1,A,1,Line 1,1,#FF0000") }, expected: { code: "invalid_color", file: "routes.txt", line: 2, field: "route_color" } },
  { name: "currency 'euro'", edits: { "fare_attributes.txt": withLine("fare_attributes.txt", 2, "F1,1.90,euro,1,") }, expected: { code: "invalid_currency", file: "fare_attributes.txt", line: 2, field: "currency_type" } },
  {
    name: "time zone 'Paris'",
    edits: { "agency.txt": withLine("agency.txt", 2, "A,Metro,https://metro.example,Paris,fr,info@metro.example") },
    expected: { code: "invalid_timezone", file: "agency.txt", line: 2, field: "agency_timezone" },
  },
  {
    name: "language 'english!'",
    edits: { "agency.txt": withLine("agency.txt", 2, "A,Metro,https://metro.example,Europe/Paris,english!,info@metro.example") },
    expected: { code: "invalid_language_code", file: "agency.txt", line: 2, field: "agency_lang" },
  },
  {
    name: "a URL without scheme",
    edits: { "agency.txt": withLine("agency.txt", 2, "A,Metro,metro.example,Europe/Paris,fr,info@metro.example") },
    expected: { code: "invalid_url", file: "agency.txt", line: 2, field: "agency_url" },
  },
  {
    name: "an e-mail without @",
    edits: { "agency.txt": withLine("agency.txt", 2, "A,Metro,https://metro.example,Europe/Paris,fr,nobody") },
    expected: { code: "invalid_email", file: "agency.txt", line: 2, field: "agency_email" },
  },
  // keys and references
  {
    name: "a stop_id twice",
    edits: { "stops.txt": withRows("stops.txt", "P2,Beta again,48.86,2.36,Z2,0,S2") },
    expected: { code: "duplicate_key", file: "stops.txt", line: 7, field: "stop_id" },
    message: "stops.txt line 7: stop_id 'P2' is already used on line 5",
  },
  {
    name: "a (trip_id, stop_sequence) twice",
    edits: { "stop_times.txt": withRows("stop_times.txt", "T1,08:20:00,08:20:00,P1,3,2000,1") },
    expected: { code: "duplicate_key", file: "stop_times.txt", line: 6, field: "trip_id,stop_sequence" },
    message: "trip_id 'T1', stop_sequence '3' is already used on line 4",
  },
  {
    name: "a trip on an unknown route",
    edits: { "trips.txt": withLine("trips.txt", 2, "R9,WK,T1,SH1") },
    expected: { code: "foreign_key_violation", file: "trips.txt", line: 2, field: "route_id" },
    message: "trips.txt line 2: route_id 'R9' is not a route in routes.txt",
  },
  {
    name: "a trip on an unknown service",
    edits: { "trips.txt": withLine("trips.txt", 3, "R1,SU,T2,SH1") },
    expected: { code: "foreign_key_violation", file: "trips.txt", line: 3, field: "service_id" },
    message: "service_id 'SU' is not a service in calendar.txt or calendar_dates.txt",
  },
  { name: "a trip on an unknown shape", edits: { "trips.txt": withLine("trips.txt", 3, "R1,WK,T2,SH9") }, expected: { code: "foreign_key_violation", file: "trips.txt", line: 3, field: "shape_id" } },
  { name: "a route of an unknown agency", edits: { "routes.txt": withLine("routes.txt", 2, "R1,B,1,Line 1,1,ff0000") }, expected: { code: "foreign_key_violation", file: "routes.txt", line: 2, field: "agency_id" } },
  {
    name: "stop times of an unknown trip",
    edits: { "stop_times.txt": withRows("stop_times.txt", "T9,09:00:00,09:00:00,P1,1,,", "T9,09:05:00,09:05:00,P2,2,,") },
    expected: { code: "foreign_key_violation", file: "stop_times.txt", line: 6, field: "trip_id" },
    count: 2,
  },
  { name: "a stop time at an unknown stop", edits: { "stop_times.txt": withLine("stop_times.txt", 2, "T2,24:50:00,24:50:30,P9,1,0,") }, expected: { code: "foreign_key_violation", file: "stop_times.txt", line: 2, field: "stop_id" } },
  { name: "an unknown parent station", edits: { "stops.txt": withLine("stops.txt", 5, "P2,Beta,48.86,2.36,Z2,0,S9") }, expected: { code: "foreign_key_violation", file: "stops.txt", line: 5, field: "parent_station" } },
  { name: "a fare rule of an unknown fare", edits: { "fare_rules.txt": "fare_id,origin_id,destination_id\nF9,Z1,Z2\n" }, expected: { code: "foreign_key_violation", file: "fare_rules.txt", line: 2, field: "fare_id" } },
  {
    name: "fare rules without fare_attributes.txt",
    edits: { "fare_attributes.txt": undefined },
    expected: { code: "foreign_key_violation", file: "fare_rules.txt", line: 2, field: "fare_id" },
    message: "fare_id 'F1' is not a fare in fare_attributes.txt (the feed has no fare_attributes.txt)",
  },
  { name: "a fare rule on an unknown route", edits: { "fare_rules.txt": "fare_id,route_id\nF1,R9\n" }, expected: { code: "foreign_key_violation", file: "fare_rules.txt", line: 2, field: "route_id" } },
  { name: "a fare rule to an unknown zone", edits: { "fare_rules.txt": "fare_id,origin_id,destination_id\nF1,Z1,Z9\n" }, expected: { code: "foreign_key_violation", file: "fare_rules.txt", line: 2, field: "destination_id" } },
  { name: "a fare rule through an unknown zone", edits: { "fare_rules.txt": "fare_id,contains_id\nF1,Z9\n" }, expected: { code: "foreign_key_violation", file: "fare_rules.txt", line: 2, field: "contains_id" } },
  { name: "a fare of an unknown agency", edits: { "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers,agency_id\nF1,1.90,EUR,1,,B\n" }, expected: { code: "foreign_key_violation", file: "fare_attributes.txt", line: 2, field: "agency_id" } },
  { name: "a transfer from an unknown stop", edits: { "transfers.txt": withLine("transfers.txt", 2, "P9,P2,2,120") }, expected: { code: "foreign_key_violation", file: "transfers.txt", line: 2, field: "from_stop_id" } },
  {
    name: "an in-seat transfer between unknown trips",
    edits: { "transfers.txt": "from_trip_id,to_trip_id,from_route_id,to_route_id,transfer_type\nT1,T9,R1,R1,4\n" },
    expected: { code: "foreign_key_violation", file: "transfers.txt", line: 2, field: "to_trip_id" },
  },
  {
    name: "a transfer between unknown routes",
    edits: { "transfers.txt": "from_stop_id,to_stop_id,from_route_id,to_route_id,transfer_type\nP1,P2,R1,R9,0\n" },
    expected: { code: "foreign_key_violation", file: "transfers.txt", line: 2, field: "to_route_id" },
  },
  { name: "a frequency of an unknown trip", edits: { "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT9,06:00:00,07:00:00,300\n" }, expected: { code: "foreign_key_violation", file: "frequencies.txt", line: 2, field: "trip_id" } },
  {
    name: "a fare leg rule of an unknown fare product",
    edits: { ...FARES_V2, "fare_leg_rules.txt": "leg_group_id,from_area_id,to_area_id,fare_product_id\nG1,AR1,AR1,FP9\n" },
    expected: { code: "foreign_key_violation", file: "fare_leg_rules.txt", line: 2, field: "fare_product_id" },
  },
  {
    name: "a fare leg rule to an unknown area",
    edits: { ...FARES_V2, "fare_leg_rules.txt": "leg_group_id,from_area_id,to_area_id,fare_product_id\nG1,AR1,AR9,FP1\n" },
    expected: { code: "foreign_key_violation", file: "fare_leg_rules.txt", line: 2, field: "to_area_id" },
  },
  {
    name: "a fare leg rule from an area without areas.txt",
    edits: { ...FARES_V2, "areas.txt": undefined, "stop_areas.txt": undefined },
    expected: { code: "foreign_key_violation", file: "fare_leg_rules.txt", line: 2, field: "from_area_id" },
    count: 2,
  },
  { name: "an unknown stop in an area", edits: { ...FARES_V2, "stop_areas.txt": "area_id,stop_id\nAR1,P9\n" }, expected: { code: "foreign_key_violation", file: "stop_areas.txt", line: 2, field: "stop_id" } },
  {
    name: "a translation of an unknown stop",
    edits: { "translations.txt": "table_name,field_name,language,translation,record_id\nstops,stop_name,en,Alpha EN,S9\n" },
    expected: { code: "translation_foreign_key_violation", file: "translations.txt", line: 2, field: "record_id" },
  },
  {
    name: "a translation of an unknown table",
    edits: { "translations.txt": "table_name,field_name,language,translation,record_id\nvehicles,name,en,Tram,V1\n" },
    expected: { code: "translation_unknown_table_name", file: "translations.txt", line: 2, field: "table_name" },
  },
  {
    name: "a translation naming no record",
    edits: { "translations.txt": "table_name,field_name,language,translation\nstops,stop_name,en,Alpha EN\n" },
    expected: { code: "missing_required_field", file: "translations.txt", line: 2, field: "record_id" },
  },
  // rules across fields and rows
  {
    name: "two agencies in two time zones",
    edits: { "agency.txt": withRows("agency.txt", "B,Other,https://other.example,Europe/London,,"), "fare_attributes.txt": undefined, "fare_rules.txt": undefined },
    expected: { code: "inconsistent_agency_timezone", file: "agency.txt", line: 3, field: "agency_timezone" },
  },
  {
    name: "two agencies and a route that names neither",
    edits: { "agency.txt": withRows("agency.txt", "B,Other,https://other.example,Europe/Paris,,"), "routes.txt": withLine("routes.txt", 2, "R1,,1,Line 1,1,ff0000") },
    expected: { code: "missing_required_field", file: "routes.txt", line: 2, field: "agency_id" },
    // The fare, which names no agency either.
    count: 2,
  },
  {
    name: "two agencies, one without agency_id",
    edits: { "agency.txt": withRows("agency.txt", ",Other,https://other.example,Europe/Paris,,"), "fare_attributes.txt": undefined, "fare_rules.txt": undefined },
    expected: { code: "missing_required_field", file: "agency.txt", line: 3, field: "agency_id" },
  },
  {
    name: "two agencies, neither with agency_id (an empty id is no duplicate)",
    edits: {
      "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\n,Metro,https://metro.example,Europe/Paris\n,Other,https://other.example,Europe/Paris\n",
      "routes.txt": "route_id,route_short_name,route_type\nR1,1,1\n",
      "fare_attributes.txt": undefined,
      "fare_rules.txt": undefined,
    },
    expected: { code: "missing_required_field", file: "agency.txt", line: 2, field: "agency_id" },
    // Line 3's agency and the route, which must name its agency.
    count: 3,
  },
  { name: "a route without names", edits: { "routes.txt": withLine("routes.txt", 2, "R1,A,,,1,ff0000") }, expected: { code: "route_both_short_and_long_name_missing", file: "routes.txt", line: 2 } },
  { name: "a platform without latitude", edits: { "stops.txt": withLine("stops.txt", 3, "P1,Alpha,,2.35,Z1,0,S1") }, expected: { code: "stop_without_location", file: "stops.txt", line: 3, field: "stop_lat" } },
  { name: "a platform without name", edits: { "stops.txt": withLine("stops.txt", 3, "P1,,48.85,2.35,Z1,0,S1") }, expected: { code: "missing_required_field", file: "stops.txt", line: 3, field: "stop_name" } },
  { name: "an entrance without station", edits: { "stops.txt": withLine("stops.txt", 6, "E1,Alpha exit,48.85,2.35,,2,") }, expected: { code: "location_without_parent_station", file: "stops.txt", line: 6, field: "parent_station" } },
  { name: "a station inside a station", edits: { "stops.txt": withLine("stops.txt", 4, "S2,Beta,48.86,2.36,Z2,1,S1") }, expected: { code: "station_with_parent_station", file: "stops.txt", line: 4, field: "parent_station" } },
  {
    name: "an entrance whose parent is a platform",
    edits: { "stops.txt": withLine("stops.txt", 6, "E1,Alpha exit,48.85,2.35,,2,P1") },
    expected: { code: "wrong_parent_location_type", file: "stops.txt", line: 6, field: "parent_station" },
    message: "parent_station 'P1' has location_type 0, but the parent of a location_type 2 must have location_type 1",
  },
  {
    name: "a boarding area whose parent is a station, not a platform",
    edits: { "stops.txt": withRows("stops.txt", "B1,Alpha door 1,48.85,2.35,,4,S1") },
    expected: { code: "wrong_parent_location_type", file: "stops.txt", line: 7, field: "parent_station" },
    message: "the parent of a location_type 4 must have location_type 0",
  },
  {
    name: "a trip stopping at a station",
    edits: { "stop_times.txt": withLine("stop_times.txt", 2, "T2,24:50:00,24:50:30,S2,1,0,") },
    expected: { code: "location_with_unexpected_stop_time", file: "stop_times.txt", line: 2, field: "stop_id" },
  },
  {
    name: "a transfer from an entrance",
    edits: { "transfers.txt": withLine("transfers.txt", 2, "E1,P2,2,120") },
    expected: { code: "transfer_with_invalid_stop_location_type", file: "transfers.txt", line: 2, field: "from_stop_id" },
  },
  { name: "a timed transfer to nowhere", edits: { "transfers.txt": withLine("transfers.txt", 2, "P1,,2,120") }, expected: { code: "missing_required_field", file: "transfers.txt", line: 2, field: "to_stop_id" } },
  {
    name: "a calendar ending before it starts",
    edits: { "calendar.txt": withLine("calendar.txt", 2, "WK,1,1,1,1,1,0,0,20260101,20251231") },
    expected: { code: "start_and_end_range_out_of_order", file: "calendar.txt", line: 2, field: "start_date" },
  },
  {
    name: "feed dates out of order",
    edits: { "feed_info.txt": withLine("feed_info.txt", 2, "Metro,https://metro.example,fr,20260101,20251231") },
    expected: { code: "start_and_end_range_out_of_order", file: "feed_info.txt", line: 2, field: "feed_start_date" },
  },
  {
    name: "a frequency window of no time",
    edits: { "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,06:00:00,300\n" },
    expected: { code: "start_and_end_range_equal", file: "frequencies.txt", line: 2, field: "start_time" },
  },
  {
    name: "a trip's last stop without times",
    edits: { "stop_times.txt": withLine("stop_times.txt", 4, "T1,,,P2,3,1000,") },
    expected: { code: "missing_trip_edge", file: "stop_times.txt", line: 4, field: "arrival_time" },
  },
  {
    name: "an arrival without departure",
    edits: { "stop_times.txt": withLine("stop_times.txt", 5, "T1,8:00:00,,P1,1,0,1") },
    expected: { code: "stop_time_with_only_arrival_or_departure_time", file: "stop_times.txt", line: 5, field: "departure_time" },
  },
  {
    name: "an exact timepoint without times",
    edits: { "stop_times.txt": withRows("stop_times.txt", "T1,,,P2,2,500,1") },
    expected: { code: "stop_time_timepoint_without_times", file: "stop_times.txt", line: 6, field: "arrival_time" },
  },
  {
    name: "arriving before leaving the previous stop",
    edits: { "stop_times.txt": withLine("stop_times.txt", 4, "T1,07:59:00,08:10:00,P2,3,1000,1") },
    expected: { code: "stop_time_with_arrival_before_previous_departure_time", file: "stop_times.txt", line: 4, field: "arrival_time" },
    message: "trip 'T1' arrives at 7:59:00, before it leaves the previous stop (line 5) at 8:00:30",
  },
  {
    name: "leaving before arriving",
    edits: { "stop_times.txt": withLine("stop_times.txt", 4, "T1,08:10:00,08:09:00,P2,3,1000,1") },
    expected: { code: "stop_time_with_departure_before_arrival_time", file: "stop_times.txt", line: 4, field: "departure_time" },
  },
  {
    name: "a stop no further along the shape than the one before",
    edits: { "stop_times.txt": withLine("stop_times.txt", 4, "T1,08:10:00,08:10:00,P2,3,0,1") },
    expected: { code: "decreasing_or_equal_stop_time_distance", file: "stop_times.txt", line: 4, field: "shape_dist_traveled" },
  },
  {
    name: "a shape going backwards",
    edits: { "shapes.txt": withRows("shapes.txt", "SH1,48.87,2.37,3,500") },
    expected: { code: "decreasing_shape_distance", file: "shapes.txt", line: 4, field: "shape_dist_traveled" },
  },
  { name: "a trip without stop times", edits: { "trips.txt": withRows("trips.txt", "R1,WK,T3,SH1") }, expected: { code: "unused_trip", file: "trips.txt", line: 4, field: "trip_id" } },
  {
    name: "a trip with one stop time",
    edits: { "trips.txt": withRows("trips.txt", "R1,WK,T3,SH1"), "stop_times.txt": withRows("stop_times.txt", "T3,09:00:00,09:00:00,P1,1,,") },
    expected: { code: "unusable_trip", file: "trips.txt", line: 4, field: "trip_id" },
  },
];

describe("one problem at a time, in a small feed", () => {
  it.each(CASES)("$expected.code: $name", ({ edits, expected, message, count }) => {
    const reading = read(edits);
    const found = reading.problems.find((p) => p.code === expected.code && p.file === expected.file);
    expect(found, JSON.stringify(reading.problems, null, 1)).toBeDefined();
    expect(found).toMatchObject({ ...expected, severity: GTFS_PROBLEM_SEVERITY[expected.code] });
    expect(found!.message).toMatch(expected.line === undefined ? found!.file : `${expected.file} line ${expected.line}`);
    if (message !== undefined) expect(found!.message).toContain(message);
    expect(reading.problems, JSON.stringify(reading.problems, null, 1)).toHaveLength(count ?? 1);
    // A feed comes back exactly when nothing is an error.
    expect(reading.feed === undefined).toBe(reading.problems.some((p) => p.severity === "error"));
  });

  it("keeps line numbers right after an empty line and after a record that spans lines", () => {
    const afterEmpty = read({ "stops.txt": withLine("stops.txt", 3, "P1,Alpha,48.85,2.35,Z1,0,S1\n") }).feed!;
    expect(afterEmpty.stops.map((s) => [s.stop_id, s.line])).toEqual([["S1", 2], ["P1", 3], ["S2", 5], ["P2", 6], ["E1", 7]]);
    const multiLine = read({ "stops.txt": withLine("stops.txt", 2, 'S1,"Alpha\nCentre",48.85,2.35,Z1,1,') });
    expect(multiLine.feed!.stops.map((s) => [s.stop_id, s.line])).toEqual([["S1", 2], ["P1", 4], ["S2", 5], ["P2", 6], ["E1", 7]]);
    expect(multiLine.feed!.stops[0]!.stop_name).toBe("Alpha\nCentre");
  });

  it("reads on past a bad record: every bad value of a file is reported, each on its own line", () => {
    const stopTimes = [STOP_TIMES_HEADER, "T1,8:00:00,08:00:30,P1,x,0,1", "T1,08:10:00,08:10:61,P2,3,1000,1", "T2,24:50:00,24:50:30,P2,1,0,", "T2,25:05:00,25:05:00,P1,2,-5,"].join("\n");
    const problems = read({ "stop_times.txt": stopTimes }).problems.filter((p) => p.file === "stop_times.txt");
    expect(problems.map((p) => [p.code, p.line, p.field])).toEqual([
      ["invalid_integer", 2, "stop_sequence"],
      ["invalid_time", 3, "departure_time"],
      ["number_out_of_range", 5, "shape_dist_traveled"],
    ]);
  });

  it("has a case for every problem code", () => {
    const tested = new Set<string>([...CASES.map((c) => c.expected.code), "leading_or_trailing_whitespaces", "foreign_key_violation", "invalid_color", "invalid_time"]);
    expect(GTFS_PROBLEM_CODES.filter((code) => !tested.has(code))).toEqual([]);
  });
});

describe("the schemas", () => {
  it("all compile to zod's fast path (a schema zod cannot compile would quietly parse slowly)", () => {
    for (const file of GTFS_FILE_NAMES) expect(() => z.compile(GTFS_FILES[file].schema, { strict: true }), file).not.toThrow();
  });

  it("need no file the kiosk reads beyond the reference's required ones", () => {
    expect(GTFS_FILE_NAMES.filter((file) => GTFS_FILES[file].required)).toEqual(["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]);
  });
});
