// Operator framebooks: an override directory beside the data pack's defaults. Applying a framebook
// is atomic (write, fsync, rename) and keeps every previous version; each change is audited. The
// next passenger session picks the new framebook up without a restart; sessions in progress keep
// the SystemData they started with.
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { diffFramebooks, validateFramebook, type FramebookChange, type FramebookValidation } from "./validate.ts";

export const FRAMEBOOKS_DIR_ENV = "METRO_FRAMEBOOKS_DIR";

export interface AuditEntry {
  at: string;
  who: string;
  system: SystemId;
  action: "apply" | "rollback";
  version: string;
  previous: string | null;
}

export interface ActiveFramebook {
  source: "data-pack" | "operator";
  version: string;
  file: string;
  text: string;
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
}

const versionOf = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 12);

/** Atomic, durable, exclusive create without following symlinks (runtime/fs/atomic-write.ts). */
function writeDurably(file: string, text: string, hooks: StoreHooks): void {
  writeFileAtomic(file, text, hooks.beforeRename ? { beforeRename: hooks.beforeRename } : {});
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

  /** The framebook in force: the operator's override when there is one, else the data pack's. */
  active(system: SystemId): ActiveFramebook {
    const override = this.activeFile(system);
    if (existsSync(override)) {
      const text = readFileSync(override, "utf8");
      return { source: "operator", version: versionOf(text), file: override, text };
    }
    const file = this.pack.file(`data/systems/${system}/framebook.yaml`);
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
    }
    this.cache.set(system, { version: active.version, data });
    return data;
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
    return this.record({ at: new Date().toISOString(), who, system, action: "apply", version: versionOf(text), previous: previous.version });
  }

  /** Restore the most recent previous version. */
  rollback(system: SystemId, who: string): AuditEntry {
    const versions = this.history(system);
    const last = versions[versions.length - 1];
    if (!last) throw new Error(`No previous framebook version to roll back to for ${system}`);
    const current = this.active(system);
    const text = readFileSync(last.file, "utf8");
    writeDurably(this.activeFile(system), text, this.hooks);
    rmSync(last.file);
    return this.record({ at: new Date().toISOString(), who, system, action: "rollback", version: versionOf(text), previous: current.version });
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
    const file = path.join(this.dir, "audit.jsonl");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditEntry);
  }

  /** Called after every apply/rollback (e.g. to drop a model's cached prompt prefix). */
  onChange(listener: (system: SystemId, version: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private record(entry: AuditEntry): AuditEntry {
    mkdirSync(this.dir, { recursive: true });
    appendFileSync(path.join(this.dir, "audit.jsonl"), `${JSON.stringify(entry)}\n`);
    this.cache.delete(entry.system);
    for (const listener of this.listeners) listener(entry.system, entry.version);
    return entry;
  }
}
