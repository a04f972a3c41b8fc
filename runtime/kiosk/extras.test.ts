// The extras of a system that is not the pack's: its stations' own coordinates, its line drawings
// simplified for the screen, and an attribution from its source.json that claims nothing of the pack.
import { describe, expect, it } from "vitest";
import { StationSchema, type Station } from "../../tools/data/schemas.ts";
import { addStationCoordinates, attributionFromImportSource, simplifyCourse, StationGeoIndex } from "./extras.ts";

const station = (id: string, name: string, extra: Record<string, unknown>): Station =>
  StationSchema.parse({ id, name, lines: ["L"], type: "unknown", accessibility: { elevator: null, escalator: null, step_free: null, tactile_paving: null, wide_gate: null }, connections: [], zone: id, ...extra });

describe("station coordinates from stations.json", () => {
  it("are found by station id, win over a name match, and keep the name match's native names", () => {
    const index = new StationGeoIndex();
    index.add(new Map([["Ameerpet", { lat: 1, lon: 2, nativeNames: ["అమీర్‌పేట"] }]]));
    addStationCoordinates(index, [station("AME", "Ameerpet", { lat: 17.4353, lon: 78.4446 }), station("MYP", "Miyapur", { lat: 17.4965, lon: 78.373 })]);
    expect(index.find({ id: "AME", name: "Ameerpet" })).toEqual({ lat: 17.4353, lon: 78.4446, nativeNames: ["అమీర్‌పేట"] });
    expect(index.find({ id: "MYP", name: "Miyapur" })).toEqual({ lat: 17.4965, lon: 78.373, nativeNames: [] });
  });

  it("leave a station without both (or with non-numbers) to the name match, or without any", () => {
    const index = addStationCoordinates(new StationGeoIndex(), [station("A", "A", { lat: 17.4 }), station("B", "B", { lat: "17.4", lon: "78.4" }), station("C", "C", {})]);
    expect(["A", "B", "C"].map((id) => index.find({ id, name: id }))).toEqual([undefined, undefined, undefined]);
  });
});

describe("line drawings", () => {
  it("keep the ends and every bend farther than the tolerance, and drop points on the way", () => {
    // About 100 m steps east along a parallel, with one 200 m kink north in the middle.
    const straight: [number, number][] = Array.from({ length: 11 }, (_, i) => [17.4, 78.4 + i * 0.00094]);
    const kinked = straight.map(([lat, lon], i): [number, number] => [i === 5 ? lat + 0.0018 : lat, lon]);
    expect(simplifyCourse(straight)).toEqual([straight[0], straight[10]]);
    expect(simplifyCourse(kinked)).toEqual([kinked[0], kinked[4], kinked[5], kinked[6], kinked[10]]);
    expect(simplifyCourse(kinked, 500)).toEqual([kinked[0], kinked[10]]);
    expect(simplifyCourse([[1, 2]])).toEqual([[1, 2]]);
    // A course that runs 300 m on and turns back 200 m keeps its far end, though it lies on the line of the ends.
    const turnBack: [number, number][] = [[17.4, 78.4], [17.4, 78.4 + 3 * 0.00094], [17.4, 78.4 + 0.00094]];
    expect(simplifyCourse(turnBack)).toEqual(turnBack);
  });
});

describe("the attribution of an imported system", () => {
  it("the feed's attribution, that it is imported, whose feed, and the licence's name; nothing of the pack", () => {
    const text = attributionFromImportSource(
      {
        agency: ["Hyderabad Metro Rail"],
        publisher: { name: "Open Data Telangana", url: "https://data.telangana.gov.in/" },
        attribution: "Contains data provided by Hyderabad Metro Rail Ltd.",
        licence: "\nOpen Government Data License - India\n\nFull text…",
      },
      "Hyderabad Metro Rail",
    );
    expect(text).toBe(
      "Contains data provided by Hyderabad Metro Rail Ltd. Imported data: the GTFS feed of Hyderabad Metro Rail, published by Open Data Telangana (https://data.telangana.gov.in/). Licence: Open Government Data License - India.",
    );
    expect(text).not.toMatch(/MetroLLM|Wikipedia/);
  });

  it("without an attribution line or a publisher: still says it is imported and whose network", () => {
    expect(attributionFromImportSource({ agency: [], publisher: null, attribution: null, licence: null }, "Busan Transportation Corporation")).toBe(
      "Imported data: the GTFS feed of Busan Transportation Corporation.",
    );
  });
});
