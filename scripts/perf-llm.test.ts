// `npm run perf:llm` without a model file measures the product's architecture (the synthetic 4B,
// qwen35 hybrid), not a llama model, and says which architecture it measured. The synthetic writer
// is swapped for one with small dimensions (the real one writes 2.6 GB).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectGgufFile } from "../models/gguf.ts";
import { QWEN35_4B, SYNTHETIC_4B_FILE, writeSyntheticQwen35, type ensureSynthetic4b } from "../models/synthetic-gguf.ts";
import { makeTinyModel } from "../models/testing/tiny-model.ts";
import { modelLine, perfModel } from "./perf-llm.ts";

const dir = mkdtempSync(path.join(tmpdir(), "perf-llm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("perf:llm's model", () => {
  it("defaults to the synthetic 4B's qwen35 hybrid and names its architecture", async () => {
    const asked: Parameters<typeof ensureSynthetic4b>[0][] = [];
    const small = { ...QWEN35_4B, embedding: 256, layers: 4, feedForward: 512, heads: 1, kvHeads: 1, headDim: 256, stateSize: 256, linearKeyHeads: 1, linearValueHeads: 1 };
    const ensureSynthetic: typeof ensureSynthetic4b = (options) => {
      asked.push(options);
      const file = path.join(dir, SYNTHETIC_4B_FILE);
      writeSyntheticQwen35(file, { ...options, merges: 10, dimensions: small, vocabularySize: 1024 });
      return { file, generated: true };
    };
    const model = perfModel(undefined, { ensureSynthetic });
    expect(model).toEqual({ file: path.join(dir, SYNTHETIC_4B_FILE), synthetic: true, generated: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.chatTemplate.length).toBeGreaterThan(0); // the data pack's template, as the kiosk renders prompts
    const { inspection } = await inspectGgufFile(model.file);
    expect(modelLine(model.file, inspection, model.synthetic)).toMatch(new RegExp(`^model: .*${SYNTHETIC_4B_FILE} \\(qwen35 hybrid, 4 layers, Q4_K_M, [0-9.]+ [MB] parameters; synthetic-4b, random weights\\)$`));
  });
  it("measures a given file as it is, and names its architecture", async () => {
    const ensureSynthetic = (): never => {
      throw new Error("no synthetic model when a file is given");
    };
    const tiny = makeTinyModel();
    try {
      const model = perfModel(tiny.file, { ensureSynthetic });
      expect(model).toEqual({ file: tiny.file, synthetic: false, generated: false });
      const { inspection } = await inspectGgufFile(model.file);
      expect(modelLine(model.file, inspection, false)).toBe(`model: ${tiny.file} (llama, 2 layers, F32, ${inspection.parameters} parameters)`);
    } finally {
      tiny.cleanup();
    }
  });
});
