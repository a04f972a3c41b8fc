// What a run records about where it ran: the machine and the source revision.
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Hardware } from "../store/schema.ts";

export function hardwareInfo(): Hardware {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpuCores: cpus.length,
    memoryBytes: os.totalmem(),
    platform: os.platform(),
    arch: os.arch(),
    osRelease: os.release(),
    node: process.version,
  };
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

let cachedGit: { commit: string | null; dirty: boolean | null } | undefined;

/** This checkout's commit and whether tracked files differ from it (null outside a git checkout). */
export function gitRevision(): { commit: string | null; dirty: boolean | null } {
  if (cachedGit) return cachedGit;
  const git = (...args: string[]): string =>
    execFileSync("git", ["-C", REPO_ROOT, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim();
  try {
    const commit = git("rev-parse", "HEAD");
    let dirty: boolean | null = null;
    try {
      dirty = git("status", "--porcelain", "--untracked-files=no").length > 0;
    } catch {
      dirty = null;
    }
    cachedGit = { commit, dirty };
  } catch {
    cachedGit = { commit: null, dirty: null };
  }
  return cachedGit;
}
