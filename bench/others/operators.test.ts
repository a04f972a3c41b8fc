import { beforeAll, describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { corpusDir, idIn, outsideTheirHalf, repeatsOfEarlierHalves } from "../../test/others-corpus.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { computeSale } from "./corpus.ts";
import { applyFare, closuresOf, inForce, loadOperators, parseOperatorFile, type OperatorCorpusEntry, type Reading } from "./operators.ts";

const pack = new DataPack(SHARED_DATA_DIR);

/** One entry: Five Points closed (nothing passes) on 2026-03-14 06:00–22:00, with the given probes. */
const entry = (id: string, probes: string, reading = "{effect: closed, stations: [MARTA-FP], applies: {from: '2026-03-14T06:00', until: '2026-03-14T22:00'}}") =>
  `- id: ${id}\n  source: {name: t, url: "https://example.org/x", licence: public, original: "Five Points closed"}\n  kind: service_alert\n  language: en\n` +
  `  notice: {disruption: {type: station_closure, severity: critical, message: "Five Points closed", station_id: MARTA-FP}}\n  reading: ${reading}\n  probes:\n${probes}`;
const probe = (o: string, d: string, at: string, expect: string, extra = "") => `  - {origin: ${o}, destination: ${d}, riders: {adults: 1}, at: "${at}", expect: ${expect}${extra}}\n`;

describe("others' operator corpus", () => {
  // loaded in a hook, so that a bad file fails the tests with its message rather than the collection
  let corpus: OperatorCorpusEntry[] = [];
  beforeAll(() => {
    corpus = loadOperators(pack);
  });

  it("parses, with unique ids, known stations and lines, and a route and a computed total for every sale probe", () => {
    expect(new Set(corpus.map((c) => c.entry.id)).size).toBe(corpus.length);
    let sales = 0;
    for (const c of corpus) {
      for (const p of c.probes) {
        if (p.probe.expect !== "sale") {
          expect(p.sale, c.entry.id).toBeNull();
          continue;
        }
        sales++;
        expect(p.sale?.route.path[0], c.entry.id).toBe(p.probe.origin);
        expect(p.sale?.route.path.at(-1), c.entry.id).toBe(p.probe.destination);
        expect(p.sale?.total, c.entry.id).toBeGreaterThanOrEqual(0);
      }
    }
    expect(sales).toBeGreaterThan(200);
  });

  it("puts every entry of the split halves in the half its id's hash says, and repeats no notice of an earlier half in a later one", () => {
    expect(outsideTheirHalf(corpus)).toEqual([]);
    const halves = new Set(corpus.map((c) => c.half));
    expect(halves).toContain("tune");
    expect(halves).toContain("report");
    expect(repeatsOfEarlierHalves(corpus)).toEqual([]);
  });

  it("has at least 150 operator texts over every system, both kinds, and English, Chinese and more", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.map((c) => c.system))).toEqual(new Set(pack.systemIds));
    const kinds = new Map<string, number>();
    for (const c of corpus) kinds.set(c.entry.kind, (kinds.get(c.entry.kind) ?? 0) + 1);
    expect(kinds.get("fare_notice") ?? 0).toBeGreaterThanOrEqual(5);
    const langs = new Set(corpus.map((c) => c.entry.language));
    for (const l of ["en", "zh-Hans", "zh-Hant"]) expect(langs, l).toContain(l);
    const outcomes = new Set(corpus.flatMap((c) => c.probes.map((p) => p.probe.expect)));
    expect(outcomes).toEqual(new Set(["sale", "no_sale", "ask", "refer"]));
    // some probes fall outside the notice's window, where the plain sale holds
    expect(corpus.some((c) => c.probes.some((p) => !p.inForce && p.probe.expect === "sale"))).toBe(true);
  });

  it("prices a sale under the twin: a closure reroutes through route_planner, a fare effect changes the tools' total", () => {
    const closed: Reading = { effect: "closed", stations: ["MARTA-FP"] };
    expect(closuresOf(closed)).toEqual({ station_restrictions: [{ station: "MARTA-FP", restriction: "closed" }] });
    expect(closuresOf({ effect: "skips", stations: ["MARTA-FP"] }).station_restrictions?.[0]?.restriction).toBe("skip");
    expect(closuresOf({ effect: "replacement_bus", lines: ["red"], sections: [{ line: "red", from: "MARTA-NS", to: "MARTA-DW" }] })).toEqual({
      line_closures: [{ line: "red", from_station: "MARTA-NS", to_station: "MARTA-DW" }],
    });
    expect(closuresOf({ effect: "delays", stations: ["MARTA-FP"] })).toEqual({});
    expect(applyFare({ effect: "fare_free" }, 5, 2)).toBe(0);
    expect(applyFare({ effect: "fare_cap", fare: { cap: 0.01 } }, 5, 2)).toBe(0.02);
    expect(applyFare({ effect: "fare_surcharge", fare: { multiplier: 1.055 } }, 4.5, 1)).toBe(4.75);
    expect(applyFare({ effect: "fare_surcharge", fare: { surcharge: 0.5 } }, 4, 2)).toBe(5);
    expect(applyFare({ effect: "fare_discount", fare: { amount_off: 3 } }, 5, 2)).toBe(0);
    expect(inForce({ effect: "delays", applies: { from: "2026-03-14T06:00", until: "2026-03-14T22:00" } }, "2026-03-14T22:00")).toBe(false);

    // a free-ride entry: inside its window the tools' total becomes 0, outside it stays the tools' total
    const id = idIn("marta", "tune", "o");
    const free = "{effect: fare_free, applies: {from: '2026-03-14T06:00', until: '2026-03-14T22:00'}}";
    const [c] = loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-NS", "2026-03-14T10:00", "sale") + probe("MARTA-AP", "MARTA-NS", "2026-03-14T23:00", "sale"), free) }));
    const plain = computeSale(pack, "marta", { origin: "MARTA-AP", destination: "MARTA-NS", riders: { adults: 1 } }, "test");
    expect(plain.total).toBeGreaterThan(0);
    expect(c?.probes.map((p) => p.sale?.total)).toEqual([0, plain.total]);

    // a fare effect tied to where the trip enters: only a trip from Airport rides free
    const fromAirport = "{effect: fare_free, fare: {origins: [MARTA-AP]}, applies: {from: '2026-03-14T06:00', until: '2026-03-14T22:00'}}";
    const [o] = loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-NS", "2026-03-14T10:00", "sale") + probe("MARTA-NS", "MARTA-AP", "2026-03-14T10:00", "sale"), fromAirport) }));
    expect(o?.probes.map((p) => p.sale?.total)).toEqual([0, plain.total]);
    // a fare effect for eligible riders only: the plain total unless the probe says the rider is eligible
    const eligible = "{effect: fare_discount, fare: {multiplier: 0.5, eligible: a card}, applies: {from: '2026-03-14T06:00'}}";
    const [e] = loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-NS", "2026-03-14T10:00", "sale") + probe("MARTA-AP", "MARTA-NS", "2026-03-14T10:00", "sale", ", eligible: true"), eligible) }));
    expect(e?.probes.map((p) => p.sale?.total)).toEqual([plain.total, Math.round(plain.total * 50) / 100]);
  });

  it("holds each probe's outcome to its twin: a sale needs a route under the closures, a no-sale needs none", () => {
    const id = idIn("marta", "tune", "o");
    // Five Points closed outright: Airport → North Springs has no route (the trunk passes through it)
    const ok = loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-NS", "2026-03-14T10:00", "no_sale") + probe("MARTA-AP", "MARTA-NS", "2026-03-14T23:00", "sale")) }));
    expect(ok[0]?.probes.map((p) => p.inForce)).toEqual([true, false]);
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-NS", "2026-03-14T10:00", "sale") + probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale")) }))).toThrow(
      /entry 0 .*probe 0: field probes\.0\.expect: sale, but no route MARTA-AP → MARTA-NS under the twin/,
    );
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "no_sale") + probe("MARTA-AP", "MARTA-EP", "2026-03-14T23:00", "sale")) }))).toThrow(
      /probe 0: field probes\.0\.expect: no_sale, but the twin leaves a route/,
    );
    // ask is the passenger's question, not the route's: it needs no route check
    expect(loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-NS", "2026-03-14T10:00", "ask") + probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale")) }))).toHaveLength(1);
    // …but the notice must be in force: a question it makes necessary cannot come before it
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, probe("MARTA-AP", "MARTA-NS", "2026-03-14T05:00", "ask") + probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale")) }))).toThrow(
      /probe 0: field probes\.0\.at: ask, but the notice does not apply at 2026-03-14T05:00/,
    );
  });


  it("holds a sale to the pack's service hours, unless the twin runs trains then (service_until, service_from), and lets a no-sale rest on them", () => {
    const id = idIn("marta", "tune", "o");
    // MARTA runs 05:00–01:00: at 02:00 no train runs, whatever the notice says of Five Points
    const notice = "{effect: no_effect_on_sales, applies: {from: '2026-03-14T00:00', until: '2026-03-16T00:00'}}";
    const late = probe("MARTA-AP", "MARTA-EP", "2026-03-15T02:00", "sale") + probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale");
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, late, notice) }))).toThrow(
      /probe 0: field probes\.0\.at: sale, but 02:00 on sunday is outside service hours: the kiosk sells by the pack's hours/,
    );
    // a notice that runs trains until 03:00 (read in the twin) makes the same sale due
    const later = "{effect: no_effect_on_sales, applies: {from: '2026-03-14T00:00', until: '2026-03-16T00:00'}, service_until: '03:00'}";
    expect(loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, late, later) }))[0]?.probes[0]?.sale?.route.path[0]).toBe("MARTA-AP");
    // …only on the lines it names
    const laterOnGreen = "{effect: no_effect_on_sales, lines: [green], applies: {from: '2026-03-14T00:00', until: '2026-03-16T00:00'}, service_until: '03:00'}";
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, late, laterOnGreen) }))).toThrow(/probe 0: field probes\.0\.at: sale, but 02:00/);
    // an earlier opening ("from 4 am") makes a morning sale due
    const early = probe("MARTA-AP", "MARTA-EP", "2026-03-15T04:30", "sale") + probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale");
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, early, notice) }))).toThrow(/04:30 on sunday is outside service hours/);
    const earlier = "{effect: no_effect_on_sales, applies: {from: '2026-03-14T00:00', until: '2026-03-16T00:00'}, service_from: '04:00'}";
    expect(loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, early, earlier) }))).toHaveLength(1);
    // no train at 02:00 is reason enough for a no-sale, though the twin leaves the route open
    const none = probe("MARTA-AP", "MARTA-EP", "2026-03-15T02:00", "no_sale") + probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale");
    expect(loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(id, none, notice) }))).toHaveLength(1);
  });
  it("names the file, the entry and the field of a bad entry, and refuses unknown stations, lines, duplicates and the wrong half", () => {
    const tune = idIn("marta", "tune", "o");
    const report = idIn("marta", "report", "o");
    const two = probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale") + probe("MARTA-AP", "MARTA-EP", "2026-03-15T10:00", "sale");
    expect(() => parseOperatorFile("x/tune/marta.yaml", entry(tune, probe("MARTA-AP", "MARTA-EP", "2026-03-14T10:00", "sale")))).toThrow(/x\/tune\/marta\.yaml: entry 0, field probes/);
    expect(() => parseOperatorFile("f.yaml", entry(tune, two.replace("expect: sale}", "expect: sale, total: 2.5}")))).toThrow(/entry 0, field probes\.0/);
    expect(() => parseOperatorFile("f.yaml", entry(tune, two, "{effect: fare_discount}"))).toThrow(/entry 0, field reading\.fare: effect fare_discount needs fare/);
    expect(() => parseOperatorFile("f.yaml", entry(tune, two, "{effect: closed}"))).toThrow(/field reading\.stations/);
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(tune, two, "{effect: closed, stations: [MARTA-XX]}") }))).toThrow(/entry 0 .*field reading\.stations\.0: unknown station MARTA-XX/);
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(tune, two, "{effect: suspended, lines: [red], sections: [{line: red, from: MARTA-AP, to: MARTA-BK}]}") }))).toThrow(
      /field reading\.sections\.0\.to: MARTA-BK is not on line red/,
    );
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(tune, two, "{effect: delays, lines: [purple]}") }))).toThrow(/field reading\.lines\.0: unknown line purple/);
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(tune, two, "{effect: delays}") + entry(tune, two, "{effect: delays}") }))).toThrow(/entry 1 .*field id: duplicate/);
    expect(() => loadOperators(pack, corpusDir({ "tune/marta.yaml": entry(report, two, "{effect: delays}") }))).toThrow(/field id: its hash puts it in the report half/);
  });
});
