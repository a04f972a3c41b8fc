import { describe, expect, it } from "vitest";
import { isStepFree, stepFreeProblem } from "./accessibility.ts";

describe("step-free access", () => {
  it("is step-free only when the station says so and no lift is known to be missing", () => {
    expect(isStepFree({ step_free: true, elevator: true })).toBe(true);
    expect(isStepFree({ step_free: true, elevator: null })).toBe(true);
    expect(isStepFree({ step_free: true, elevator: false })).toBe(false);
    expect(isStepFree({ step_free: false, elevator: true })).toBe(false);
    expect(isStepFree({ step_free: null, elevator: true })).toBe(false);
    expect(isStepFree(undefined)).toBe(false);
  });

  it("says why not, and says so differently when nobody knows", () => {
    expect(stepFreeProblem({ step_free: true, elevator: null })).toBeNull();
    expect(stepFreeProblem({ step_free: true, elevator: false })).toBe("no working lift");
    expect(stepFreeProblem({ step_free: false, elevator: true })).toBe("no step-free access");
    expect(stepFreeProblem({ step_free: null, elevator: null })).toBe("no known step-free access");
  });
});
