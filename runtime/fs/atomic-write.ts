// Writing a file so that a crash leaves either the old or the new content, and so that nothing
// planted beside it can redirect the write: the temporary file gets an unpredictable name and is
// created exclusively (O_CREAT|O_EXCL) without following symlinks (O_NOFOLLOW), written, fsynced,
// then renamed over the target, and the directory fsynced (issue 13, finding 12).
import { randomBytes } from "node:crypto";
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

/** Flags of a fresh temp file: exclusive create, never through a symlink. */
export const EXCLUSIVE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export interface AtomicWriteOptions {
  /** File mode of the new file (e.g. 0o600 for secrets). */
  mode?: number;
  /** Test seam: runs after the temp file is written and fsynced, before the rename. */
  beforeRename?: () => void;
}

/** Atomically replace `file` with `content`. */
export function writeFileAtomic(file: string, content: string | Buffer, options: AtomicWriteOptions = {}): void {
  const dir = path.dirname(path.resolve(file));
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`);
  const fd = openSync(temp, EXCLUSIVE_NO_FOLLOW, options.mode ?? 0o644);
  try {
    try {
      writeSync(fd, typeof content === "string" ? Buffer.from(content, "utf8") : content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    options.beforeRename?.();
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  // Make the rename itself durable.
  const dirFd = openSync(dir, "r");
  try {
    fsyncSync(dirFd);
  } catch {
    // (some file systems cannot fsync a directory)
  } finally {
    closeSync(dirFd);
  }
}
