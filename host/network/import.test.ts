// `kiosk network import` on a real published feed (Hyderabad Metro, read from ../shared/gtfs at
// test time): the imported system loads through the same loader as the pack's, every station pair
// is priced as the feed's fare_rules say, routes ride real trip patterns at timetable speed, and a
// broken feed installs nothing. The expectations are computed here from the raw CSV files, not
// from the importer's reader.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { REPO_ROOT, SHARED_DATA_DIR, SHARED_DIR } from "../../test/paths.ts";
import { AskResultSchema, PurchaseResultSchema } from "../../runtime/kiosk/bridge.ts";
import { packExtras } from "../../runtime/kiosk/node/pack-extras.ts";
import { testApp } from "../../runtime/kiosk/testing.ts";
import { importNetwork, NetworkImportError, type NetworkImportOutcome } from "./import.ts";

const HYDERABAD = path.join(SHARED_DIR, "gtfs", "hyderabad");

type Row = Record<string, string>;
const csv = (dir: string, file: string): Row[] => parse(readFileSync(path.join(dir, file), "utf8"), { columns: true, bom: true, skip_empty_lines: true }) as Row[];
const seconds = (t: string): number => {
  const [h, m, s] = t.split(":").map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

let dir: string;
let systemsDir: string;
let outcome: NetworkImportOutcome;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "network-import-"));
  systemsDir = path.join(dir, "systems");
  outcome = importNetwork({ feed: HYDERABAD, id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR), attribution: "Contains data provided by Hyderabad Metro Rail Ltd." });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("kiosk network import: Hyderabad Metro", () => {
  const stops = csv(HYDERABAD, "stops.txt");
  const parentOf = (id: string): string => stops.find((s) => s.stop_id === id)?.parent_station || id;
  const stations = stops.filter((s) => s.location_type === "1");

  it("installs a system the pack's loader runs beside the six, with its attribution", () => {
    const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
    expect(pack.systemIds).toEqual(["marta", "doha", "bart", "taipei", "cta", "beijing", "hyderabad"]);
    expect(pack.isImported("hyderabad")).toBe(true);
    const system = pack.system("hyderabad");
    expect(system.stations.map((s) => s.id).sort()).toEqual(stations.map((s) => s.stop_id).sort());
    expect(system.lines.map((l) => [l.id, l.color])).toEqual(csv(HYDERABAD, "routes.txt").map((r) => [r.route_id, `#${r.route_color}`]));
    expect(system.directed).toBe(true);
    expect(system.fares.currency).toBe("INR");
    expect(system.framebook.currency_symbol).toBe("₹");
    expect(system.framebook.operating_hours.default).toMatch(/^0[5-7]:\d\d-(2[2-3]|0[0-1]):\d\d$/);
    const source = JSON.parse(readFileSync(path.join(outcome.dir, "source.json"), "utf8")) as { attribution: string };
    expect(source.attribution).toBe("Contains data provided by Hyderabad Metro Rail Ltd.");
    // Unknown accessibility stays unknown.
    expect(system.stations.every((s) => s.accessibility.step_free === null)).toBe(true);
  });

  it("quotes one adult, for every pair of stations, the fare of the feed's fare_rules (and sells none where the feed has none)", () => {
    const price = new Map(csv(HYDERABAD, "fare_attributes.txt").map((f) => [f.fare_id as string, Number(f.price)]));
    const rule = new Map(csv(HYDERABAD, "fare_rules.txt").map((r) => [`${r.origin_id}>${r.destination_id}`, price.get(r.fare_id as string) as number]));
    const zones = new Map<string, Set<string>>();
    for (const s of stops) {
      if (!s.zone_id || (s.location_type !== "0" && s.location_type !== "1")) continue;
      const root = parentOf(s.stop_id as string);
      zones.set(root, (zones.get(root) ?? new Set()).add(s.zone_id));
    }
    const expected = (a: string, b: string): number | undefined => {
      const found = new Set([...(zones.get(a) ?? [])].flatMap((za) => [...(zones.get(b) ?? [])].flatMap((zb) => rule.get(`${za}>${zb}`) ?? [])));
      expect(found.size).toBeLessThanOrEqual(1);
      return [...found][0];
    };
    const system = new DataPack(SHARED_DATA_DIR, { systemsDir }).system("hyderabad");
    const session = new ToolSession(system);
    let priced = 0;
    let refused = 0;
    for (const a of stations) {
      for (const b of stations) {
        if (a === b) continue;
        const route = session.call("route_planner", { origin: a.stop_id, destination: b.stop_id });
        if (!route.ok) throw new Error(`no route ${a.stop_id} → ${b.stop_id}: ${route.body}`);
        const fare = session.call("fare_calculator", { route_id: (route.result as { route_id: string }).route_id, passengers: { adults: 1, children: 0, seniors: 0, disabled: 0 }, payment_method: "contactless", ticket_type: "single" });
        const want = expected(a.stop_id as string, b.stop_id as string);
        if (want === undefined) {
          expect(fare.ok, `${a.stop_id} → ${b.stop_id} has no fare in the feed`).toBe(false);
          refused++;
        } else {
          expect(fare.ok && (fare.result as { total: number }).total, `${a.stop_id} → ${b.stop_id}`).toBe(want);
          priced++;
        }
      }
    }
    expect(priced).toBe(outcome.summary.farePairs);
    expect(priced + refused).toBe(57 * 56);
  });

  it("reads the same fares from GTFS-Fares v2 (fare products and leg rules between areas) as from fare_rules", () => {
    // The feed's v1 fares rewritten as v2: zones become areas, fares products, rules leg rules.
    const feed = path.join(dir, "feed-fares-v2");
    cpSync(HYDERABAD, feed, { recursive: true });
    const attributes = csv(feed, "fare_attributes.txt");
    const rules = csv(feed, "fare_rules.txt");
    const zoned = stops.filter((s) => s.zone_id);
    writeFileSync(path.join(feed, "areas.txt"), `area_id\n${[...new Set(zoned.map((s) => s.zone_id))].join("\n")}\n`);
    writeFileSync(path.join(feed, "stop_areas.txt"), `area_id,stop_id\n${zoned.map((s) => `${s.zone_id},${s.stop_id}`).join("\n")}\n`);
    writeFileSync(path.join(feed, "fare_products.txt"), `fare_product_id,amount,currency\n${attributes.map((a) => `${a.fare_id},${a.price},${a.currency_type}`).join("\n")}\n`);
    writeFileSync(path.join(feed, "fare_leg_rules.txt"), `from_area_id,to_area_id,fare_product_id\n${rules.map((r) => `${r.origin_id},${r.destination_id},${r.fare_id}`).join("\n")}\n`);
    rmSync(path.join(feed, "fare_attributes.txt"));
    rmSync(path.join(feed, "fare_rules.txt"));
    const v2 = importNetwork({ feed, id: "hyd-v2", systemsDir, pack: new DataPack(SHARED_DATA_DIR) });
    expect(v2.fares).toBe("zone_table");
    expect(v2.summary.farePairs).toBe(outcome.summary.farePairs);
    const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
    const [a, b] = [new ToolSession(pack.system("hyderabad")), new ToolSession(pack.system("hyd-v2"))];
    const quote = (session: ToolSession, from: string, to: string): number | string => {
      const route = session.call("route_planner", { origin: from, destination: to });
      const fare = route.ok ? session.call("fare_calculator", { route_id: (route.result as { route_id: string }).route_id, passengers: { adults: 1, children: 0, seniors: 0, disabled: 0 }, payment_method: "contactless", ticket_type: "single" }) : route;
      return fare.ok ? (fare.result as { total: number }).total : "no fare";
    };
    for (const x of stations) for (const y of stations) if (x !== y) expect(quote(b, x.stop_id as string, y.stop_id as string), `${x.stop_id} → ${y.stop_id}`).toBe(quote(a, x.stop_id as string, y.stop_id as string));
    // A leg rule that depends on the time of day would be priced wrong: refused with file, line and field.
    const timed = path.join(dir, "feed-fares-v2-timed");
    cpSync(feed, timed, { recursive: true });
    const legs = readFileSync(path.join(timed, "fare_leg_rules.txt"), "utf8").trimEnd().split("\n");
    writeFileSync(path.join(timed, "timeframes.txt"), "timeframe_group_id,start_time,end_time,service_id\npeak,07:00:00,10:00:00,WK\n");
    writeFileSync(path.join(timed, "fare_leg_rules.txt"), `${legs.map((l, i) => (i === 0 ? `${l},from_timeframe_group_id` : i === 1 ? `${l},peak` : `${l},`)).join("\n")}\n`);
    expect(() => importNetwork({ feed: timed, id: "hyd-v2-timed", systemsDir, pack: new DataPack(SHARED_DATA_DIR) })).toThrow(NetworkImportError);
    try {
      importNetwork({ feed: timed, id: "hyd-v2-timed", systemsDir, pack: new DataPack(SHARED_DATA_DIR) });
    } catch (err) {
      expect((err as NetworkImportError).notes).toContainEqual(expect.objectContaining({ file: "fare_leg_rules.txt", line: 2, field: "from_timeframe_group_id" }));
    }
  });

  it("proposes routes that ride the feed's trip patterns, each leg within 10 % of the timetable", () => {
    const trips = new Map(csv(HYDERABAD, "trips.txt").map((t) => [t.trip_id as string, t]));
    const byTrip = new Map<string, { station: string; arrival: number }[]>();
    for (const st of csv(HYDERABAD, "stop_times.txt")) {
      const list = byTrip.get(st.trip_id as string) ?? [];
      list.push({ station: parentOf(st.stop_id as string), arrival: seconds(st.arrival_time as string), seq: Number(st.stop_sequence) } as { station: string; arrival: number; seq: number });
      byTrip.set(st.trip_id as string, list);
    }
    for (const list of byTrip.values()) list.sort((x, y) => (x as { seq: number } & typeof x).seq - (y as { seq: number } & typeof y).seq);
    /** Timetable seconds from `from` to `to` along `route`'s trips that call at both in this order (median), or undefined. */
    const timetable = (route: string, from: string, to: string): number | undefined => {
      const runs: number[] = [];
      for (const [id, list] of byTrip) {
        if (trips.get(id)?.route_id !== route) continue;
        const i = list.findIndex((s) => s.station === from);
        const j = list.findIndex((s) => s.station === to);
        if (i >= 0 && j > i) runs.push((list[j] as { arrival: number }).arrival - (list[i] as { arrival: number }).arrival);
      }
      runs.sort((x, y) => x - y);
      return runs[runs.length >> 1];
    };
    const system = new DataPack(SHARED_DATA_DIR, { systemsDir }).system("hyderabad");
    const minutes = new Map(system.edges.map((e) => [[e.line, e.from, e.to].join(">"), e.travel_time_min]));
    // The kiosk times a trip from the train's arrival where the rider boards to its arrival where they leave.
    const session = new ToolSession(system);
    const sample = stations.filter((_, i) => i % 3 === 0);
    let legs = 0;
    for (const a of sample) {
      for (const b of sample) {
        if (a === b) continue;
        const route = session.call("route_planner", { origin: a.stop_id, destination: b.stop_id });
        const stopsOnRoute = (route.ok ? (route.result as { stops: { station_id: string; line: string | null }[] }).stops : []);
        expect(stopsOnRoute.length).toBeGreaterThan(1);
        // Split into legs by line; each leg is a run of one route's trips, timed like them.
        let start = 0;
        for (let k = 1; k <= stopsOnRoute.length; k++) {
          const line = stopsOnRoute[k - 1]?.line;
          if (k < stopsOnRoute.length && stopsOnRoute[k]?.line === line && !(stopsOnRoute[k - 1] as { is_transfer?: boolean }).is_transfer) continue;
          const from = stopsOnRoute[start]?.station_id as string;
          const to = stopsOnRoute[k - 1]?.station_id as string;
          if (from !== to && line) {
            const want = timetable(line, from, to);
            expect(want, `${line}: no trip rides ${from} → ${to}`).toBeDefined();
            let kiosk = 0;
            for (let m = start + 1; m < k; m++) {
              const x = stopsOnRoute[m - 1]?.station_id as string;
              const y = stopsOnRoute[m]?.station_id as string;
              kiosk += minutes.get([line, x, y].join(">")) ?? NaN;
            }
            expect(Math.abs(kiosk * 60 - (want as number)) / (want as number), `${line} ${from} → ${to}: ${kiosk} min vs ${(want as number) / 60}`).toBeLessThanOrEqual(0.1);
            legs++;
          }
          start = k - 1;
        }
      }
    }
    expect(legs).toBeGreaterThan(300);
  });
});

describe("an imported system at the kiosk", () => {
  const app = () => {
    const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
    return testApp({ pack, extras: packExtras(pack) });
  };
  const trip = { system: "hyderabad", events: [
    { type: "station_selected" as const, field: "origin" as const, value: "Miyapur", station_id: "MYP" },
    { type: "station_selected" as const, field: "destination" as const, value: "Ameerpet", station_id: "AME" },
    { type: "passenger_count_changed" as const, adults: 2 },
  ] };

  it("sells a trip at the feed's fare, in rupees, through the same interlock as the pack's systems", async () => {
    const { app: kiosk, ledger } = app();
    const answer = AskResultSchema.parse(await kiosk.ask(trip));
    expect(answer).toMatchObject({ purchasable: true, interlock: { ok: true } });
    const fare = Number(csv(HYDERABAD, "fare_attributes.txt").find((f) => f.fare_id === csv(HYDERABAD, "fare_rules.txt").find((r) => r.origin_id === "MYP" && r.destination_id === "AME_R")?.fare_id)?.price);
    expect(answer.state.fare_quote?.total).toBe(2 * fare);
    const bought = PurchaseResultSchema.parse(await kiosk.purchase({ sessionId: answer.sessionId, paymentMethod: "contactless" }));
    expect(bought).toMatchObject({ ok: true, ticket: { system: "hyderabad", total: 2 * fare, currency: "INR" } });
    expect(ledger.sales()[0]).toMatchObject({ origin_id: "MYP", destination_id: "AME" });
  });

  it("answers when trains run from the timetable's hours (no article yet), in the passenger's language", async () => {
    const weekday = new Set(csv(HYDERABAD, "calendar.txt").filter((c) => c.monday === "1").map((c) => c.service_id));
    const trips = new Set(csv(HYDERABAD, "trips.txt").filter((t) => weekday.has(t.service_id as string)).map((t) => t.trip_id));
    let first = Infinity;
    let last = -Infinity;
    for (const st of csv(HYDERABAD, "stop_times.txt")) {
      if (!trips.has(st.trip_id)) continue;
      first = Math.min(first, seconds(st.departure_time as string));
      last = Math.max(last, seconds(st.arrival_time as string));
    }
    const hhmm = (s: number): string => `${String(Math.floor(s / 3600) % 24).padStart(2, "0")}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}`;
    const { app: kiosk } = app();
    const ask = async (text: string, language: "en" | "es" | "zh-Hans") => AskResultSchema.parse(await kiosk.ask({ system: "hyderabad", language, events: [{ type: "freetext_input", text }] })).state;
    expect((await ask("When does the last train leave?", "en")).assistant_message).toContain(`${hhmm(first)}–${hhmm(last)}`);
    expect((await ask("¿Cuál es el horario del metro?", "es")).assistant_message).toContain(`de ${hhmm(first)} a ${hhmm(last)}`);
    expect((await ask("末班车几点？", "zh-Hans")).assistant_message).toContain(`${hhmm(first)}–${hhmm(last)}`);
    // Anything else no article answers is still declined, not answered with the hours.
    expect((await ask("Can I bring my bike?", "en")).outcome).not.toBe("policy_answer_only");
  });

  it("never sells a step-free trip through stations the feed says nothing about", async () => {
    const { app: kiosk } = app();
    const answer = AskResultSchema.parse(await kiosk.ask({ ...trip, accessibilityMode: true }));
    expect(answer.purchasable).toBe(false);
    const asked = AskResultSchema.parse(await kiosk.ask({ system: "hyderabad", events: [{ type: "freetext_input", text: "Does Miyapur station have wheelchair access?" }] }));
    expect(asked.state.assistant_message).toBe("We do not know whether Miyapur has step-free access. Please ask staff before you travel.");
  });
});

describe("kiosk network import: names in another language from translations.txt", () => {
  it("become the system's local names (stations and lines) on the screen, until the operator's own file replaces them", () => {
    const feed = path.join(dir, "feed-translations");
    cpSync(HYDERABAD, feed, { recursive: true });
    // By record_id (a station, and a platform of another) and by the value translated; one line; a second language left out.
    writeFileSync(
      path.join(feed, "translations.txt"),
      "table_name,field_name,language,translation,record_id,field_value\nstops,stop_name,te,మియాపూర్,MYP,\nstops,stop_name,te,నాగోల్,NAG1,\nstops,stop_name,te,అమీర్‌పేట,,Ameerpet\nroutes,route_long_name,te,రెడ్ లైన్,RED,\nstops,stop_name,hi,मियापुर,MYP,\n",
    );
    const imported = importNetwork({ feed, id: "hyd-te", systemsDir, pack: new DataPack(SHARED_DATA_DIR) });
    expect(imported.notes).toContainEqual(expect.objectContaining({ severity: "warning", file: "translations.txt", field: "language" }));
    const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
    const view = testApp({ pack, extras: packExtras(pack, path.join(dir, "no-operator-files")) }).app.systemView("hyd-te");
    const names = (id: string) => view.stations.find((s) => s.id === id)?.localNames;
    expect(names("MYP")).toContain("మియాపూర్");
    expect(names("NAG")).toContain("నాగోల్");
    expect(names("AME")).toContain("అమీర్‌పేట");
    expect(names("MYP")).not.toContain("मियापुर");
    // Line names too (the screen shows them in its own languages only; Telugu is none of them).
    expect(readFileSync(path.join(systemsDir, "hyd-te", "local-names.yaml"), "utf8")).toMatch(/lines:\n {2}RED: రెడ్ లైన్/);
    // The operator's file wins over the feed's.
    const operatorDir = path.join(dir, "operator-te");
    mkdirSync(path.join(operatorDir, "hyd-te"), { recursive: true });
    writeFileSync(path.join(operatorDir, "hyd-te", "local-names.yaml"), "language: te\nnames:\n  MYP: మియాపూర్ స్టేషన్\n");
    const own = testApp({ pack, extras: packExtras(pack, operatorDir) }).app.systemView("hyd-te");
    expect(own.stations.find((s) => s.id === "MYP")?.localNames).toContain("మియాపూర్ స్టేషన్");
    expect(own.stations.find((s) => s.id === "AME")?.localNames).not.toContain("అమీర్‌పేట");
  });
});

describe("kiosk network import: Busan Metro, with the operator's fare model", () => {
  const BUSAN = path.join(SHARED_DIR, "gtfs", "busan");
  const FARES = path.join(REPO_ROOT, "framebooks", "busan", "fares.json");
  const stopsCsv = csv(BUSAN, "stops.txt");
  const transfers = csv(BUSAN, "transfers.txt");
  let busan: ReturnType<DataPack["system"]>;
  beforeAll(() => {
    importNetwork({ feed: BUSAN, id: "busan", systemsDir, pack: new DataPack(SHARED_DATA_DIR), faresFile: FARES });
    busan = new DataPack(SHARED_DATA_DIR, { systemsDir }).system("busan");
  });

  it("refuses a feed without fares unless the operator gives a fare model", () => {
    expect(() => importNetwork({ feed: BUSAN, id: "busan-nofares", systemsDir, pack: new DataPack(SHARED_DATA_DIR) })).toThrow(/has no fares; give the fare model with --fares FILE/);
    expect(existsSync(path.join(systemsDir, "busan-nofares"))).toBe(false);
  });

  it("applies the fare model exactly: up to 10 km one fare, beyond it the other; children, seniors and disabled riders as it says", () => {
    const model = JSON.parse(readFileSync(FARES, "utf8")) as { fare_brackets: { max_km: number; fare: number }[] };
    const session = new ToolSession(busan);
    const ids = busan.stations.map((s) => s.id);
    let near = 0;
    for (const a of ids) {
      for (const b of ids) {
        if (a === b) continue;
        const route = session.call("route_planner", { origin: a, destination: b });
        if (!route.ok) throw new Error(route.body);
        const { route_id, distance_miles } = route.result as { route_id: string; distance_miles: number };
        const km = distance_miles * 1.609344;
        const want = model.fare_brackets.find((x) => km <= x.max_km)?.fare;
        const fare = session.call("fare_calculator", { route_id, passengers: { adults: 1, children: 2, seniors: 1, disabled: 1 }, payment_method: "transport_card", ticket_type: "single" });
        expect(fare.ok && (fare.result as { total: number }).total, `${a} → ${b}, ${km} km`).toBe(want);
        if (Math.abs(km - 10) < 0.5) near++;
      }
    }
    // The boundary is exercised: trips just under and just over 10 km.
    expect(near).toBeGreaterThan(10);
  });

  it("one station where transfers.txt joins two same-name stops, changing lines in its minimum transfer time", () => {
    const row = transfers[0] as Row;
    const name = (id: string) => stopsCsv.find((s) => s.stop_id === id)?.stop_name;
    const station = busan.stations.find((s) => (s as { gtfs_stop_ids?: string[] }).gtfs_stop_ids?.includes(row.from_stop_id as string));
    expect(station?.name).toBe(name(row.from_stop_id as string));
    expect((station as { gtfs_stop_ids?: string[] }).gtfs_stop_ids).toContain(row.to_stop_id);
    expect(station?.transfer_min).toBe(Number(row.min_transfer_time) / 60);
    expect(station?.lines.length).toBeGreaterThan(1);
    // A trip that must change there pays its minutes, not the default five.
    const [lineA, lineB] = station?.lines as [string, string];
    const from = busan.lineById(lineA)?.stations.find((s) => s !== station?.id && !busan.stationById(s)?.lines.includes(lineB)) as string;
    const to = busan.lineById(lineB)?.stations.find((s) => s !== station?.id && !busan.stationById(s)?.lines.includes(lineA)) as string;
    const route = new ToolSession(busan).call("route_planner", { origin: from, destination: to });
    const r = route.ok ? (route.result as { stops: { station_id: string; line: string; is_transfer: boolean }[]; estimated_minutes: number }) : undefined;
    const changes = r?.stops.filter((s) => s.is_transfer) ?? [];
    expect(changes.length).toBeGreaterThan(0);
    const riding = (r?.stops ?? []).slice(1).reduce((sum, s, i) => {
      const prev = r?.stops[i] as { station_id: string; line: string };
      return prev.station_id === s.station_id ? sum : sum + (busan.edges.find((e) => e.from === prev.station_id && e.to === s.station_id && e.line === s.line)?.travel_time_min ?? NaN);
    }, 0);
    const transferMinutes = changes.reduce((sum, s) => sum + (busan.stationById(s.station_id)?.transfer_min ?? 5), 0);
    expect(r?.estimated_minutes).toBeCloseTo(riding + transferMinutes, 1);
  });

  it("sells step-free trips only through stops the feed marks accessible", async () => {
    expect(stopsCsv.every((s) => s.wheelchair_boarding === "1")).toBe(true);
    expect(busan.stations.every((s) => s.accessibility.step_free === true)).toBe(true);
    const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
    const { app: kiosk } = testApp({ pack, extras: packExtras(pack) });
    const [a, b] = [busan.stations[0]?.id as string, busan.stations[5]?.id as string];
    const ask = (accessibilityMode: boolean) => kiosk.ask({ system: "busan", accessibilityMode, events: [
      { type: "station_selected", field: "origin", value: a, station_id: a },
      { type: "station_selected", field: "destination", value: b, station_id: b },
      { type: "passenger_count_changed", adults: 1 },
    ] });
    expect(AskResultSchema.parse(await ask(true)).purchasable).toBe(true);
    // The same feed with one stop on that trip marked not accessible (wheelchair_boarding 2).
    const feed = path.join(dir, "feed-busan-steps");
    cpSync(BUSAN, feed, { recursive: true });
    const through = busan.stations[3]?.id as string;
    const stopsFile = path.join(feed, "stops.txt");
    writeFileSync(stopsFile, readFileSync(stopsFile, "utf8").replace(new RegExp(`^(${through},.*),1(\r?)$`, "m"), "$1,2$2"));
    importNetwork({ feed, id: "busan-steps", systemsDir, pack: new DataPack(SHARED_DATA_DIR), faresFile: FARES });
    const stepped = new DataPack(SHARED_DATA_DIR, { systemsDir });
    expect(stepped.system("busan-steps").stationById(through)?.accessibility.step_free).toBe(false);
    const other = testApp({ pack: stepped, extras: packExtras(stepped) }).app;
    const events = [
      { type: "station_selected" as const, field: "origin" as const, value: a, station_id: a },
      { type: "station_selected" as const, field: "destination" as const, value: b, station_id: b },
      { type: "passenger_count_changed" as const, adults: 1 },
    ];
    expect(AskResultSchema.parse(await other.ask({ system: "busan-steps", accessibilityMode: true, events })).purchasable).toBe(false);
    expect(AskResultSchema.parse(await other.ask({ system: "busan-steps", accessibilityMode: false, events })).purchasable).toBe(true);
  });
});

describe("kiosk network import: what it refuses", () => {
  const broken = (name: string, change: (feedDir: string) => void): string => {
    const feed = path.join(dir, `feed-${name}`);
    cpSync(HYDERABAD, feed, { recursive: true });
    change(feed);
    return feed;
  };
  const refusal = (feed: string, id: string): NetworkImportError => {
    try {
      importNetwork({ feed, id, systemsDir, pack: new DataPack(SHARED_DATA_DIR) });
    } catch (err) {
      expect(err).toBeInstanceOf(NetworkImportError);
      expect(existsSync(path.join(systemsDir, id))).toBe(false);
      return err as NetworkImportError;
    }
    throw new Error("the import was not refused");
  };
  const edit = (feed: string, file: string, fn: (text: string) => string): void => writeFileSync(path.join(feed, file), fn(readFileSync(path.join(feed, file), "utf8")));

  it("a fare rule naming an unknown zone: fare_rules.txt, its line, origin_id; nothing installed", () => {
    const feed = broken("zone", (f) => edit(f, "fare_rules.txt", (t) => t.replace(/\nUPL,NAG,/, "\nNOWHERE,NAG,")));
    const line = readFileSync(path.join(feed, "fare_rules.txt"), "utf8").split("\n").findIndex((l) => l.startsWith("NOWHERE,")) + 1;
    const err = refusal(feed, "hyd-zone");
    expect(err.notes).toContainEqual(expect.objectContaining({ severity: "error", file: "fare_rules.txt", line, field: "origin_id" }));
  });

  it("an unknown stop in stop_times and an empty calendar: each named with file, line and field", () => {
    const feed = broken("stop", (f) => {
      edit(f, "stop_times.txt", (t) => t.replace(/\n(SA_101482,2,)SUB1,/, "\n$1NOPE,"));
      writeFileSync(path.join(f, "calendar.txt"), "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n");
    });
    const err = refusal(feed, "hyd-stop");
    expect(err.notes).toContainEqual(expect.objectContaining({ severity: "error", file: "stop_times.txt", line: 3, field: "stop_id" }));
    expect(err.notes.some((n) => n.severity === "error" && n.file === "calendar.txt")).toBe(true);
  });

  it("a missing column: the file and the column", () => {
    const feed = broken("column", (f) => edit(f, "stops.txt", (t) => t.replace("stop_id,stop_name", "stop_code,stop_name")));
    const err = refusal(feed, "hyd-column");
    expect(err.notes).toContainEqual(expect.objectContaining({ severity: "error", file: "stops.txt", field: "stop_id" }));
  });

  it("fare rules by route: refused rather than priced wrong", () => {
    const feed = broken("route-fares", (f) =>
      edit(f, "fare_rules.txt", (t) => t.trimEnd().split("\n").map((row, i) => (i === 0 ? `${row},route_id` : i === 1 ? `${row},RED` : `${row},`)).join("\n")),
    );
    const err = refusal(feed, "hyd-routes");
    expect(err.notes).toContainEqual(expect.objectContaining({ severity: "error", file: "fare_rules.txt", field: "route_id" }));
  });

  it("an id of the pack, and an id imported before (unless replaced)", () => {
    expect(() => importNetwork({ feed: HYDERABAD, id: "bart", systemsDir, pack: new DataPack(SHARED_DATA_DIR) })).toThrow(/benchmark data pack/);
    const before = readFileSync(path.join(systemsDir, "hyderabad", "source.json"), "utf8");
    expect(() => importNetwork({ feed: HYDERABAD, id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR) })).toThrow(/--replace/);
    expect(readFileSync(path.join(systemsDir, "hyderabad", "source.json"), "utf8")).toBe(before);
    const again = importNetwork({ feed: HYDERABAD, id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR), replace: true, now: new Date("2026-12-07T00:00:00Z") });
    expect(JSON.parse(readFileSync(path.join(again.dir, "source.json"), "utf8")).imported_at).toBe("2026-12-07T00:00:00.000Z");
  });
});
