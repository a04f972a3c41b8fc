// The synthetic model's writer says where and how large before writing, then bytes written.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { QWEN35_4B, writeSyntheticQwen35 } from "./synthetic-gguf.ts";

it("announces the file and its size, then reports bytes written up to that size", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "synthetic-gguf-"));
  try {
    const file = path.join(dir, "tiny.gguf");
    const started: { file: string; bytes: number }[] = [];
    const seen: [number, number][] = [];
    // A few MB: small dimensions and vocabulary (the 4B is 2.5 GiB).
    const small = { ...QWEN35_4B, embedding: 256, layers: 4, feedForward: 512, heads: 1, kvHeads: 1, headDim: 256, stateSize: 256, linearKeyHeads: 1, linearValueHeads: 1 };
    writeSyntheticQwen35(file, { chatTemplate: "{{ messages }}", corpus: "a ticket to the airport", merges: 10, dimensions: small, vocabularySize: 1024, onStart: (s) => started.push(s), onProgress: (w, t) => seen.push([w, t]) });
    const size = statSync(file).size;
    expect(started).toEqual([{ file, bytes: size }]);
    expect(seen.at(-1)).toEqual([size, size]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
