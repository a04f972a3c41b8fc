// Are two `kiosk bench run --db A/b.sqlite --out A/out` results the same apart from timings? Compares
// the `--out` files and the stored `run_cases` rows (every column, the JSON ones parsed), ignoring
// only wall-clock fields (e2e_ms, ttft_ms, ms, startedMs, startedAt, score_ms, started_at,
// finished_at) and the source revision the files name (git_commit). Used to check that a speed-up
// changed no result.
//
//   npx tsx scripts/compare-bench-outputs.ts DIR_A DIR_B     (each with b.sqlite and out/)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import Database from "better-sqlite3";

const TIMING_KEYS = new Set(["e2e_ms", "ttft_ms", "ms", "startedMs", "startedAt", "score_ms", "finished_at", "started_at", "git_commit"]);
const JSON_COLUMNS = new Set(["ending_json", "transcript_json", "kiosk_json", "score_json"]);

function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !TIMING_KEYS.has(k)).map(([k, v]) => [k, untimed(v)]));
  }
  return value;
}

function rows(dir: string): Record<string, unknown>[] {
  const db = new Database(path.join(dir, "b.sqlite"), { readonly: true });
  try {
    // In run order (seq), which both runs share whatever order their cases were stored in.
    const all = db.prepare("SELECT * FROM run_cases ORDER BY seq").all() as Record<string, unknown>[];
    return all.map((r) => untimed(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, JSON_COLUMNS.has(k) && typeof v === "string" ? JSON.parse(v) : v]))) as Record<string, unknown>);
  } finally {
    db.close();
  }
}

const [a, b] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: compare-bench-outputs.ts DIR_A DIR_B");
const problems: string[] = [];
const filesA = readdirSync(path.join(a, "out")).sort();
const filesB = readdirSync(path.join(b, "out")).sort();
if (!isDeepStrictEqual(filesA, filesB)) problems.push(`out files differ: ${filesA.join(",")} vs ${filesB.join(",")}`);
for (const f of filesA.filter((x) => filesB.includes(x))) {
  const left = untimed(JSON.parse(readFileSync(path.join(a, "out", f), "utf8")));
  const right = untimed(JSON.parse(readFileSync(path.join(b, "out", f), "utf8")));
  if (!isDeepStrictEqual(left, right)) problems.push(`out/${f} differs`);
}
const rowsA = rows(a);
const rowsB = rows(b);
if (rowsA.length !== rowsB.length) problems.push(`run_cases: ${rowsA.length} rows vs ${rowsB.length}`);
for (let i = 0; i < Math.min(rowsA.length, rowsB.length); i++) {
  if (!isDeepStrictEqual(rowsA[i], rowsB[i])) {
    const cols = Object.keys(rowsA[i] ?? {}).filter((k) => !isDeepStrictEqual(rowsA[i]?.[k], rowsB[i]?.[k]));
    problems.push(`run_cases row ${i + 1} (${String(rowsA[i]?.["case_id"])}) differs in ${cols.join(", ")}`);
    if (problems.length > 20) break;
  }
}
if (problems.length > 0) {
  console.log(`DIFFERENT (${a} vs ${b}):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`identical apart from timings: ${filesA.length} out files, ${rowsA.length} run_cases rows (${a} vs ${b})`);
