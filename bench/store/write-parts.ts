// Writing a file from many buffers (a results file is its head, then each case's record and a
// comma): a thousand buffers per writev, where one write per buffer took twice as long.
import { writevSync } from "node:fs";

/** Buffers handed to one writev (Linux's IOV_MAX). */
const MAX_IOVECS = 1024;

export type Writev = (fd: number, buffers: readonly NodeJS.ArrayBufferView[]) => number;

/** Write all of `parts`, in order, at the file's position; a writev may take fewer bytes than it is given. */
export function writeAllParts(fd: number, parts: readonly Buffer[], writev: Writev = writevSync): void {
  let next = 0;
  // Bytes of parts[next] already written by a short write.
  let offset = 0;
  while (next < parts.length) {
    const batch = parts.slice(next, next + MAX_IOVECS);
    if (offset > 0) batch[0] = (batch[0] as Buffer).subarray(offset);
    let written = writev(fd, batch);
    if (written === 0 && batch.some((b) => b.length > 0)) throw new Error("the file took no bytes");
    // Step over the parts written whole; keep the offset into one written in part.
    for (let part = parts[next]; part !== undefined && written >= part.length - offset; part = parts[next]) {
      written -= part.length - offset;
      offset = 0;
      next++;
    }
    offset += written;
  }
}
