import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { startRun } from "../run/execute.ts";
import { referenceResultsText, startReferenceResults, writeReferenceResults } from "../run/results.ts";
import { judgmentKey } from "../scorer/index.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";
import { benchDbPath, BenchStore, DEFAULT_BENCH_DB, type CaseInsert, type RunRow, type StoredCaseFull } from "./store.ts";

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

  it("upgrades a v3 database: each transcript keeps the reference record, our additions move to kiosk_json", async () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const source = BenchStore.open(":memory:");
    const { runId } = await startRun({ pack, store: source, policy: "rule", selection: { caseIds: ["MARTA-C-001"] } });
    const run = source.db.prepare("SELECT * FROM runs WHERE id = ?").get(runId) as Record<string, unknown>;
    const row = source.db.prepare("SELECT * FROM run_cases WHERE run_id = ?").get(runId) as Record<string, unknown>;
    // Generated columns are computed, not inserted.
    delete row["holdout"];
    delete row["tokens"];
    const [stored] = source.casesWithRecords(runId);
    source.close();
    // The same case as a v3 kiosk wrote it (before kiosk_json): one transcript column holding the whole SessionRecord.
    const file = path.join(dir, "v3.sqlite");
    const db = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= 3)) db.exec(m.sql);
    db.pragma("user_version = 3");
    const insert = (table: string, values: Record<string, unknown>): void => {
      const cols = Object.keys(values);
      db.prepare(`INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).run(...cols.map((c) => values[c]));
    };
    insert("runs", run);
    const { kiosk_json: _kiosk, ...v3Row } = row;
    insert("run_cases", { ...v3Row, session_id: null, transcript_json: JSON.stringify(stored!.record) });
    db.close();

    const store = BenchStore.open(file);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    const [upgraded] = store.casesWithRecords(runId);
    expect(upgraded!.record).toEqual(stored!.record);
    const [reference] = store.referenceRecordsJson(runId);
    expect(JSON.parse(reference!.json)).not.toHaveProperty("kiosk");
    expect(JSON.parse(reference!.json)).toMatchObject({ case_id: "MARTA-C-001", response: stored!.record.response });
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

  it("commits finished cases in batches of about commitEveryMs, and what is pending on flush or close", async () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const source = BenchStore.open(":memory:");
    const { runId } = await startRun({ pack, store: source, policy: "rule", selection: { caseIds: pack.cases("marta").slice(0, 5).map((c) => c.id) } });
    const done = source.casesWithRecords(runId);
    const file = path.join(dir, "batches.sqlite");
    const store = BenchStore.open(file);
    const id = store.createRun(source.requireRun(runId));
    source.close();
    const reader = new Database(file, { readonly: true });
    const committed = (): number => reader.prepare("SELECT COUNT(*) FROM run_cases").pluck().get() as number;
    const insert = (c: StoredCaseFull): CaseInsert => ({ ...c, sessionId: null });
    let clock = 0;
    const writer = store.caseWriter(id, { commitEveryMs: 100, now: () => clock });
    writer.add(insert(done[0]!));
    clock = 60;
    writer.add(insert(done[1]!));
    expect(committed()).toBe(0);
    clock = 100;
    writer.add(insert(done[2]!));
    expect(committed()).toBe(3);
    writer.add(insert(done[3]!));
    expect(committed()).toBe(3);
    writer.flush();
    expect(committed()).toBe(4);
    writer.add(insert(done[4]!));
    store.close();
    expect(committed()).toBe(5);
    reader.close();
    const again = BenchStore.open(file);
    expect(again.cases(id).map((c) => c.caseId)).toEqual(done.map((c) => c.caseId));
    again.close();
  });

  describe("a writer thread (caseWriter({ background: true }))", () => {
    const rows = (file: string): unknown[] => {
      const db = new Database(file, { readonly: true });
      // Everything but the run id and the moment each case was stored: what the two writers must agree on.
      const all = db.prepare("SELECT * FROM run_cases ORDER BY seq").all() as Record<string, unknown>[];
      db.close();
      return all.map(({ run_id: _run, finished_at: _at, ...rest }) => rest);
    };
    /** The `rule` policy's finished cases, ready to store again, and their run. */
    const replayed = async (caseIds: string[]): Promise<{ cases: CaseInsert[]; run: RunRow }> => {
      const source = BenchStore.open(":memory:");
      const { runId } = await startRun({ pack: new DataPack(SHARED_DATA_DIR), store: source, policy: "rule", selection: { caseIds } });
      const out = { cases: source.casesWithRecords(runId).map((c): CaseInsert => ({ ...c, sessionId: null })), run: source.requireRun(runId) };
      source.close();
      return out;
    };
    /** A new file database holding `run`, and a second connection's count of its committed cases. */
    const fileStore = (name: string, run: RunRow): { file: string; store: BenchStore; id: number; committed: () => number; done: () => void } => {
      const file = path.join(dir, name);
      const store = BenchStore.open(file);
      const id = store.createRun(run);
      const reader = new Database(file, { readonly: true });
      return { file, store, id, committed: () => reader.prepare("SELECT COUNT(*) FROM run_cases").pluck().get() as number, done: () => reader.close() };
    };

    it("stores the rows the direct writer stores, committed on flush and on close", async () => {
      const { cases, run } = await replayed(new DataPack(SHARED_DATA_DIR).cases("cta").slice(0, 4).map((c) => c.id));
      const write = (name: string, background: boolean): string => {
        const { file, store, id, committed, done } = fileStore(name, run);
        // A long commit interval: only flush and close commit here.
        const writer = store.caseWriter(id, { background, commitEveryMs: 60_000 });
        writer.add(cases[0]!);
        writer.add(cases[1]!);
        writer.flush();
        expect(committed()).toBe(2);
        writer.add(cases[2]!);
        writer.add(cases[3]!);
        store.close();
        expect(committed()).toBe(4);
        done();
        return file;
      };
      const direct = write("direct.sqlite", false);
      const thread = write("thread.sqlite", true);
      expect(rows(thread)).toEqual(rows(direct));
      expect(rows(thread)).toHaveLength(4);
    });

    it("takes a thread started ahead of the run (prepareCaseWriterThread), and ends one nobody took", async () => {
      const { cases, run } = await replayed(["CTA-D-002", "CTA-D-003"]);
      const prepared = fileStore("prepared.sqlite", run);
      prepared.store.prepareCaseWriterThread();
      // Started before it knows the run: the rows still go to the run caseWriter names.
      const writer = prepared.store.caseWriter(prepared.id, { background: true });
      for (const c of cases) writer.add(c);
      prepared.store.close();
      prepared.done();
      const direct = fileStore("prepared-direct.sqlite", run);
      const plain = direct.store.caseWriter(direct.id);
      for (const c of cases) plain.add(c);
      direct.store.close();
      direct.done();
      expect(rows(prepared.file)).toEqual(rows(direct.file));
      expect(rows(prepared.file)).toHaveLength(2);

      const unused = fileStore("prepared-unused.sqlite", run);
      unused.store.prepareCaseWriterThread();
      expect(() => unused.store.close()).not.toThrow();
      expect(unused.committed()).toBe(0);
      unused.done();
    });

    it("folds the write-ahead log into the database every 2 MiB, not at the end of the run", async () => {
      const { cases, run } = await replayed(["MARTA-C-001"]);
      const first = cases[0]!;
      const { file, store, id, done } = fileStore("checkpoints.sqlite", run);
      const writer = store.caseWriter(id, { background: true, commitEveryMs: 60_000 });
      // ≈ 9 MB of rows (one case under 600 ids), committed 50 at a time (≈ 0.75 MB), as a run commits.
      for (let i = 0; i < 600; i++) {
        writer.add({ ...first, record: { ...first.record, case_id: `MARTA-C-${String(i).padStart(3, "0")}` } });
        if (i % 50 === 49) writer.flush();
      }
      const walBytes = statSync(`${file}-wal`).size;
      store.close();
      done();
      expect(rows(file)).toHaveLength(600);
      // SQLite's default (1,000 pages of 16 KiB) would have let it grow to the whole 9 MB.
      expect(walBytes).toBeLessThan(5 * 1024 * 1024);
    });

    it("commits a lone case without a flush: a slow run's cases are not held back for a batch", async () => {
      const { cases, run } = await replayed(["CTA-D-002"]);
      const { store, id, committed, done } = fileStore("lone.sqlite", run);
      const writer = store.caseWriter(id, { background: true, commitEveryMs: 10 });
      writer.add(cases[0]!);
      // Nothing else happens: the row must still reach the database on its own.
      await expect.poll(committed, { timeout: 20_000, interval: 20 }).toBe(1);
      done();
      store.close();
    });

    it("reports a row SQLite refuses, naming the case, and keeps the rows before it", async () => {
      const { cases, run } = await replayed(["MARTA-C-001"]);
      const first = cases[0]!;
      const { file, store, id, done } = fileStore("refused.sqlite", run);
      const good = store.caseWriter(id, { background: true });
      good.add(first);
      good.flush();
      // No session 999: the foreign key refuses the row, in the thread.
      const bad = store.caseWriter(id, { background: true });
      bad.add({ ...first, record: { ...first.record, case_id: "MARTA-X-999" }, sessionId: 999 });
      expect(() => bad.flush()).toThrow(/storing case MARTA-X-999: FOREIGN KEY constraint failed/);
      bad.close();
      done();
      store.close();
      expect(rows(file).map((r) => (r as { case_id: string }).case_id)).toEqual(["MARTA-C-001"]);
    });

    it("refuses a case stored twice in one run, naming it, and keeps the first row (both writers)", async () => {
      const { cases, run } = await replayed(["MARTA-C-001"]);
      const first = cases[0]!;
      for (const background of [false, true]) {
        const { file, store, id, done } = fileStore(`twice-${background}.sqlite`, run);
        const writer = store.caseWriter(id, { background });
        writer.add(first);
        writer.flush();
        // A second row for the same case would have silently replaced the first before (INSERT OR REPLACE).
        expect(() => {
          writer.add({ ...first, scoreNote: "second" });
          writer.flush();
        }, `background: ${background}`).toThrow(/storing case MARTA-C-001: UNIQUE constraint failed: run_cases\.run_id, run_cases\.case_id/);
        writer.close();
        done();
        store.close();
        expect(rows(file).map((r) => (r as { score_note: string | null }).score_note)).toEqual([first.scoreNote]);
      }
    });

    it("says so when the thread cannot open the database, and then closes without waiting for it", async () => {
      const { cases, run } = await replayed(["MARTA-C-001"]);
      const { file, store, id, done } = fileStore("vanished.sqlite", run);
      done();
      // The main connection keeps its open file; the thread, opening it by name, finds nothing.
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      const writer = store.caseWriter(id, { background: true });
      const addOne = (): string => {
        try {
          writer.add(cases[0]!);
          return "stored";
        } catch (err) {
          return (err as Error).message;
        }
      };
      await expect.poll(addOne, { timeout: 20_000, interval: 20 }).toBe(`the case writer thread could not open ${file}: unable to open database file`);
      writer.close();
      store.close();
    });

    describe("writing the results files (keepResults)", () => {
      const caseIds = ["MARTA-C-001", "CTA-D-002", "BART-I-001", "CTA-A-001"];
      const files = (root: string): Record<string, string> =>
        Object.fromEntries(readdirSync(root).sort().map((name) => [name, readFileSync(path.join(root, name), "utf8")]));

      it("writes them from the records it kept, byte for byte what the main thread writes", async () => {
        const file = path.join(dir, "results.sqlite");
        const store = BenchStore.open(file);
        const { runId } = await startRun({ pack: new DataPack(SHARED_DATA_DIR), store, policy: "rule", selection: { caseIds }, storeInBackground: true, resultsFilesNext: true });
        const run = store.requireRun(runId);
        const keys = store.resultKeys(runId);
        expect(keys.map((k) => k.caseId).sort()).toEqual([...caseIds].sort());
        // The thread holds every case: it takes the writing.
        const probe = store.writeResultsInBackground(runId, []);
        expect(probe).toBeDefined();
        probe!.finish();
        const byThread = path.join(dir, "results-thread");
        const written = startReferenceResults(store, run, byThread).finish();
        expect(written.map((f) => path.relative(byThread, f)).sort()).toEqual(["bart.json", "cta.json", "marta.json"]);
        const byMain = path.join(dir, "results-main");
        writeReferenceResults(store, run, byMain);
        store.close();
        expect(files(byThread)).toEqual(files(byMain));
        const cta = JSON.parse(files(byThread)["cta.json"]!) as { cases_total: number; results: { case_id: string; kiosk?: unknown }[] };
        expect(cta.cases_total).toBe(2);
        expect(cta.results.map((r) => r.case_id)).toEqual(keys.filter((k) => k.system === "cta").map((k) => k.caseId));
        expect(cta.results.every((r) => r.kiosk !== undefined)).toBe(true);
      });

      it("leaves them to the main thread when it does not hold every case (an earlier writer stored some)", async () => {
        const { cases, run } = await replayed(caseIds);
        const { store, id, done } = fileStore("results-partial.sqlite", run);
        const before = store.caseWriter(id);
        before.add({ ...cases[0]!, seq: 0 });
        before.close();
        const writer = store.caseWriter(id, { background: true, keepResults: true });
        for (const [i, c] of cases.slice(1).entries()) writer.add({ ...c, seq: i + 1 });
        writer.close();
        const stored = store.requireRun(id);
        expect(store.writeResultsInBackground(id, [{ file: path.join(dir, "unused.json"), head: "", caseIds: store.resultKeys(id).map((k) => k.caseId) }])).toBeUndefined();
        const out = path.join(dir, "results-partial");
        startReferenceResults(store, stored, out).finish();
        const expected = referenceResultsText(store, stored);
        done();
        store.close();
        expect(Object.keys(files(out))).toEqual(["bart.json", "cta.json", "marta.json"]);
        for (const [system, text] of expected) expect(files(out)[`${system}.json`]).toBe(text);
      });

      it("names the file it could not write, and the database stays complete", async () => {
        const file = path.join(dir, "results-fail.sqlite");
        const store = BenchStore.open(file);
        const { runId } = await startRun({ pack: new DataPack(SHARED_DATA_DIR), store, policy: "rule", selection: { caseIds }, storeInBackground: true, resultsFilesNext: true });
        const blocker = path.join(dir, "not-a-folder");
        writeFileSync(blocker, "a file where the results folder should go\n");
        const pending = startReferenceResults(store, store.requireRun(runId), path.join(blocker, "out"));
        expect(() => pending.finish()).toThrow(/writing results file \S*\/not-a-folder\/out\/\w+\.json: ENOTDIR/);
        store.close();
        const again = BenchStore.open(file);
        expect(again.cases(runId).map((c) => c.caseId).sort()).toEqual([...caseIds].sort());
        again.close();
      });
    });

    it("is the direct writer on an in-memory database (a thread cannot share it)", async () => {
      const { cases, run } = await replayed(["MARTA-C-001"]);
      const store = BenchStore.open(":memory:");
      const id = store.createRun(run);
      const writer = store.caseWriter(id, { background: true });
      writer.add(cases[0]!);
      writer.close();
      expect(store.cases(id).map((c) => c.caseId)).toEqual(["MARTA-C-001"]);
      store.close();
    });
  });

  it("gives --out the text it stored without reading it back: what a fresh connection reads from the file", async () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const file = path.join(dir, "text.sqlite");
    const store = BenchStore.open(file);
    const { runId } = await startRun({ pack, store, policy: "rule", selection: { caseIds: ["MARTA-C-001", "CTA-D-002", "BART-I-001"] } });
    const remembered = store.referenceRecordsJson(runId);
    store.close();
    const fresh = BenchStore.open(file);
    const fromFile = fresh.referenceRecordsJson(runId);
    fresh.close();
    expect(remembered).toHaveLength(3);
    expect(remembered.map((r) => ({ ...r, verdict: r.verdict === null ? null : JSON.parse(r.verdict) }))).toEqual(
      fromFile.map((r) => ({ ...r, verdict: r.verdict === null ? null : JSON.parse(r.verdict) })),
    );
    expect(remembered.every((r) => r.verdict !== null)).toBe(true);
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
