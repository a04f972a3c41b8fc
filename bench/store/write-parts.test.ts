// writeAllParts: every byte of every part, in order, whatever a writev takes at a time.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writevSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeAllParts, type Writev } from "./write-parts.ts";

const parts = (n: number): Buffer[] => Array.from({ length: n }, (_, i) => Buffer.from(i % 5 === 4 ? "" : `part ${i};`));
const joined = (bufs: Buffer[]): string => Buffer.concat(bufs).toString();

describe("writeAllParts", () => {
  it("writes more parts than one writev takes, in order, to a real file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "write-parts-"));
    try {
      const file = path.join(dir, "out.json");
      const many = parts(2500);
      const fd = openSync(file, "w");
      let calls = 0;
      writeAllParts(fd, many, (f, b) => (calls++, writevSync(f, b)));
      closeSync(fd);
      expect(readFileSync(file, "utf8")).toBe(joined(many));
      expect(calls).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("goes on from where a short write stopped, inside a part or between parts", () => {
    for (const limit of [1, 3, 7, 64]) {
      const out: Buffer[] = [];
      // Takes at most `limit` bytes a call, like a file system that writes less than asked.
      const short: Writev = (_fd, buffers) => {
        const all = Buffer.concat(buffers.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
        const taken = all.subarray(0, limit);
        out.push(Buffer.from(taken));
        return taken.length;
      };
      const some = parts(40);
      writeAllParts(0, some, short);
      expect(joined(out), `limit ${limit}`).toBe(joined(some));
    }
  });

  it("says so when the file takes nothing", () => {
    expect(() => writeAllParts(0, [Buffer.from("x")], () => 0)).toThrow("the file took no bytes");
    expect(() => writeAllParts(0, [Buffer.alloc(0)], () => 0)).not.toThrow();
  });
});
