import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileValidatedFiles, validatedFilesPath, type BuildCache } from "./validated-files.ts";

describe("the build's data-file validation memo", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  function build(buildId = "a".repeat(64)): BuildCache {
    const dir = mkdtempSync(path.join(tmpdir(), "validated-files-"));
    dirs.push(dir);
    return { buildId, dir };
  }

  it("keeps what one run adds for the next run of the same build", () => {
    const b = build();
    const first = fileValidatedFiles(b);
    expect(first.has("cases/doha_cases.json:1234")).toBe(false);
    first.add("cases/doha_cases.json:1234");
    expect(first.has("cases/doha_cases.json:1234")).toBe(true);
    expect(readdirSync(b.dir)).toEqual([]); // written once, when the process exits (or saves)
    first.save();
    expect(fileValidatedFiles(b).has("cases/doha_cases.json:1234")).toBe(true);
    expect(path.basename(validatedFilesPath(b))).toBe(`validated-files.${"a".repeat(16)}.json`);
    expect(readdirSync(b.dir)).toEqual([path.basename(validatedFilesPath(b))]); // no temporary file left
  });

  it("is not used by another build, even one whose id starts the same", () => {
    const b = build();
    const memo = fileValidatedFiles(b);
    memo.add("x:1");
    memo.save();
    const other = { buildId: `${"a".repeat(16)}${"b".repeat(48)}`, dir: b.dir };
    expect(validatedFilesPath(other)).toBe(validatedFilesPath(b));
    expect(fileValidatedFiles(other).has("x:1")).toBe(false);
  });

  it("ignores an unreadable memo and starts afresh", () => {
    const b = build();
    writeFileSync(validatedFilesPath(b), "{ not json");
    const memo = fileValidatedFiles(b);
    expect(memo.has("x:1")).toBe(false);
    memo.add("x:1");
    memo.save();
    expect(fileValidatedFiles(b).has("x:1")).toBe(true);
    writeFileSync(validatedFilesPath(b), JSON.stringify({ buildId: b.buildId, digests: [1, 2] }));
    expect(fileValidatedFiles(b).has("x:1")).toBe(false);
  });

  it("goes on without it where the build's folder cannot be written", () => {
    // A folder that is not there fails every write, whoever runs the test (root ignores modes).
    const b = { buildId: "c".repeat(64), dir: path.join(build().dir, "read-only-installation") };
    const memo = fileValidatedFiles(b);
    memo.add("x:1");
    expect(() => memo.save()).not.toThrow();
    expect(memo.has("x:1")).toBe(true); // for the rest of this run
    expect(fileValidatedFiles(b).has("x:1")).toBe(false);
  });
});
