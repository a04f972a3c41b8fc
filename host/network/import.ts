// `kiosk network import`: a GTFS feed (folder or .zip) becomes a system folder the kiosk runs, in
// the runtime's own files. Nothing is installed unless the whole feed reads and converts: the
// files are written into a temporary folder beside the target, checked with the same schemas the
// loader uses, and only then renamed into place (a previous import of the id is replaced whole).
import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { IMPORTED_SYSTEM_FILES, SYSTEM_FILES, type DataPack } from "../../tools/data/datapack.ts";
import { parseJsonText, parseYamlText } from "../../tools/data/parse.ts";
import { FaresFileSchema, FramebookFileSchema, GraphFileSchema, LinesFileSchema, PoliciesFileSchema, StationsFileSchema, SystemIdSchema, type Fares, type SystemId } from "../../tools/data/schemas.ts";
import { readFeedSource, readGtfsFeed } from "../../tools/gtfs/index.ts";
import { ImportSourceFileSchema, LineShapesFileSchema, LOCAL_NAMES_FILE, LocalNamesFileSchema } from "../../runtime/kiosk/extras.ts";
import { ImportReportSchema, systemFromFeed, type ImportNote, type ImportedSystem } from "../../tools/gtfs/to-system.ts";

export interface NetworkImportOptions {
  /** A GTFS feed: a folder of .txt files or a .zip. */
  feed: string;
  id: string;
  systemsDir: string;
  pack: DataPack;
  /** A fare model in the runtime's fares.json format, for a feed without fares (or to replace them). */
  faresFile?: string | undefined;
  /** The attribution the feed's licence asks for ("Contains data provided by …"). */
  attribution?: string | undefined;
  /** Replace an earlier import of the same id. */
  replace?: boolean | undefined;
  now?: Date;
  /** Called as each step starts (a progress line for people). */
  onStep?: (step: string) => void;
}

export interface NetworkImportOutcome {
  id: SystemId;
  dir: string;
  notes: ImportNote[];
  summary: ImportedSystem["summary"];
  fares: Fares["model"] | null;
}

/** An import that installed nothing, with every reason (file, line, field). */
export class NetworkImportError extends Error {
  constructor(
    message: string,
    readonly notes: readonly ImportNote[],
  ) {
    super(message);
    this.name = "NetworkImportError";
  }
}

/** A note as one line: "stop_times.txt:1234 stop_id: message". */
export function noteText(note: ImportNote): string {
  // The feed reader's messages name their file and line already.
  if (note.message.startsWith(note.file)) return note.message;
  const where = `${note.file}${note.line !== undefined ? `:${note.line}` : ""}${note.field !== undefined ? ` ${note.field}` : ""}`;
  return `${where}: ${note.message}`;
}

export function importNetwork(options: NetworkImportOptions): NetworkImportOutcome {
  const step = options.onStep ?? (() => undefined);
  const id = SystemIdSchema.safeParse(options.id);
  if (!id.success) throw new NetworkImportError(`--id '${options.id}': ${id.error.issues[0]?.message ?? "not a system id"}`, []);
  const systemId = id.data;
  if (options.pack.packSystemIds.includes(systemId)) throw new NetworkImportError(`--id '${systemId}' is a system of the benchmark data pack: choose another id`, []);
  const target = path.join(options.systemsDir, systemId);
  if (existsSync(target) && !options.replace) throw new NetworkImportError(`${target} exists: system '${systemId}' was imported before (add --replace to replace it)`, []);

  step("reading the feed");
  const files = readFeedSource(options.feed);
  step("validating the feed");
  const reading = readGtfsFeed(files);
  const problems: ImportNote[] = reading.problems.map((p) => ({ severity: p.severity, file: p.file, ...(p.line !== undefined ? { line: p.line } : {}), ...(p.field !== undefined ? { field: p.field } : {}), message: p.message }));
  if (!reading.feed) throw new NetworkImportError(`${options.feed}: the feed is not valid; nothing was installed`, problems.filter((p) => p.severity === "error"));

  const fares = options.faresFile === undefined ? undefined : readFares(options.faresFile);
  step("building the network");
  const result = systemFromFeed(reading.feed, { id: systemId, fares });
  const notes = [...problems, ...result.notes];
  if (!result.system) throw new NetworkImportError(`${options.feed}: the feed cannot be run as a kiosk network; nothing was installed`, notes.filter((n) => n.severity === "error"));
  const system = result.system;
  if (!system.fares) throw new NetworkImportError(`${options.feed}: the feed has no fares; give the fare model with --fares FILE (fares.json format); nothing was installed`, notes.filter((n) => n.severity !== "warning"));

  step("writing the system");
  mkdirSync(options.systemsDir, { recursive: true });
  const temp = path.join(options.systemsDir, `.import-${systemId}-${process.pid}-${Date.now()}`);
  mkdirSync(temp);
  try {
    const now = (options.now ?? new Date()).toISOString();
    const sha256 = createHash("sha256");
    for (const name of [...files.keys()].sort()) sha256.update(name).update("\u0000").update(files.get(name) ?? "").update("\u0000");
    const feedInfo = reading.feed.feedInfo[0];
    const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
    const written: Record<string, string> = {
      [SYSTEM_FILES.stations]: json(system.stations),
      [SYSTEM_FILES.lines]: json(system.lines),
      [SYSTEM_FILES.graph]: json({ directed: true, edges: system.edges }),
      [SYSTEM_FILES.fares]: json({ system: systemId, ...system.fares }),
      [SYSTEM_FILES.policies]: json({ system: systemId, policies: [] }),
      [SYSTEM_FILES.framebook]: `# A draft from the feed (kiosk network import, ${now}): review it, then \`kiosk framebook validate --system ${systemId}\`.\n${stringify({ framebook: system.framebook })}`,
      [IMPORTED_SYSTEM_FILES.source]: json({
        feed: path.resolve(options.feed),
        feed_sha256: sha256.digest("hex"),
        imported_at: now,
        agency: reading.feed.agency.map((a) => a.agency_name),
        publisher: feedInfo ? { name: feedInfo.feed_publisher_name, url: feedInfo.feed_publisher_url, version: feedInfo.feed_version ?? null } : null,
        attribution: options.attribution ?? null,
        licence: licenceText(options.feed, files),
        fares_from: options.faresFile !== undefined ? path.resolve(options.faresFile) : "the feed",
      }),
      [IMPORTED_SYSTEM_FILES.report]: json({ summary: system.summary, notes }),
      [IMPORTED_SYSTEM_FILES.shapes]: json(system.lineShapes),
      [IMPORTED_SYSTEM_FILES.stops]: json(system.stationOfStop),
    };
    if (system.localNames) written[LOCAL_NAMES_FILE] = `# From the feed's translations.txt (kiosk network import): an operator's framebooks/${systemId}/local-names.yaml replaces this file.\n${stringify(system.localNames)}`;
    for (const [name, text] of Object.entries(written)) writeDurably(path.join(temp, name), text);
    step("checking the written files");
    checkWritten(temp);
    const old = existsSync(target) ? `${temp}.replaced` : undefined;
    if (old !== undefined) renameSync(target, old);
    renameSync(temp, target);
    if (old !== undefined) rmSync(old, { recursive: true, force: true });
    fsyncDir(options.systemsDir);
    return { id: systemId, dir: target, notes, summary: system.summary, fares: system.fares.model };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The licence file that came with the feed (a folder's LICENSE, or a LICENSE.txt in the zip), which must travel with what is derived from it. */
function licenceText(feed: string, files: ReadonlyMap<string, string>): string | null {
  const inFeed = files.get("LICENSE.txt") ?? files.get("license.txt");
  if (inFeed !== undefined) return inFeed;
  if (!statSync(feed).isDirectory()) return null;
  for (const name of ["LICENSE", "LICENSE.md", "LICENCE", "COPYING"]) {
    const file = path.join(feed, name);
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return null;
}

/** What the import of an imported system left for its operator to review (its import-report.json). */
export function importReview(pack: DataPack, system: SystemId): { file: string; notes: ImportNote[] } | undefined {
  if (!pack.isImported(system)) return undefined;
  const file = path.join(pack.systemDir(system), IMPORTED_SYSTEM_FILES.report);
  if (!existsSync(file)) return undefined;
  return { file, notes: parseJsonText(readFileSync(file, "utf8"), file, ImportReportSchema).notes.filter((n) => n.severity === "review") };
}

function readFares(file: string): Fares {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new NetworkImportError(`--fares: cannot read '${file}'`, []);
  }
  return parseJsonText(text, file, FaresFileSchema);
}

/** Every written file parses with the loader's schema (what the kiosk will read is what was checked). */
function checkWritten(dir: string): void {
  const read = (name: string): string => readFileSync(path.join(dir, name), "utf8");
  parseJsonText(read(SYSTEM_FILES.stations), path.join(dir, SYSTEM_FILES.stations), StationsFileSchema);
  parseJsonText(read(SYSTEM_FILES.lines), path.join(dir, SYSTEM_FILES.lines), LinesFileSchema);
  parseJsonText(read(SYSTEM_FILES.graph), path.join(dir, SYSTEM_FILES.graph), GraphFileSchema);
  parseJsonText(read(SYSTEM_FILES.fares), path.join(dir, SYSTEM_FILES.fares), FaresFileSchema);
  parseJsonText(read(SYSTEM_FILES.policies), path.join(dir, SYSTEM_FILES.policies), PoliciesFileSchema);
  parseYamlText(read(SYSTEM_FILES.framebook), path.join(dir, SYSTEM_FILES.framebook), FramebookFileSchema);
  parseJsonText(read(IMPORTED_SYSTEM_FILES.source), path.join(dir, IMPORTED_SYSTEM_FILES.source), ImportSourceFileSchema);
  parseJsonText(read(IMPORTED_SYSTEM_FILES.shapes), path.join(dir, IMPORTED_SYSTEM_FILES.shapes), LineShapesFileSchema);
  parseJsonText(read(IMPORTED_SYSTEM_FILES.report), path.join(dir, IMPORTED_SYSTEM_FILES.report), ImportReportSchema);
  if (existsSync(path.join(dir, LOCAL_NAMES_FILE))) parseYamlText(read(LOCAL_NAMES_FILE), path.join(dir, LOCAL_NAMES_FILE), LocalNamesFileSchema);
}

function writeDurably(file: string, text: string): void {
  writeFileSync(file, text);
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename stands either way.
  }
}
