import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataPack } from "./datapack.ts";
import { DataFetchError, fetchDataPack, packManifest, verifyPack } from "./fetch.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";

const work = mkdtempSync(path.join(tmpdir(), "fetch-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** An archive shaped like GitHub's: one top-level folder holding the repository. */
function makeArchive(name: string, edit?: (root: string) => void): string {
  const root = path.join(work, name, "metrollm-bench-commit");
  mkdirSync(root, { recursive: true });
  for (const part of ["cases", "data", "LICENSE", "NOTICE"]) cpSync(path.join(SHARED_DATA_DIR, part), path.join(root, part), { recursive: true });
  edit?.(root);
  const archive = path.join(work, `${name}.tar.gz`);
  const tar = spawnSync("tar", ["-czf", archive, "-C", path.join(work, name), "metrollm-bench-commit"]);
  expect(tar.status).toBe(0);
  return archive;
}

describe("kiosk data fetch", () => {
  it("every file of the shared pack matches the pinned manifest", () => {
    expect(verifyPack(SHARED_DATA_DIR, packManifest(), { includeProfile: true })).toEqual([]);
  });

  it("extracts, verifies and installs a pack that then loads", async () => {
    const target = path.join(work, "installed", "metrollm-bench");
    const result = await fetchDataPack({ target, archive: makeArchive("good"), profileFrom: SHARED_DATA_DIR });
    expect(result.profile).toBe("copied");
    expect(new DataPack(target).loadAll()).toEqual({ systems: 6, cases: 955 });
  });

  it("rejects a tampered archive and leaves the existing pack untouched", async () => {
    const target = path.join(work, "kept", "metrollm-bench");
    mkdirSync(target, { recursive: true });
    writeFileSync(path.join(target, "marker"), "previous pack");
    const archive = makeArchive("bad", (root) => writeFileSync(path.join(root, "data/systems/marta/fares.json"), "{}"));
    await expect(fetchDataPack({ target, archive })).rejects.toThrow(/data\/systems\/marta\/fares\.json: checksum mismatch/);
    expect(existsSync(path.join(target, "marker"))).toBe(true);
  });

  it("fails fast with a clear message when the host cannot be reached", async () => {
    const started = Date.now();
    const error = await fetchDataPack({ target: path.join(work, "offline"), url: "http://host.invalid/pack.tar.gz", connectTimeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFetchError);
    expect((error as Error).message).toMatch(/needs internet access/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
