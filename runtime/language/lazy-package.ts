// Some readers lean on packages that are slow to load (pinyin-pro's dictionary ≈ 60 ms,
// words-to-numbers' ClojureScript ≈ 90 ms): loaded on first use, so a process that never reads
// a passenger's words (a `rule-ref` bench run, `kiosk --help`) does not pay for them at start-up.
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

/** A function that loads `specifier` (CommonJS, from node_modules) the first time it is called. */
export function lazyPackage<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(specifier) as T);
}
