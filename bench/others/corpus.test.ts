import { beforeAll, describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { corpusDir, idIn, outsideTheirHalf, repeatsOfEarlierHalves } from "../../test/others-corpus.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { computeSale, loadCorpus, loadFiles, parseFile, type CorpusEntry } from "./corpus.ts";

const pack = new DataPack(SHARED_DATA_DIR);

const entry = (id: string, expectYaml: string) =>
  `- id: ${id}\n  source: {name: t, url: "https://example.org/x", licence: CC BY 4.0, original: "from a to b"}\n  text: "from a to b"\n  language: en\n  expect: ${expectYaml}\n`;

describe("others' passenger corpus", () => {
  // loaded in a hook, so that a bad file fails the tests with its message rather than the collection
  let corpus: CorpusEntry[] = [];
  beforeAll(() => {
    corpus = loadCorpus(pack);
  });

  it("parses, with unique ids, known stations, and a route and a computed total for every sale", () => {
    expect(new Set(corpus.map((c) => c.entry.id)).size).toBe(corpus.length);
    for (const c of corpus) {
      if (!c.sale) continue;
      expect(c.sale.route.path[0]).toBe(c.sale.origin);
      expect(c.sale.route.path.at(-1)).toBe(c.sale.destination);
      expect(c.sale.total).toBeGreaterThanOrEqual(0);
    }
  });

  it("puts every entry of the split halves in the half its id's hash says, and repeats no text of an earlier half in a later one", () => {
    expect(outsideTheirHalf(corpus)).toEqual([]);
    const halves = new Set(corpus.map((c) => c.half));
    expect(halves).toContain("tune");
    expect(halves).toContain("report");
    expect(repeatsOfEarlierHalves(corpus)).toEqual([]);
  });

  it("has at least 300 entries, 40 per system, sales and no-sales, and more than one language", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    const perSystem = new Map<string, number>();
    for (const c of corpus) perSystem.set(c.system, (perSystem.get(c.system) ?? 0) + 1);
    expect(perSystem.size).toBe(pack.systemIds.length);
    for (const [system, n] of perSystem) expect(n, system).toBeGreaterThanOrEqual(40);
    expect(corpus.filter((c) => c.sale === null).length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.map((c) => c.entry.language)).size).toBeGreaterThanOrEqual(2);
    for (const c of corpus) expect(c.entry.source.original.length, c.entry.id).toBeGreaterThan(0);
  });

  it("prices a sale with the pack's own tools, the same total a direct call gives", () => {
    const sale = computeSale(pack, "bart", { origin: "BART-EMBR", destination: "BART-SFO", riders: { adults: 2 } }, "test");
    const tools = new ToolSession(pack.system("bart"));
    const route = tools.call("route_planner", { origin: "BART-EMBR", destination: "BART-SFO" });
    expect(route.ok).toBe(true);
    if (!route.ok) throw new Error(route.body);
    const fare = tools.call("fare_calculator", { route_id: (route.result as { route_id: string }).route_id, passengers: { adults: 2, children: 0, seniors: 0, disabled: 0 } });
    if (!fare.ok) throw new Error(fare.body);
    expect(sale.total).toBe((fare.result as { total: number }).total);
    expect(sale.total).toBeGreaterThan(0);
    // a child under the fare rule's age rides free where the pack says so
    const withChild = computeSale(pack, "marta", { origin: "MARTA-AP", destination: "MARTA-FP", riders: { adults: 1, children: 1 } }, "test");
    const alone = computeSale(pack, "marta", { origin: "MARTA-AP", destination: "MARTA-FP", riders: { adults: 1 } }, "test");
    expect(withChild.total).toBe(alone.total + (pack.system("marta").fares.discounts?.children?.fare ?? Number.NaN));
  });

  it("names the file, the entry index and the field of a bad entry", () => {
    expect(() => parseFile("x/tune/marta.yaml", entry("marta-p-001", "{sale: {origin: MARTA-AP, destination: MARTA-FP, riders: {adults: two}}}"))).toThrow(
      /x\/tune\/marta\.yaml: entry 0, field expect/,
    );
    expect(() => parseFile("f.yaml", entry("marta-p-001", "{sale: {origin: MARTA-AP, destination: MARTA-FP, riders: {adults: 1}}, no_sale: why}"))).toThrow(/entry 0, field expect/);
    expect(() => parseFile("f.yaml", entry("marta-p-001", "{sale: {origin: MARTA-AP, destination: MARTA-FP, riders: {adults: 1}, total: 2.5}}"))).toThrow(/entry 0, field expect/);
  });

  it("refuses an unknown station, a duplicate id and an entry in the wrong half", () => {
    const tune = idIn("marta", "tune");
    const report = idIn("marta", "report");
    const ok = "{sale: {origin: MARTA-AP, destination: MARTA-FP, riders: {adults: 1}}}";
    expect(() => loadCorpus(pack, corpusDir({ "tune/marta.yaml": entry(tune, "{sale: {origin: MARTA-XX, destination: MARTA-FP, riders: {adults: 1}}}") }))).toThrow(
      /marta\.yaml: entry 0 .*field expect\.sale\.origin: unknown station MARTA-XX/,
    );
    expect(() => loadCorpus(pack, corpusDir({ "tune/marta.yaml": entry(tune, ok) + entry(tune, ok) }))).toThrow(/entry 1 .*field id: duplicate/);
    // a sale at a station the pack's knowledge base says is permanently closed is no sale to expect
    const cta = idIn("cta", "tune");
    expect(() => loadCorpus(pack, corpusDir({ "tune/cta.yaml": entry(cta, "{sale: {origin: CTA-STL, destination: CTA-KIM, riders: {adults: 1}}}") }))).toThrow(
      /field expect\.sale\.origin: CTA-STL is permanently closed/,
    );
    expect(() => loadCorpus(pack, corpusDir({ "tune/marta.yaml": entry(report, ok) }))).toThrow(/field id: its hash puts it in the report half/);
    const good = loadCorpus(pack, corpusDir({ "tune/marta.yaml": entry(tune, ok), "report/marta.yaml": entry(report, "{no_sale: a question}") }));
    expect(good.map((c) => [c.half, c.sale === null])).toEqual([
      ["tune", false],
      ["report", true],
    ]);
    expect(loadFiles(corpusDir({}))).toEqual([]);
  });

  it("takes any id in the fresh half, and the system from a file named <system>.<batch>.yaml", () => {
    const report = idIn("marta", "report");
    const ok = "{sale: {origin: MARTA-AP, destination: MARTA-FP, riders: {adults: 1}}}";
    const fresh = loadCorpus(pack, corpusDir({ "fresh/marta.sgd.yaml": entry(report, ok), "fresh/bart.yaml": entry("bart-p-501", "{no_sale: a question}") }), ["fresh"]);
    expect(fresh.map((c) => [c.system, c.half, c.entry.id])).toEqual([
      ["bart", "fresh", "bart-p-501"],
      ["marta", "fresh", report],
    ]);
    expect(() => loadCorpus(pack, corpusDir({ "fresh/marta.sgd.yaml": entry("bart-p-501", ok) }), ["fresh"])).toThrow(/does not start with the file's system "marta-"/);
  });
});
