// The licences of what the packaged kiosk ships: every package electron-builder copies into the
// app (the production dependency tree of package-lock.json) and every package whose code the
// bundles contain (the Electron bundles and the screen, found by esbuild's metafile). The product is
// Apache-2.0, so nothing under a GPL-family licence may ship — eSpeak NG, for one, is a program an
// operator installs and the kiosk runs, never a dependency. `npm run package` refuses to build an
// installer otherwise, and electron/licences.test.ts checks it on every test run.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { build, type BuildOptions } from "esbuild";
import { buildOptions } from "../electron/build.ts";

export interface ShippedPackage {
  name: string;
  /** Where it is installed, relative to the repository (node_modules/…). */
  dir: string;
  /** The package.json licence field(s), as written; null when the package declares none. */
  licence: string | null;
}

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  license?: string;
}

function lockEntries(root: string): Record<string, LockEntry> {
  return (JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }).packages;
}

/** Packages of the production dependency tree (what electron-builder copies), by install folder. */
export function productionPackageDirs(root: string): string[] {
  return Object.entries(lockEntries(root))
    .filter(([dir, entry]) => dir.startsWith("node_modules/") && !entry.dev && !entry.devOptional)
    .map(([dir]) => dir);
}

/** The package a bundled file comes from ("node_modules/@scope/name/…" → "@scope/name"). */
function packageOfInput(file: string): string | null {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/[^]*$/.exec(file.replaceAll("\\", "/"));
  return m ? m[1]! : null;
}

/** Packages whose code the Electron bundles and the built screen contain. */
export async function bundledPackages(root: string): Promise<Set<string>> {
  const screen: BuildOptions = {
    entryPoints: [path.join(root, "renderer", "main.tsx")],
    bundle: true,
    format: "esm",
    jsx: "automatic",
    loader: { ".css": "empty", ".woff2": "empty", ".woff": "empty", ".svg": "empty", ".png": "empty" },
    define: { "import.meta.env.DEV": "false" },
  };
  const names = new Set<string>();
  for (const options of [...buildOptions(), screen]) {
    const result = await build({ ...options, write: false, metafile: true, outdir: path.join(root, ".tmp", "licences"), logLevel: "silent", sourcemap: false });
    for (const input of Object.keys(result.metafile.inputs)) {
      const name = packageOfInput(input);
      if (name) names.add(name);
    }
  }
  return names;
}

/** A package.json's licence: `license`, or the old `licenses: [{type}]` list. */
export function licenceOf(manifest: { license?: unknown; licenses?: unknown }): string | null {
  if (typeof manifest.license === "string" && manifest.license.trim()) return manifest.license.trim();
  if (manifest.license && typeof manifest.license === "object" && typeof (manifest.license as { type?: unknown }).type === "string") return (manifest.license as { type: string }).type;
  if (Array.isArray(manifest.licenses)) {
    const types = manifest.licenses.map((l: unknown) => (l && typeof l === "object" ? (l as { type?: unknown }).type : undefined)).filter((t): t is string => typeof t === "string");
    if (types.length > 0) return types.join(" OR ");
  }
  return null;
}

/**
 * Every shipped package with its licence: as the lock file records it, else from its installed
 * package.json (optional packages of other platforms are in the lock only; a bundled package is
 * read from its top-level install).
 */
export async function shippedPackages(root: string): Promise<ShippedPackage[]> {
  const lock = lockEntries(root);
  const dirs = new Set(productionPackageDirs(root));
  for (const name of await bundledPackages(root)) dirs.add(`node_modules/${name}`);
  return [...dirs].sort().map((dir) => {
    const name = dir.slice(dir.lastIndexOf("node_modules/") + "node_modules/".length);
    const manifestFile = path.join(root, dir, "package.json");
    const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, "utf8")) as { license?: unknown; licenses?: unknown }) : {};
    return { name, dir, licence: lock[dir]?.license ?? licenceOf(manifest) };
  });
}

/** GPL, LGPL, AGPL in any version or wording ("GPL-3.0-or-later", "GNU GPL v3", "LGPL-2.1+"). */
const COPYLEFT = /\b(A|L)?GPL\b|GNU (Affero |Lesser )?General Public/i;

/** What may not ship: a GPL-family licence, or no licence at all (nobody can tell what it allows). */
export function licenceProblems(packages: readonly ShippedPackage[]): string[] {
  return packages.flatMap((p) =>
    p.licence === null ? [`${p.name} (${p.dir}): no licence field`] : COPYLEFT.test(p.licence) ? [`${p.name} (${p.dir}): ${p.licence} may not ship with the Apache-2.0 kiosk`] : [],
  );
}
