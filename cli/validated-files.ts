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

/** The build's validation memo, read now and written (atomically) each time a file is added. */
export function fileValidatedFiles(build: BuildCache): ValidatedFiles {
  const file = validatedFilesPath(build);
  const digests = readDigests(file, build.buildId);
  return {
    has: (digest) => digests.has(digest),
    add(digest) {
      if (digests.has(digest)) return;
      digests.add(digest);
      const temp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(temp, `${JSON.stringify({ buildId: build.buildId, digests: [...digests] } satisfies MemoFile)}\n`);
        renameSync(temp, file); // a process reading meanwhile sees the old memo or the new one
      } catch {
        // A read-only installation validates at every run.
      }
    },
  };
}
