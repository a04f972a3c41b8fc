import { describe, expect, it } from "vitest";
import type { Station } from "../../tools/data/schemas.ts";
import { accessibilityIssue } from "./accessibility.ts";

const station = (accessibility: Partial<Station["accessibility"]>): Station =>
  ({ id: "S", name: "S", lines: [], type: "unknown", connections: [], zone: "", accessibility: { elevator: null, escalator: null, step_free: null, tactile_paving: null, wide_gate: null, ...accessibility } }) as Station;

describe("the generator's accessibility answer key", () => {
  it("takes a station a feed marks wheelchair-accessible as step-free though it says nothing of lifts; silence is unknown", () => {
    expect(accessibilityIssue(station({ step_free: true }))).toBeNull();
    expect(accessibilityIssue(station({}))).toBe("accessibility unknown");
    expect(accessibilityIssue(station({ step_free: true, elevator: false }))).toBe("elevator out of service");
    expect(accessibilityIssue(station({ step_free: false, elevator: true }))).toBe("no step-free access");
  });
});
