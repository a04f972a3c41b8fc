// What the bench's main thread and its case writer thread (case-writer-thread.ts) tell each other.
import type { MessagePort } from "node:worker_threads";
import type { CaseDocuments, CaseFacts } from "./case-columns.ts";
import type { CaseKey } from "./case-row.ts";

/** What a case writer thread is started with (before it knows the run it will store). */
export interface CaseWriterSetup {
  /** The bench database (a file: a thread cannot share an in-memory database). */
  file: string;
  /** The writer's answers (flushed, failed, closed) arrive here. */
  replies: MessagePort;
  /** Counts the writer's answers, so that a waiting main thread can sleep until the next one. */
  signal: Int32Array;
}

/** The run a thread stores, told by its first request (one thread serves one run's writer). */
export interface CaseWriterRun {
  runId: number;
  /** Commit what is pending once a transaction has been open this long. */
  commitEveryMs: number;
  /**
   * Keep each stored case's results-file record, encoded, so that the thread can write the run's
   * `--out` files at the end (a "results" request) instead of the main thread.
   */
  keepResults: boolean;
}

/** One results file for the thread to write: its text before the records, then the records of these cases, in this order. */
export interface ResultsFileRequest {
  file: string;
  head: string;
  caseIds: string[];
}

export type CaseWriterRequest =
  /** The run whose rows follow (before any of them). */
  | ({ type: "begin" } & CaseWriterRun)
  /** Rows to store, in order (sent a few at a time: each message has its own cost). */
  | { type: "rows"; rows: CaseWriterRow[] }
  /** Commit what is pending, then answer "flushed". */
  | { type: "flush" }
  /**
   * Commit what is pending, checkpoint and close the database, answer "closed" and end the thread
   * (one that keeps results stays for "results" requests until the main thread ends it).
   */
  | { type: "close" }
  /** Write these results files from the records kept, then answer "resultsWritten". */
  | { type: "results"; files: ResultsFileRequest[] };

/**
 * A case to store: its row's facts and key columns, and its documents, which the thread serialises
 * (handing over the documents costs the main thread about half of serialising them there).
 */
export interface CaseWriterRow {
  facts: CaseFacts;
  key: CaseKey;
  documents: CaseDocuments;
}

/** `ended`: the thread stopped with this failure and will answer nothing more. */
export type CaseWriterReply =
  | { type: "flushed" }
  | { type: "closed" }
  | { type: "resultsWritten" }
  | { type: "failed"; message: string; ended?: boolean };
