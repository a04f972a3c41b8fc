// Throwaway corpus folders for the tests of the others' corpora (bench/others): a folder with tune/
// report/ and fresh/ halves holding the given YAML, and ids whose hash puts them in a half.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HALVES, halfOf, type Half } from "../bench/others/corpus.ts";

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

/** An entry of either others' corpus, as the checks below read it. */
interface Graded {
  half: Half;
  entry: { id: string; source: { name: string; original: string } };
}

/** Entries of the split halves outside the half their id's hash names (none expected). */
export function outsideTheirHalf(entries: readonly Graded[]): string[] {
  return entries.filter((c) => (c.half === "tune" || c.half === "report") && halfOf(c.entry.id) !== c.half).map((c) => c.entry.id);
}

/** Entries of a half gathered whole that repeat a text of an earlier half (none expected). */
export function repeatsOfEarlierHalves(entries: readonly Graded[]): string[] {
  const key = (c: Graded): string => `${c.entry.source.name}\n${c.entry.source.original}`;
  const out: string[] = [];
  HALVES.forEach((half, i) => {
    if (i < 2) return;
    const older = new Set(entries.filter((c) => HALVES.indexOf(c.half) < i).map(key));
    out.push(...entries.filter((c) => c.half === half && older.has(key(c))).map((c) => c.entry.id));
  });
  return out;
}
