// Throwaway corpus folders for the tests of the others' corpora (bench/others): a folder with tune/
// report/ and fresh/ halves holding the given YAML, and ids whose hash puts them in a half.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { halfOf } from "../bench/others/corpus.ts";

export function corpusDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "others-corpus-"));
  for (const half of ["tune", "report", "fresh"]) mkdirSync(path.join(dir, half));
  for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(dir, rel), text);
  return dir;
}

/** The first id of `system` and `kind` (p: passenger, o: operator) from `from` on whose hash puts it in `half`. */
export function idIn(system: string, half: "tune" | "report", kind: "p" | "o" = "p", from = 1): string {
  for (let n = from; ; n++) {
    const id = `${system}-${kind}-${String(n).padStart(3, "0")}`;
    if (halfOf(id) === half) return id;
  }
}
