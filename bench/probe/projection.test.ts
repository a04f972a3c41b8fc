// The MacBook Air M2 projection: bandwidth-bound decode scaled by model bytes (the paper's ~18 tok/s
// for the 2.6 GB 4B), compute-bound prefill, and seconds per session from measured token counts.
import { describe, expect, it } from "vitest";
import { AIR_M2, projectAirM2 } from "./projection.ts";

describe("Air M2 projection", () => {
  it("reproduces the paper's ~18 tok/s for the 2.6 GB 4B and scales decode by model bytes", () => {
    const four = projectAirM2({ bytes: 2.6e9, parameters: 4.2e9 }, []);
    expect(four.decodeTokS).toBeCloseTo(18.1, 1);
    expect(four.decodeCeilingTokS).toBeCloseTo(38.5, 1);
    expect(four.kind).toBe("projection");
    const nine = projectAirM2({ bytes: 5.3e9, parameters: 9e9 }, []);
    expect(nine.decodeTokS / four.decodeTokS).toBeCloseTo(2.6 / 5.3, 5);
    expect(four.prefillTokS).toBeCloseTo((AIR_M2.prefillEfficiency * AIR_M2.gpuFlops) / (2 * 4.2e9), 5);
    expect(four.meanSessionSeconds).toBeNull();
  });

  it("prices each session's prefilled and generated tokens", () => {
    const p = projectAirM2({ bytes: 2.6e9, parameters: 4.2e9 }, [
      { prefillTokens: 1000, generatedTokens: 300 },
      { prefillTokens: 0, generatedTokens: 100 },
    ]);
    const first = 1000 / p.prefillTokS + 300 / p.decodeTokS;
    const second = 100 / p.decodeTokS;
    expect(p.meanSessionSeconds).toBeCloseTo((first + second) / 2, 6);
    expect(p.maxSessionSeconds).toBeCloseTo(first, 6);
    expect(p.meanGeneratedTokens).toBe(200);
    expect(p.assumptions.join(" ")).toMatch(/paper/);
  });
});
