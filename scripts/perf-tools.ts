// Latency of the in-process tools: random route_planner calls on Beijing (414 stations, the largest
// system) and fare_calculator calls, each through ToolSession.call (validation, routing, ids); then
// the same on a generated 2,000-station network imported from a GTFS feed built here (import time,
// route p50/p99 as ratios of Beijing's from this run), and the import of the two real feeds.
//
//   npx tsx scripts/perf-tools.ts [--calls N] [--seed S] [--strict] [--record]
//
// Budget: route_planner p99 < 1 ms. With --strict the exit code is 1 when it is exceeded. With
// --record the figures go to docs/figures/perf-tools.json, which the README's performance section
// is written from (scripts/figures.ts).
import { parseArgs } from "node:util";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DataPack } from "../tools/data/datapack.ts";
import { SystemData } from "../tools/data/system.ts";
import { readFeedSource, readGtfsFeed } from "../tools/gtfs/index.ts";
import { systemFromFeed } from "../tools/gtfs/to-system.ts";
import { ToolSession, type ToolOutcome } from "../tools/tools/index.ts";
import { mulberry32 } from "../tools/util/random.ts";
import { recordFigures } from "./figures.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "10000" },
    seed: { type: "string", default: "42" },
    strict: { type: "boolean", default: false },
    record: { type: "boolean", default: false },
  },
});
const CALLS = Number(values.calls);
if (!Number.isInteger(CALLS) || CALLS < 1) throw new Error(`--calls must be a positive integer, got '${values.calls}'`);
const ROUTE_P99_BUDGET_MS = 1;

const random = mulberry32(Number(values.seed));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

interface Stats {
  label: string;
  samplesUs: Float64Array;
  wallMs: number;
  errors: number;
}

function measure(label: string, n: number, call: (i: number) => ToolOutcome): Stats {
  const samplesUs = new Float64Array(n);
  let errors = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const out = call(i);
    samplesUs[i] = Number(process.hrtime.bigint() - t0) / 1000;
    if (!out.ok) errors++;
  }
  return { label, samplesUs, wallMs: Number(process.hrtime.bigint() - start) / 1e6, errors };
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function fmt(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`;
}

function report(s: Stats): { p50Us: number; p99Us: number; p99Ms: number } {
  const sorted = Float64Array.from(s.samplesUs).sort();
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const p99 = quantile(sorted, 0.99);
  console.log(
    `${s.label.padEnd(34)} n=${String(sorted.length).padStart(6)}  p50 ${fmt(quantile(sorted, 0.5)).padStart(9)}  ` +
      `p99 ${fmt(p99).padStart(9)}  max ${fmt(sorted[sorted.length - 1] as number).padStart(9)}  mean ${fmt(mean).padStart(9)}  ` +
      `${Math.round((sorted.length / s.wallMs) * 1000).toLocaleString("en-US")} calls/s` +
      (s.errors ? `  (${s.errors} answered with an error, e.g. no path)` : ""),
  );
  return { p50Us: quantile(sorted, 0.5), p99Us: p99, p99Ms: p99 / 1000 };
}

const pack = DataPack.locate();
const beijing = pack.system("beijing");
const stations = beijing.stations;
const randomEndpoint = (): string => {
  const s = pick(stations);
  return random() < 0.5 ? s.id : s.name;
};

// --- route_planner -------------------------------------------------------------------------
const loadStart = performance.now();
const routes = new ToolSession(beijing);
routes.call("route_planner", { origin: stations[0]?.id, destination: stations[1]?.id });
console.log(`Beijing: ${stations.length} stations; session + expanded graph ready in ${(performance.now() - loadStart).toFixed(1)} ms`);

const routeArgs = Array.from({ length: CALLS }, () => ({ origin: randomEndpoint(), destination: randomEndpoint() }));
measure("warm-up", Math.min(2000, CALLS), (i) => routes.call("route_planner", routeArgs[i % routeArgs.length]));
const route = report(measure("route_planner (beijing)", CALLS, (i) => routes.call("route_planner", routeArgs[i])));

const lines = beijing.lines.filter((l) => l.id !== "2" && l.id !== "10");
const restrictedArgs = Array.from({ length: Math.max(1, Math.floor(CALLS / 10)) }, () => ({
  origin: randomEndpoint(),
  destination: randomEndpoint(),
  station_restrictions: [{ station: pick(stations).id, restriction: pick(["closed", "skip", "no_transfer"]) }],
  line_closures: random() < 0.5 ? [{ line: pick(lines).id }] : [],
}));
measure("warm-up", Math.min(500, restrictedArgs.length), (i) => routes.call("route_planner", restrictedArgs[i]));
report(measure("route_planner restricted (beijing)", restrictedArgs.length, (i) => routes.call("route_planner", restrictedArgs[i])));

// --- fare_calculator -----------------------------------------------------------------------
const fareSystems = ["beijing", "bart", "cta", "marta"] as const;
const fareSessions = fareSystems.map((id) => {
  const session = new ToolSession(pack.system(id));
  const sys = pack.system(id);
  const ids: string[] = [];
  for (let i = 0; i < 200; i++) {
    const out = session.call("route_planner", { origin: pick(sys.stations).id, destination: pick(sys.stations).id });
    if (out.ok) ids.push((out.result as { route_id: string }).route_id);
  }
  const methods = Object.keys(sys.fares.payment_methods ?? {});
  return { session, ids, methods };
});
const fareArgs = Array.from({ length: CALLS }, () => {
  const s = pick(fareSessions);
  const count = () => (random() < 0.6 ? 0 : Math.floor(random() * 4));
  return {
    s,
    args: {
      route_id: pick(s.ids),
      passengers: { adults: 1 + count(), children: count(), seniors: count(), disabled: count() },
      ticket_type: "single",
      payment_method: pick(s.methods),
    },
  };
});
measure("warm-up", Math.min(2000, CALLS), (i) => {
  const { s, args } = fareArgs[i % fareArgs.length] as (typeof fareArgs)[number];
  return s.session.call("fare_calculator", args);
});
const fare = report(
  measure("fare_calculator (4 fare models)", CALLS, (i) => {
    const { s, args } = fareArgs[i] as (typeof fareArgs)[number];
    return s.session.call("fare_calculator", args);
  }),
);

// --- a large imported network ---------------------------------------------------------------
/**
 * A GTFS feed of a grid metro: `rows` east–west lines of `columns` stations, and north–south lines
 * every `every` columns through the same stations (each crossing a transfer), three trips each way.
 */
function gridFeed(rows: number, columns: number, every: number): Map<string, string> {
  const stop = (r: number, c: number): string => `S${r}_${c}`;
  const stops = ["stop_id,stop_name,stop_lat,stop_lon"];
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) stops.push(`${stop(r, c)},Station ${r}-${c},${(r * 0.01).toFixed(4)},${(c * 0.01).toFixed(4)}`);
  const lines: string[][] = [];
  for (let r = 0; r < rows; r++) lines.push(Array.from({ length: columns }, (_, c) => stop(r, c)));
  for (let c = 0; c < columns; c += every) lines.push(Array.from({ length: rows }, (_, r) => stop(r, c)));
  const routes = ["route_id,route_short_name,route_type"];
  const trips = ["route_id,service_id,trip_id,direction_id"];
  const times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"];
  const clock = (s: number): string => `${String(Math.floor(s / 3600)).padStart(2, "0")}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  lines.forEach((stations, l) => {
    routes.push(`L${l},${l},1`);
    for (const [direction, order] of [[0, stations], [1, [...stations].reverse()]] as const) {
      for (let k = 0; k < 3; k++) {
        const trip = `L${l}_${direction}_${k}`;
        trips.push(`L${l},WK,${trip},${direction}`);
        order.forEach((s, i) => times.push(`${trip},${clock(6 * 3600 + k * 600 + i * 120)},${clock(6 * 3600 + k * 600 + i * 120 + 20)},${s},${i}`));
      }
    }
  });
  return new Map([
    ["agency.txt", "agency_name,agency_url,agency_timezone\nGrid Metro,https://example.org,UTC\n"],
    ["stops.txt", `${stops.join("\n")}\n`],
    ["routes.txt", `${routes.join("\n")}\n`],
    ["trips.txt", `${trips.join("\n")}\n`],
    ["stop_times.txt", `${times.join("\n")}\n`],
    ["calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,1,1,20260101,20301231\n"],
    ["fare_attributes.txt", "fare_id,price,currency_type,payment_method,transfers\nF,2.5,USD,1,\n"],
  ]);
}

/** A feed imported in memory (read, validated, converted): the system and the milliseconds it took. */
function importInMemory(files: ReadonlyMap<string, string>, id: string, fares?: SystemData["fares"]): { system: SystemData; ms: number } {
  const t0 = performance.now();
  const reading = readGtfsFeed(files);
  if (!reading.feed) throw new Error(`${id}: ${reading.problems.find((p) => p.severity === "error")?.message}`);
  const imported = systemFromFeed(reading.feed, { id, fares }).system;
  if (!imported?.fares) throw new Error(`${id}: did not convert`);
  const ms = performance.now() - t0;
  const system = new SystemData({ id, stations: imported.stations, lines: imported.lines, edges: imported.edges, directed: true, fares: imported.fares, faresPy: imported.fares, policies: [], framebook: imported.framebook, framebookPy: imported.framebook });
  return { system, ms };
}

const grid = importInMemory(gridFeed(20, 100, 5), "grid");
const gridStations = grid.system.stations;
console.log(`generated grid: ${gridStations.length} stations, ${grid.system.lines.length} lines, ${grid.system.edges.length} one-way segments; imported from GTFS in ${grid.ms.toFixed(0)} ms`);
const gridLoad = performance.now();
const gridSession = new ToolSession(grid.system);
gridSession.call("route_planner", { origin: gridStations[0]?.id, destination: gridStations[1]?.id });
console.log(`grid: session + expanded graph ready in ${(performance.now() - gridLoad).toFixed(1)} ms`);
const gridArgs = Array.from({ length: CALLS }, () => ({ origin: pick(gridStations).id, destination: pick(gridStations).id }));
measure("warm-up", Math.min(2000, CALLS), (i) => gridSession.call("route_planner", gridArgs[i % gridArgs.length]));
const gridRoute = report(measure(`route_planner (grid, ${gridStations.length} stations)`, CALLS, (i) => gridSession.call("route_planner", gridArgs[i])));
console.log(`grid / beijing: route p50 x${(gridRoute.p50Us / route.p50Us).toFixed(2)}, p99 x${(gridRoute.p99Us / route.p99Us).toFixed(2)} for x${(gridStations.length / stations.length).toFixed(2)} the stations`);

const feeds: Record<string, number> = {};
const shared = path.resolve("../shared/gtfs");
for (const [id, fares] of [["hyderabad", undefined], ["busan", "framebooks/busan/fares.json"]] as const) {
  const dir = path.join(shared, id);
  if (!existsSync(dir)) continue;
  const t0 = performance.now();
  const files = readFeedSource(dir);
  const faresModel = fares === undefined ? undefined : (JSON.parse(readFileSync(fares, "utf8")) as SystemData["fares"]);
  const { ms } = importInMemory(files, id, faresModel);
  feeds[id] = Math.round(performance.now() - t0);
  console.log(`import ${id}: ${feeds[id]} ms (${Math.round(ms)} ms reading and converting, the rest reading files)`);
}

const ok = route.p99Ms < ROUTE_P99_BUDGET_MS;
console.log(`budget: route_planner p99 < ${ROUTE_P99_BUDGET_MS} ms on Beijing: ${ok ? "ok" : "EXCEEDED"} (${route.p99Ms.toFixed(3)} ms)`);
if (values.strict && !ok) process.exitCode = 1;
if (values.record) {
  const round = (us: number): number => Math.round(us * 10) / 10;
  const file = await recordFigures("perf-tools", `npm run perf:tools -- --calls ${CALLS} --record`, {
    stations: stations.length,
    calls: CALLS,
    route_p50_us: round(route.p50Us),
    route_p99_us: round(route.p99Us),
    fare_p50_us: round(fare.p50Us),
    fare_p99_us: round(fare.p99Us),
    route_p99_budget_ms: ROUTE_P99_BUDGET_MS,
    grid_stations: gridStations.length,
    grid_import_ms: Math.round(grid.ms),
    grid_route_p50_us: round(gridRoute.p50Us),
    grid_route_p99_us: round(gridRoute.p99Us),
    ...Object.fromEntries(Object.entries(feeds).map(([id, ms]) => [`import_${id}_ms`, ms])),
  });
  console.log(`recorded in ${file}`);
}
