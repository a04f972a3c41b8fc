// No GPL code in the packaged kiosk: every package it ships — copied into the app or bundled into
// its code — declares a licence, and none is GPL-family (scripts/licences.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../test/paths.ts";
import { bundledPackages, licenceOf, licenceProblems, productionPackageDirs, shippedPackages } from "../scripts/licences.ts";

describe("the licences of what the kiosk ships", () => {
  it("finds no package with a GPL-family licence or without a licence", async () => {
    const shipped = await shippedPackages(REPO_ROOT);
    // The whole production tree and the bundles' packages are there (react in the screen, zod in main).
    expect(shipped.length).toBeGreaterThan(100);
    expect(shipped.map((p) => p.name)).toEqual(expect.arrayContaining(["react", "zod", "better-sqlite3", "node-llama-cpp"]));
    expect(licenceProblems(shipped)).toEqual([]);
  }, 120_000);

  it("every bundled package comes from the production tree (no devDependency slips into a bundle unchecked)", async () => {
    const production = new Set(productionPackageDirs(REPO_ROOT).map((dir) => dir.slice(dir.lastIndexOf("node_modules/") + "node_modules/".length)));
    const bundled = await bundledPackages(REPO_ROOT);
    expect(bundled.size).toBeGreaterThan(10);
    expect([...bundled].filter((name) => !production.has(name))).toEqual([]);
  }, 120_000);

  it("the check refuses eSpeak NG's npm package, any GPL wording, and a package that declares nothing", () => {
    const pkg = (name: string, licence: string | null) => ({ name, dir: `node_modules/${name}`, licence });
    expect(licenceProblems([pkg("espeak-ng", "GPL-3.0-or-later")])).toEqual(["espeak-ng (node_modules/espeak-ng): GPL-3.0-or-later may not ship with the Apache-2.0 kiosk"]);
    for (const licence of ["GPL-2.0", "LGPL-2.1+", "AGPL-3.0-only", "(MIT OR GPL-3.0)", "GNU General Public License v3", "GNU Lesser General Public License"]) {
      expect(licenceProblems([pkg("x", licence)]), licence).toHaveLength(1);
    }
    expect(licenceProblems([pkg("x", null)])).toEqual(["x (node_modules/x): no licence field"]);
    for (const licence of ["MIT", "Apache-2.0", "BSD-3-Clause", "ISC", "OFL-1.1", "(MIT OR WTFPL)", "BlueOak-1.0.0"]) expect(licenceProblems([pkg("x", licence)]), licence).toEqual([]);
  });

  it("reads both licence fields package.json has had", () => {
    expect(licenceOf({ license: "MIT" })).toBe("MIT");
    expect(licenceOf({ license: { type: "BSD" } })).toBe("BSD");
    expect(licenceOf({ licenses: [{ type: "Apache 2.0" }, { type: "MIT" }] })).toBe("Apache 2.0 OR MIT");
    expect(licenceOf({})).toBeNull();
  });

  it("eSpeak NG is not a dependency: the kiosk runs an installed espeak-ng program instead", () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => /espeak/i.test(name))).toEqual([]);
  });

  it("`npm run package` refuses to build an installer when the check fails", () => {
    const script = readFileSync(path.join(REPO_ROOT, "scripts", "package.ts"), "utf8");
    expect(script).toMatch(/licenceProblems\(await shippedPackages\(REPO_ROOT\)\)/);
  });
});
