// The compiled CLI: scripts/build-node.ts bundles it with source maps, `kiosk --help` starts
// without loading the heavy modules, code that locates files beside its source still finds them,
// and bin/kiosk.js runs the bundle (no TypeScript loader) with stack traces mapped to the sources,
// a command that runs to completion from the CommonJS bundle with a V8 code cache.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validatedFilesPath } from "../cli/validated-files.ts";
import { REPO_ROOT, SHARED_DATA_DIR } from "../test/paths.ts";
import { writeTinyGguf } from "../models/testing/tiny-gguf.ts";
import { BUILD_INFO_FILE, buildNodeWithMetafile, CJS_ENTRY, LAUNCH_PLAN_ENTRY, NODE_ENTRY_POINTS, staticClosure, type BuildInfo } from "./build-node.ts";

// Inside the repository, as dist/node is: the bundle resolves its external packages from node_modules.
mkdirSync(path.join(REPO_ROOT, "dist"), { recursive: true });
const outDir = mkdtempSync(path.join(REPO_ROOT, "dist", ".build-node-test-"));
let info: BuildInfo;
let metafile: Metafile;
let launchPlanMetafile: Metafile;

beforeAll(async () => {
  ({ info, metafile, launchPlanMetafile } = await buildNodeWithMetafile({ outDir, entryPoints: { ...NODE_ENTRY_POINTS, "entry-probe": "test/node-entry-probe.ts", "spread-probe": "test/spread-probe.ts" } }));
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const relOut = (file: string): string => path.relative(REPO_ROOT, path.join(outDir, file)).split(path.sep).join("/");

describe("scripts/build-node.ts", () => {
  it("builds every entry point with a linked source map and records its inputs", () => {
    for (const name of Object.keys(NODE_ENTRY_POINTS)) {
      const file = path.join(outDir, `${name}.js`);
      expect(readFileSync(file, "utf8")).toContain(`//# sourceMappingURL=${name}.js.map`);
      expect(existsSync(`${file}.map`)).toBe(true);
    }
    const bundle = readFileSync(path.join(outDir, CJS_ENTRY.file));
    expect(bundle.toString("utf8")).toContain(`//# sourceMappingURL=${CJS_ENTRY.file}.map`);
    expect(existsSync(path.join(outDir, `${CJS_ENTRY.file}.map`))).toBe(true);
    const written = JSON.parse(readFileSync(path.join(outDir, BUILD_INFO_FILE), "utf8")) as BuildInfo;
    expect(written).toEqual(info);
    expect(info.cjs).toEqual({ file: CJS_ENTRY.file, sha256: createHash("sha256").update(bundle).digest("hex") });
    expect(info.inputs).toEqual(expect.arrayContaining(["cli/main.ts", "cli/bench-run.ts", "bench/scorer/score.ts", "package-lock.json"]));
    expect(info.inputs.some((i) => i.startsWith("node_modules/"))).toBe(false);
    for (const output of info.outputs) expect(existsSync(path.join(outDir, output)), output).toBe(true);
  });

  it("writes ASCII-only chunks, which V8 keeps as one-byte strings (scripts/ascii-output.ts)", () => {
    const chunks = info.outputs.filter((f) => /\.c?js$/.test(f));
    expect(chunks).toContain(CJS_ENTRY.file);
    for (const chunk of chunks) expect(readFileSync(path.join(outDir, chunk)).every((byte) => byte < 0x80), chunk).toBe(true);
  });

  it("starts `kiosk` without node-llama-cpp, SQLite, the kiosk server or the data-pack schemas", () => {
    const start = staticClosure(metafile, relOut("kiosk.js"));
    expect(start.inputs).toContain("cli/main.ts");
    expect(start.externals.filter((e) => !e.startsWith("node:"))).toEqual([]);
    const heavy = start.inputs.filter((i) => /node_modules\/(zod|yaml|ws)\/|runtime\/kiosk\/|tools\/data\/schemas\.ts|bench\/store\//.test(i));
    expect(heavy).toEqual([]);
    // What the launcher loads first (CommonJS, LAUNCH_PLAN_ENTRY) is the command table alone (the
    // model command names the default model), without the commands it imports.
    const plan = launchPlanMetafile.outputs[relOut(LAUNCH_PLAN_ENTRY.file)];
    expect(Object.keys(plan?.inputs ?? {}).filter((i) => !i.includes(":")).sort()).toEqual(["cli/commands.ts", "cli/jit-tiering.ts", "cli/launch-plan.ts", "models/catalog.ts"]);
    expect(plan?.imports.filter((i) => i.external && !i.path.startsWith("node:"))).toEqual([]);
    expect(info.outputs).toContain(LAUNCH_PLAN_ENTRY.file);
    // The modules a command needs are still in the build, one import() away.
    const all = Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
    expect(all).toEqual(expect.arrayContaining(["node-llama-cpp", "better-sqlite3"]));
  });

  it("compiles `{ ...a, b }` so that the objects it builds share a hidden class (V8 in Node 20 gives each its own)", () => {
    // %HaveSameMap needs --allow-natives-syntax, and the probe's TypeScript cannot spell it: a Function made at run time can.
    const script = `
      const { withAdded } = await import(${JSON.stringify(pathToFileURL(path.join(outDir, "spread-probe.js")).href)});
      const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)");
      const made = Array.from({ length: 50 }, (_, i) => withAdded({ id: i, name: "x" + i }, i));
      process.stdout.write(String(sameMap(made[48], made[49])));`;
    const run = spawnSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("true");
  });

  it("keeps import.meta.url pointing at each source file (the repository root and the pack manifest are found)", async () => {
    const { main } = (await import(pathToFileURL(path.join(outDir, "kiosk.js")).href)) as { main(argv: string[]): Promise<void> };
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      // `data check` verifies the pack against the manifest that tools/data/fetch.ts finds beside itself.
      await main(["node", "kiosk", "--data", SHARED_DATA_DIR, "data", "check"]);
    } finally {
      process.stdout.write = write;
    }
    expect(process.exitCode ?? 0).toBe(0);
    const report = JSON.parse(chunks.join("")) as { cases: number; checksums: unknown };
    expect(report.cases).toBe(955);
    expect(report.checksums).toBe("all files match the pinned commit");
  });
});

describe("tools/util/node-entry.ts", () => {
  it("finds another entry point beside the compiled chunk, or its TypeScript source through tsx", () => {
    const compiled = spawnSync(process.execPath, [path.join(outDir, "entry-probe.js")], { encoding: "utf8", timeout: 60_000 });
    expect(compiled.status, compiled.stderr).toBe(0);
    expect(JSON.parse(compiled.stdout)).toEqual({ url: pathToFileURL(path.join(outDir, "kiosk.js")).href, execArgv: [] });
    const source = spawnSync(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "test", "node-entry-probe.ts")], { encoding: "utf8", timeout: 60_000, cwd: REPO_ROOT });
    expect(source.status, source.stderr).toBe(0);
    expect(JSON.parse(source.stdout)).toEqual({ url: pathToFileURL(path.join(REPO_ROOT, "cli", "main.ts")).href, execArgv: ["--import", "tsx"] });
  });
});

describe("bin/kiosk.js", () => {
  const kiosk = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(REPO_ROOT, "bin", "kiosk.js"), "--data", SHARED_DATA_DIR, ...args], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 120_000 });

  it("runs the compiled CLI without a TypeScript loader", () => {
    expect(readFileSync(path.join(REPO_ROOT, "bin", "kiosk.js"), "utf8")).not.toMatch(/tsx\/esm|register\(/);
    const help = kiosk("--help");
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage: kiosk/);
    const map = JSON.parse(readFileSync(path.join(outDir, "kiosk.js.map"), "utf8")) as { sources: string[] };
    expect(map.sources.map((s) => path.resolve(outDir, s))).toContain(path.join(REPO_ROOT, "cli", "main.ts"));
  });

  it("prints a crash's stack with the TypeScript sources' lines", () => {
    const dir = mkdtempSync(path.join(outDir, "crash-"));
    const db = path.join(dir, "bench.sqlite");
    expect(kiosk("bench", "run", "--policy", "rule", "--cases", "MARTA-A-001", "--db", db, "--json").status).toBe(0);
    // A report into a "folder" that is a file: mkdir fails inside cli/bench-report.ts.
    const blocker = path.join(dir, "not-a-folder");
    writeFileSync(blocker, "");
    const crash = kiosk("bench", "report", "latest", "--db", db, "--html", path.join(blocker, "report.html"));
    expect(crash.status).toBe(1);
    expect(crash.stderr).toMatch(/EEXIST/);
    expect(crash.stderr).toMatch(/cli[/\\]bench-report\.ts:\d+:\d+/);
    expect(crash.stderr).not.toMatch(/dist[/\\]node[/\\][^\s]+\.c?js:\d+/);
  });

  it("compiles dist/node first when it is not built, a source it was built from is newer or gone, or an output is missing; not when it is current", () => {
    // A stand-in repository: the real launcher, a one-line CLI and a build script that records each run.
    const root = mkdtempSync(path.join(outDir, "launcher-"));
    cpSync(path.join(REPO_ROOT, "bin"), path.join(root, "bin"), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
    mkdirSync(path.join(root, "scripts"));
    mkdirSync(path.join(root, "src"));
    writeFileSync(path.join(root, "src", "a.ts"), "export {};\n");
    writeFileSync(
      path.join(root, "scripts", "build-node.ts"),
      [
        `import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";`,
        `mkdirSync("dist/node", { recursive: true });`,
        `writeFileSync("dist/node/kiosk.js", "export async function main() { console.log('ran'); }");`,
        `writeFileSync("dist/node/launch-plan.cjs", "exports.launchPlan = () => ({ codeCache: null, v8Flags: null });");`,
        `writeFileSync("dist/node/build-info.json", JSON.stringify({ inputs: ["src/a.ts"], outputs: ["kiosk.js", "launch-plan.cjs"] }));`,
        `appendFileSync("builds.log", "b");`,
      ].join("\n"),
    );
    const launch = () => spawnSync(process.execPath, [path.join(root, "bin", "kiosk.js")], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 60_000 });
    const builds = () => (existsSync(path.join(root, "builds.log")) ? readFileSync(path.join(root, "builds.log"), "utf8").length : 0);
    const expectRun = (reason: string | null, buildsAfter: number) => {
      const run = launch();
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe("ran\n");
      if (reason === null) expect(run.stderr).toBe("");
      else expect(run.stderr).toContain(`compiling the CLI into dist/node (${reason})`);
      expect(builds()).toBe(buildsAfter);
    };
    const past = new Date(Date.now() - 3_600_000);
    const future = new Date(Date.now() + 3_600_000);

    expectRun("not built yet", 1);
    utimesSync(path.join(root, "src", "a.ts"), past, past);
    expectRun(null, 1);
    utimesSync(path.join(root, "src", "a.ts"), future, future);
    expectRun("src/a.ts changed", 2);
    utimesSync(path.join(root, "src", "a.ts"), past, past);
    unlinkSync(path.join(root, "dist", "node", "kiosk.js"));
    // The launcher imports the output it has just rebuilt.
    expectRun("dist/node/kiosk.js is missing", 3);
    rmSync(path.join(root, "src", "a.ts"));
    expectRun("src/a.ts was removed", 4);
  });

  it("ends a command that runs to completion once its work is done, output and exit code kept; help and servers end as Node ends them", () => {
    const dir = mkdtempSync(path.join(outDir, "exit-"));
    const events = path.join(dir, "events.txt");
    const hooks = path.join(dir, "hooks.cjs");
    // The main thread's last events: `beforeExit` comes only when Node ends the process itself.
    writeFileSync(
      hooks,
      `const fs = require("node:fs"); if (require("node:worker_threads").isMainThread) {
        process.on("beforeExit", () => fs.appendFileSync(${JSON.stringify(events)}, "beforeExit "));
        process.on("exit", (code) => fs.appendFileSync(${JSON.stringify(events)}, "exit:" + code));
      }`,
    );
    const withHooks = (...args: string[]) => {
      rmSync(events, { force: true });
      const r = spawnSync(process.execPath, ["-r", hooks, path.join(REPO_ROOT, "bin", "kiosk.js"), "--data", SHARED_DATA_DIR, ...args], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 120_000 });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr, events: existsSync(events) ? readFileSync(events, "utf8") : "" };
    };
    const bench = withHooks("bench", "run", "--policy", "rule", "--cases", "MARTA-A-001", "--db", path.join(dir, "b.sqlite"), "--json");
    expect(bench.status, bench.stderr).toBe(0);
    expect(JSON.parse(bench.stdout)).toMatchObject({ status: "finished", cases: { done: 1 } });
    expect(bench.events).toBe("exit:0");
    const usage = withHooks("bench", "run", "--policy", "no-such-policy", "--db", path.join(dir, "b.sqlite"));
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/no-such-policy/);
    expect(usage.events).toBe("exit:2");
    const help = withHooks("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: kiosk/);
    expect(help.events).toBe("beforeExit exit:0");
  });

  describe("the code cache of a command that runs to completion", () => {
    // A build of its own with the real launcher, and no sources beside them: nothing is rebuilt,
    // and the caches go to this dist/node only. Inside the repository, for node_modules.
    const root = mkdtempSync(path.join(REPO_ROOT, "dist", ".code-cache-test-"));
    let built: BuildInfo;
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const dist = path.join(root, "dist", "node");
    /** `data check`'s report without its timing. */
    const report = (stdout: string): unknown => ({ ...(JSON.parse(stdout) as Record<string, unknown>), ms: undefined });
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(root, "bin", "kiosk.js"), "--data", SHARED_DATA_DIR, ...args], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 120_000 });
    const caches = (): Record<string, { size: number; mtimeMs: number; sha256: string }> =>
      Object.fromEntries(
        readdirSync(dist)
          .filter((f) => f.endsWith(".v8cache"))
          .map((f) => {
            const bytes = readFileSync(path.join(dist, f));
            return [f, { size: bytes.length, mtimeMs: statSync(path.join(dist, f)).mtimeMs, sha256: createHash("sha256").update(bytes).digest("hex") }];
          }),
      );
    const cacheName = (key: string) => `${CJS_ENTRY.file}.${built.cjs.sha256.slice(0, 16)}.${key}.v8cache`;

    beforeAll(async () => {
      ({ info: built } = await buildNodeWithMetafile({ outDir: dist }));
      cpSync(path.join(REPO_ROOT, "bin"), path.join(root, "bin"), { recursive: true });
    }, 120_000);

    it("is written by the first run, used as it is by the next, and made again when V8 rejects it", () => {
      const first = run("data", "check");
      expect(first.status, first.stderr).toBe(0);
      const made = caches();
      expect(Object.keys(made)).toEqual([cacheName("data-check")]);
      // Compiled code, not the source: more than the bundle's 1.5 MB would take as text is not needed.
      expect(made[cacheName("data-check")]?.size).toBeGreaterThan(100_000);

      const second = run("data", "check");
      expect(second.status, second.stderr).toBe(0);
      expect(report(second.stdout)).toEqual(report(first.stdout));
      expect(caches()).toEqual(made); // accepted: not written again

      writeFileSync(path.join(dist, cacheName("data-check")), "not a code cache");
      const third = run("data", "check");
      expect(third.status, third.stderr).toBe(0);
      expect(report(third.stdout)).toEqual(report(first.stdout));
      const remade = caches()[cacheName("data-check")];
      expect(remade?.size).toBeGreaterThan(100_000);
      expect(run("data", "check").status).toBe(0);
      expect(caches()[cacheName("data-check")]).toEqual(remade);
    });

    it("is not written by a run that fails: a mistyped policy takes none of the build's cache places", () => {
      const r = run("bench", "run", "--policy", "no-such-policy", "--db", path.join(root, "failed.sqlite"));
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/no-such-policy/);
      expect(Object.keys(caches()).filter((f) => f.includes("no-such-policy"))).toEqual([]);
    });

    it("grows when a later run compiles more (a one-case bench run first, a bigger one after)", () => {
      const db = path.join(root, "bench.sqlite");
      const bench = (...args: string[]) => {
        // Each run validates the data pack (no memo of an earlier run, cli/validated-files.ts): the
        // validators' generated code counts in the heap's bytecode too, and the runs should differ
        // only in the cases they replay.
        rmSync(validatedFilesPath({ buildId: built.cjs.sha256, dir: dist }), { force: true });
        const r = run("bench", "run", "--db", db, "--json", ...args);
        expect(r.status, r.stderr).toBe(0);
        return caches()[cacheName("bench-run-rule")];
      };
      const small = bench("--policy", "rule", "--cases", "MARTA-A-001");
      const bigger = bench("--policy", "rule", "--system", "marta", "--category", "A,B,C");
      expect(bigger?.size).toBeGreaterThan(small?.size ?? Infinity);
      // It holds all that already: V8's data stays (the header may take this run's bytecode size).
      const v8Data = () => createHash("sha256").update(readFileSync(path.join(dist, cacheName("bench-run-rule"))).subarray(16)).digest("hex");
      const biggerData = v8Data();
      expect(bench("--policy", "rule", "--cases", "MARTA-A-001")?.size).toBe(bigger?.size);
      expect(v8Data()).toBe(biggerData);
    });

    it("keeps the data files a run validated, for the next runs of the same build (cli/validated-files.ts); `data check` validates anyway", () => {
      const memoFile = validatedFilesPath({ buildId: built.cjs.sha256, dir: dist });
      rmSync(memoFile, { force: true });
      const bench = () => {
        const r = run("bench", "run", "--db", path.join(root, "memo.sqlite"), "--json", "--policy", "rule", "--cases", "MARTA-A-001");
        expect(r.status, r.stderr).toBe(0);
        rmSync(path.join(root, "memo.sqlite"), { force: true });
      };
      expect(run("data", "check").status).toBe(0);
      expect(existsSync(memoFile)).toBe(false);
      bench();
      const memo = JSON.parse(readFileSync(memoFile, "utf8")) as { buildId: string; digests: string[] };
      expect(memo.buildId).toBe(built.cjs.sha256);
      for (const relative of ["cases/marta_cases.json", "data/systems/marta/framebook.yaml"]) {
        const sha256 = createHash("sha256").update(readFileSync(path.join(SHARED_DATA_DIR, relative))).digest("hex");
        expect(memo.digests).toContain(`${relative}:${sha256}`);
      }
      // The next run finds every file it reads in the memo: it adds nothing, so the file is not written.
      const mtime = statSync(memoFile).mtimeMs;
      bench();
      expect(statSync(memoFile).mtimeMs).toBe(mtime);
    });

    it("records the bytecode its run had, so that a run compiling nothing more makes no new cache", () => {
      const file = path.join(dist, cacheName("data-check"));
      expect(run("data", "check").status).toBe(0);
      const header = (bytes: Buffer) => ({ magic: bytes.toString("latin1", 0, 8), bytecode: Number(bytes.readBigUInt64LE(8)) });
      const made = readFileSync(file);
      expect(header(made).magic).toBe("kioskv8c");
      expect(header(made).bytecode).toBeGreaterThan(100_000);
      // As if the cache had been made by a run with almost no code: this run has more, so it makes
      // the cache again, finds it no larger, keeps V8's data and records its own bytecode size.
      const lowered = Buffer.from(made);
      lowered.writeBigUInt64LE(1n, 8);
      writeFileSync(file, lowered);
      expect(run("data", "check").status).toBe(0);
      const after = readFileSync(file);
      expect(after.subarray(16).equals(made.subarray(16))).toBe(true);
      expect(header(after).bytecode).toBeGreaterThan(100_000);
      // The next run compiles nothing beyond that and leaves the file alone.
      const mtime = statSync(file).mtimeMs;
      expect(run("data", "check").status).toBe(0);
      expect(statSync(file).mtimeMs).toBe(mtime);
    });

    it("is not used for help or by a resident server (the ES module build runs those)", () => {
      const before = Object.keys(caches());
      expect(run("--help").status).toBe(0);
      expect(run("bench", "--help").status).toBe(0);
      // `serve` on a port that is taken stops at once, before serving.
      const taken = run("serve", "--port", "-1");
      expect(taken.status).not.toBe(0);
      expect(Object.keys(caches())).toEqual(before);
    });

    it("loads node-llama-cpp (an ES module) from code restored from the cache", () => {
      const gguf = writeTinyGguf(path.join(root, "tiny.gguf"), { chatTemplate: "{% for m in messages %}{{ m.content }}{% endfor %}", corpus: "a kiosk sells tickets", merges: 20, seed: 3 });
      for (let i = 0; i < 2; i++) {
        const inspect = run("model", "inspect", gguf.file);
        expect(inspect.status, inspect.stderr).toBe(0);
        expect(inspect.stdout).toMatch(/\(node-llama-cpp\)/);
      }
      expect(Object.keys(caches())).toContain(cacheName("model-inspect"));
    });
  });
});
