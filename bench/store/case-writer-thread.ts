// The case writer thread: stores the rows the bench's main thread prepared (bench/store/case-row.ts)
// through its own connection to the bench database, so that SQLite's work (about a fifth of a
// fast run) happens beside the replay instead of between its cases. Transactions and their
// durability are the direct writer's (BenchStore.caseWriter): committed about every
// `commitEveryMs`, and at once when the main thread flushes or closes.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { INSERT_CASE_SQL, type CaseRowValue } from "./case-row.ts";
import { applyConnectionSettings } from "./connection.ts";
import type { CaseWriterReply, CaseWriterRequest, CaseWriterSetup } from "./case-writer-protocol.ts";

const setup = workerData as CaseWriterSetup;

function reply(message: CaseWriterReply): void {
  setup.replies.postMessage(message);
  Atomics.add(setup.signal, 0, 1);
  Atomics.notify(setup.signal, 0);
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function open(): { db: Database.Database; insert: Database.Statement } | undefined {
  try {
    const db = new Database(setup.file, { fileMustExist: true });
    applyConnectionSettings(db);
    return { db, insert: db.prepare(INSERT_CASE_SQL) };
  } catch (err) {
    // Said here, in words: an error object thrown out of a worker loses its message.
    reply({ type: "failed", message: `the case writer thread could not open ${setup.file}: ${messageOf(err)}`, ended: true });
    parentPort?.close();
    setup.replies.close();
    return undefined;
  }
}

const opened = open();
let commitTimer: ReturnType<typeof setTimeout> | undefined;
let failed = false;

function commit(): void {
  if (commitTimer !== undefined) clearTimeout(commitTimer);
  commitTimer = undefined;
  if (opened?.db.inTransaction) opened.db.exec("COMMIT");
}

function store(caseId: string, values: CaseRowValue[]): void {
  // After a failure the run is being stopped: later rows are not stored (as a direct writer's
  // exception stops the run), the ones before it are committed by the flush that follows.
  if (failed || !opened) return;
  try {
    if (!opened.db.inTransaction) {
      opened.db.exec("BEGIN");
      commitTimer = setTimeout(commit, setup.commitEveryMs);
    }
    opened.insert.run(values);
  } catch (err) {
    failed = true;
    reply({ type: "failed", message: `storing case ${caseId}: ${messageOf(err)}` });
  }
}

parentPort?.on("message", (request: CaseWriterRequest) => {
  try {
    if (request.type === "rows") for (const row of request.rows) store(row.caseId, row.values);
    else if (request.type === "flush") {
      commit();
      reply({ type: "flushed" });
    } else {
      commit();
      // The write-ahead log is folded into the database here, beside the main thread's work,
      // rather than by the main connection's close.
      opened?.db.pragma("wal_checkpoint(PASSIVE)");
      opened?.db.close();
      reply({ type: "closed" });
      parentPort?.close();
      setup.replies.close();
    }
  } catch (err) {
    reply({ type: "failed", message: `the case writer: ${messageOf(err)}` });
  }
});
