// Reads the MetroLLM-Bench data pack from disk (at run time; it is never copied into the repo),
// validates every file with zod and caches the result. With a ValidatedFiles memo, a file whose
// bytes already passed validation under this build is parsed without validating it again.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { DataFileError, DataPackNotFoundError } from "./errors.ts";
import { parseJsonText, parseJsonTextKeepingFloats, parseYamlText, type ParseOptions } from "./parse.ts";
import {
  CasesFileSchema,
  FaresFileSchema,
  FramebookFileSchema,
  GraphFileSchema,
  JudgeRubricsSchema,
  LinesFileSchema,
  PoliciesFileSchema,
  PromptProfileSchema,
  SplitFileSchema,
  StationsFileSchema,
  inReportOrder,
  SystemIdSchema,
  ToolDefinitionsFileSchema,
  type Case,
  type Framebook,
  type PromptProfile,
  type Split,
  type SystemId,
  type ToolDefinition,
} from "./schemas.ts";
import { SystemData } from "./system.ts";

export const DATA_DIR_ENV = "METRO_DATA_DIR";
export const SYSTEMS_DIR_ENV = "METRO_SYSTEMS_DIR";
export const SPLIT_FILE = "data/splits/v23_holdout75_seed42.json";

export interface DataDirCandidate {
  dir: string;
  source: string;
}

/** Where the data pack may be, in priority order: --data, env, ./data/metrollm-bench, ../shared. */
export function dataDirCandidates(options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): DataDirCandidate[] {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const out: DataDirCandidate[] = [];
  if (options.flag) out.push({ dir: path.resolve(cwd, options.flag), source: "--data" });
  const fromEnv = env[DATA_DIR_ENV];
  if (fromEnv) out.push({ dir: path.resolve(cwd, fromEnv), source: `$${DATA_DIR_ENV}` });
  out.push({ dir: path.resolve(cwd, "data/metrollm-bench"), source: "default ./data/metrollm-bench" });
  out.push({ dir: path.resolve(cwd, "../shared/metrollm-bench"), source: "default ../shared/metrollm-bench" });
  return out;
}

/** Where imported systems live: --systems-dir, else $METRO_SYSTEMS_DIR, else ./data/systems. */
export function locateSystemsDir(options: { flag?: string | undefined; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const cwd = options.cwd ?? process.cwd();
  return path.resolve(cwd, options.flag ?? (options.env ?? process.env)[SYSTEMS_DIR_ENV] ?? "data/systems");
}

/** The files of one system, in the pack and in an imported system's folder alike. */
export const SYSTEM_FILES = {
  stations: "stations.json",
  lines: "lines.json",
  graph: "graph.json",
  fares: "fares.json",
  policies: "policies.json",
  framebook: "framebook.yaml",
} as const;

/** The files an imported system has beside those (kiosk network import writes them). */
export const IMPORTED_SYSTEM_FILES = {
  /** The feed, its publisher, licence and attribution. */
  source: "source.json",
  /** What the import built and noticed, for the operator to review. */
  report: "import-report.json",
  /** Line id → the line's course as [lat, lon] points. */
  shapes: "shapes.json",
  /** The feed's stop ids → station ids. */
  stops: "stops.json",
} as const;

function looksLikeDataPack(dir: string): boolean {
  return existsSync(path.join(dir, "data", "systems")) && existsSync(path.join(dir, "cases"));
}

/**
 * The first candidate that exists. An explicit --data or env value that does not exist is an
 * error (the user asked for it), not a silent fallback.
 */
export function locateDataDir(options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const candidates = dataDirCandidates(options);
  for (const c of candidates) {
    if (looksLikeDataPack(c.dir)) return c.dir;
    if (c.source === "--data" || c.source.startsWith("$")) throw new DataPackNotFoundError([c]);
  }
  throw new DataPackNotFoundError(candidates);
}

/**
 * Data files known to be valid: the digests (DataPack's, of a file's place in the pack and its
 * bytes) of files that passed validation under the code now running. Whoever keeps it across
 * processes must forget it when the code changes (cli/validated-files.ts keys it by the build).
 */
export interface ValidatedFiles {
  has(digest: string): boolean;
  /** Remember a file that has just passed validation. */
  add(digest: string): void;
}

export interface DataPackOptions {
  validatedFiles?: ValidatedFiles | undefined;
  /** Where imported systems live (absent: the pack's systems only). */
  systemsDir?: string | undefined;
}

export class DataPack {
  private readonly systems = new Map<SystemId, SystemData>();
  private readonly casesBySystem = new Map<SystemId, Case[]>();
  /** SHA-256 (hex) of each case file read, over the very bytes its cases were parsed from. */
  private readonly caseFileSha256 = new Map<SystemId, string>();
  private caseIndex: Map<string, Case> | undefined;
  private cachedSplit: Split | undefined;
  private cachedProfile: PromptProfile | undefined;
  private cachedTools: readonly ToolDefinition[] | undefined;
  private cachedRubrics: Record<string, unknown> | undefined;

  private readonly validatedFiles: ValidatedFiles | undefined;
  readonly systemsDir: string | undefined;
  /** The pack's own systems (those with a folder under data/systems), in report order. */
  readonly packSystemIds: readonly SystemId[];
  /** Every system the kiosk runs: the pack's, then the imported ones, in report order. */
  readonly systemIds: readonly SystemId[];

  constructor(readonly root: string, options: DataPackOptions = {}) {
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new DataPackNotFoundError([{ dir: root, source: "given" }]);
    this.validatedFiles = options.validatedFiles;
    this.systemsDir = options.systemsDir;
    this.packSystemIds = inReportOrder(systemFolders(path.join(root, "data", "systems")));
    const imported = this.systemsDir === undefined ? [] : systemFolders(this.systemsDir);
    const clash = imported.find((id) => this.packSystemIds.includes(id));
    if (clash !== undefined) throw new Error(`${path.join(this.systemsDir ?? "", clash)}: an imported system may not take the id of a system of the data pack ('${clash}')`);
    this.systemIds = [...this.packSystemIds, ...inReportOrder(imported)];
  }

  static locate(options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string; systemsDirFlag?: string | undefined } & DataPackOptions = {}): DataPack {
    const systemsDir = options.systemsDir ?? locateSystemsDir({ flag: options.systemsDirFlag, ...(options.env ? { env: options.env } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
    return new DataPack(locateDataDir(options), { validatedFiles: options.validatedFiles, systemsDir });
  }

  /** Whether `id` is an imported system (its files in the systems directory, not in the pack). */
  isImported(id: string): boolean {
    return this.systemIds.includes(id) && !this.packSystemIds.includes(id);
  }

  /** The folder of a system's files: the pack's data/systems/<id>, or <systems dir>/<id>. */
  systemDir(id: SystemId): string {
    return this.isImported(id) ? path.join(this.systemsDir ?? "", id) : this.file(`data/systems/${id}`);
  }

  file(relative: string): string {
    return path.join(this.root, relative);
  }

  private readBytes(relative: string): Buffer {
    return readBytesOf(this.file(relative));
  }

  /**
   * Parse a file of the pack with `parse`, told whether these very bytes already passed
   * validation (the memo's digest: the file's place in the pack and its SHA-256, so that each
   * place keeps its own schema); a file that passes now is remembered.
   */
  private parsed<T>(relative: string, bytes: Buffer, parse: (text: string, options: ParseOptions) => T, sha256 = this.validatedFiles && sha256Hex(bytes)): T {
    const digest = sha256 === undefined ? undefined : `${relative}:${sha256}`;
    const alreadyValid = digest !== undefined && this.validatedFiles?.has(digest) === true;
    const value = parse(bytes.toString("utf8"), { alreadyValid });
    if (digest !== undefined && !alreadyValid) this.validatedFiles?.add(digest);
    return value;
  }

  private json<T>(relative: string, schema: z.ZodType<T>): T {
    return this.parsed(relative, this.readBytes(relative), (text, options) => parseJsonText(text, this.file(relative), schema, options));
  }

  /** One system, the pack's or an imported one: the same files, read and validated the same way. */
  system(id: string): SystemData {
    const sid = SystemIdSchema.safeParse(id).data;
    if (sid === undefined || !this.systemIds.includes(sid)) throw new Error(`Unknown system '${id}'. Known systems: ${this.systemIds.join(", ")}`);
    const cached = this.systems.get(sid);
    if (cached) return cached;
    const dir = this.systemDir(sid);
    // The memo's digest names the file's place: the pack's path, or the imported system's.
    const place = (file: string): string => (this.isImported(sid) ? `imported/${sid}/${file}` : `data/systems/${sid}/${file}`);
    const read = <T>(file: string, parse: (text: string, full: string, options: ParseOptions) => T): T => {
      const full = path.join(dir, file);
      return this.parsed(place(file), readBytesOf(full), (text, options) => parse(text, full, options));
    };
    const json = <T>(file: string, schema: z.ZodType<T>): T => read(file, (text, full, options) => parseJsonText(text, full, schema, options));
    const fares = read(SYSTEM_FILES.fares, (text, full, options) => parseJsonTextKeepingFloats(text, full, FaresFileSchema, options));
    const framebook = read(SYSTEM_FILES.framebook, (text, full, options) => parseYamlText(text, full, FramebookFileSchema, options));
    const graph = json(SYSTEM_FILES.graph, GraphFileSchema);
    const data = new SystemData({
      id: sid,
      stations: json(SYSTEM_FILES.stations, StationsFileSchema),
      lines: json(SYSTEM_FILES.lines, LinesFileSchema),
      edges: graph.edges,
      directed: graph.directed,
      fares: fares.value,
      faresPy: fares.pyValue,
      policies: json(SYSTEM_FILES.policies, PoliciesFileSchema).policies,
      framebook: framebook.value.framebook,
      framebookPy: (framebook.pyValue as { framebook: unknown }).framebook,
    });
    this.systems.set(sid, data);
    return data;
  }

  cases(system: SystemId): Case[] {
    const cached = this.casesBySystem.get(system);
    if (cached) return cached;
    const relative = `cases/${system}_cases.json`;
    const bytes = this.readBytes(relative);
    const sha256 = sha256Hex(bytes);
    const cases = this.parsed(relative, bytes, (text, options) => parseJsonText(text, this.file(relative), CasesFileSchema, options), sha256);
    this.caseFileSha256.set(system, sha256);
    this.casesBySystem.set(system, cases);
    return cases;
  }

  /** SHA-256 (hex) of a system's case file, of the bytes its cases were read from (a run records it). */
  caseFileChecksum(system: SystemId): string {
    this.cases(system);
    const sha = this.caseFileSha256.get(system);
    if (sha === undefined) throw new Error(`no checksum for ${system}'s case file`);
    return sha;
  }

  /** The benchmark's cases: those of the pack's systems (an imported system's cases are a case file of its own). */
  allCases(): Case[] {
    return this.packSystemIds.flatMap((s) => this.cases(s));
  }

  caseById(id: string): Case | undefined {
    if (!this.caseIndex) this.caseIndex = new Map(this.allCases().map((c) => [c.id, c]));
    return this.caseIndex.get(id);
  }

  split(): Split {
    return (this.cachedSplit ??= this.json(SPLIT_FILE, SplitFileSchema));
  }

  holdoutIds(): ReadonlySet<string> {
    return new Set(this.split().holdout_ids);
  }

  promptProfile(): PromptProfile {
    return (this.cachedProfile ??= this.json("prompt-profile/metrollm-v24.json", PromptProfileSchema));
  }

  /** The tool definitions, deep-frozen: every session shares them read-only. */
  toolDefinitions(): readonly ToolDefinition[] {
    return (this.cachedTools ??= deepFreeze(this.json("prompt-profile/tool-definitions.json", ToolDefinitionsFileSchema)));
  }

  judgeRubrics(): Record<string, unknown> {
    return (this.cachedRubrics ??= this.json("prompt-profile/judge-rubrics.json", JudgeRubricsSchema));
  }

  chatTemplate(): string {
    return this.readBytes("prompt-profile/qwen3.5-chat-template.jinja").toString("utf8");
  }

  /** The upstream commit the pack was taken from, if recorded. */
  upstreamCommit(): string | undefined {
    const file = this.file("UPSTREAM_COMMIT");
    return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
  }

  /** Load every file once (validates the whole pack; used by tests and `kiosk data check`). */
  loadAll(): { systems: number; cases: number } {
    for (const s of this.systemIds) this.system(s);
    const cases = this.allCases().length;
    this.split();
    this.promptProfile();
    this.toolDefinitions();
    this.judgeRubrics();
    return { systems: this.systemIds.length, cases };
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function readBytesOf(full: string): Buffer {
  try {
    return readFileSync(full);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "file is missing" : String(err);
    throw new DataFileError(full, [{ message: reason }]);
  }
}

/** The system ids of a folder's sub-folders (a missing folder has none; other entries are ignored). */
function systemFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && SystemIdSchema.safeParse(entry.name).success)
    .map((entry) => entry.name);
}

const sha256Hex = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

/** Cases in the data pack's format from a case file's bytes; `file` names it in errors. */
function parseCases(bytes: Buffer, file: string): Case[] {
  return parseJsonText(bytes.toString("utf8"), file, CasesFileSchema);
}

/** A standalone case file read once: the SHA-256 (hex) of its bytes, and the cases parsed from those bytes when asked. */
export interface CaseFileRead {
  sha256: string;
  /** The file's cases (parsed, and validated, at each call). */
  cases: () => Case[];
}

/**
 * Read a standalone case file in the data pack's format (an operator's own cases) once, for a
 * caller that records its checksum: the checksum is of the very bytes the cases come from, and a
 * caller can compare it before the cases are parsed (a resume refusing a changed file).
 */
export function readCaseFile(file: string): CaseFileRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new DataFileError(file, [{ message: (err as NodeJS.ErrnoException).code === "ENOENT" ? "file is missing" : String(err) }]);
  }
  return { sha256: sha256Hex(bytes), cases: () => parseCases(bytes, file) };
}

/** Parse a standalone case file in the data pack's format (an operator's own cases). */
export function loadCaseFile(file: string): Case[] {
  return readCaseFile(file).cases();
}

/** Parse a framebook YAML file on its own (operators' framebook validation). */
export function parseFramebookText(text: string, file: string): { framebook: Framebook; framebookPy: unknown } {
  const parsed = parseYamlText(text, file, FramebookFileSchema);
  return { framebook: parsed.value.framebook, framebookPy: (parsed.pyValue as { framebook: unknown }).framebook };
}
