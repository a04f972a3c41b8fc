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
 * Asynchronous and remembered: a run asks early, and git runs while the data pack loads. One git
 * process answers both (`status --porcelain=v2 --branch`: the commit on its "# branch.oid" line,
 * a change on any other line), since starting a process costs the caller's thread ≈ 8 ms here.
 */
export function gitRevision(): Promise<GitRevision> {
  cachedGit ??= git("status", "--porcelain=v2", "--branch", "--untracked-files=no").then(parseGitStatus, (): GitRevision => ({ commit: null, dirty: null }));
  return cachedGit;
}

/** The commit and dirtiness from `git status --porcelain=v2 --branch` output. */
export function parseGitStatus(output: string): GitRevision {
  const lines = output.split("\n").filter((l) => l.length > 0);
  const oid = lines.find((l) => l.startsWith("# branch.oid "))?.slice("# branch.oid ".length);
  // "(initial)": a repository without a commit yet.
  if (oid === undefined || !/^[0-9a-f]{40,64}$/.test(oid)) return { commit: null, dirty: null };
  return { commit: oid, dirty: lines.some((l) => !l.startsWith("#")) };
}
