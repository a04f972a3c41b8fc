// Latency of the in-process tools: random route_planner calls on Beijing (414 stations, the largest
// system) and fare_calculator calls, each through ToolSession.call (validation, routing, ids).
//
//   npx tsx scripts/perf-tools.ts [--calls N] [--seed S] [--strict] [--record]
//
// Budget: route_planner p99 < 1 ms. With --strict the exit code is 1 when it is exceeded. With
// --record the figures go to docs/figures/perf-tools.json, which the README's performance section
// is written from (scripts/figures.ts).
import { parseArgs } from "node:util";
import { DataPack } from "../tools/data/datapack.ts";
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
  });
  console.log(`recorded in ${file}`);
}
