import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataPack, dataDirCandidates, locateDataDir, locateSystemsDir, type ValidatedFiles } from "./datapack.ts";
import { DataFileError, DataPackNotFoundError } from "./errors.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";

describe("data pack", () => {
  const pack = new DataPack(SHARED_DATA_DIR);

  it("loads all six systems, 955 cases, the split and the prompt profile", () => {
    expect(pack.loadAll()).toEqual({ systems: 6, cases: 955 });
    expect(pack.split().holdout_ids).toHaveLength(238);
    expect(pack.toolDefinitions().map((t) => t.function.name)).toContain("submit_assistant_state");
    expect(pack.system("beijing").stations).toHaveLength(414);
  });

  it("offers typed accessors for systems, stations, lines and cases", () => {
    const marta = pack.system("marta");
    expect(marta.stationById("MARTA-FP")?.name).toBe("Five Points");
    expect(marta.resolveStation("  five points ")?.id).toBe("MARTA-FP");
    expect(marta.aliasLine("Red Line")).toBe("red");
    expect(marta.aliasLine("nope")).toBe("nope");
    // Parenthetical names match by their base and by the text in parentheses (reference quirk kept).
    expect(pack.system("cta").resolveStation("red")?.name).toBe("47th (Red)");
    expect(pack.caseById("MARTA-A-001")?.system).toBe("marta");
    expect(() => pack.system("london")).toThrow(/Unknown system 'london'/);
  });

  it("caches: the same objects come back", () => {
    expect(pack.system("doha")).toBe(pack.system("doha"));
    expect(pack.cases("doha")).toBe(pack.cases("doha"));
  });

  it("gives each case file's SHA-256, of the bytes its cases were read from", () => {
    const onDisk = createHash("sha256").update(readFileSync(path.join(SHARED_DATA_DIR, "cases/taipei_cases.json"))).digest("hex");
    expect(new DataPack(SHARED_DATA_DIR).caseFileChecksum("taipei")).toBe(onDisk);
    // Read before it was asked for: the file is not read again.
    const copy = mkdtempSync(path.join(tmpdir(), "pack-checksum-"));
    try {
      const file = path.join(copy, "cases/taipei_cases.json");
      mkdirSync(path.dirname(file));
      writeFileSync(file, readFileSync(path.join(SHARED_DATA_DIR, "cases/taipei_cases.json")));
      const read = new DataPack(copy);
      expect(read.cases("taipei")).toHaveLength(pack.cases("taipei").length);
      writeFileSync(file, "[]");
      expect(read.caseFileChecksum("taipei")).toBe(onDisk);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe("data pack location", () => {
  it("prefers --data, then $METRO_DATA_DIR, then ./data/metrollm-bench, then ../shared/metrollm-bench", () => {
    const c = dataDirCandidates({ flag: "/x", env: { METRO_DATA_DIR: "/y" }, cwd: "/w/main" });
    expect(c.map((x) => x.dir)).toEqual(["/x", "/y", "/w/main/data/metrollm-bench", "/w/shared/metrollm-bench"]);
  });

  it("names every place it looked when nothing is there", () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "nopack-"));
    try {
      locateDataDir({ cwd, env: {} });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DataPackNotFoundError);
      const msg = (err as Error).message;
      expect(msg).toContain(path.join(cwd, "data/metrollm-bench"));
      expect(msg).toContain("kiosk data fetch");
    } finally {
      rmSync(cwd, { recursive: true });
    }
  });

  it("does not silently fall back when an explicit --data directory is wrong", () => {
    expect(() => locateDataDir({ flag: "/definitely/not/here", env: {} })).toThrow(/not\/here \(--data\)/);
  });
});

describe("imported systems (a systems directory)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "systems-dir-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** A system folder with MARTA's files under another id: the loader cannot tell it from an import. */
  const install = (root: string, id: string): void => {
    mkdirSync(root, { recursive: true });
    cpSync(path.join(SHARED_DATA_DIR, "data", "systems", "marta"), path.join(root, id), { recursive: true });
  };

  it("loads them through the pack's own loader, listed after the pack's systems; other folders are not systems", () => {
    const systemsDir = path.join(dir, "ok");
    install(systemsDir, "atlantis");
    install(systemsDir, "alpha-2");
    mkdirSync(path.join(systemsDir, ".import-zeta-1-2"));
    mkdirSync(path.join(systemsDir, "Not An Id"));
    const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
    expect(pack.packSystemIds).toEqual(["marta", "doha", "bart", "taipei", "cta", "beijing"]);
    expect(pack.systemIds).toEqual([...pack.packSystemIds, "alpha-2", "atlantis"]);
    expect(pack.isImported("atlantis")).toBe(true);
    expect(pack.isImported("marta")).toBe(false);
    expect(pack.systemDir("atlantis")).toBe(path.join(systemsDir, "atlantis"));
    expect(pack.system("atlantis").stationById("MARTA-FP")?.name).toBe("Five Points");
    // The bench's cases stay the pack's.
    expect(pack.allCases()).toHaveLength(955);
    expect(() => pack.system("london")).toThrow("Unknown system 'london'. Known systems: marta, doha, bart, taipei, cta, beijing, alpha-2, atlantis");
  });

  it("refuses an imported folder that takes a pack system's id", () => {
    const systemsDir = path.join(dir, "clash");
    install(systemsDir, "bart");
    expect(() => new DataPack(SHARED_DATA_DIR, { systemsDir })).toThrow(/may not take the id of a system of the data pack \('bart'\)/);
  });

  it("a broken imported file names the file and the line", () => {
    const systemsDir = path.join(dir, "broken");
    install(systemsDir, "brokenville");
    writeFileSync(path.join(systemsDir, "brokenville", "lines.json"), '[\n  {"id": "red"}\n]\n');
    expect(() => new DataPack(SHARED_DATA_DIR, { systemsDir }).system("brokenville")).toThrow(DataFileError);
    expect(() => new DataPack(SHARED_DATA_DIR, { systemsDir }).system("brokenville")).toThrow(/brokenville\/lines\.json:2/);
  });

  it("is found at --systems-dir, else $METRO_SYSTEMS_DIR, else ./data/systems", () => {
    expect(locateSystemsDir({ flag: "x", env: { METRO_SYSTEMS_DIR: "/y" }, cwd: "/w" })).toBe("/w/x");
    expect(locateSystemsDir({ env: { METRO_SYSTEMS_DIR: "/y" }, cwd: "/w" })).toBe("/y");
    expect(locateSystemsDir({ env: {}, cwd: "/w" })).toBe("/w/data/systems");
  });
});

describe("corrupted data pack", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  function corruptCopy(relative: string, edit: (text: string) => string): DataPack {
    const dir = mkdtempSync(path.join(tmpdir(), "pack-"));
    dirs.push(dir);
    cpSync(SHARED_DATA_DIR, dir, { recursive: true });
    const file = path.join(dir, relative);
    const text = readFileSync(file, "utf8");
    rmSync(file);
    writeFileSync(file, edit(text));
    return new DataPack(dir);
  }

  function errorOf(fn: () => unknown): DataFileError {
    try {
      fn();
    } catch (err) {
      if (err instanceof DataFileError) return err;
      throw err;
    }
    throw new Error("expected a DataFileError");
  }

  it("bad YAML names the file and the line", () => {
    const pack = corruptCopy("data/systems/marta/framebook.yaml", (t) => t.replace('currency_code: "USD"', 'currency_code: "USD'));
    const err = errorOf(() => pack.system("marta"));
    expect(err.file).toMatch(/marta\/framebook\.yaml$/);
    expect(err.message).toMatch(/framebook\.yaml:\d+:\d+/);
    expect(err.message).toContain("invalid YAML");
  });

  it("a missing field names the file, the line and the path", () => {
    const pack = corruptCopy("data/systems/marta/framebook.yaml", (t) => t.replace(/^ {2}currency_symbol: .*\n/m, ""));
    const err = errorOf(() => pack.system("marta"));
    expect(err.message).toMatch(/framebook\.yaml:2:\d+ at framebook\.currency_symbol: expected string, got nothing \(missing\)/);
  });

  it("a wrong type in JSON names the line of the offending value", () => {
    const pack = corruptCopy("data/systems/bart/fares.json", (t) => t.replace('"base_fare": 2.15', '"base_fare": "2.15"'));
    const err = errorOf(() => pack.system("bart"));
    const line = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/bart/fares.json"), "utf8").split("\n").findIndex((l) => l.includes('"base_fare"')) + 1;
    expect(err.message).toContain(`fares.json:${line}:`);
    expect(err.message).toContain("at base_fare: expected number, got string");
  });

  it("malformed JSON reports the line and column", () => {
    const pack = corruptCopy("cases/doha_cases.json", (t) => t.replace('"category": "A"', '"category" "A"'));
    const err = errorOf(() => pack.cases("doha"));
    expect(err.message).toMatch(/doha_cases\.json:\d+:\d+: invalid JSON/);
  });

  it("a bad case field points into the case list", () => {
    const pack = corruptCopy("cases/doha_cases.json", (t) => t.replace('"type": "station_selected"', '"type": "teleport"'));
    const err = errorOf(() => pack.cases("doha"));
    expect(err.message).toMatch(/doha_cases\.json:\d+:\d+ at \[0\]\.events\[0\]\.type/);
  });
});

describe("validation memo (ValidatedFiles)", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const sha256 = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");
  const memoOf = (digests: Set<string>): ValidatedFiles => ({ has: (d) => digests.has(d), add: (d) => void digests.add(d) });
  function packCopy(): string {
    const dir = mkdtempSync(path.join(tmpdir(), "pack-memo-"));
    dirs.push(dir);
    cpSync(SHARED_DATA_DIR, dir, { recursive: true });
    return dir;
  }
  const FARES = "data/systems/bart/fares.json";
  const breakFares = (dir: string): void => {
    const file = path.join(dir, FARES);
    writeFileSync(file, readFileSync(file, "utf8").replace('"base_fare": 2.15', '"base_fare": "2.15"'));
  };

  it("remembers every file that passed, by its place in the pack and the SHA-256 of its bytes", () => {
    const digests = new Set<string>();
    new DataPack(SHARED_DATA_DIR, { validatedFiles: memoOf(digests) }).loadAll();
    // 6 case files, 6 systems × 6 files, the split, the prompt profile, the tool definitions, the rubrics.
    expect(digests.size).toBe(46);
    for (const relative of ["cases/doha_cases.json", FARES, "data/systems/marta/framebook.yaml", "prompt-profile/tool-definitions.json"]) {
      expect(digests).toContain(`${relative}:${sha256(path.join(SHARED_DATA_DIR, relative))}`);
    }
  });

  it("parses a remembered file without validating it again, and validates a file whose bytes changed", () => {
    const dir = packCopy();
    breakFares(dir);
    // An invalid file: without the memo, validation refuses it …
    expect(() => new DataPack(dir).system("bart")).toThrow(DataFileError);
    // … and a memo that (wrongly, for the test's sake) holds these very bytes skips its validation.
    const digests = new Set([`${FARES}:${sha256(path.join(dir, FARES))}`]);
    expect(new DataPack(dir, { validatedFiles: memoOf(digests) }).system("bart").fares.base_fare).toBe("2.15");
    // The memo of the valid pack does not cover the changed bytes: they are validated, and refused.
    const valid = new Set<string>();
    new DataPack(SHARED_DATA_DIR, { validatedFiles: memoOf(valid) }).system("bart");
    expect(() => new DataPack(dir, { validatedFiles: memoOf(valid) }).system("bart")).toThrow(/fares\.json:\d+:\d+ at base_fare/);
  });

  it("does not remember a file that failed", () => {
    const dir = packCopy();
    breakFares(dir);
    const digests = new Set<string>();
    expect(() => new DataPack(dir, { validatedFiles: memoOf(digests) }).system("bart")).toThrow(DataFileError);
    expect([...digests].some((d) => d.startsWith(`${FARES}:`))).toBe(false);
  });
});
