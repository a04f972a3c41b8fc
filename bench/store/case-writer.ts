// The main thread's side of the case writer thread (case-writer-thread.ts): rows go over as they
// finish, without waiting; `flush` and `close` wait (synchronously, as the direct writer's do)
// until the thread has committed. A failure in the thread (a row SQLite refuses, a database it
// cannot open) is thrown by the next call here, naming the case.
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from "node:worker_threads";
import { startWorker } from "../../tools/util/node-entry.ts";
import { BenchError } from "../errors.ts";
import type { CaseWriterReply, CaseWriterRequest, CaseWriterRow, CaseWriterSetup, ResultsFileRequest } from "./case-writer-protocol.ts";

/** How long flush or close waits for the thread before giving up (a commit takes milliseconds). */
const ANSWER_TIMEOUT_MS = 60_000;
/**
 * Rows go over in batches of at most this many, and none waits longer than BATCH_MS: one message
 * per case cost about twice as much on the main thread (a fast run finishes a case every few ms).
 */
const BATCH_ROWS = 16;
const BATCH_MS = 20;

export class CaseWriterThread {
  private readonly worker: Worker;
  private readonly replies: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private failure: string | undefined;
  private failureReported = false;
  private batch: CaseWriterRow[] = [];
  private batchTimer: ReturnType<typeof setTimeout> | undefined;
  private closing = false;
  private closed = false;
  /** The thread has ended: nobody will answer any more. */
  private exited = false;
  /** Answers received and not yet waited for, by type. */
  private readonly answers = new Map<CaseWriterReply["type"], number>();
  private keepResults = false;
  /** The run the thread stores, once `begin` has told it. */
  private runId: number | undefined;
  /** The cases whose results-file record the thread keeps (keepResults). */
  private readonly kept = new Set<string>();
  private resultsPending = false;

  /** Start the thread on the database `file`; `begin` tells it the run before the first row. */
  constructor(file: string) {
    const channel = new MessageChannel();
    this.replies = channel.port1;
    const setup: CaseWriterSetup = { file, replies: channel.port2, signal: this.signal };
    this.worker = startWorker("case-writer", new URL("./case-writer-thread.ts", import.meta.url), { workerData: setup, transferList: [channel.port2] });
    this.worker.on("error", (err: unknown) => this.fail(`the case writer thread failed: ${err instanceof Error ? err.message : String(err)}`));
    this.worker.on("exit", (code) => {
      // The thread's own last words (say, a database it could not open) before the bare exit.
      this.drainReplies();
      this.exited = true;
      if (!this.closing) this.fail(`the case writer thread stopped (exit code ${code})`);
    });
    // BenchStore.close joins the thread; it never keeps a finished process alive.
    this.worker.unref();
  }

  /** The run whose cases follow (once: one thread serves one run's writer). */
  begin(runId: number, options: { commitEveryMs: number; keepResults?: boolean }): void {
    if (this.runId !== undefined) throw new BenchError(`the case writer thread already stores run ${this.runId}`);
    this.runId = runId;
    this.keepResults = options.keepResults ?? false;
    this.send({ type: "begin", runId, commitEveryMs: options.commitEveryMs, keepResults: this.keepResults });
  }

  /** Hand one case to the thread (within BATCH_MS), which serialises and stores it. */
  store(row: CaseWriterRow): void {
    this.drainReplies();
    this.throwFailure();
    this.batch.push(row);
    if (this.keepResults) this.kept.add(row.key.caseId);
    if (this.batch.length >= BATCH_ROWS) this.sendBatch();
    else if (this.batchTimer === undefined) {
      this.batchTimer = setTimeout(() => this.sendBatch(), BATCH_MS);
      this.batchTimer.unref();
    }
  }

  /** Wait until everything handed over is committed. */
  flush(): void {
    if (this.closing) return;
    this.request({ type: "flush" }, "flushed");
  }

  /**
   * Commit what is pending (waiting for it), then let the thread checkpoint the database's
   * write-ahead log and end, beside whatever the caller does next; `join` waits for that.
   */
  close(): void {
    if (this.closing) return;
    this.flush();
    this.closing = true;
    this.send({ type: "close" });
  }

  /** The thread keeps the results-file record of every one of these cases and can write their files. */
  holdsResults(caseIds: Iterable<string>): boolean {
    if (!this.keepResults || this.failure !== undefined || this.exited || this.resultsPending) return false;
    for (const id of caseIds) if (!this.kept.has(id)) return false;
    return true;
  }

  /** Let the thread write these results files (after the rows handed over); `waitForResults` waits for them. */
  writeResults(files: ResultsFileRequest[]): void {
    this.send({ type: "results", files });
    this.resultsPending = true;
  }

  /** Wait until the files of writeResults are written; throws what went wrong, naming the file. */
  waitForResults(): void {
    if (!this.resultsPending) return;
    this.resultsPending = false;
    this.wait("resultsWritten");
  }

  /** Close, and wait until the thread has closed its connection and written the results it was asked for (idempotent). */
  join(): void {
    if (this.closed) return;
    this.close();
    try {
      this.wait("closed");
      this.waitForResults();
    } finally {
      this.closed = true;
      void this.worker.terminate();
    }
  }

  private sendBatch(): void {
    if (this.batchTimer !== undefined) clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (this.batch.length === 0) return;
    const rows = this.batch;
    this.batch = [];
    this.send({ type: "rows", rows });
  }

  private send(request: CaseWriterRequest): void {
    // Every request comes after the rows handed over before it.
    if (request.type !== "rows") this.sendBatch();
    this.worker.postMessage(request);
  }

  private request(request: CaseWriterRequest, answer: CaseWriterReply["type"]): void {
    this.send(request);
    this.wait(answer);
  }

  /** Sleep until the thread answers `answer` (or fails). */
  private wait(answer: CaseWriterReply["type"]): void {
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      this.drainReplies();
      if (this.takeAnswer(answer)) break;
      if ((this.failure !== undefined && !this.failureReported) || this.exited) break;
      const left = deadline - Date.now();
      if (left <= 0) throw new BenchError(`the case writer thread did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`);
      Atomics.wait(this.signal, 0, seen, Math.min(left, 1000));
    }
    this.throwFailure();
  }

  /** Read the thread's answers so far (failures are kept for throwFailure, the rest for takeAnswer). */
  private drainReplies(): void {
    for (let m = receiveMessageOnPort(this.replies); m; m = receiveMessageOnPort(this.replies)) {
      const reply = m.message as CaseWriterReply;
      if (reply.type === "failed") {
        this.fail(reply.message);
        if (reply.ended) this.exited = true;
      } else this.answers.set(reply.type, (this.answers.get(reply.type) ?? 0) + 1);
    }
  }

  /** Use up one received `answer`; false when none has come. */
  private takeAnswer(answer: CaseWriterReply["type"]): boolean {
    const count = this.answers.get(answer) ?? 0;
    if (count === 0) return false;
    this.answers.set(answer, count - 1);
    return true;
  }

  private fail(message: string): void {
    this.failure ??= message;
  }

  private throwFailure(): void {
    if (this.failure === undefined || this.failureReported) return;
    this.failureReported = true;
    throw new BenchError(this.failure);
  }
}
