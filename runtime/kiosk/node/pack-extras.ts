// The Node adapter of the kiosk's system extras (extras.ts): reads the data pack's gtfs files and
// NOTICE and the operator's local-names files from disk.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DataFileError } from "../../../tools/data/errors.ts";
import { parseYamlText } from "../../../tools/data/parse.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { attributionFromNotice, gtfsStationEntries, LOCAL_NAMES_FILE, LocalNamesFileSchema, StationGeoIndex, type OperatorLocalNames, type SystemExtrasSource } from "../extras.ts";

/** The extras of the pack at `packRoot`, with the operator's local names from `operatorDir`. */
export function packExtras(packRoot: string, operatorDir?: string): SystemExtrasSource {
  return {
    geo: (system) => loadStationGeo(packRoot, system.id),
    operatorNames: (system) => loadOperatorLocalNames(operatorDir, system),
    attribution: (system) => readAttribution(packRoot, system.id),
  };
}

/** data/gtfs/<system>_*.json of the pack (missing folder or files → an empty index). */
export function loadStationGeo(packRoot: string, system: string): StationGeoIndex {
  const index = new StationGeoIndex();
  const dir = path.join(packRoot, "data", "gtfs");
  if (!existsSync(dir)) return index;
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(`${system}_`) && f.endsWith(".json"))
    .sort();
  for (const f of files) {
    const full = path.join(dir, f);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(full, "utf8"));
    } catch (err) {
      throw new DataFileError(full, [{ message: `not valid JSON: ${(err as Error).message}` }]);
    }
    index.add(gtfsStationEntries(json));
  }
  return index;
}

/**
 * `<operatorDir>/<system>/local-names.yaml`, validated against the system's station ids (an
 * unknown id is an operator typo: reported, not ignored). Undefined when there is no such file.
 */
export function loadOperatorLocalNames(operatorDir: string | undefined, system: SystemData): OperatorLocalNames | undefined {
  if (!operatorDir) return undefined;
  const file = path.join(operatorDir, system.id, LOCAL_NAMES_FILE);
  if (!existsSync(file)) return undefined;
  const parsed = parseYamlText(readFileSync(file, "utf8"), file, LocalNamesFileSchema).value;
  const lineIds = new Set(system.lines.map((l) => l.id));
  const methodIds = new Set(Object.keys(system.fares.payment_methods ?? {}));
  const unknownStation = (id: string): string => `unknown station id '${id}' for system ${system.id}`;
  const problems = [
    ...Object.keys(parsed.names ?? {})
      .filter((id) => !system.hasStationId(id))
      .map((id) => ({ path: ["names", id], message: unknownStation(id) })),
    ...Object.entries(parsed.name_sources ?? {}).flatMap(([id, keys]) => [
      ...(system.hasStationId(id) ? [] : [{ path: ["name_sources", id], message: unknownStation(id) }]),
      ...keys.filter((key) => parsed.references?.[key] === undefined).map((key) => ({ path: ["name_sources", id], message: `unknown reference '${key}' (not in references)` })),
    ]),
    ...Object.keys(parsed.aliases ?? {})
      .filter((id) => !system.hasStationId(id))
      .map((id) => ({ path: ["aliases", id], message: unknownStation(id) })),
    ...Object.entries(parsed.landmarks ?? {}).flatMap(([name, ids]) =>
      ids.filter((id) => !system.hasStationId(id)).map((id) => ({ path: ["landmarks", name], message: unknownStation(id) })),
    ),
    ...Object.keys(parsed.lines ?? {})
      .filter((id) => !lineIds.has(id))
      .map((id) => ({ path: ["lines", id], message: `unknown line id '${id}' for system ${system.id}` })),
    ...Object.keys(parsed.payment_methods ?? {})
      .filter((id) => !methodIds.has(id))
      .map((id) => ({ path: ["payment_methods", id], message: `unknown payment method '${id}' for system ${system.id}` })),
  ];
  if (problems.length > 0) throw new DataFileError(file, problems);
  const byStation = new Map<string, string[]>();
  for (const [id, names] of Object.entries(parsed.names ?? {})) byStation.set(id, typeof names === "string" ? [names] : [...names]);
  return {
    file,
    language: parsed.language,
    source: parsed.source,
    byStation,
    nameSources: new Map(Object.entries(parsed.name_sources ?? {}).map(([id, keys]) => [id, keys.map((key) => parsed.references?.[key] ?? key)])),
    byLine: new Map(Object.entries(parsed.lines ?? {})),
    byPaymentMethod: new Map(Object.entries(parsed.payment_methods ?? {})),
    aliases: new Map(Object.entries(parsed.aliases ?? {})),
    landmarks: new Map(Object.entries(parsed.landmarks ?? {})),
  };
}

export function readAttribution(packRoot: string, system: string): string {
  const file = path.join(packRoot, "NOTICE");
  return attributionFromNotice(existsSync(file) ? readFileSync(file, "utf8") : undefined, system);
}
