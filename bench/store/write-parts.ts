// Writing a file from many buffers (a results file is its head, then each case's record and a
// comma): a thousand buffers per writev, where one write per buffer took twice as long.
/** Buffers handed to one writev (Linux's IOV_MAX). */
const MAX_IOVECS = 1024;

/**
 * The writev batches that write all of `parts` in order, each next one given the bytes the last
 * batch's writev took: a writev may take fewer bytes than it is given, and the next batch goes on
 * from there, inside a part or between parts.
 */
export function* writeBatches(parts: readonly Buffer[]): Generator<Buffer[], void, number> {
  let next = 0;
  // Bytes of parts[next] already written by a short write.
  let offset = 0;
  while (next < parts.length) {
    const batch = parts.slice(next, next + MAX_IOVECS);
    if (offset > 0) batch[0] = (batch[0] as Buffer).subarray(offset);
    let written: number = yield batch;
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

/** What writeAllParts writes to: a FileHandle of node:fs/promises. */
export interface PartsFile {
  writev(buffers: Buffer[]): Promise<{ bytesWritten: number }>;
}

/** Write all of `parts`, in order, at the file's position (through the thread pool: files can be written side by side). */
export async function writeAllParts(file: PartsFile, parts: readonly Buffer[]): Promise<void> {
  const batches = writeBatches(parts);
  for (let step = batches.next(); !step.done; ) step = batches.next((await file.writev(step.value)).bytesWritten);
}
