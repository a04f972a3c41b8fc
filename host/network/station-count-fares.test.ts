// An operator's fare model by stations travelled (`max_stations` brackets) on a real imported feed:
// Busan Metro (../shared/gtfs/busan, read at test time) with a model written here, up to 10
// stations 1,500 KRW and beyond 1,700. Every station pair's quote is checked against the stations
// of the route the kiosk proposes, and, for single-line trips, against a count taken here from the
// feed's own trip patterns (stop_times.txt), not from the importer's graph.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { DataFileError } from "../../tools/data/errors.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { FARE_MESSAGES } from "../../tools/wire/messages.ts";
import { SHARED_DATA_DIR, SHARED_DIR } from "../../test/paths.ts";
import { importNetwork } from "./import.ts";

const BUSAN = path.join(SHARED_DIR, "gtfs", "busan");
const UP_TO = 10;
const NEAR = 1500;
const FAR = 1700;
const MODEL = {
  about: "A test's operator model: up to 10 stations travelled 1,500 won, beyond 1,700 won.",
  model: "distance",
  currency: "KRW",
  currency_symbol: "₩",
  base_fare: NEAR,
  fare_brackets: [
    { max_stations: UP_TO, fare: NEAR },
    { max_stations: 1000, fare: FAR },
  ],
  discounts: { senior_65_plus: { fare: 0 } },
};
const fareFor = (stations: number): number => (stations <= UP_TO ? NEAR : FAR);

type Row = Record<string, string>;
const csv = (file: string): Row[] => parse(readFileSync(path.join(BUSAN, file), "utf8"), { columns: true, bom: true, skip_empty_lines: true }) as Row[];

let dir: string;
let systemsDir: string;
let busan: SystemData;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "station-count-fares-"));
  systemsDir = path.join(dir, "systems");
  const faresFile = path.join(dir, "fares.json");
  writeFileSync(faresFile, JSON.stringify(MODEL));
  importNetwork({ feed: BUSAN, id: "busan", systemsDir, pack: new DataPack(SHARED_DATA_DIR), faresFile });
  busan = new DataPack(SHARED_DATA_DIR, { systemsDir }).system("busan");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Stations travelled between two stops on one line, from the feed's trip patterns: the positions
 * of the two stops in a trip of that route that calls at both in that order. Every such trip must
 * agree (a short working is a stretch of the full one); a pair no trip rides in order is absent.
 */
function feedStationCounts(): Map<string, number> {
  const routeOf = new Map(csv("trips.txt").map((t) => [t.trip_id as string, t.route_id as string]));
  const calls = new Map<string, { seq: number; stop: string }[]>();
  for (const r of csv("stop_times.txt")) {
    const list = calls.get(r.trip_id as string) ?? [];
    list.push({ seq: Number(r.stop_sequence), stop: r.stop_id as string });
    calls.set(r.trip_id as string, list);
  }
  const counts = new Map<string, number>();
  const patterns = new Set<string>();
  for (const [trip, list] of calls) {
    const stops = list.sort((a, b) => a.seq - b.seq).map((c) => c.stop);
    const key = `${routeOf.get(trip)}|${stops.join(",")}`;
    if (patterns.has(key)) continue;
    patterns.add(key);
    stops.forEach((from, i) => {
      stops.forEach((to, j) => {
        if (j <= i) return;
        const pair = `${routeOf.get(trip)}|${from}|${to}`;
        const known = counts.get(pair);
        if (known !== undefined && known !== j - i) throw new Error(`trips of route ${routeOf.get(trip)} disagree on ${from} → ${to}: ${known} and ${j - i} stations`);
        counts.set(pair, j - i);
      });
    });
  }
  return counts;
}

describe("kiosk network import: Busan Metro priced by stations travelled", () => {
  it("quotes every station pair by the stations of the kiosk's route, and single-line trips by the feed's own count", () => {
    const feedCounts = feedStationCounts();
    // A station is the feed's stops of its name (transfers.txt joins same-name stops into one station).
    const stopsNamed = new Map<string, string[]>();
    for (const s of csv("stops.txt")) stopsNamed.set(s.stop_name as string, [...(stopsNamed.get(s.stop_name as string) ?? []), s.stop_id as string]);
    const stopsOf = (stationId: string): string[] => stopsNamed.get(busan.stationById(stationId)?.name ?? "") ?? [];
    // The importer names a line by its route_id.
    const feedRoutes = new Set(csv("routes.txt").map((r) => r.route_id as string));

    const session = new ToolSession(busan);
    const ids = busan.stations.map((s) => s.id);
    const atCount = new Map<number, number>();
    let singleLine = 0;
    for (const a of ids) {
      for (const b of ids) {
        if (a === b) continue;
        const planned = session.call("route_planner", { origin: a, destination: b });
        if (!planned.ok) throw new Error(planned.body);
        const route = planned.result as { route_id: string; stops: { station_id: string }[]; line_sequence: string[]; transfers: number };
        const stations = route.stops.length - 1;
        const quote = session.call("fare_calculator", { route_id: route.route_id, passengers: { adults: 2, children: 0, seniors: 1, disabled: 0 }, payment_method: "transport_card", ticket_type: "single" });
        const total = quote.ok ? (quote.result as { total: number }).total : quote.body;
        expect(total, `${a} → ${b}, ${stations} stations on the kiosk's route`).toBe(2 * fareFor(stations));
        atCount.set(stations, (atCount.get(stations) ?? 0) + 1);

        if (route.transfers !== 0) continue;
        const line = route.line_sequence[0] as string;
        expect(feedRoutes.has(line), `line ${line} is a route of the feed`).toBe(true);
        const counted = stopsOf(a).flatMap((x) => stopsOf(b).map((y) => feedCounts.get(`${line}|${x}|${y}`))).filter((n) => n !== undefined);
        expect(counted.length, `${a} → ${b}: the feed has a trip of route ${line} from one to the other`).toBeGreaterThan(0);
        expect(new Set(counted).size, `${a} → ${b}: one count of stations in the feed`).toBe(1);
        expect(stations, `${a} → ${b} on line ${line}: stations in the feed's trip pattern`).toBe(counted[0]);
        expect(total, `${a} → ${b}: the fare of the feed's count`).toBe(2 * fareFor(counted[0] as number));
        singleLine++;
      }
    }
    // Both sides of the boundary are exercised (exactly 10 stations, and 11), on many trips each.
    expect(atCount.get(UP_TO)).toBeGreaterThan(100);
    expect(atCount.get(UP_TO + 1)).toBeGreaterThan(100);
    expect(atCount.get(1)).toBeGreaterThan(100);
    expect(singleLine).toBeGreaterThan(1000);
  });

  it("refuses to price an unknown route id, in its own words", () => {
    const quote = new ToolSession(busan).call("fare_calculator", { route_id: "route_000000000000", passengers: { adults: 1, children: 0, seniors: 0, disabled: 0 }, payment_method: "transport_card", ticket_type: "single" });
    expect(quote.ok).toBe(false);
    expect(!quote.ok && quote.status).toBe(422);
    expect(!quote.ok && (JSON.parse(quote.body) as { detail: string }).detail).toBe(FARE_MESSAGES.stationsNeeded);
  });

  it("refuses an operator model that mixes stations with kilometres, and installs nothing", () => {
    const faresFile = path.join(dir, "mixed-fares.json");
    writeFileSync(faresFile, JSON.stringify({ ...MODEL, fare_brackets: [{ max_stations: UP_TO, fare: NEAR }, { max_km: 1000, fare: FAR }] }));
    let refused: unknown;
    try {
      importNetwork({ feed: BUSAN, id: "busan-mixed", systemsDir, pack: new DataPack(SHARED_DATA_DIR), faresFile });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataFileError);
    expect((refused as Error).message).toContain("the fare brackets mix units (max_stations in bracket 1; max_km in bracket 2)");
    expect(existsSync(path.join(systemsDir, "busan-mixed"))).toBe(false);
  });
});
