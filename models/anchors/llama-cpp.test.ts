// The anchors' build flavours and how a build is labelled. A fake `cmake` on PATH stands in for the
// real one (a real build takes minutes): it records its arguments, writes a CMakeCache.txt on
// configure and the binaries and libraries a build leaves in build/bin.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  anchorCmakeOptions,
  anchorPaths,
  buildAnchors,
  describeAnchorBuild,
  ensureAnchor,
  likeThePrebuilt,
  loadedCpuVariant,
  parseCMakeCache,
  PORTABLE_ANCHOR,
  sharedLibraries,
  type AnchorBuildInfo,
} from "./llama-cpp.ts";

const info = (cmakeOptions: Record<string, string>, extra: Partial<AnchorBuildInfo> = {}): AnchorBuildInfo => ({
  tag: "v0.4.0",
  nodeLlamaCppVersion: "3.21.1",
  targets: ["llama-bench"],
  cmakeOptions,
  jobs: 2,
  configureSeconds: 1,
  buildSeconds: 1,
  builtAt: "2026-12-06T00:00:00.000Z",
  compiler: "/usr/bin/c++",
  ...extra,
});

describe("anchor flavours", () => {
  it("builds portable without OpenMP by default, like node-llama-cpp's prebuilt binary; native only when asked", () => {
    const portable = anchorCmakeOptions(PORTABLE_ANCHOR, "linux", "x64");
    expect(portable).toMatchObject({ GGML_NATIVE: "OFF", GGML_OPENMP: "OFF", GGML_BACKEND_DL: "ON", GGML_CPU_ALL_VARIANTS: "ON", BUILD_SHARED_LIBS: "ON" });
    expect(anchorCmakeOptions(PORTABLE_ANCHOR, "darwin", "arm64")).toMatchObject({ GGML_NATIVE: "OFF", GGML_CPU_ALL_VARIANTS: "ON" });
    // ggml has no CPU variants there: one portable CPU backend, still loadable.
    expect(anchorCmakeOptions(PORTABLE_ANCHOR, "linux", "riscv64")).not.toHaveProperty("GGML_CPU_ALL_VARIANTS");
    expect(anchorCmakeOptions(PORTABLE_ANCHOR, "linux", "riscv64")).toMatchObject({ GGML_NATIVE: "OFF", GGML_BACKEND_DL: "ON" });
    expect(anchorCmakeOptions({ native: true, openmp: false }, "linux", "x64")).toMatchObject({ GGML_NATIVE: "ON", GGML_OPENMP: "OFF", BUILD_SHARED_LIBS: "OFF" });
    expect(anchorCmakeOptions({ native: true, openmp: false }, "linux", "x64")).not.toHaveProperty("GGML_CPU_ALL_VARIANTS");
    expect(anchorCmakeOptions({ native: false, openmp: true }, "linux", "x64")).toMatchObject({ GGML_NATIVE: "OFF", GGML_OPENMP: "ON" });
  });
  it("keeps each flavour in its own folder beside one shared source", () => {
    const env = { METRO_LLAMA_CPP_CACHE: "/cache" };
    const portable = anchorPaths(PORTABLE_ANCHOR, env, "v1");
    const native = anchorPaths({ native: true, openmp: true }, env, "v1");
    expect(portable).toMatchObject({ src: "/cache/v1/src", bin: "/cache/v1/portable/bin", info: "/cache/v1/portable/build.json" });
    expect(native).toMatchObject({ src: "/cache/v1/src", bin: "/cache/v1/native-openmp/bin", build: "/cache/v1/native-openmp/build" });
  });
});

describe("labels", () => {
  it("says what a build is from its build.json, not 'native' for every llama-bench", () => {
    const portable = info(anchorCmakeOptions(PORTABLE_ANCHOR, "linux", "x64"), { openmp: false });
    expect(describeAnchorBuild(portable, "haswell")).toBe("llama.cpp v0.4.0 portable build (GGML_NATIVE=OFF), OpenMP off, CPU variant picked at run time: haswell");
    expect(describeAnchorBuild(info({ GGML_NATIVE: "ON", GGML_OPENMP: "ON" }, { openmp: true }))).toBe("llama.cpp v0.4.0 native build (GGML_NATIVE=ON, for the builder's CPU), OpenMP on");
    // The old build.json (GGML_NATIVE=ON, OpenMP left at llama.cpp's default).
    expect(describeAnchorBuild(info({ GGML_NATIVE: "ON" }))).toMatch(/native build .*OpenMP on$/);
    // OpenMP asked for but not found: CMake built without it, and the label says so.
    expect(describeAnchorBuild(info({ GGML_NATIVE: "OFF", GGML_OPENMP: "ON" }, { openmp: false }))).toMatch(/OpenMP off/);
    expect(describeAnchorBuild(undefined)).toMatch(/unknown build/);
    expect(likeThePrebuilt(portable)).toBe(true);
    expect(likeThePrebuilt(info({ GGML_NATIVE: "ON" }))).toBe(false);
    expect(likeThePrebuilt(info(anchorCmakeOptions({ native: false, openmp: true })))).toBe(false);
    expect(likeThePrebuilt(undefined)).toBe(false);
  });
  it("reads the CPU variant llama-bench loaded and what CMake resolved", () => {
    expect(loadedCpuVariant("load_backend: loaded CPU backend from /c/portable/bin/libggml-cpu-sapphirerapids.so\nother\n")).toBe("sapphirerapids");
    expect(loadedCpuVariant("load_backend: loaded CPU backend from ./libggml-cpu-armv8.2_1.so")).toBe("armv8.2_1");
    expect(loadedCpuVariant("")).toBeUndefined();
    expect(parseCMakeCache("CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/c++\nGGML_OPENMP_ENABLED:INTERNAL=OFF\n")).toEqual({ compiler: "/usr/bin/c++", openmp: false });
    expect(parseCMakeCache("")).toEqual({ compiler: "unknown", openmp: undefined });
    expect(sharedLibraries(["llama-bench", "libggml-base.so", "libggml-base.so.0", "libggml-base.so.0.9.4", "libggml-cpu-x64.so", "build.ninja"])).toEqual([
      "libggml-base.so",
      "libggml-base.so.0",
      "libggml-base.so.0.9.4",
      "libggml-cpu-x64.so",
    ]);
  });
});

describe("building (fake cmake)", () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const log = (): string[] => readFileSync(path.join(dir, "cmake.log"), "utf8").trim().split("\n");

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "anchors-"));
    const fakeBin = path.join(dir, "fake-bin");
    mkdirSync(fakeBin);
    // configure: `cmake -S src -B build -D...`; build: `cmake --build build ... --target T...`.
    writeFileSync(
      path.join(fakeBin, "cmake"),
      [
        "#!/bin/sh",
        `echo "$*" >> "${path.join(dir, "cmake.log")}"`,
        'if [ "$1" = "--build" ]; then',
        '  mkdir -p "$2/bin"; for t in llama-bench llama-server libggml-base.so.0 libggml-cpu-haswell.so; do echo x > "$2/bin/$t"; done',
        "else",
        '  mkdir -p "$4"; printf "CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/fake-c++\\nGGML_OPENMP_ENABLED:INTERNAL=OFF\\n" > "$4/CMakeCache.txt"',
        "fi",
      ].join("\n"),
    );
    chmodSync(path.join(fakeBin, "cmake"), 0o755);
    env = { ...process.env, PATH: `${fakeBin}:${process.env.PATH ?? ""}`, METRO_LLAMA_CPP_CACHE: path.join(dir, "cache") };
    // The source is "already cloned", so no git runs.
    const { src } = anchorPaths(PORTABLE_ANCHOR, env);
    mkdirSync(src, { recursive: true });
    writeFileSync(path.join(src, "CMakeLists.txt"), "");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("configures the portable flavour by default, copies the libraries beside the binary and records what it built", async () => {
    const { paths, info: built, skipped } = await buildAnchors({ targets: ["llama-bench"], jobs: 2, env });
    expect(skipped).toBe(false);
    expect(paths.bin).toBe(path.join(dir, "cache", built.tag, "portable", "bin"));
    const [configure, build] = log();
    expect(configure).toContain("-DGGML_NATIVE=OFF");
    expect(configure).toContain("-DGGML_OPENMP=OFF");
    expect(configure).toContain("-DGGML_CPU_ALL_VARIANTS=ON");
    expect(build).toMatch(/--target llama-bench$/);
    for (const f of ["llama-bench", "libggml-base.so.0", "libggml-cpu-haswell.so"]) expect(existsSync(path.join(paths.bin, f)), f).toBe(true);
    const recorded = JSON.parse(readFileSync(paths.info, "utf8")) as AnchorBuildInfo;
    expect(recorded).toMatchObject({ flavour: "portable", openmp: false, compiler: "/usr/bin/fake-c++", cmakeOptions: { GGML_NATIVE: "OFF" } });
    expect(describeAnchorBuild(recorded)).toMatch(/portable build .*OpenMP off/);
  });
  it("builds native only when asked, into its own folder", async () => {
    const { paths, info: built } = await buildAnchors({ targets: ["llama-bench"], flavour: { native: true, openmp: false }, jobs: 2, env });
    expect(paths.bin).toBe(path.join(dir, "cache", built.tag, "native", "bin"));
    expect(log().at(-2)).toContain("-DGGML_NATIVE=ON");
    expect(built.flavour).toBe("native");
  });
  it("ensureAnchor builds a missing flavour first and reuses a built one", async () => {
    const build = vi.fn(buildAnchors);
    const first = await ensureAnchor("llama-server", { jobs: 2, env, build });
    expect(first.built).toBe(true);
    expect(build).toHaveBeenCalledWith(expect.objectContaining({ targets: ["llama-server"], flavour: PORTABLE_ANCHOR }));
    const again = await ensureAnchor("llama-server", { jobs: 2, env, build });
    expect(again).toMatchObject({ built: false, binary: first.binary });
    expect(again.info?.flavour).toBe("portable");
    expect(build).toHaveBeenCalledTimes(1);
  });
});
