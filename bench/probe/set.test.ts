import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { deriveProbeSet, probeCases, PROBE_SET_IDS, PROBE_SET_SIZE } from "./set.ts";

const pack = new DataPack(SHARED_DATA_DIR);

describe("latency probe set", () => {
  it("is the documented rule applied to the pack: first held-out case of each category A–K, then four more held-out compound cases", () => {
    expect(PROBE_SET_IDS).toHaveLength(PROBE_SET_SIZE);
    expect(deriveProbeSet(pack)).toEqual(PROBE_SET_IDS);
    const cases = probeCases(pack);
    const holdout = pack.holdoutIds();
    expect(cases.every((c) => holdout.has(c.id))).toBe(true);
    expect(cases.slice(0, 11).map((c) => c.category)).toEqual(["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"]);
    expect(cases.slice(11).every((c) => c.category === "K")).toBe(true);
  });

  it("takes the first N cases for a reduced probe and refuses sizes outside 1..15", () => {
    expect(probeCases(pack, 2).map((c) => c.id)).toEqual(["MARTA-A-001", "MARTA-B-011"]);
    expect(() => probeCases(pack, 0)).toThrow(/--cases must be 1..15/);
    expect(() => probeCases(pack, 16)).toThrow(/--cases must be 1..15/);
  });
});
