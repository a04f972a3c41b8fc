// Installing on a fresh machine needs nothing but the npm registry: Electron's install script (a
// binary download) is denied in package.json#allowScripts, every other dependency's install
// script is reviewed, and `engines` says what the dependencies need. The real proof is
// scripts/fresh-clone-check.sh (a clone, `npm ci && npm run main` with Electron's host
// unreachable), which .ci/run runs; these checks keep the declarations honest as dependencies change.
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../test/paths.ts";

interface LockPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  hasInstallScript?: boolean;
  engines?: Record<string, string> | string[];
}
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  engines: { node: string; npm: string };
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockPackage> };

const packageName = (lockPath: string): string => lockPath.slice(lockPath.lastIndexOf("node_modules/") + "node_modules/".length);

/** Dependencies whose engines we knowingly do not meet: only electron-builder's packaging uses them (docs/PACKAGING.md). */
const PACKAGING_ONLY = new Set(["@electron/rebuild", "node-abi"]);
/**
 * Test-only tools whose engines field is a support policy stricter than they need: @axe-core/playwright
 * (4.14 declares node >= 22.12; 4.13 declared none) runs the accessibility e2e on Node 20 in CI. Not needed to run the kiosk.
 */
const TEST_ONLY = new Set(["@axe-core/playwright"]);
const knowinglyUnmet = (u: string): boolean => PACKAGING_ONLY.has(u.split(" ")[0] as string) || TEST_ONLY.has(u.split(" ")[0] as string);

function unmetEngines(nodeVersion: string): string[] {
  const unmet: string[] = [];
  for (const [lockPath, info] of Object.entries(lock.packages)) {
    const range = !Array.isArray(info.engines) ? info.engines?.["node"] : undefined;
    if (lockPath === "" || range === undefined) continue;
    if (!semver.satisfies(nodeVersion, range)) unmet.push(`${packageName(lockPath)} (${range})`);
  }
  return unmet;
}

/** Install scripts we deny on purpose, and why nothing needs them. */
const DENIED_INSTALL_SCRIPTS: Record<string, string> = {
  electron: "downloads the Electron binary, unreachable here; npm run electron:install fetches it where it can",
  "core-js": "prints a funding banner only",
  protobufjs: "only warns when a dependent's version range uses another scheme",
};

describe("fresh-machine install", () => {
  it("denies Electron's binary download and has reviewed every other install script", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([p, info]) => p !== "" && info.hasInstallScript === true)
      .map(([p]) => packageName(p));
    expect(withScripts).toContain("electron");
    for (const name of withScripts) expect(pkg.allowScripts[name], `allowScripts has no entry for ${name}`).toBeTypeOf("boolean");
    const denied = Object.entries(pkg.allowScripts).filter(([, ok]) => !ok).map(([name]) => name);
    expect(denied.sort()).toEqual(Object.keys(DENIED_INSTALL_SCRIPTS).sort());
    const allowed = Object.entries(pkg.allowScripts).filter(([, ok]) => ok).map(([name]) => name);
    expect(allowed.sort()).toEqual(withScripts.filter((n) => !(n in DENIED_INSTALL_SCRIPTS)).sort());
    // npm honours allowScripts from 11.16.0 on; engines says so.
    expect(semver.minVersion(pkg.engines.npm)?.version).toBe("11.16.0");
  });

  it("engines.node is exactly what the dependencies need (packaging-only tools aside)", () => {
    for (const floor of ["20.19.0", "22.13.0", "24.0.0", "26.0.0"]) {
      expect(semver.satisfies(floor, pkg.engines.node), floor).toBe(true);
      const unmet = unmetEngines(floor).filter((u) => !knowinglyUnmet(u));
      expect(unmet, `node ${floor}`).toEqual([]);
    }
    // Just outside the range some dependency refuses to run.
    for (const outside of ["20.18.3", "22.12.0", "23.11.0", "27.0.0"]) {
      expect(semver.satisfies(outside, pkg.engines.node), outside).toBe(false);
      expect(unmetEngines(outside).filter((u) => !knowinglyUnmet(u)), `node ${outside}`).not.toEqual([]);
    }
  });

  it("CI installs like a fresh machine (no skip variable) and runs the fresh-clone check", () => {
    const ci = readFileSync(path.join(REPO_ROOT, ".ci", "run"), "utf8");
    expect(ci).not.toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD/);
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
    expect(ci).toMatch(/fresh-clone-check\.sh/);
    // The headset-speech tests run Debian's espeak-ng, a separate program the kiosk never bundles.
    expect(ci).toMatch(/apt-get install .*\bchromium postgresql espeak-ng\b/);
    expect(ci).toMatch(/command -v espeak-ng/);
    const check = readFileSync(path.join(REPO_ROOT, "scripts", "fresh-clone-check.sh"), "utf8");
    expect(check).toMatch(/unset ELECTRON_SKIP_BINARY_DOWNLOAD/);
    expect(check).toMatch(/^npm run main$/m);
    const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm ci && npm run main");
    expect(readme).toContain("npm ci && npm test");
    expect(readme).not.toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD/);
  });
});
