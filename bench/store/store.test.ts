import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { judgmentKey } from "../scorer/index.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";
import { benchDbPath, BenchStore, DEFAULT_BENCH_DB } from "./store.ts";

const dir = mkdtempSync(path.join(tmpdir(), "bench-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("BenchStore", () => {
  it("creates a WAL database at the current schema version, idempotently", () => {
    const file = path.join(dir, "nested", "bench.sqlite");
    const store = BenchStore.open(file);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(["judgments", "run_cases", "run_sessions", "runs"]));
    store.close();
    const again = BenchStore.open(file);
    expect(again.schemaVersion).toBe(SCHEMA_VERSION);
    expect(again.listRuns()).toEqual([]);
    again.close();
  });

  it("upgrades a v1 database: its runs get empty judge options and settings", () => {
    const file = path.join(dir, "v1.sqlite");
    const db = new Database(file);
    db.exec((MIGRATIONS[0] as { sql: string }).sql);
    db.pragma("user_version = 1");
    db.prepare(
      `INSERT INTO runs (policy, model, policy_options_json, policy_settings_json, deterministic, judge, score, selection_json, cases_total, status, started_at,
         data_root, cases_checksums_json, hardware_json) VALUES ('rule', 'rule', '{}', '{}', 1, 'none', 1, ?, 0, 'finished', '2026-01-01T00:00:00Z', '/d', '{}', ?)`,
    ).run(
      JSON.stringify({ systems: null, categories: null, split: "all", caseIds: null, casesFile: null, casesFileSha256: null, selectedIds: [], selectedSystems: [] }),
      JSON.stringify({ cpuModel: "x", cpuCores: 1, memoryBytes: 1, platform: "linux", arch: "x64", osRelease: "1", node: "v20" }),
    );
    db.close();
    const store = BenchStore.open(file);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.requireRun(1)).toMatchObject({ judge: "none", judgeOptions: {}, judgeSettings: {} });
    store.close();
  });

  it("refuses a database written by a newer kiosk", () => {
    const file = path.join(dir, "future.sqlite");
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => BenchStore.open(file)).toThrow(/has schema v\d+, newer than this kiosk's/);
  });

  it("keeps judgments keyed by judgmentKey", () => {
    const store = BenchStore.open(":memory:");
    const cache = store.judgmentCache();
    const key = judgmentKey("MARTA-C-001", "advisory_content_correct", "Message: hello", "haiku");
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, { score: 2, reason: "correct" });
    expect(cache.get(key)).toEqual({ score: 2, reason: "correct" });
    expect(cache.size).toBe(1);
    expect(store.db.prepare("SELECT judge, component, case_id FROM judgments").get()).toEqual({ judge: "haiku", component: "advisory_content_correct", case_id: "MARTA-C-001" });
    store.close();
  });

  it("explains a missing run", () => {
    const store = BenchStore.open(":memory:");
    expect(() => store.requireRun()).toThrow("no runs stored in :memory: (start one with 'kiosk bench run')");
    expect(() => store.requireRun(4)).toThrow("no run 4 in :memory: (see 'kiosk bench list')");
    store.close();
  });

  it("resolves the database path from --db, then $METRO_BENCH_DB, then ./var", () => {
    expect(benchDbPath("x.sqlite", { METRO_BENCH_DB: "y.sqlite" })).toBe("x.sqlite");
    expect(benchDbPath(undefined, { METRO_BENCH_DB: "y.sqlite" })).toBe("y.sqlite");
    expect(benchDbPath(undefined, {})).toBe(DEFAULT_BENCH_DB);
  });
});
