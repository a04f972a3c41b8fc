// Reads the MetroLLM-Bench data pack from disk (at run time; it is never copied into the repo),
// validates every file with zod and caches the result. With a ValidatedFiles memo, a file whose
// bytes already passed validation under this build is parsed without validating it again.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
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
  SYSTEM_IDS,
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
  validatedFiles?: ValidatedFiles;
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

  constructor(readonly root: string, options: DataPackOptions = {}) {
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new DataPackNotFoundError([{ dir: root, source: "given" }]);
    this.validatedFiles = options.validatedFiles;
  }

  static locate(options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string } & DataPackOptions = {}): DataPack {
    return new DataPack(locateDataDir(options), { validatedFiles: options.validatedFiles });
  }

  readonly systemIds: readonly SystemId[] = SYSTEM_IDS;

  file(relative: string): string {
    return path.join(this.root, relative);
  }

  private readBytes(relative: string): Buffer {
    const full = this.file(relative);
    try {
      return readFileSync(full);
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "file is missing" : String(err);
      throw new DataFileError(full, [{ message: reason }]);
    }
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

  system(id: string): SystemData {
    const parsedId = SystemIdSchema.safeParse(id);
    if (!parsedId.success) throw new Error(`Unknown system '${id}'. Known systems: ${SYSTEM_IDS.join(", ")}`);
    const sid = parsedId.data;
    const cached = this.systems.get(sid);
    if (cached) return cached;
    const dir = `data/systems/${sid}`;
    const faresFile = `${dir}/fares.json`;
    const fares = this.parsed(faresFile, this.readBytes(faresFile), (text, options) => parseJsonTextKeepingFloats(text, this.file(faresFile), FaresFileSchema, options));
    const framebook = this.loadFramebook(`${dir}/framebook.yaml`);
    const data = new SystemData({
      id: sid,
      stations: this.json(`${dir}/stations.json`, StationsFileSchema),
      lines: this.json(`${dir}/lines.json`, LinesFileSchema),
      edges: this.json(`${dir}/graph.json`, GraphFileSchema).edges,
      fares: fares.value,
      faresPy: fares.pyValue,
      policies: this.json(`${dir}/policies.json`, PoliciesFileSchema).policies,
      framebook: framebook.framebook,
      framebookPy: framebook.framebookPy,
    });
    this.systems.set(sid, data);
    return data;
  }

  private loadFramebook(relative: string): { framebook: Framebook; framebookPy: unknown } {
    const parsed = this.parsed(relative, this.readBytes(relative), (text, options) => parseYamlText(text, this.file(relative), FramebookFileSchema, options));
    return { framebook: parsed.value.framebook, framebookPy: (parsed.pyValue as { framebook: unknown }).framebook };
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

  allCases(): Case[] {
    return this.systemIds.flatMap((s) => this.cases(s));
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
