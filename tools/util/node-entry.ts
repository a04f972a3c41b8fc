// Where a program this code starts (a worker thread, a child process) lives: compiled beside the
// running chunk in dist/node/ (scripts/build-node.ts, NODE_ENTRY_POINTS), or — when the code runs
// from its TypeScript sources (tests, `tsx`) — the source itself, loaded through tsx.
import { Worker, type WorkerOptions } from "node:worker_threads";

// Defined by the banner of every dist/node chunk (scripts/build-node.ts); absent in the sources.
declare const __kioskChunkUrl: string | undefined;

export interface NodeEntry {
  url: URL;
  /** Node options the program needs to start (the TypeScript loader for a source). */
  execArgv: string[];
}

/**
 * The entry point named `name` in NODE_ENTRY_POINTS, whose source is `source` (resolve it next to
 * the caller: `new URL("./worker.ts", import.meta.url)`).
 */
export function nodeEntry(name: string, source: URL): NodeEntry {
  if (typeof __kioskChunkUrl === "string") return { url: new URL(`${name}.js`, __kioskChunkUrl), execArgv: [] };
  return { url: source, execArgv: ["--import", "tsx"] };
}

/**
 * Start the entry point `name` (source `source`) as a worker thread. From the sources, a worker
 * ignores `--import tsx` in its execArgv (Node 20), so tsx-worker.mjs loads the source through
 * tsx's API instead.
 */
export function startWorker(name: string, source: URL, options: Omit<WorkerOptions, "eval" | "execArgv" | "argv">): Worker {
  const entry = nodeEntry(name, source);
  if (entry.execArgv.length === 0) return new Worker(entry.url, options);
  return new Worker(new URL("./tsx-worker.mjs", import.meta.url), { ...options, argv: [entry.url.href] });
}
