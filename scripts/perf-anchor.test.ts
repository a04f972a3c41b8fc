// What `npm run perf:anchor` says it compared: the machine, our engine build and the llama-bench it
// ran, each as compiled (not "native build" for any llama-bench), and a note when they differ.
import { describe, expect, it } from "vitest";
import type { Hardware } from "../bench/store/schema.ts";
import { anchorCmakeOptions, PORTABLE_ANCHOR, type AnchorBuildInfo } from "../models/anchors/llama-cpp.ts";
import { comparisonHeader, comparisonJson, type AnchorComparison } from "./perf-anchor.ts";

const machine: Hardware = { cpuModel: "AMD EPYC 7B13", cpuCores: 2, memoryBytes: 8 * 1024 ** 3, platform: "linux", arch: "x64", osRelease: "6.1", node: "v22.13.0" };
const build = (cmakeOptions: Record<string, string>, openmp: boolean): AnchorBuildInfo => ({
  tag: "v0.4.0",
  nodeLlamaCppVersion: "3.21.1",
  targets: ["llama-bench"],
  cmakeOptions,
  openmp,
  jobs: 2,
  configureSeconds: 1,
  buildSeconds: 1,
  builtAt: "2026-12-06T00:00:00.000Z",
  compiler: "/usr/bin/c++",
});
const comparison = (flavour: string, info: AnchorBuildInfo | undefined, engineBuild: AnchorComparison["engineBuild"] = "prebuilt"): AnchorComparison => ({
  machine,
  engineBuild,
  nodeLlamaCppVersion: "3.21.1",
  anchor: { flavour, binary: `/cache/v0.4.0/${flavour}/bin/llama-bench`, info, cpuVariant: info?.cmakeOptions.GGML_CPU_ALL_VARIANTS === "ON" ? "haswell" : undefined },
});

describe("perf:anchor's header", () => {
  it("names the machine and labels the portable llama-bench as portable: a like-for-like comparison with the prebuilt engine", () => {
    const lines = comparisonHeader(comparison("portable", build(anchorCmakeOptions(PORTABLE_ANCHOR, "linux", "x64"), false)));
    expect(lines).toEqual([
      "machine: AMD EPYC 7B13 ×2, 8.0 GiB, linux x64, node v22.13.0",
      "ours: node-llama-cpp 3.21.1 prebuilt binary: portable build (GGML_NATIVE=OFF), OpenMP off, CPU variant picked at run time",
      "llama-bench: llama.cpp v0.4.0 portable build (GGML_NATIVE=OFF), OpenMP off, CPU variant picked at run time: haswell (portable: /cache/v0.4.0/portable/bin/llama-bench)",
    ]);
  });
  it("says when the two are not compiled alike (a native llama-bench, or our native source build)", () => {
    const native = comparisonHeader(comparison("native-openmp", build(anchorCmakeOptions({ native: true, openmp: true }, "linux", "x64"), true)));
    expect(native[2]).toMatch(/^llama-bench: llama\.cpp v0\.4\.0 native build \(GGML_NATIVE=ON, for the builder's CPU\), OpenMP on \(native-openmp: /);
    expect(native.at(-1)).toMatch(/^note: the two are not compiled alike/);
    const oursNative = comparisonHeader(comparison("portable", build(anchorCmakeOptions(PORTABLE_ANCHOR, "linux", "x64"), false), "source"));
    expect(oursNative[1]).toBe("ours: node-llama-cpp 3.21.1 source build: native build (GGML_NATIVE=ON, for this CPU), OpenMP on");
    expect(oursNative.at(-1)).toMatch(/^note: /);
    expect(comparisonHeader(comparison("portable", undefined)).slice(2)).toEqual([
      "llama-bench: llama.cpp, unknown build (no build.json beside the binary) (portable: /cache/v0.4.0/portable/bin/llama-bench)",
      "note: the two are not compiled alike, so the shares below compare builds as well as engines",
    ]);
  });
  it("--json carries the same facts as fields", () => {
    const c = comparison("portable", build(anchorCmakeOptions(PORTABLE_ANCHOR, "linux", "x64"), false));
    const json = comparisonJson(c, { prefill: 128, decode: 32, reps: 3 }, []);
    expect(json.machine.cpuModel).toBe("AMD EPYC 7B13");
    expect(json.ours).toEqual({ build: "prebuilt", label: expect.stringMatching(/^node-llama-cpp 3\.21\.1 prebuilt binary/) as unknown });
    expect(json.llamaBench).toMatchObject({ flavour: "portable", likeThePrebuilt: true, cpuVariant: "haswell" });
  });
});
