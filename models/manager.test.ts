// Catalog and models-directory manager. Downloads are tested against a local HTTP server serving
// the tiny generated GGUF (the real node-llama-cpp downloader, no internet); offline behaviour with
// a host that cannot resolve.
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG, catalogEntry, DEFAULT_MODEL_ID, estimatedMemoryBytes, modelsThatFit } from "./catalog.ts";
import { ModelFileCorruptError, ModelNotFoundError, ModelOfflineError, ModelSpecError } from "./errors.ts";
import { inspectGgufFile } from "./gguf.ts";
import { ModelManager, resolveModelsDir, resolveModelSpec } from "./manager.ts";
import { makeTinyModel, type TinyModelFixture } from "./testing/tiny-model.ts";

describe("catalog", () => {
  it("lists the four published students with the 4B as default", () => {
    expect(CATALOG.map((m) => m.id)).toEqual(["2b", "4b", "9b", "27b"]);
    expect(DEFAULT_MODEL_ID).toBe("4b");
    const m = catalogEntry("4B");
    expect(m).toMatchObject({
      repo: "continker/Qwen3.5-4B-metro-v24",
      file: "Qwen3.5-4B-metro-v24-Q4_K_M.gguf",
      uri: "hf:continker/Qwen3.5-4B-metro-v24/Qwen3.5-4B-metro-v24-Q4_K_M.gguf",
      isDefault: true,
      defaultContextSize: 16384,
    });
    expect(CATALOG.filter((x) => x.isDefault)).toHaveLength(1);
    for (const x of CATALOG) expect(x.sha256).toBeNull(); // not published: integrity = size + GGUF parse
  });
  it("estimates memory like the reference's mac_bench (weights + KV + 1.5 GB)", () => {
    const gb = (n: number) => n / 1024 ** 3;
    expect(gb(estimatedMemoryBytes(catalogEntry("4b") as (typeof CATALOG)[number]))).toBeCloseTo(2.6e9 / 1024 ** 3 + 2.25 + 1.5, 1);
    expect(modelsThatFit(8 * 1024 ** 3).map((m) => m.id)).toEqual(["4b", "2b"]);
    expect(modelsThatFit(2 * 1024 ** 3)).toEqual([]);
  });
});

describe("model specs and directory", () => {
  it("resolves the models directory: flag, then env, then ./models/cache", () => {
    expect(resolveModelsDir({ flag: "x", env: { METRO_MODELS_DIR: "y" }, cwd: "/r" })).toBe("/r/x");
    expect(resolveModelsDir({ env: { METRO_MODELS_DIR: "/abs" }, cwd: "/r" })).toBe("/abs");
    expect(resolveModelsDir({ env: {}, cwd: "/r" })).toBe("/r/models/cache");
  });
  it("resolves catalog ids, hf: URIs and URLs", () => {
    expect(resolveModelSpec("4b")).toMatchObject({ kind: "catalog", url: "https://huggingface.co/continker/Qwen3.5-4B-metro-v24/resolve/main/Qwen3.5-4B-metro-v24-Q4_K_M.gguf" });
    expect(resolveModelSpec("hf:me/repo/sub/m.gguf#dev")).toMatchObject({ kind: "hf", fileName: "m.gguf", url: "https://huggingface.co/me/repo/resolve/dev/sub/m.gguf" });
    expect(resolveModelSpec("https://example.com/a/b%20c.gguf")).toMatchObject({ kind: "url", fileName: "b c.gguf" });
    expect(() => resolveModelSpec("7b")).toThrow(ModelSpecError);
    expect(() => resolveModelSpec("https://example.com/readme.txt")).toThrow(/\.gguf/);
    expect(() => resolveModelSpec("hf:only-owner")).toThrow(ModelSpecError);
  });
  it("a missing model is a typed error that says how to get it", () => {
    const m = new ModelManager({ modelsDir: path.join(tmpdir(), "no-such-models-dir") });
    expect(m.list()).toEqual([]);
    expect(() => m.locate("4b")).toThrow(ModelNotFoundError);
    expect(() => m.locate("4b")).toThrow(/kiosk model pull 4b/);
  });
});

describe("pull, list and inspect (local HTTP server)", () => {
  let tiny: TinyModelFixture;
  let server: http.Server;
  let base: string;
  let dir: string;
  let big: string;

  beforeAll(async () => {
    tiny = makeTinyModel();
    // A GGUF larger than ipull's 5 MB chunks (tiny model + zero padding), to interrupt and resume.
    big = path.join(tiny.dir, "big.gguf");
    writeFileSync(big, Buffer.concat([Buffer.from(tiny.bytes), Buffer.alloc(12 * 1024 * 1024)]));
    server = http.createServer((req, res) => {
      const file = req.url === "/m/tiny.gguf" ? tiny.file : req.url === "/m/big.gguf" ? big : undefined;
      if (!file) {
        res.writeHead(req.method === "HEAD" ? 200 : 404);
        res.end();
        return;
      }
      const size = statSync(file).size;
      const range = req.headers.range ? /bytes=(\d+)-(\d*)/.exec(req.headers.range) : null;
      const start = range ? Number(range[1]) : 0;
      const end = range?.[2] ? Number(range[2]) : size - 1;
      const headers = { "Content-Length": end - start + 1, "Accept-Ranges": "bytes", "Content-Type": "application/octet-stream" };
      res.writeHead(range ? 206 : 200, range ? { ...headers, "Content-Range": `bytes ${start}-${end}/${size}` } : headers);
      if (req.method === "HEAD") return void res.end();
      createReadStream(file, { start, end }).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(path.join(tmpdir(), "models-"));
  });

  afterAll(() => {
    server?.close();
    tiny?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("downloads with progress, verifies, and skips a complete file the next time", async () => {
    const m = new ModelManager({ modelsDir: dir });
    const seen: number[] = [];
    const pulled = await m.pull(`${base}/m/tiny.gguf`, { onProgress: (p) => seen.push(p.downloadedBytes) });
    expect(pulled).toMatchObject({ alreadyPresent: false, bytes: tiny.bytes.length, path: path.join(dir, "tiny.gguf") });
    expect(pulled.inspection).toMatchObject({ architecture: "llama", hasChatTemplate: true });
    expect(seen.at(-1)).toBe(tiny.bytes.length);
    expect((await m.pull(`${base}/m/tiny.gguf`)).alreadyPresent).toBe(true);
    expect(m.list()).toMatchObject([{ fileName: "tiny.gguf", bytes: tiny.bytes.length, partial: false }]);
    expect(m.locate("tiny.gguf")).toBe(path.join(dir, "tiny.gguf"));
  });

  it("resumes an interrupted download (ipull keeps finished 5 MB chunks in <file>.ipull)", async () => {
    const d = mkdtempSync(path.join(tmpdir(), "models-resume-"));
    const m = new ModelManager({ modelsDir: d });
    const controller = new AbortController();
    const first = m.pull(`${base}/m/big.gguf`, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.downloadedBytes > 11 * 1024 * 1024) controller.abort(new Error("interrupted"));
      },
    });
    await expect(first).rejects.toThrow("interrupted");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(m.list()).toMatchObject([{ fileName: "big.gguf", partial: true }]);
    const second = await m.pull(`${base}/m/big.gguf`);
    expect(second).toMatchObject({ resumed: true, alreadyPresent: false, bytes: statSync(big).size });
    expect(existsSync(`${second.path}.ipull`)).toBe(false);
    rmSync(d, { recursive: true, force: true });
  });

  it("inspect reports metadata, integrity and a memory fit; damaged files are typed errors", async () => {
    const m = new ModelManager({ modelsDir: dir });
    const { inspection, fit } = await m.inspect(path.join(dir, "tiny.gguf"));
    expect(inspection).toMatchObject({ ggufVersion: 3, architecture: "llama", fileType: "ALL_F32", quantization: "F32", contextLength: 32768, hasChatTemplate: true, recurrent: false });
    expect(inspection.parameters).toBeGreaterThan(50_000);
    expect(fit).toMatchObject({ method: "formula", fitsInRam: true });
    const truncated = path.join(dir, "truncated.gguf");
    writeFileSync(truncated, tiny.bytes);
    truncateSync(truncated, tiny.bytes.length - 1000);
    await expect(inspectGgufFile(truncated)).rejects.toThrow(ModelFileCorruptError);
    await expect(inspectGgufFile(truncated)).rejects.toThrow(/truncated/);
    const foreign = path.join(dir, "foreign.gguf");
    writeFileSync(foreign, "PK\u0003\u0004 not a gguf");
    await expect(m.inspect(foreign)).rejects.toThrow(/no GGUF magic/);
    await expect(m.inspect(path.join(dir, "absent.gguf"))).rejects.toThrow(ModelNotFoundError);
  });

  it("fails fast and clearly when the host cannot be reached", async () => {
    const m = new ModelManager({ modelsDir: dir });
    const t0 = Date.now();
    await expect(m.pull("https://models.invalid/x.gguf", { probeTimeoutMs: 2000 })).rejects.toThrow(ModelOfflineError);
    await expect(m.pull("https://models.invalid/x.gguf", { probeTimeoutMs: 2000 })).rejects.toThrow(/Cannot reach models\.invalid/);
    expect(Date.now() - t0).toBeLessThan(8000);
  });
});
