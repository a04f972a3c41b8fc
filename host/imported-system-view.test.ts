// The passenger screen's view of an imported network (the real Hyderabad Metro feed, read from
// ../shared/gtfs at test time and imported into a temp folder), through the KioskApp: every station
// where the feed puts it, every line in its colour along its course, rupees, payment the kiosk
// sells with, and an attribution that is the feed's, not the data pack's. Expectations come from
// the raw CSV files, not from the importer's reader.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR, SHARED_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { AskResultSchema, PurchaseResultSchema, SystemViewSchema, type SystemView } from "../runtime/kiosk/bridge.ts";
import { SHAPE_TOLERANCE_M } from "../runtime/kiosk/extras.ts";
import { packExtras } from "../runtime/kiosk/node/pack-extras.ts";
import { testApp } from "../runtime/kiosk/testing.ts";
import { importNetwork } from "./network/import.ts";

const FEED = path.join(SHARED_DIR, "gtfs", "hyderabad");
const ATTRIBUTION = "Contains data provided by Hyderabad Metro Rail Ltd.";

type Row = Record<string, string>;
const csv = (file: string): Row[] => parse(readFileSync(path.join(FEED, file), "utf8"), { columns: true, bom: true, skip_empty_lines: true }) as Row[];

/** Metres from `p` to the polyline `course` ([lat, lon] points), on a local flat projection. */
function metresFrom(course: readonly (readonly [number, number])[], p: readonly [number, number]): number {
  const kx = Math.cos((p[0] * Math.PI) / 180) * 111_320;
  const ky = 110_574;
  let best = Infinity;
  for (let i = 1; i < course.length; i++) {
    const [a, b] = [course[i - 1] as readonly [number, number], course[i] as readonly [number, number]];
    const [ax, ay, bx, by, px, py] = [a[1] * kx, a[0] * ky, b[1] * kx, b[0] * ky, p[1] * kx, p[0] * ky];
    const squared = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = squared === 0 ? 0 : Math.min(1, Math.max(0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / squared));
    best = Math.min(best, Math.hypot(ax + t * (bx - ax) - px, ay + t * (by - ay) - py));
  }
  return best;
}

let dir: string;
let systemsDir: string;
let pack: DataPack;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "imported-view-"));
  systemsDir = path.join(dir, "systems");
  importNetwork({ feed: FEED, id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR), attribution: ATTRIBUTION });
  pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the SystemView of an imported network (Hyderabad Metro)", () => {
  const stops = csv("stops.txt");
  const stations = stops.filter((s) => s.location_type === "1");
  let view: SystemView;
  beforeAll(() => {
    view = SystemViewSchema.parse(testApp({ pack }).app.systemView("hyderabad"));
  });

  it("is listed with the pack's systems under the feed's agency name", () => {
    const agency = csv("agency.txt")[0]?.agency_name;
    expect(testApp({ pack }).app.listSystems().at(-1)).toEqual({ id: "hyderabad", orgName: agency, fullName: agency, imported: true });
  });

  it("has every station of the feed, named as the feed names it, where the feed puts it", () => {
    expect(view.stations.map((s) => [s.id, s.name, s.lat, s.lon]).sort()).toEqual(stations.map((s) => [s.stop_id, s.stop_name?.trim(), Number(s.stop_lat), Number(s.stop_lon)]).sort());
    expect(view.stations.every((s) => s.lines.length > 0)).toBe(true);
  });

  it("draws every line of the feed in its colour along the feed's course, through its stations", () => {
    const shapes = csv("shapes.txt");
    const trips = csv("trips.txt");
    expect(view.lines.map((l) => [l.id, l.color])).toEqual(csv("routes.txt").map((r) => [r.route_id, `#${r.route_color}`]));
    const course = (id: string): [number, number][] =>
      shapes
        .filter((p) => p.shape_id === id)
        .sort((a, b) => Number(a.shape_pt_sequence) - Number(b.shape_pt_sequence))
        .map((p) => [Number(p.shape_pt_lat), Number(p.shape_pt_lon)]);
    for (const line of view.lines) {
      const drawn = line.shape ?? [];
      // The feed's course of one of the line's trips that the drawing is taken from.
      const fed = [...new Set(trips.filter((t) => t.route_id === line.id).map((t) => t.shape_id as string))].map(course).find((c) => drawn.every((p) => metresFrom(c, p) < 1));
      expect(fed, `${line.id}: drawn along none of its trips' shapes`).toBeDefined();
      // A drawing, not the feed's every point: fewer points, never farther from the course than the tolerance.
      expect(drawn.length, line.id).toBeGreaterThan(line.stations.length);
      expect(drawn.length, line.id).toBeLessThan((fed ?? []).length / 3);
      expect(Math.max(...(fed ?? []).map((p) => metresFrom(drawn, p))), line.id).toBeLessThanOrEqual(SHAPE_TOLERANCE_M * 1.05);
      for (const id of line.stations) {
        const s = view.stations.find((x) => x.id === id);
        expect(metresFrom(drawn, [s?.lat ?? NaN, s?.lon ?? NaN]), `${line.id} ${id}`).toBeLessThan(100);
      }
    }
  });

  it("prices in rupees, in kilometres, with the framebook's wording and payment the kiosk sells with", () => {
    expect(new Set(csv("fare_attributes.txt").map((f) => f.currency_type))).toEqual(new Set([view.currencyCode]));
    expect(view).toMatchObject({ currencyCode: "INR", currencySymbol: "₹", fareDisplayFormat: "₹X.XX", primaryLanguage: "en", distanceUnit: "km" });
    expect(view.riderTypes).toContain("adults");
    expect(view.paymentMethods).toEqual([
      { id: "smartcard", label: "Smart card" },
      { id: "contactless", label: "Contactless payment" },
    ]);
    expect(view.operatingHours.default).toMatch(/^\d\d:\d\d-\d\d:\d\d$/);
    expect(view.framebookVersion).toMatch(/^fb-[0-9a-f]{12}$/);
  });

  it("says whose data it is: the feed's attribution, that it is imported, the publisher; nothing of the data pack", () => {
    const publisher = csv("feed_info.txt")[0];
    expect(view.attribution).toContain(ATTRIBUTION);
    expect(view.attribution).toContain("Imported data");
    expect(view.attribution).toContain(`published by ${publisher?.feed_publisher_name} (${publisher?.feed_publisher_url})`);
    expect(view.attribution).not.toMatch(/MetroLLM|Wikipedia|CC BY-SA/);
  });

  it("sells with each payment method the screen offers, at the fare the screen shows", async () => {
    for (const method of view.paymentMethods) {
      const { app } = testApp({ pack });
      const events = [
        { type: "station_selected" as const, field: "origin" as const, value: "Miyapur", station_id: "MYP" },
        { type: "station_selected" as const, field: "destination" as const, value: "Ameerpet", station_id: "AME" },
        { type: "passenger_count_changed" as const, adults: 1 },
        { type: "payment_method_selected" as const, method: method.id },
      ];
      const answer = AskResultSchema.parse(await app.ask({ system: "hyderabad", events }));
      expect(answer.purchasable, method.id).toBe(true);
      const bought = PurchaseResultSchema.parse(await app.purchase({ sessionId: answer.sessionId, paymentMethod: method.id }));
      expect(bought).toMatchObject({ ok: true, ticket: { paymentMethod: method.id, currency: view.currencyCode, total: answer.state.fare_quote?.total } });
    }
  });
});

describe("an imported network with the operator's local names, and one without coordinates or drawings", () => {
  it("takes the operator's names for its stations and payment methods (typos reported) and says they are the operator's", () => {
    const operatorDir = path.join(dir, "operator");
    mkdirSync(path.join(operatorDir, "hyderabad"), { recursive: true });
    writeFileSync(path.join(operatorDir, "hyderabad", "local-names.yaml"), "language: te\nnames:\n  MYP: మియాపూర్\n  AME: అమీర్‌పేట\npayment_methods:\n  smartcard: స్మార్ట్ కార్డ్\n");
    const view = testApp({ pack, extras: packExtras(pack, operatorDir) }).app.systemView("hyderabad");
    expect(view.stations.find((s) => s.id === "MYP")?.localNames).toEqual(["మియాపూర్"]);
    expect(view.paymentMethods.map((m) => m.id)).toEqual(["smartcard", "contactless"]);
    expect(view.attribution).toMatch(/^Contains data provided by Hyderabad Metro Rail Ltd\. .* Station names \(te\): operator data/);
    writeFileSync(path.join(operatorDir, "hyderabad", "local-names.yaml"), "language: te\nnames:\n  NOWHERE: ఎక్కడో\n");
    expect(() => testApp({ pack, extras: packExtras(pack, operatorDir) }).app.systemView("hyderabad")).toThrow(/names\.NOWHERE: unknown station id 'NOWHERE' for system hyderabad/);
  });

  it("a copy with no coordinates and no shapes.json: a valid view whose stations have none (the screen draws a schematic)", () => {
    const bare = path.join(dir, "bare");
    cpSync(path.join(systemsDir, "hyderabad"), path.join(bare, "plain"), { recursive: true });
    const file = path.join(bare, "plain", "stations.json");
    const stationsJson = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>[];
    writeFileSync(file, JSON.stringify(stationsJson.map(({ lat: _lat, lon: _lon, ...rest }) => rest)));
    rmSync(path.join(bare, "plain", "shapes.json"));
    const view = SystemViewSchema.parse(testApp({ pack: new DataPack(SHARED_DATA_DIR, { systemsDir: bare }) }).app.systemView("plain"));
    expect(view.stations).toHaveLength(stationsJson.length);
    expect(view.stations.every((s) => s.lat === null && s.lon === null && s.name !== "")).toBe(true);
    expect(view.lines.every((l) => l.shape === undefined && l.stations.length > 1)).toBe(true);
    expect(view.attribution).toContain(ATTRIBUTION);
  });
});
