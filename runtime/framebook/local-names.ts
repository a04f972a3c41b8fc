// Loading what the passenger-language layer needs beyond stations.json: native names from the
// data pack's gtfs files and the operator's framebooks/<system>/local-names.yaml (local names,
// common names/aliases, landmarks). Node I/O; the language layer itself stays pure.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { hasLanguageData, registerLanguageData, type LanguageData } from "../language/index.ts";
import { loadOperatorLocalNames, loadStationGeo } from "../kiosk/node/pack-extras.ts";

/** The repository's operator data folder (framebooks/), the default for bench and kiosk. */
export const DEFAULT_OPERATOR_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../framebooks");

export function loadLanguageData(packRoot: string, system: SystemData, operatorDir: string | undefined = DEFAULT_OPERATOR_DIR, systemDir?: string): LanguageData {
  const geo = loadStationGeo(packRoot, system.id);
  const operator = loadOperatorLocalNames(operatorDir, system, systemDir);
  const localNames = new Map<string, string[]>();
  for (const s of system.stations) {
    const names = [...(geo.lookup(s.name)?.nativeNames ?? []), ...(operator?.byStation.get(s.id) ?? [])];
    if (names.length > 0) localNames.set(s.id, names);
  }
  return { localNames, aliases: operator?.aliases ?? new Map(), landmarks: operator?.landmarks ?? new Map(), lineNames: operator?.byLine ?? new Map(), lineAliases: operator?.lineAliases ?? new Map() };
}

/**
 * Register a system's language data once per process (bench cases and kiosk sessions alike),
 * loaded when a lexicon first needs it.
 */
export function ensureLanguageData(pack: Pick<DataPack, "root"> & Partial<Pick<DataPack, "systemDir">>, system: SystemData, operatorDir?: string): void {
  if (hasLanguageData(system.id)) return;
  registerLanguageData(system.id, () => loadLanguageData(pack.root, system, operatorDir, pack.systemDir?.(system.id)));
}
