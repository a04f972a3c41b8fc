// The probe's outputs on a synthetic result: the flat JSON's headline keys first, nearest-rank
// percentiles, the terminal table and the technician's figures.
import { describe, expect, it } from "vitest";
import type { ThreadDecision } from "../../models/thread-governor.ts";
import { adaptiveOutlook, probeFigures, probeJson, renderProbeTable } from "./format.ts";
import { latencyStats, nearestRank, type ProbeResult } from "./probe.ts";
import { projectAirM2 } from "./projection.ts";

const result: ProbeResult = {
  model: { file: "/m/Qwen3.5-4B-metro-v24-Q4_K_M.gguf", fileName: "Qwen3.5-4B-metro-v24-Q4_K_M.gguf", bytes: 2.6e9, quantization: "Q4_K_M", architecture: "qwen35", parameters: 4e9, catalogId: "4b", contextSize: 16384, threads: 7, gpu: "metal", recurrent: true, loadMs: 2100.25 },
  policy: "hybrid",
  machine: { cpuModel: "Apple M2", cpuCores: 8, memoryBytes: 16e9, platform: "darwin", arch: "arm64", osRelease: "24", node: "v20" },
  startedAt: "2026-01-01T00:00:00.000Z",
  loadMs: 2100.25,
  ttftColdMs: 9000,
  ttftWarmMs: 700,
  prefillTokensCold: 5000,
  prefillTokensWarm: 60,
  promptTokensCold: 5000,
  promptTokensWarm: 5050,
  cachedTokensWarm: 4990,
  coldCaseId: "MARTA-A-001",
  warmCaseId: "MARTA-B-011",
  prefillTokS: 555.55,
  decodeTokS: 21.04,
  decodeTokensMeasured: 64,
  cases: [
    { id: "MARTA-A-001", system: "marta", category: "A", e2eMs: 12.5, rounds: 4, termination: "submitted", promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0, firstTtftMs: null, path: "rule", answeredBy: "rule" },
    { id: "MARTA-C-004", system: "marta", category: "C", e2eMs: 20500, rounds: 5, termination: "submitted", promptTokens: 26000, cachedPromptTokens: 25000, completionTokens: 900, firstTtftMs: 800, path: "model", answeredBy: "model" },
  ],
  caseLatency: latencyStats([12.5, 20500]),
  byPath: { rule: latencyStats([12.5]), model: latencyStats([20500]) },
  sessionDecodeTokS: 19.5,
  threads: {
    used: 7,
    fromCache: true,
    table: {
      best: 7,
      results: [
        { threads: 4, decodeTokS: 15.25, prefillTokS: 300 },
        { threads: 7, decodeTokS: 20.5, prefillTokS: 410 },
      ],
      measuredAt: "2026-01-01T00:00:00.000Z",
      seconds: 9.5,
      machine: { cpuModel: "Apple M2", cores: 8, platform: "darwin", arch: "arm64" },
      model: { path: "/m/x.gguf", size: 2.6e9, mtimeMs: 1 },
      gpu: "metal",
    },
  },
  airProjection: projectAirM2({ bytes: 2.6e9, parameters: 4e9 }, [{ prefillTokens: 1000, generatedTokens: 900 }]),
  peakRssMb: 4321.5,
  sustained: {
    seconds: 60,
    samples: [
      { tS: 5, prefillTokens: 260, prefillTokS: 500, decodeTokens: 32, decodeTokS: 22 },
      { tS: 60, prefillTokens: 260, prefillTokS: 400, decodeTokens: 32, decodeTokS: 16.5 },
    ],
    decodeTokSFirst: 22,
    decodeTokSLast: 16.5,
    decodeDropPct: 25,
    prefillTokSFirst: 500,
    prefillTokSLast: 400,
  },
  wallMs: 90000,
};

describe("probe outputs", () => {
  it("nearest-rank percentiles", () => {
    expect(nearestRank([], 50)).toBeNull();
    expect(nearestRank([1, 2], 50)).toBe(1);
    expect(nearestRank([1, 2], 95)).toBe(2);
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect([nearestRank(values, 50), nearestRank(values, 95)]).toEqual([10, 19]);
    expect(latencyStats([3, 1, 2])).toEqual({ n: 3, p50Ms: 2, p95Ms: 3, meanMs: 2, maxMs: 3 });
  });

  it("one flat JSON object, headline keys first", () => {
    const json = probeJson(result);
    expect(Object.keys(json).slice(0, 10)).toEqual([
      "load_ms",
      "ttft_cold_ms",
      "ttft_warm_ms",
      "prefill_tokens_cold",
      "prefill_tokens_warm",
      "prefill_tok_s",
      "decode_tok_s",
      "case_latency_p50_ms",
      "case_latency_p95_ms",
      "peak_rss_mb",
    ]);
    expect(json).toMatchObject({ load_ms: 2100.2, prefill_tok_s: 555.5, decode_tok_s: 21, case_latency_p50_ms: 12.5, case_latency_p95_ms: 20500, peak_rss_mb: 4321.5 });
    expect(json.by_path).toEqual({ rule: { n: 1, p50_ms: 12.5, p95_ms: 12.5, mean_ms: 12.5, max_ms: 12.5 }, model: { n: 1, p50_ms: 20500, p95_ms: 20500, mean_ms: 20500, max_ms: 20500 } });
    expect(json.sustained).toMatchObject({ seconds: 60, decode_drop_pct: 25, samples: [{ t_s: 5 }, { t_s: 60 }] });
    expect(json.model).toMatchObject({ quantization: "Q4_K_M", threads: 7, gpu: "metal" });
    expect(json.threads).toMatchObject({ used: 7, best: 7, from_cache: true, table: [{ threads: 4, decode_tok_s: 15.2 }, { threads: 7, decode_tok_s: 20.5 }] });
    expect(json.air_m2_projection).toMatchObject({ kind: "projection", model_sessions: 1 });
  });

  it("renders the figures and the per-case table", () => {
    const figures = probeFigures(result);
    expect(figures.map((f) => f.label)).toEqual([
      "model",
      "load",
      "first token, cold",
      "first token, warm",
      "prefill",
      "decode",
      "per case (2 cases)",
      "  routed to rule (1)",
      "  routed to model (1)",
      "peak memory (RSS)",
      "threads",
      "Air M2 (projection)",
      "sustained 60 s (2 samples)",
    ]);
    expect(figures.find((f) => f.label === "threads")?.value).toBe("4: 15.3 tok/s · 7: 20.5 tok/s → 7 used");
    expect(figures.find((f) => f.label === "decode")?.value).toBe("21.0 tok/s");
    expect(figures.at(-1)?.value).toBe("decode 22.0 tok/s → 16.5 tok/s (−25.0 %) · prefill 500 tok/s → 400 tok/s");
    const text = renderProbeTable(result);
    expect(text).toMatch(/^MARTA-C-004 +20\.5 s +5 +26000 +25000 +900 +800 ms +submitted +model +model$/m);
    expect(text).toContain("peak memory (RSS)           4.22 GB");
    // The thread table, and the Air projection labelled as one.
    expect(text).toMatch(/^ +7 +20\.5 tok\/s +410 tok\/s +fastest, used$/m);
    expect(text).toContain("PROJECTION (not measured): MacBook Air M2");
    expect(text).toMatch(/per model session \(1\) +\d+\.\d s mean/);
    expect(probeJson(result).threads).toMatchObject({ adaptive: null });
  });

  it("shows the adaptive thread count's decisions and what it would do next", () => {
    const decision: ThreadDecision = {
      trigger: { kind: "slow", threads: 7, observedTokS: 4, expectedTokS: 20.5 },
      measured: [
        { threads: 4, decodeTokS: 14, prefillTokS: 280 },
        { threads: 7, decodeTokS: 4.5, prefillTokS: 100 },
      ],
      from: 7,
      to: 4,
      outcome: "switched",
      nextComeBackMs: 120_000,
    };
    const status = { threads: 4, quietBest: 7, observedTokS: 13.5, watchedRounds: 3, expectedTokS: 14, slowBelowTokS: 7, wouldRemeasure: false, comeBackInMs: 90_000 };
    const adaptive: ProbeResult = { ...result, threads: { ...result.threads, used: 4, adaptive: { decisions: [decision], status } } };
    const line = "threads: decode at 7 threads fell to 4.0 tok/s (median of the last rounds; 20.5 tok/s measured); re-measured 4: 14.0 tok/s · 7: 4.5 tok/s → switched to 4 threads (next check in 120 s)";
    expect(probeJson(adaptive).threads).toMatchObject({
      used: 4,
      adaptive: { decisions: [line], observed_decode_tok_s: 13.5, remeasure_below_tok_s: 7, would: "check in 90 s whether 7 threads (the quiet-machine best) is faster again" },
    });
    expect(probeFigures(adaptive).find((f) => f.label === "adaptive threads")?.value).toBe(
      "1 re-measure; watched decode 13.5 tok/s; would check in 90 s whether 7 threads (the quiet-machine best) is faster again",
    );
    expect(renderProbeTable(adaptive)).toContain(line);
    expect(adaptiveOutlook({ ...status, threads: 7, comeBackInMs: null, observedTokS: 5, wouldRemeasure: true })).toBe("re-measure: decode at 7 threads is under 7.0 tok/s");
    expect(adaptiveOutlook({ ...status, threads: 7, comeBackInMs: null })).toBe("keep 7 threads (re-measures when decode falls under 7.0 tok/s)");
  });
});
