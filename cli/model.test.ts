// `kiosk model …` in-process: inspect on the tiny generated GGUF, list, and pull failing fast offline.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { writeTinyGguf } from "../models/testing/tiny-gguf.ts";
import { makeTinyModel, type TinyModelFixture } from "../models/testing/tiny-model.ts";
import { UsageError } from "./context.ts";
import { registerModelCommands } from "./model.ts";

function program(): Command {
  const p = new Command("kiosk").exitOverride();
  registerModelCommands(p);
  return p;
}

async function run(...argv: string[]): Promise<{ stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    await program().parseAsync(["model", ...argv], { from: "user" });
    return { stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

let tiny: TinyModelFixture;
let emptyDir: string;

beforeAll(() => {
  tiny = makeTinyModel();
  emptyDir = mkdtempSync(path.join(tmpdir(), "kiosk-models-"));
});
afterAll(() => {
  tiny?.cleanup();
  if (emptyDir) rmSync(emptyDir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

describe("kiosk model inspect", () => {
  it("prints metadata and a memory fit for the tiny GGUF (--json)", async () => {
    const { stdout } = await run("inspect", tiny.file, "--json", "--estimate", "formula", "--context", "4096");
    const result = JSON.parse(stdout) as { inspection: Record<string, unknown>; fit: Record<string, unknown> };
    expect(result.inspection).toMatchObject({ architecture: "llama", name: "tiny-qwen-test", quantization: "F32", contextLength: 32768, hasChatTemplate: true, fileSize: tiny.bytes.length });
    expect(result.fit).toMatchObject({ contextSize: 4096, method: "formula", fitsInRam: true });
  });
  it("prints a readable summary; finds files by name in the models directory", async () => {
    const { stdout } = await run("inspect", "tiny.gguf", "--models-dir", tiny.dir, "--estimate", "formula");
    expect(stdout).toMatch(/^file: +.*tiny\.gguf/m);
    expect(stdout).toMatch(/quantisation: +F32/);
    expect(stdout).toMatch(/chat template: +embedded/);
    expect(stdout).toMatch(/→ fits/);
  });
  it("reports the GGUF's block_count as its layers, not one more (node-llama-cpp counts the output layer too)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kiosk-layers-"));
    try {
      const qwen35 = { embeddingLength: 64, headCount: 4, headCountKv: 2, headDim: 16, feedForwardLength: 128 };
      for (const [architecture, layers] of [["llama", 3], ["qwen35", 8]] as const) {
        const file = path.join(dir, `layers-${architecture}.gguf`);
        writeTinyGguf(file, { chatTemplate: tiny.pack.chatTemplate(), merges: 50, architecture, layers, ...(architecture === "qwen35" ? qwen35 : {}) });
        const { stdout } = await run("inspect", file, "--json", "--estimate", "formula");
        expect((JSON.parse(stdout) as { inspection: { layers: number } }).inspection.layers, architecture).toBe(layers);
        expect((await run("inspect", file, "--estimate", "formula")).stdout).toMatch(new RegExp(`^layers: +${layers}$`, "m"));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("recognises the student's qwen35 hybrid layout", async () => {
    const q = makeTinyModel({ architecture: "qwen35" });
    try {
      const { stdout } = await run("inspect", q.file, "--estimate", "formula");
      expect(stdout).toMatch(/^model: +tiny-qwen35-test \(qwen35, hybrid\/recurrent\)$/m);
    } finally {
      q.cleanup();
    }
  });
  it("user errors are UsageErrors", async () => {
    await expect(run("inspect", "nope.gguf", "--models-dir", emptyDir)).rejects.toThrow(UsageError);
    await expect(run("inspect", "4b", "--models-dir", emptyDir)).rejects.toThrow(/kiosk model pull 4b/);
    await expect(run("inspect", tiny.file, "--estimate", "guess")).rejects.toThrow(/--estimate/);
  });
});

describe("kiosk model list", () => {
  it("lists local files and the catalog", async () => {
    const { stdout } = await run("list", "--models-dir", tiny.dir);
    expect(stdout).toContain("tiny.gguf");
    expect(stdout).toMatch(/4b +continker\/Qwen3\.5-4B-metro-v24 .*\[default\]/);
    const json = JSON.parse((await run("list", "--models-dir", emptyDir, "--json")).stdout) as { local: unknown[]; catalog: { id: string; downloaded: boolean }[] };
    expect(json.local).toEqual([]);
    expect(json.catalog.map((c) => [c.id, c.downloaded])).toEqual([["2b", false], ["4b", false], ["9b", false], ["27b", false]]);
  });
});

describe("kiosk model pull", () => {
  it("fails within seconds with a clear message when the host cannot be reached", async () => {
    const t0 = Date.now();
    const err = await run("pull", "https://downloads.invalid/models/x.gguf", "--models-dir", emptyDir, "--probe-timeout", "2000").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/Cannot reach downloads\.invalid .*offline/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
  it("rejects unknown models", async () => {
    await expect(run("pull", "7b", "--models-dir", emptyDir)).rejects.toThrow(/Unknown model '7b'/);
  });
});
