// perf:llm and perf:anchor end to end on the tiny generated GGUFs, as a README generator would run
// them (--json): stdout is one JSON object naming the machine, the model's architecture and the
// builds compared. perf:anchor runs against a stand-in llama-bench (a shell script printing
// llama-bench's JSON and its backend-loading line) in a portable build folder of its own cache, so
// no llama.cpp build is needed; the llama model it measures is the tiny one, placed where the
// script looks for its 4B.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hardwareInfo } from "../bench/run/environment.ts";
import { anchorCmakeOptions, anchorPaths, PORTABLE_ANCHOR } from "../models/anchors/llama-cpp.ts";
import { makeTinyModel } from "../models/testing/tiny-model.ts";
import { REPO_ROOT } from "../test/paths.ts";

const dir = mkdtempSync(path.join(tmpdir(), "perf-scripts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, args: string[], env: NodeJS.ProcessEnv = {}): unknown {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "scripts", name), ...args], { cwd: REPO_ROOT, encoding: "utf8", timeout: 240_000, env: { ...process.env, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("perf scripts --json", () => {
  it("perf:llm names the machine, the architecture it measured and the engine build", () => {
    const tiny = makeTinyModel({ architecture: "qwen35" });
    try {
      const out = script("perf-llm.ts", [tiny.file, "--threads", "1", "--prefill", "16", "--decode", "4", "--shared", "32", "--session", "8", "--json"]) as {
        machine: { cpuModel: string };
        model: Record<string, unknown>;
        engineBuild: string;
        threads: { threads: number; decodeTokPerS: number }[];
      };
      expect(out.machine.cpuModel).toBe(hardwareInfo().cpuModel);
      expect(out.model).toMatchObject({ file: tiny.file, synthetic: false, architecture: "qwen35", recurrent: true, layers: 4, quantization: "F32" });
      expect(["prebuilt", "source"]).toContain(out.engineBuild);
      expect(out.threads).toHaveLength(1);
      expect(out.threads[0]?.decodeTokPerS).toBeGreaterThan(0);
    } finally {
      tiny.cleanup();
    }
  });

  it("perf:anchor names the machine and both builds as compiled, with the CPU variant llama-bench loaded", () => {
    const cache = path.join(dir, "llama.cpp");
    const xdg = path.join(dir, "xdg");
    const env = { METRO_LLAMA_CPP_CACHE: cache, XDG_CACHE_HOME: xdg };
    const paths = anchorPaths(PORTABLE_ANCHOR, env);
    mkdirSync(paths.bin, { recursive: true });
    const bench = path.join(paths.bin, "llama-bench");
    writeFileSync(
      bench,
      [
        "#!/bin/sh",
        'echo "load_backend: loaded CPU backend from $(dirname "$0")/libggml-cpu-haswell.so" >&2',
        `echo '[{"n_prompt":16,"n_gen":0,"avg_ts":100},{"n_prompt":0,"n_gen":4,"avg_ts":50}]'`,
      ].join("\n"),
    );
    chmodSync(bench, 0o755);
    const cmakeOptions = anchorCmakeOptions(PORTABLE_ANCHOR);
    writeFileSync(paths.info, JSON.stringify({ tag: "v0.4.0", nodeLlamaCppVersion: "3.21.1", flavour: "portable", targets: ["llama-bench"], cmakeOptions, openmp: false, jobs: 2, configureSeconds: 1, buildSeconds: 1, builtAt: "2026-12-06T00:00:00.000Z", compiler: "c++" }));
    const tiny = makeTinyModel();
    try {
      mkdirSync(path.join(xdg, "metro-kiosk", "models"), { recursive: true });
      copyFileSync(tiny.file, path.join(xdg, "metro-kiosk", "models", "llama-4b-random-q4k.gguf"));
      const out = script("perf-anchor.ts", ["--arch", "llama", "--threads", "1", "--prefill", "16", "--decode", "4", "--reps", "1", "--json"], env) as {
        machine: { cpuModel: string };
        ours: { build: string; label: string };
        llamaBench: { flavour: string; binary: string; label: string; likeThePrebuilt: boolean; cpuVariant: string | null };
        rows: { arch: string; benchPrefill: number; benchDecode: number }[];
      };
      expect(out.machine.cpuModel).toBe(hardwareInfo().cpuModel);
      expect(out.llamaBench).toMatchObject({ flavour: "portable", binary: bench, likeThePrebuilt: true, cpuVariant: "haswell" });
      expect(out.llamaBench.label).toMatch(/^llama\.cpp v0\.4\.0 portable build \(GGML_NATIVE=OFF\), OpenMP off, CPU variant picked at run time: haswell$/);
      expect(out.ours.label).toMatch(/^node-llama-cpp \S+ (prebuilt binary|source build): /);
      expect(out.rows).toMatchObject([{ arch: "llama", benchPrefill: 100, benchDecode: 50 }]);
    } finally {
      tiny.cleanup();
    }
  });
});
