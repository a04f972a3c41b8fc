// Where a program this code starts (a worker thread, a child process) lives: compiled beside the
// running chunk in dist/node/ (scripts/build-node.ts, NODE_ENTRY_POINTS), or — when the code runs
// from its TypeScript sources (tests, `tsx`) — the source itself, loaded through tsx.

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
