// The Node adapter of the kiosk's system extras (extras.ts): reads the data pack's gtfs files and
// NOTICE, an imported system's own source.json and shapes.json, and the operator's local-names
// files from disk.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { IMPORTED_SYSTEM_FILES, type DataPack } from "../../../tools/data/datapack.ts";
import { DataFileError } from "../../../tools/data/errors.ts";
import { parseJsonText, parseYamlText } from "../../../tools/data/parse.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import {
  addStationCoordinates,
  attributionFromImportSource,
  attributionFromNotice,
  gtfsStationEntries,
  ImportSourceFileSchema,
  LineShapesFileSchema,
  LOCAL_NAMES_FILE,
  LocalNamesFileSchema,
  simplifyCourse,
  StationGeoIndex,
  type LineShapes,
  type OperatorLocalNames,
  type SystemExtrasSource,
} from "../extras.ts";
import { paymentMethodsOf } from "../view.ts";

/** Where the extras are read: the pack's root (gtfs files, NOTICE) and each system's own folder. A DataPack is one. */
export type ExtrasPlaces = Pick<DataPack, "root" | "systemDir">;

/**
 * The extras of the pack's systems and of the imported ones `pack` knows, with the operator's
 * local names from `operatorDir`. A bare pack root knows only the pack's own system folders: an
 * imported system needs the DataPack, or its attribution and drawings are not found.
 */
export function packExtras(pack: ExtrasPlaces | string, operatorDir?: string): SystemExtrasSource {
  const places: ExtrasPlaces = typeof pack === "string" ? { root: pack, systemDir: (id) => path.join(pack, "data", "systems", id) } : pack;
  return {
    geo: (system) => addStationCoordinates(loadStationGeo(places.root, system.id), system.stations),
    lineShapes: (system) => loadLineShapes(places.systemDir(system.id), system),
    operatorNames: (system) => loadOperatorLocalNames(operatorDir, system, places.systemDir(system.id)),
    attribution: (system) => readSystemAttribution(places, system),
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
 * `<operatorDir>/<system>/local-names.yaml`, else the one beside an imported system's files
 * (`systemDir`, written from its feed's translations), validated against the system's station ids
 * (an unknown id is an operator typo: reported, not ignored). Undefined when there is no such file.
 */
export function loadOperatorLocalNames(operatorDir: string | undefined, system: SystemData, systemDir?: string): OperatorLocalNames | undefined {
  // The operator's file, else the one an import wrote from the feed's translations beside the system.
  const file = [operatorDir && path.join(operatorDir, system.id, LOCAL_NAMES_FILE), systemDir && path.join(systemDir, LOCAL_NAMES_FILE)].find((f): f is string => !!f && existsSync(f));
  if (file === undefined) return undefined;
  const parsed = parseYamlText(readFileSync(file, "utf8"), file, LocalNamesFileSchema).value;
  const lineIds = new Set(system.lines.map((l) => l.id));
  // The methods the screen offers (an imported system's fares name none: the framebook's two).
  const methodIds = new Set(paymentMethodsOf(system).map((m) => m.id));
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
    ...Object.keys(parsed.line_aliases ?? {})
      .filter((id) => !lineIds.has(id))
      .map((id) => ({ path: ["line_aliases", id], message: `unknown line id '${id}' for system ${system.id}` })),
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
    lineAliases: new Map(Object.entries(parsed.line_aliases ?? {})),
    byPaymentMethod: new Map(Object.entries(parsed.payment_methods ?? {})),
    aliases: new Map(Object.entries(parsed.aliases ?? {})),
    landmarks: new Map(Object.entries(parsed.landmarks ?? {})),
  };
}

/** An imported system's source.json when its folder has one (its data is not the pack's), else the pack's NOTICE. */
export function readSystemAttribution(places: ExtrasPlaces, system: SystemData): string {
  const file = path.join(places.systemDir(system.id), IMPORTED_SYSTEM_FILES.source);
  if (!existsSync(file)) return readAttribution(places.root, system.id);
  return attributionFromImportSource(parseJsonText(readFileSync(file, "utf8"), file, ImportSourceFileSchema), system.framebook.org_name);
}

/** shapes.json of a system's folder, simplified for drawing; a line the system does not have is a stale file: reported. */
export function loadLineShapes(systemDir: string, system: SystemData): LineShapes {
  const file = path.join(systemDir, IMPORTED_SYSTEM_FILES.shapes);
  if (!existsSync(file)) return new Map();
  const shapes = parseJsonText(readFileSync(file, "utf8"), file, LineShapesFileSchema);
  const lineIds = new Set(system.lines.map((l) => l.id));
  const unknown = Object.keys(shapes).filter((id) => !lineIds.has(id));
  if (unknown.length > 0) throw new DataFileError(file, unknown.map((id) => ({ path: [id], message: `unknown line id '${id}' for system ${system.id}` })));
  return new Map(Object.entries(shapes).map(([id, points]) => [id, simplifyCourse(points)]));
}

export function readAttribution(packRoot: string, system: string): string {
  const file = path.join(packRoot, "NOTICE");
  return attributionFromNotice(existsSync(file) ? readFileSync(file, "utf8") : undefined, system);
}
