// The case writer thread: serialises the cases the bench's main thread hands over
// (bench/store/case-row.ts) and stores them through its own connection to the bench database, so
// that this work (about a third of a fast run) happens beside the replay instead of between its
// cases. Transactions and their durability are the direct writer's (BenchStore.caseWriter):
// committed about every `commitEveryMs`, and at once when the main thread flushes or closes.
//
// It is started with the database alone and told its run by a first "begin" request, so that a
// bench run can start it (a Node environment, SQLite) while it still selects its cases.
//
// With `keepResults` it also keeps each case's results-file record, UTF-8 encoded while it would
// otherwise wait for rows, and writes the run's --out files when asked: the main thread then only
// says which cases go in which file.
import { mkdir, open as openFile } from "node:fs/promises";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { resultRecordJson, RESULTS_TAIL } from "../run/result-record.ts";
import { caseRowValues, INSERT_CASE_SQL, serialiseCaseDocuments, type CaseDocumentsJson } from "./case-columns.ts";
import { applyConnectionSettings } from "./connection.ts";
import { writeAllParts } from "./write-parts.ts";
import type { CaseWriterReply, CaseWriterRequest, CaseWriterRow, CaseWriterRun, CaseWriterSetup, ResultsFileRequest } from "./case-writer-protocol.ts";

const setup = workerData as CaseWriterSetup;
/** The run being stored (the "begin" request, which comes before any row). */
let run: CaseWriterRun | undefined;
/** The writer connection's page cache, in KiB. */
const WRITER_CACHE_KIB = 1024;
/** Pages of write-ahead log after which a commit folds it into the database (16 KiB pages). */
const WRITER_CHECKPOINT_PAGES = 128;

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
    // A small page cache: this connection only appends rows, and with better-sqlite3's 16 MB
    // default every page of a run's ~20 MB came from fresh memory (a page fault each 4 KiB, the
    // thread's largest cost); 1 MiB is reused page by page (docs/PERFORMANCE.md).
    db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
    // Fold the write-ahead log into the database every 2 MiB: with SQLite's 16 MiB default (1,000
    // pages of 16 KiB) a run's one big checkpoint (≈ 70 ms, fsyncs included) came near its end,
    // and the main thread waited for it; small ones are done in the time the thread waits for rows.
    db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
    return { db, insert: db.prepare(INSERT_CASE_SQL) };
  } catch (err) {
    // Said here, in words: an error object thrown out of a worker loses its message.
    reply({ type: "failed", message: `the case writer thread could not open ${setup.file}: ${messageOf(err)}`, ended: true });
    end();
    return undefined;
  }
}

const opened = open();
let commitTimer: ReturnType<typeof setTimeout> | undefined;
let failed = false;
/** Per case id, its record as the results file carries it (run.keepResults). */
const results = new Map<string, Buffer>();

function commit(): void {
  if (commitTimer !== undefined) clearTimeout(commitTimer);
  commitTimer = undefined;
  if (opened?.db.inTransaction) opened.db.exec("COMMIT");
}

function store(row: CaseWriterRow): void {
  // After a failure the run is being stopped: later rows are not stored (as a direct writer's
  // exception stops the run), the ones before it are committed by the flush that follows.
  if (failed || !opened) return;
  const caseId = row.key.caseId;
  if (!run) {
    failed = true;
    reply({ type: "failed", message: `storing case ${caseId}: the case writer thread was not told its run` });
    return;
  }
  let text: CaseDocumentsJson;
  try {
    text = serialiseCaseDocuments(row.documents);
    if (!opened.db.inTransaction) {
      opened.db.exec("BEGIN");
      commitTimer = setTimeout(commit, run.commitEveryMs);
    }
    opened.insert.run(caseRowValues(run.runId, row.facts, { ...row.key, ...text }));
  } catch (err) {
    failed = true;
    reply({ type: "failed", message: `storing case ${caseId}: ${messageOf(err)}` });
    return;
  }
  if (run.keepResults) results.set(caseId, Buffer.from(resultRecordJson(text.transcriptJson, text.verdictJson)));
}

const COMMA = Buffer.from(",");
const TAIL = Buffer.from(RESULTS_TAIL);

/** Write the results files, side by side (the main thread waits for them at the end of a run). */
async function writeResults(files: ResultsFileRequest[]): Promise<void> {
  // Every record is looked up first: a missing one fails the request before any file is opened.
  const contents = files.map((f) => {
    const parts: Buffer[] = [Buffer.from(f.head)];
    for (const [i, caseId] of f.caseIds.entries()) {
      const record = results.get(caseId);
      if (!record) throw new Error(`results file ${f.file}: case ${caseId} was not stored by this writer`);
      if (i > 0) parts.push(COMMA);
      parts.push(record);
    }
    parts.push(TAIL);
    return parts;
  });
  await Promise.all(
    files.map(async (f, i) => {
      try {
        await mkdir(path.dirname(path.resolve(f.file)), { recursive: true });
        // Part by part: joining 15 MB first would copy it once more.
        const handle = await openFile(f.file, "w");
        try {
          await writeAllParts(handle, contents[i] as Buffer[]);
        } finally {
          await handle.close();
        }
      } catch (err) {
        throw new Error(`writing results file ${f.file}: ${messageOf(err)}`, { cause: err });
      }
    }),
  );
}

function end(): void {
  parentPort?.close();
  setup.replies.close();
}

parentPort?.on("message", (request: CaseWriterRequest) => {
  try {
    if (request.type === "begin") run = { runId: request.runId, commitEveryMs: request.commitEveryMs, keepResults: request.keepResults };
    else if (request.type === "rows") for (const row of request.rows) store(row);
    else if (request.type === "results") {
      writeResults(request.files).then(
        () => reply({ type: "resultsWritten" }),
        (err: unknown) => reply({ type: "failed", message: messageOf(err) }),
      );
    } else if (request.type === "flush") {
      commit();
      reply({ type: "flushed" });
    } else {
      commit();
      // The write-ahead log is folded into the database here, beside the main thread's work,
      // rather than by the main connection's close.
      opened?.db.pragma("wal_checkpoint(PASSIVE)");
      opened?.db.close();
      reply({ type: "closed" });
      // A thread that keeps results stays for "results" requests (the main thread's join ends it).
      if (!run?.keepResults || !opened) end();
    }
  } catch (err) {
    reply({ type: "failed", message: `the case writer: ${messageOf(err)}` });
  }
});
