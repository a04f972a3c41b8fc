// The packaging configuration (electron-builder.yml), checked without building installers (that
// needs each target platform): valid against electron-builder's own schema, the native modules
// unpacked from the asar, only the target platform's node-llama-cpp binaries per platform and
// architecture, the data pack and optional model as extra resources where the shell looks for
// them, the fuses, the targets, and every file it references either present or produced by
// `npm run build`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Configuration } from "electron-builder";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT, SHARED_DATA_DIR } from "../test/paths.ts";
import { DEFAULT_MODELS_DIR, packagingEnv } from "../scripts/package.ts";
import { buildOptions, MAIN_EXTERNALS, OUT_DIR } from "./build.ts";
import { shellConfig } from "./config.ts";

const config = parse(readFileSync(path.join(REPO_ROOT, "electron-builder.yml"), "utf8")) as Configuration;
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { main: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };

const resolveFromRepo = (id: string): string => createRequire(path.join(REPO_ROOT, "package.json")).resolve(id);
// electron-builder's own modules (its schema validator and its minimatch), resolved from it.
const requireFromBuilder = createRequire(resolveFromRepo("electron-builder/package.json"));
const requireFromLib = createRequire(requireFromBuilder.resolve("app-builder-lib/package.json"));

type FileSet = { from?: string; to?: string; filter?: string | string[] };
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : typeof value === "string" ? [value] : []);

describe("electron-builder.yml", () => {
  it("is valid for the installed electron-builder (its JSON schema)", async () => {
    const { validateConfiguration } = requireFromLib("./out/util/config/config.js") as { validateConfiguration: (c: unknown, logger: unknown) => Promise<void> };
    const { DebugLogger } = requireFromLib("builder-util") as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(pkg.devDependencies["electron-builder"]).toMatch(/^\d+\.\d+\.\d+$/);
    // Fixed tool versions the project relies on.
    expect(pkg.devDependencies.vite).toBe("8.3.8");
    expect(pkg.devDependencies.vitest).toBe("4.1.12");
  });

  it("targets macOS dmg + zip (arm64, x64), Windows NSIS, Linux AppImage + deb", () => {
    const targets = (platform: "mac" | "win" | "linux") =>
      ((config[platform] as { target?: { target: string; arch?: string[] }[] }).target ?? []).map((t) => `${t.target}:${(t.arch ?? []).join("+")}`);
    expect(targets("mac")).toEqual(["dmg:arm64+x64", "zip:arm64+x64"]);
    expect(targets("win")).toEqual(["nsis:x64"]);
    expect(targets("linux")).toEqual(["AppImage:x64+arm64", "deb:x64+arm64"]);
  });

  it("flips the Electron fuses: no run-as-node, NODE_OPTIONS or inspect; asar only, integrity-checked; encrypted cookies", () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it("unpacks the native modules and rebuilds better-sqlite3 for Electron", () => {
    const unpack = strings(config.asarUnpack);
    expect(unpack).toEqual(expect.arrayContaining(["**/*.node", "node_modules/better-sqlite3/**", "node_modules/@node-llama-cpp/**", "node_modules/node-llama-cpp/bins/**"]));
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(false);
    // The native modules are exactly what the main bundle leaves external (plus electron and ws's optional helpers).
    expect(MAIN_EXTERNALS).toEqual(expect.arrayContaining(["better-sqlite3", "node-llama-cpp"]));
  });

  it("ships the data pack and an optional model as extra resources, where the packaged shell looks", () => {
    const extra = config.extraResources as FileSet[];
    expect(extra.map((e) => [e.from, e.to])).toEqual([
      ["${env.KIOSK_DATA_PACK}", "metrollm-bench"],
      ["${env.KIOSK_MODELS_DIR}", "models"],
    ]);
    // scripts/package.ts sets exactly those variables, resolving the pack as the kiosk does.
    const env = packagingEnv({ METRO_DATA_DIR: SHARED_DATA_DIR }, REPO_ROOT);
    expect(Object.keys(env).sort()).toEqual(["KIOSK_DATA_PACK", "KIOSK_MODELS_DIR"]);
    expect(env.KIOSK_DATA_PACK).toBe(path.resolve(SHARED_DATA_DIR));
    expect(env.KIOSK_MODELS_DIR).toBe(path.join(REPO_ROOT, DEFAULT_MODELS_DIR));
    expect(packagingEnv({ METRO_DATA_DIR: SHARED_DATA_DIR, KIOSK_MODELS_DIR: "/models" }, REPO_ROOT).KIOSK_MODELS_DIR).toBe("/models");
    // Every file the data pack filter names exists in the pack (no .gguf travels with it).
    for (const entry of strings(extra[0]!.filter).filter((f) => !f.startsWith("!"))) {
      expect(existsSync(path.join(env.KIOSK_DATA_PACK, entry.replace(/\/\*\*\/\*$/, ""))), entry).toBe(true);
    }
    expect(strings(extra[0]!.filter)).toContain("!**/*.gguf");
    expect(strings(extra[1]!.filter)).toEqual(["*.gguf"]);
    // The packaged shell reads the pack from resources/metrollm-bench (and models from resources/models, main.ts).
    const packaged = shellConfig([], {}, { appRoot: "/app/resources/app.asar", userData: "/u", resourcesDir: "/app/resources" });
    expect(packaged.dataDir).toBe(path.join("/app/resources", extra[0]!.to!));
    expect(readFileSync(path.join(REPO_ROOT, "electron", "main.ts"), "utf8")).toContain(`path.join(process.resourcesPath ?? "", "${extra[1]!.to}")`);
  });

  it("references only files that exist or that `npm run build` produces", () => {
    expect(pkg.main).toBe("dist/electron/main.cjs");
    // electron/build.ts writes main.cjs, model-worker.cjs and preload.cjs into dist/electron; vite writes renderer/dist.
    const built = new Set(buildOptions().flatMap((o) => Object.keys(o.entryPoints as Record<string, string>).map((name) => path.relative(REPO_ROOT, path.join(OUT_DIR, `${name}.cjs`)).split(path.sep).join("/"))));
    expect([...built].sort()).toEqual(["dist/electron/main.cjs", "dist/electron/model-worker.cjs", "dist/electron/preload.cjs"]);
    // Every bundle the shell loads ships in the app (the model process's too: main.ts forks it).
    for (const file of built) expect(strings(config.files), file).toContain(file);
    expect(readFileSync(path.join(REPO_ROOT, "renderer", "vite.config.ts"), "utf8")).toMatch(/outDir: "dist"/);
    const produced = (pattern: string): boolean => built.has(pattern) || pattern.startsWith("renderer/dist/");
    for (const pattern of strings(config.files).filter((p) => !p.startsWith("!"))) {
      if (produced(pattern)) continue;
      if (pattern.includes("*")) {
        const [dir, , file] = pattern.split("/");
        const root = path.join(REPO_ROOT, dir!);
        const subdirs = existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];
        const matches = subdirs.filter((d) => existsSync(path.join(root, d, file!)));
        expect(matches.length, pattern).toBeGreaterThan(0);
      } else expect(existsSync(path.join(REPO_ROOT, pattern)), pattern).toBe(true);
    }
    expect(pkg.main).toBe([...built].find((f) => f.endsWith("main.cjs")));
    // The icon: build/icon.png, a 1024×1024 PNG, for every platform.
    expect(config.directories?.buildResources).toBe("build");
    for (const platform of ["mac", "win", "linux"] as const) expect((config[platform] as { icon?: string }).icon).toBe("build/icon.png");
    const png = readFileSync(path.join(REPO_ROOT, "build", "icon.png"));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
  });

  it("ships only the target platform's node-llama-cpp binaries, per architecture", () => {
    const { Minimatch } = requireFromLib("minimatch") as { Minimatch: new (p: string, o: object) => { negate: boolean; match(path: string, partial?: boolean): boolean } };
    const llamaPackage = JSON.parse(readFileSync(path.join(REPO_ROOT, "node_modules", "node-llama-cpp", "package.json"), "utf8")) as { optionalDependencies: Record<string, string> };
    const binaries = Object.keys(llamaPackage.optionalDependencies).filter((n) => n.startsWith("@node-llama-cpp/")).map((n) => n.slice("@node-llama-cpp/".length));
    // electron-builder filters node_modules with the exclusions of `files` (root + platform), after "**/*".
    const shipped = (platform: "mac" | "win" | "linux", arch: string): string[] => {
      const patterns = ["**/*", ...strings(config.files), ...strings((config[platform] as { files?: unknown }).files)]
        .filter((p, i) => i === 0 || p.startsWith("!"))
        .map((p) => new Minimatch(p.replaceAll("${arch}", arch).replaceAll("${os}", platform), { dot: true }));
      const kept = (file: string): boolean => {
        let match = false;
        for (const pattern of patterns) {
          if (match !== pattern.negate) continue;
          match = pattern.match(file);
        }
        return match;
      };
      return binaries.filter((b) => kept(`node_modules/@node-llama-cpp/${b}`) && kept(`node_modules/@node-llama-cpp/${b}/bins/${b}/libllama.so`));
    };
    expect(shipped("mac", "arm64")).toEqual(["mac-arm64-metal"]);
    expect(shipped("mac", "x64")).toEqual(["mac-x64"]);
    expect(shipped("win", "x64")).toEqual(binaries.filter((b) => b.startsWith("win-x64")));
    expect(shipped("linux", "x64")).toEqual(binaries.filter((b) => b.startsWith("linux-x64")));
    expect(shipped("linux", "arm64")).toEqual(["linux-arm64"]);
  });

  it("leaves out only packages the bundles already contain, never one the native modules need", () => {
    const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }> };
    const needed = new Set<string>();
    const visit = (name: string): void => {
      if (needed.has(name)) return;
      needed.add(name);
      const entry = lock.packages[`node_modules/${name}`];
      for (const dep of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies })) visit(dep);
    };
    for (const external of MAIN_EXTERNALS.filter((e) => e !== "electron")) visit(external);
    const excluded = strings(config.files)
      .map((p) => /^!node_modules\/\{([^}]+)\}/.exec(p)?.[1])
      .filter((m): m is string => m !== undefined)
      .flatMap((m) => m.split(","))
      .filter((name) => !name.startsWith("better-sqlite3") && !name.startsWith("node-llama-cpp"));
    expect(excluded.length).toBeGreaterThan(10);
    expect(excluded.filter((name) => needed.has(name))).toEqual([]);
    for (const external of ["better-sqlite3", "node-llama-cpp"]) expect(pkg.dependencies[external], external).toBeDefined();
  });
});

