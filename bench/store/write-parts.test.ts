// writeAllParts: every byte of every part, in order, whatever a writev takes at a time.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeAllParts, type PartsFile } from "./write-parts.ts";

const parts = (n: number): Buffer[] => Array.from({ length: n }, (_, i) => Buffer.from(i % 5 === 4 ? "" : `part ${i};`));
const joined = (bufs: Buffer[]): string => Buffer.concat(bufs).toString();

/** A file that takes at most `limit` bytes a writev, like a file system that writes less than asked. */
function shortFile(limit: number): PartsFile & { out: Buffer[] } {
  const out: Buffer[] = [];
  return {
    out,
    writev: async (buffers) => {
      const taken = Buffer.concat(buffers).subarray(0, limit);
      out.push(Buffer.from(taken));
      return { bytesWritten: taken.length };
    },
  };
}

describe("writeAllParts", () => {
  it("writes more parts than one writev takes, in order, to a real file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "write-parts-"));
    try {
      const file = path.join(dir, "out.json");
      const many = parts(2500);
      const handle = await open(file, "w");
      let calls = 0;
      await writeAllParts({ writev: (b) => (calls++, handle.writev(b)) }, many);
      await handle.close();
      expect(readFileSync(file, "utf8")).toBe(joined(many));
      expect(calls).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("goes on from where a short write stopped, inside a part or between parts", async () => {
    for (const limit of [1, 3, 7, 64]) {
      const file = shortFile(limit);
      const some = parts(40);
      await writeAllParts(file, some);
      expect(joined(file.out), `limit ${limit}`).toBe(joined(some));
    }
  });

  it("says so when the file takes nothing", async () => {
    await expect(writeAllParts(shortFile(0), [Buffer.from("x")])).rejects.toThrow("the file took no bytes");
    await expect(writeAllParts(shortFile(0), [Buffer.alloc(0)])).resolves.toBeUndefined();
  });
});
