// The station picker's search over Korean names (Busan's operator file): a name of two joined by a
// middle dot (경성대·부경대) is found typed run together or with a space, as the sources write it,
// and a first syllable lists every name it begins.
import { describe, expect, it } from "vitest";
import { foldForSearch, searchStations } from "./stationSearch.ts";
import type { StationView } from "./types.ts";

const station = (id: string, name: string, localNames: string[]): StationView => ({ id, name, localNames, lines: ["2"], lat: null, lon: null });
const STATIONS = [
  station("212", "Kyungsung Univ.-Pukyong Nat'l Univ.", ["경성대·부경대"]),
  station("217", "Busan Int'l Finance Center-Busan Bank", ["국제금융센터·부산은행"]),
  station("241", "Pusan Nat'l Univ. Yangsan Campus", ["부산대양산캠퍼스"]),
  station("113", "Busan Station", ["부산역"]),
];
const found = (query: string): string[] => searchStations(STATIONS, query).map((m) => m.station.id);

describe("station search over Korean names", () => {
  it("takes a middle dot as a word break", () => {
    expect(foldForSearch("경성대·부경대")).toBe(foldForSearch("경성대 부경대"));
  });

  it("finds a dotted name typed run together, with a space or with the dot, and a spaced one typed without", () => {
    for (const query of ["경성대부경대", "경성대 부경대", "경성대·부경대", "부경대"]) expect(found(query), query).toEqual(["212"]);
    expect(found("국제금융센터부산은행")).toEqual(["217"]);
    expect(found("부산대 양산캠퍼스")).toEqual(["241"]);
    // A first syllable lists every name it begins, and names it occurs inside after them.
    expect(found("부산")).toEqual(["113", "241", "217"]);
  });
});
