// Operator framebooks: an override directory beside the data pack's defaults. Applying a framebook
// is atomic (write, fsync, rename) and keeps every previous version; each change is audited. The
// next passenger session picks the new framebook up without a restart; sessions in progress keep
// the SystemData they started with.
import { createHash } from "node:crypto";
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { SYSTEM_FILES, type DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { z } from "zod";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { fareOverrideOf, FareOverrideSchema } from "./fare-rules.ts";
import { diffFramebooks, validateFramebook, type FramebookChange, type FramebookValidation } from "./validate.ts";

export const FRAMEBOOKS_DIR_ENV = "METRO_FRAMEBOOKS_DIR";

export interface AuditEntry {
  at: string;
  who: string;
  system: SystemId;
  action: "apply" | "rollback";
  version: string;
  previous: string | null;
  /** The framebook made active confirms implausible fares: who confirmed them, and why. */
  fare_override?: { reason: string; confirmed_by: string };
}

export interface ActiveFramebook {
  source: "data-pack" | "operator";
  version: string;
  file: string;
  text: string;
}

/** The framebook passengers actually get, and why not the operator's when it is not. */
export interface FramebookInForce extends ActiveFramebook {
  /** The operator's file exists but does not validate (so the data pack's is in force), else null. */
  problem: string | null;
}

const AuditEntrySchema = z.object({
  at: z.string(),
  who: z.string(),
  system: z.string(),
  action: z.enum(["apply", "rollback"]),
  version: z.string(),
  previous: z.string().nullable(),
  fare_override: FareOverrideSchema.pick({ reason: true, confirmed_by: true }).optional(),
});

export interface AuditReport {
  entries: AuditEntry[];
  /** Lines that are not audit entries (a torn write, a hand edit): skipped, 1-based line numbers. */
  skipped: { line: number; reason: string }[];
}

export class FramebookRejectedError extends Error {
  constructor(readonly validation: FramebookValidation) {
    super(`framebook ${validation.file} rejected: ${validation.issues.filter((i) => i.severity === "error").length} error(s)`);
    this.name = "FramebookRejectedError";
  }
}

export interface StoreHooks {
  /** Test seam: runs after the new file is written and fsynced, before the rename. */
  beforeRename?: () => void;
  now?: () => Date;
  /** Operational notices (an invalid operator framebook not in use). */
  log?: (message: string) => void;
}

const versionOf = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 12);

/** The audit's record of a validated framebook's fare_override (none: nothing). */
function overrideOf(validation: FramebookValidation): Pick<AuditEntry, "fare_override"> {
  const override = validation.framebook ? fareOverrideOf(validation.framebook) : undefined;
  return override ? { fare_override: { reason: override.reason, confirmed_by: override.confirmed_by } } : {};
}

/** Atomic, durable, exclusive create without following symlinks (runtime/fs/atomic-write.ts). */
function writeDurably(file: string, text: string, hooks: StoreHooks): void {
  writeFileAtomic(file, text, hooks.beforeRename ? { beforeRename: hooks.beforeRename } : {});
}

/** Whether a file exists, is not empty, and does not end with a newline. */
function endsMidLine(file: string): boolean {
  if (!existsSync(file)) return false;
  const size = statSync(file).size;
  if (size === 0) return false;
  const fd = openSync(file, "r");
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

export class FramebookStore {
  private readonly cache = new Map<SystemId, { version: string; data: SystemData }>();
  private readonly listeners = new Set<(system: SystemId, version: string) => void>();

  constructor(
    private readonly pack: DataPack,
    readonly dir: string,
    private readonly hooks: StoreHooks = {},
  ) {}

  private systemDir(system: SystemId): string {
    return path.join(this.dir, system);
  }

  private activeFile(system: SystemId): string {
    return path.join(this.systemDir(system), "framebook.yaml");
  }

  private versionsDir(system: SystemId): string {
    return path.join(this.systemDir(system), "versions");
  }

  /** The framebook the system's own files carry (the pack's, or an imported system's draft). */
  private packFramebook(system: SystemId): string {
    return path.join(this.pack.systemDir(system), SYSTEM_FILES.framebook);
  }

  /** The framebook in force: the operator's override when there is one, else the data pack's. */
  active(system: SystemId): ActiveFramebook {
    const override = this.activeFile(system);
    if (existsSync(override)) {
      const text = readFileSync(override, "utf8");
      return { source: "operator", version: versionOf(text), file: override, text };
    }
    const file = this.packFramebook(system);
    const text = readFileSync(file, "utf8");
    return { source: "data-pack", version: versionOf(text), file, text };
  }

  /**
   * System data with the active framebook, rebuilt only when the framebook changed. An operator
   * file that no longer validates (edited by hand) falls back to the data pack's framebook.
   */
  systemData(system: SystemId): SystemData {
    const base = this.pack.system(system);
    const active = this.active(system);
    const cached = this.cache.get(system);
    if (cached && cached.version === active.version) return cached.data;
    let data = base;
    if (active.source === "operator") {
      const checked = validateFramebook(active.text, active.file, base);
      if (checked.ok && checked.framebook) data = base.withFramebook(checked.framebook, checked.framebookPy);
      else this.hooks.log?.(`the operator framebook ${active.file} is invalid (${checked.issues.filter((i) => i.severity === "error").length} error(s)); passengers get the data pack's framebook`);
    }
    this.cache.set(system, { version: active.version, data });
    return data;
  }

  /**
   * The framebook in force as the operator must see it: the operator's file when it validates;
   * otherwise the data pack's, with the reason the operator's is not used.
   */
  inForce(system: SystemId): FramebookInForce {
    const active = this.active(system);
    if (active.source === "data-pack") return { ...active, problem: null };
    const checked = validateFramebook(active.text, active.file, this.pack.system(system));
    if (checked.ok) return { ...active, problem: null };
    const file = this.packFramebook(system);
    const text = readFileSync(file, "utf8");
    const first = checked.issues.find((i) => i.severity === "error");
    const where = first?.line !== undefined ? ` (line ${first.line})` : "";
    return {
      source: "data-pack",
      version: versionOf(text),
      file,
      text,
      problem: `The operator framebook ${active.file} is invalid${first ? `: ${first.message}${where}` : ""}. It is not in use: passengers get the data pack's framebook.`,
    };
  }

  validate(system: SystemId, text: string, file: string): FramebookValidation {
    return validateFramebook(text, file, this.pack.system(system));
  }

  /** The changes a candidate would make to the active framebook. */
  diff(system: SystemId, text: string, file: string): { validation: FramebookValidation; changes: FramebookChange[] } {
    const validation = this.validate(system, text, file);
    const current = this.systemData(system).framebook;
    return { validation, changes: validation.framebook ? diffFramebooks(current, validation.framebook) : [] };
  }

  /** Validate and atomically make `text` the active framebook. An invalid file changes nothing. */
  apply(system: SystemId, text: string, file: string, who: string): AuditEntry {
    const validation = this.validate(system, text, file);
    if (!validation.ok) throw new FramebookRejectedError(validation);
    const previous = this.active(system);
    mkdirSync(this.versionsDir(system), { recursive: true });
    const stamp = (this.hooks.now?.() ?? new Date()).toISOString().replace(/[:.]/g, "-");
    // Keep what was active (operator file or data-pack default) so rollback can restore it.
    writeDurably(path.join(this.versionsDir(system), `${stamp}-${previous.version}.yaml`), previous.text, {});
    writeDurably(this.activeFile(system), text, this.hooks);
    return this.record({ at: new Date().toISOString(), who, system, action: "apply", version: versionOf(text), previous: previous.version, ...overrideOf(validation) });
  }

  /** Restore the most recent previous version. */
  rollback(system: SystemId, who: string): AuditEntry {
    const versions = this.history(system);
    const last = versions[versions.length - 1];
    if (!last) throw new Error(`No previous framebook version to roll back to for ${system}`);
    const current = this.active(system);
    const text = readFileSync(last.file, "utf8");
    // A version file is restored only if it still validates (it may have been edited or damaged).
    const validation = this.validate(system, text, last.file);
    if (!validation.ok) throw new FramebookRejectedError(validation);
    writeDurably(this.activeFile(system), text, this.hooks);
    rmSync(last.file);
    return this.record({ at: new Date().toISOString(), who, system, action: "rollback", version: versionOf(text), previous: current.version, ...overrideOf(validation) });
  }

  history(system: SystemId): { file: string; version: string }[] {
    const dir = this.versionsDir(system);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith(".yaml"))
      .sort()
      .map((f) => ({ file: path.join(dir, f), version: f.replace(/\.yaml$/, "").split("-").pop() ?? "" }));
  }

  audit(): AuditEntry[] {
    return this.auditReport().entries;
  }

  /** The audit log, every line that is not an audit entry skipped and reported. */
  auditReport(): AuditReport {
    const file = path.join(this.dir, "audit.jsonl");
    const report: AuditReport = { entries: [], skipped: [] };
    if (!existsSync(file)) return report;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (line.trim() === "") return;
        let json: unknown;
        try {
          json = JSON.parse(line);
        } catch {
          report.skipped.push({ line: i + 1, reason: "not JSON (a torn or edited line)" });
          return;
        }
        const parsed = AuditEntrySchema.safeParse(json);
        if (parsed.success) report.entries.push(parsed.data as AuditEntry);
        else report.skipped.push({ line: i + 1, reason: `not an audit entry (${parsed.error.issues[0]?.path.join(".") || "entry"})` });
      });
    return report;
  }

  /** Called after every apply/rollback (e.g. to drop a model's cached prompt prefix). */
  onChange(listener: (system: SystemId, version: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private record(entry: AuditEntry): AuditEntry {
    mkdirSync(this.dir, { recursive: true });
    const file = path.join(this.dir, "audit.jsonl");
    // After a torn write the file may end mid-line: start the entry on a line of its own.
    appendFileSync(file, `${endsMidLine(file) ? "\n" : ""}${JSON.stringify(entry)}\n`);
    this.cache.delete(entry.system);
    for (const listener of this.listeners) listener(entry.system, entry.version);
    return entry;
  }
}
