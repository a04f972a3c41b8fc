// What a run records about where it ran: the machine and the source revision.
import { execFile } from "node:child_process";
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

export interface GitRevision {
  commit: string | null;
  dirty: boolean | null;
}

let cachedGit: Promise<GitRevision> | undefined;

function git(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", ["-C", REPO_ROOT, ...args], { encoding: "utf8", timeout: 5000 }, (err, stdout) => (err ? reject(err) : resolve(stdout.trim())));
  });
}

/**
 * This checkout's commit and whether tracked files differ from it (null outside a git checkout).
 * Asynchronous and remembered: a run asks early, and git runs while the data pack loads.
 */
export function gitRevision(): Promise<GitRevision> {
  cachedGit ??= Promise.all([
    git("rev-parse", "HEAD").catch(() => null),
    git("status", "--porcelain", "--untracked-files=no").then((s) => s.length > 0, () => null),
  ]).then(([commit, dirty]): GitRevision => (commit === null ? { commit: null, dirty: null } : { commit, dirty }));
  return cachedGit;
}
