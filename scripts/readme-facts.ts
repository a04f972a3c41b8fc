// The README's score table, written from fresh bench runs so it cannot drift from what
// `npm run main` prints: both policies (`rule`, `rule-ref`) are run over all 955 cases into a
// throw-away database through the CLI, their JSON reports read, and the block between the markers
// rewritten. scripts/readme-facts.test.ts fails when the README's block differs from a fresh run.
//
//   npm run readme:facts            rewrite the block
//   npm run readme:facts -- --check exit 1 (with both versions) when the README differs
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const README = path.join(REPO_ROOT, "README.md");
export const BEGIN = "<!-- scores: written by `npm run readme:facts` from fresh runs; edit scripts/readme-facts.ts, not this table -->";
export const END = "<!-- end of scores -->";

interface Tier1 {
  tier1: number;
  tier1Ci: { lo: number; hi: number };
}

/** The parts of `kiosk bench report --json` the table uses. */
export interface ReportJson {
  partitions: {
    holdout: { n: number; overall: Tier1; categories: ({ category: string } & Tier1)[] };
    full: { n: number; overall: Tier1 };
  };
}

/** Run one policy over every case into `db` with the CLI, and read its JSON report. */
export function benchReport(policy: "rule" | "rule-ref", db: string): ReportJson {
  const cli = path.join(REPO_ROOT, "bin", "kiosk.js");
  execFileSync(process.execPath, [cli, "bench", "run", "--policy", policy, "--db", db], { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "pipe"] });
  return JSON.parse(execFileSync(process.execPath, [cli, "bench", "report", "latest", "--json", "--db", db], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 })) as ReportJson;
}

const pct = (v: number): string => v.toFixed(2);
const short = (v: number): string => (v === 100 ? "100" : v.toFixed(1));

/** The table as the README shows it (markers included). */
export function scoreTable(rule: ReportJson, ruleRef: ReportJson): string {
  const held = rule.partitions.holdout;
  const categories = held.categories.map((c) => `${c.category} ${short(c.tier1)}`).join(", ");
  const ci = `95% CI ${held.overall.tier1Ci.lo.toFixed(1)}–${held.overall.tier1Ci.hi.toFixed(1)}`;
  return [
    BEGIN,
    `Held-out partition (${held.n} cases), Tier 1, mean of the six system means, as the paper computes it:`,
    "",
    `| policy | held-out Tier 1 | all ${rule.partitions.full.n} | notes |`,
    "|---|---|---|---|",
    `| \`rule-ref\` (the reference rule baseline, quirks included) | **${pct(ruleRef.partitions.holdout.overall.tier1)}** | ${pct(ruleRef.partitions.full.overall.tier1)} | 955/955 transcripts identical to the reference's, scores identical component by component |`,
    `| \`rule\` (the kiosk's embedded default) | **${pct(held.overall.tier1)}** (${ci}) | ${pct(rule.partitions.full.overall.tier1)} | per category held-out: ${categories} |`,
    "| best model in the paper's table | 93.63 | | for comparison |",
    END,
  ].join("\n");
}

/** The README with its score block replaced; an error when the markers are missing. */
export function withScores(readme: string, block: string): string {
  const from = readme.indexOf(BEGIN);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${README}: the score block's markers are missing (${BEGIN} … ${END})`);
  return readme.slice(0, from) + block + readme.slice(to + END.length);
}

/** Both policies' reports from fresh runs (a temporary database, removed afterwards). */
export function freshReports(): { rule: ReportJson; ruleRef: ReportJson } {
  const dir = mkdtempSync(path.join(tmpdir(), "readme-facts-"));
  try {
    const db = path.join(dir, "bench.sqlite");
    return { rule: benchReport("rule", db), ruleRef: benchReport("rule-ref", db) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { rule, ruleRef } = freshReports();
  const readme = readFileSync(README, "utf8");
  const next = withScores(readme, scoreTable(rule, ruleRef));
  if (process.argv.includes("--check")) {
    if (next !== readme) {
      process.stderr.write(`README.md's scores differ from a fresh run; run npm run readme:facts\n\n${scoreTable(rule, ruleRef)}\n`);
      process.exit(1);
    }
    process.stdout.write("README.md's scores match a fresh run\n");
  } else {
    writeFileSync(README, next);
    process.stdout.write(`${next === readme ? "unchanged" : "rewrote"} the score table in README.md\n`);
  }
}
