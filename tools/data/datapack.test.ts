import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataPack, dataDirCandidates, locateDataDir } from "./datapack.ts";
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
