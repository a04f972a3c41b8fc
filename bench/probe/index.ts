// The latency probe: the fixed probe set, the measurements, and their outputs.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { LatencyProbeResult } from "../../runtime/kiosk/bridge.ts";
import { probeFigures } from "./format.ts";
import { runProbe, type ProbeOptions } from "./probe.ts";

export { probeFigures, probeJson, renderProbeTable } from "./format.ts";
export { latencyStats, nearestRank, runProbe, type ProbeOptions, type ProbeResult } from "./probe.ts";
export { deriveProbeSet, probeCases, PROBE_SET_IDS, PROBE_SET_SIZE } from "./set.ts";

/**
 * The technician screen's latency probe (BenchTechnicianOptions.probe): the full probe with the
 * kiosk's model, its headline figures as label/value pairs.
 */
export function technicianLatencyProbe(pack: DataPack, options: Omit<ProbeOptions, "pack" | "model"> = {}): (model: string) => Promise<LatencyProbeResult> {
  return async (model) => {
    const result = await runProbe({ ...options, pack, model });
    return { available: true, model: result.model.fileName, figures: probeFigures(result) };
  };
}
