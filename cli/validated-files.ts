// The data pack's validation memo kept across runs of one build of the CLI (tools/data/datapack.ts,
// ValidatedFiles): a file beside the build's code caches, named by the build, listing the digests
// of the data files that passed validation under it. A later run of the same build parses those
// files without validating them again (≈ 40–60 ms of a whole bench run on a 2-vCPU machine:
// compiling and running the schemas' validators); any other build, or a file whose bytes changed,
// is validated as before. The memo is a cache: unreadable, it is ignored; unwritable (a read-only
// installation), runs go on without it.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ValidatedFiles } from "../tools/data/datapack.ts";

/** What the launcher (bin/kiosk.js) tells the CLI about the build it runs. */
export interface BuildCache {
  /** Identifies the compiled code (its bundle's SHA-256): a memo made by other code is not used. */
  buildId: string;
  /** Where the build keeps its caches (dist/node). */
  dir: string;
}

/** The memo's file for a build (removed with the build's other stale files when it is rebuilt). */
export function validatedFilesPath(build: BuildCache): string {
  return path.join(build.dir, `validated-files.${build.buildId.slice(0, 16)}.json`);
}

interface MemoFile {
  buildId: string;
  digests: string[];
}

function readDigests(file: string, buildId: string): Set<string> {
  try {
    const memo = JSON.parse(readFileSync(file, "utf8")) as Partial<MemoFile>;
    // The full id is checked too: the name carries only a prefix of it.
    if (memo.buildId === buildId && Array.isArray(memo.digests) && memo.digests.every((d) => typeof d === "string")) return new Set(memo.digests);
  } catch {
    // none yet, or not ours to trust
  }
  return new Set();
}

/** Write the memo atomically: a process reading meanwhile sees the old memo or the new one. */
function writeDigests(file: string, buildId: string, digests: ReadonlySet<string>): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify({ buildId, digests: [...digests] } satisfies MemoFile)}\n`);
    renameSync(temp, file);
  } catch {
    // A read-only installation validates at every run.
  }
}

/** A build's memo, and the writing of what this process added to it. */
export interface ValidatedFilesFile extends ValidatedFiles {
  /** Write the memo if this process added to it (done when the process exits; idempotent). */
  save(): void;
}

/**
 * The build's validation memo, read now. What a run adds is written once, as the process exits
 * (a first run adds some forty files as it loads them), as the launcher writes its code cache.
 */
export function fileValidatedFiles(build: BuildCache): ValidatedFilesFile {
  const file = validatedFilesPath(build);
  const digests = readDigests(file, build.buildId);
  let unsaved = false;
  const save = (): void => {
    if (unsaved) writeDigests(file, build.buildId, digests);
    unsaved = false;
  };
  return {
    has: (digest) => digests.has(digest),
    add(digest) {
      if (digests.has(digest)) return;
      digests.add(digest);
      if (!unsaved) process.once("exit", save);
      unsaved = true;
    },
    save,
  };
}
