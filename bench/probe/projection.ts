// A MacBook Air M2 projection of the probe's sessions — a projection, not a measurement: no Air
// runs here. Decode on Apple Silicon is memory-bandwidth bound (every generated token reads all the
// weights once), so decode tok/s ≈ efficiency × bandwidth ÷ model bytes. The efficiency is the one
// implied by the paper's own projection for the Air (~18 tok/s for the 2.6 GB 4B student at
// 100 GB/s → 0.47), so other model sizes scale by their bytes. Prefill is compute bound: a stated
// fraction of the M2 GPU's FP16 throughput over 2 FLOPs per parameter per token. Per session, the
// probe's measured token counts (prompt tokens not reused from the cache, generated tokens) are
// priced at those rates.

export const AIR_M2 = {
  name: "MacBook Air M2 (8-core GPU, 100 GB/s unified memory)",
  bandwidthBytesPerS: 100e9,
  /** FP16 throughput of the 8-core M2 GPU (Apple: 3.6 TFLOPS). */
  gpuFlops: 3.6e12,
  /** 18 tok/s × 2.6 GB ÷ 100 GB/s: the efficiency behind the paper's Air projection for the 4B. */
  decodeEfficiency: 0.47,
  /** Assumed share of peak FLOPs a Q4_K prefill reaches on Metal (an assumption, stated as such). */
  prefillEfficiency: 0.3,
} as const;

export interface SessionTokens {
  /** Prompt tokens evaluated (not reused from the KV cache) over the session's model rounds. */
  prefillTokens: number;
  /** Tokens generated over the session's model rounds. */
  generatedTokens: number;
}

export interface AirProjection {
  machine: string;
  /** Always "projection": printed next to every figure. */
  kind: "projection";
  modelBytes: number;
  parameters: number;
  decodeCeilingTokS: number;
  decodeTokS: number;
  prefillTokS: number;
  /** Sessions that used the model (hybrid: the ones routed to it). */
  sessions: number;
  meanPrefillTokens: number | null;
  meanGeneratedTokens: number | null;
  /** Projected seconds per model session (mean and the slowest). */
  meanSessionSeconds: number | null;
  maxSessionSeconds: number | null;
  assumptions: string[];
}

export function projectAirM2(model: { bytes: number; parameters: number }, sessions: readonly SessionTokens[]): AirProjection {
  const ceiling = AIR_M2.bandwidthBytesPerS / model.bytes;
  const decodeTokS = AIR_M2.decodeEfficiency * ceiling;
  const prefillTokS = (AIR_M2.prefillEfficiency * AIR_M2.gpuFlops) / (2 * model.parameters);
  const seconds = sessions.map((s) => s.prefillTokens / prefillTokS + s.generatedTokens / decodeTokS);
  const mean = (xs: number[]): number | null => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return {
    machine: AIR_M2.name,
    kind: "projection",
    modelBytes: model.bytes,
    parameters: model.parameters,
    decodeCeilingTokS: ceiling,
    decodeTokS,
    prefillTokS,
    sessions: sessions.length,
    meanPrefillTokens: mean(sessions.map((s) => s.prefillTokens)),
    meanGeneratedTokens: mean(sessions.map((s) => s.generatedTokens)),
    meanSessionSeconds: mean(seconds),
    maxSessionSeconds: seconds.length > 0 ? Math.max(...seconds) : null,
    assumptions: [
      `decode = ${AIR_M2.decodeEfficiency} × 100 GB/s ÷ ${(model.bytes / 1e9).toFixed(2)} GB per token (the efficiency implied by the paper's ~18 tok/s for the 4B on the Air)`,
      `prefill = ${AIR_M2.prefillEfficiency} × 3.6 TFLOPS ÷ (2 × ${(model.parameters / 1e9).toFixed(2)} B parameters) (assumed efficiency)`,
      "per session: the probe's own token counts (prompt tokens not reused from the cache, generated tokens) at those rates",
    ],
  };
}
