// What the bench's main thread and its case writer thread (case-writer-thread.ts) tell each other.
import type { MessagePort } from "node:worker_threads";
import type { CaseRowValue } from "./case-row.ts";

export interface CaseWriterSetup {
  /** The bench database (a file: a thread cannot share an in-memory database). */
  file: string;
  /** Commit what is pending once a transaction has been open this long. */
  commitEveryMs: number;
  /** The writer's answers (flushed, failed, closed) arrive here. */
  replies: MessagePort;
  /** Counts the writer's answers, so that a waiting main thread can sleep until the next one. */
  signal: Int32Array;
}

export type CaseWriterRequest =
  /** Rows to store, in order (sent a few at a time: each message has its own cost). */
  | { type: "rows"; rows: { caseId: string; values: CaseRowValue[] }[] }
  /** Commit what is pending, then answer "flushed". */
  | { type: "flush" }
  /** Commit what is pending, checkpoint and close the database, answer "closed" and end the thread. */
  | { type: "close" };

/** `ended`: the thread stopped with this failure and will answer nothing more. */
export type CaseWriterReply = { type: "flushed" } | { type: "closed" } | { type: "failed"; message: string; ended?: boolean };
