import { describe, expect, it } from "vitest";
import { othersHalvesFor } from "./bench-robustness.ts";

describe("kiosk bench robustness: which half of the others' texts runs", () => {
  it("runs the tune half unless --half names another, so that no half nobody tuned on is graded by accident", () => {
    // commander's default for --half is "report" (our suite's); not named, the others' texts stay on tune
    expect(othersHalvesFor("report", false)).toEqual(["tune"]);
    expect(othersHalvesFor("report", true)).toEqual(["report"]);
    expect(othersHalvesFor("fresh", true)).toEqual(["fresh"]);
    expect(othersHalvesFor("all", true)).toEqual(["tune", "report", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8"]);
    expect(() => othersHalvesFor("newest", true)).toThrow("--half must be tune, report, fresh, fresh2, fresh3, fresh4, fresh5, fresh6, fresh7, fresh8 or all for the others' texts, got 'newest'");
  });
});
