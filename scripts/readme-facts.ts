// The README's figures, written by a script so they cannot drift: the score table and the
// robustness table from fresh runs through the CLI (both policies over all 955 cases; the
// robustness suite's two halves), the performance figures from the stored runs in docs/figures/
// (each perf script's --record run, machine and date named: scripts/figures.ts). Each block sits
// between markers; scripts/readme-facts.test.ts fails when a block differs from what this writes.
//
//   npm run readme:facts            rewrite the blocks
//   npm run readme:facts -- --check exit 1 (with the expected blocks) when the README differs
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SideBySide } from "../bench/robustness/summary.ts";
import type { OthersRow, OthersSummary } from "../bench/others/summary.ts";
import { figure, FIGURES_DIR, readFigures, type FigureRecord } from "./figures.ts";

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

/** A block of the README between its two markers. */
export interface Block {
  begin: string;
  end: string;
}

export const SCORES: Block = { begin: BEGIN, end: END };
export const ROBUSTNESS: Block = {
  begin: "<!-- robustness: written by `npm run readme:facts` from a fresh `kiosk bench robustness` run; edit scripts/readme-facts.ts, not this table -->",
  end: "<!-- end of robustness -->",
};
export const PERFORMANCE: Block = {
  begin: "<!-- performance: written by `npm run readme:facts` from the stored runs in docs/figures/ (each perf script's --record); edit scripts/readme-facts.ts, not this text -->",
  end: "<!-- end of performance -->",
};

/** The block as the README has it (markers included); an error when the markers are missing. */
export function blockOf(readme: string, block: Block): string {
  const from = readme.indexOf(block.begin);
  const to = readme.indexOf(block.end);
  if (from < 0 || to < from) throw new Error(`${README}: a block's markers are missing (${block.begin} … ${block.end})`);
  return readme.slice(from, to + block.end.length);
}

/** The README with one block replaced by `text` (markers included). */
export function withBlock(readme: string, block: Block, text: string): string {
  const current = blockOf(readme, block);
  const from = readme.indexOf(current);
  return readme.slice(0, from) + text + readme.slice(from + current.length);
}

/** The parts of `kiosk bench robustness --json` the table uses. */
export interface RobustnessJson {
  halves: { half: "report" | "tune"; overall: SideBySide; passengers: SideBySide; operators: SideBySide; ambiguous: { n: number; asked: number }; disputed: unknown[] }[];
}

/** Both halves of the robustness suite under `rule`, through the CLI. */
export function robustnessReport(): RobustnessJson {
  const cli = path.join(REPO_ROOT, "bin", "kiosk.js");
  return JSON.parse(execFileSync(process.execPath, [cli, "bench", "robustness", "--suite", "ours", "--half", "all", "--json"], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 })) as RobustnessJson;
}

const one = (v: number): string => v.toFixed(1);
const delta = (v: number): string => `${v < 0 ? "−" : "+"}${Math.abs(v).toFixed(1)}`;

/** The robustness table as the README shows it (markers included). */
export function robustnessTable(r: RobustnessJson): string {
  const half = (name: "report" | "tune") => {
    const h = r.halves.find((x) => x.half === name);
    if (!h) throw new Error(`kiosk bench robustness --json has no '${name}' half`);
    return h;
  };
  const report = half("report");
  const tune = half("tune");
  const row = (label: string, x: SideBySide, bold = false): string => {
    const strict = bold ? `**${one(x.variantStrict)} %**` : `${one(x.variantStrict)} %`;
    const tier1 = `${one(x.originalTier1)} → ${one(x.variantTier1)}${bold ? ` (Δ ${delta(x.variantTier1 - x.originalTier1)})` : ""}`;
    const disputed = bold && report.disputed.length > 0 ? ` (+${report.disputed.length} on a disputed key)` : "";
    return `| ${label} | ${x.n} | ${tier1} | ${one(x.originalStrict)} % → ${strict} | ${bold ? `**${x.wrongOffers}**` : x.wrongOffers}${disputed} |`;
  };
  return [
    ROBUSTNESS.begin,
    "| half | n | Tier 1 original → variant | strict original → variant | wrong offers |",
    "|---|---|---|---|---|",
    row("report (never tuned on) — passenger texts", report.passengers),
    row("report — operator and disruption texts", report.operators),
    row("report — overall", report.overall, true),
    row("tune — overall", tune.overall),
    "",
    `Clarifying question on the ambiguous requests: ${report.ambiguous.asked}/${report.ambiguous.n} (report), ${tune.ambiguous.asked}/${tune.ambiguous.n} (tune).`,
    ROBUSTNESS.end,
  ].join("\n");
}

export const OTHERS: Block = {
  begin: "<!-- others: written by `npm run readme:facts` from a fresh `kiosk bench robustness --suite others --half tune` run; edit scripts/readme-facts.ts, not this table -->",
  end: "<!-- end of others -->",
};

/** The tune half of the texts others wrote under `rule`, through the CLI (the report half is graded once, by hand). */
export function othersReport(): OthersSummary {
  const cli = path.join(REPO_ROOT, "bin", "kiosk.js");
  const json = JSON.parse(execFileSync(process.execPath, [cli, "bench", "robustness", "--suite", "others", "--half", "tune", "--json"], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 })) as { others: OthersSummary[] };
  const tune = json.others.find((s) => s.half === "tune");
  if (!tune) throw new Error("kiosk bench robustness --suite others --json has no 'tune' half");
  return tune;
}

/** The others' tune-half table as the README shows it (markers included). */
export function othersTable(s: OthersSummary): string {
  const row = (r: OthersRow): string =>
    `| ${r.key} | ${r.due} | ${r.sold} | ${r.askedSold} | ${one(r.rightPct)} % | ${r.refused} (${one(r.refusedPct)} %) | ${r.noSaleRight} of ${r.noSale} | ${r.wrongOffers} |`;
  return [
    OTHERS.begin,
    "| tune half (tuned on) | due sales | sold at once | sold after a question | right | correct offers the interlock refused | no sale due, none offered | wrong offers |",
    "|---|---|---|---|---|---|---|---|",
    ...s.rows.map(row),
    row(s.overall),
    OTHERS.end,
  ].join("\n");
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

/** Where and when a stored run was measured, in words. */
function measuredOn(r: FigureRecord): string {
  const m = r.machine;
  const commit = r.commit === null ? "" : `, commit ${r.commit}${r.dirty ? " with changes" : ""}`;
  return `${r.recorded_at.slice(0, 10)}, ${m.cpu_model} ×${m.cpu_cores}, ${m.memory_gb} GB, Node ${m.node.replace(/^v/, "")}, load ${m.load_1m.toFixed(1)}${commit}`;
}

const micro = (us: number): string => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${Math.round(us)} µs`);
const notRecorded = (command: string): string => `*not recorded yet*: run \`${command}\``;

/** The large-network and real-feed import figures of a perf:tools run (runs recorded before they existed have none). */
function largeNetworkText(tools: FigureRecord): string {
  if (tools.figures["grid_stations"] === undefined) return "";
  const grid = `A generated ${figure(tools, "perf-tools", "grid_stations").toLocaleString("en-US")}-station grid metro, imported from a GTFS feed in ${figure(tools, "perf-tools", "grid_import_ms")} ms: \`route_planner\` p50 ${micro(figure(tools, "perf-tools", "grid_route_p50_us"))}, p99 ${micro(figure(tools, "perf-tools", "grid_route_p99_us"))}.`;
  const feeds = (["hyderabad", "busan"] as const).filter((id) => tools.figures[`import_${id}_ms`] !== undefined).map((id) => `${id[0]?.toUpperCase()}${id.slice(1)} ${figure(tools, "perf-tools", `import_${id}_ms`)} ms`);
  return feeds.length > 0 ? `${grid} Importing the real feeds (read, validated, converted): ${feeds.join(", ")}.` : grid;
}

/** The performance figures as the README shows them (markers included), from the stored runs. */
export function performanceText(dir = FIGURES_DIR): string {
  const lines = [PERFORMANCE.begin, "Each figure is its script's last `--record` run, stored in `docs/figures/` with the machine, date and commit it ran on; they swing with the machine and its load.", ""];
  const tools = readFigures("perf-tools", dir);
  lines.push(
    tools
      ? `- **Tools** (\`npm run perf:tools\`; ${measuredOn(tools)}): \`route_planner\` on Beijing (${figure(tools, "perf-tools", "stations")} stations) p50 ${micro(figure(tools, "perf-tools", "route_p50_us"))}, p99 ${micro(figure(tools, "perf-tools", "route_p99_us"))} over ${figure(tools, "perf-tools", "calls").toLocaleString("en-US")} random calls (budget: p99 under ${figure(tools, "perf-tools", "route_p99_budget_ms")} ms); \`fare_calculator\` p50 ${micro(figure(tools, "perf-tools", "fare_p50_us"))}, p99 ${micro(figure(tools, "perf-tools", "fare_p99_us"))}. ${largeNetworkText(tools)}`
      : `- **Tools**: ${notRecorded("npm run perf:tools -- --record")}.`,
  );
  const bench = readFigures("perf-bench", dir);
  const b = (key: string): number => figure(bench as FigureRecord, "perf-bench", key);
  lines.push(
    bench
      ? `- **The whole 955-case bench** as a technician runs it — one \`kiosk bench run --policy ${String(bench.figures["policy"])}\` process: start-up, data-pack validation, replay, scoring, SQLite storage, results files — beside the reference pipeline (its mock tool server, rule agent over HTTP and scorer, per system), alternating on the same machine (\`npm run perf:bench\`, the reference's commands in \`docs/PERFORMANCE.md\`; ${measuredOn(bench)}): ours ${b("ours_s").toFixed(2)} s, the reference ${b("reference_s").toFixed(2)} s — **${b("ratio").toFixed(1)}×** (medians of ${b("reps")}; Tier 1 ${b("tier1_ours").toFixed(2)} and ${b("tier1_reference").toFixed(2)}). \`kiosk --help\` takes ${b("help_s").toFixed(2)} s where a bare \`node -e 0\` takes ${b("node_start_s").toFixed(2)} s (best of 8 each).`
      : `- **The whole 955-case bench**: ${notRecorded("npm run perf:bench -- --reference DIR --python PY --record")}.`,
  );
  const latency = readFigures("latency", dir);
  const l = (key: string): number => figure(latency as FigureRecord, "latency", key);
  lines.push(
    latency
      ? `- **Tap latency** — last tap → result on screen in Chromium, structured MARTA and Beijing journeys under the deterministic policy (\`npm run perf:latency\`; ${measuredOn(latency)}): p50 ${l("p50_ms")} ms, p95 ${l("p95_ms")} ms, max ${l("max_ms")} ms over ${l("taps")} taps (budget ${l("budget_ms")} ms).`
      : `- **Tap latency**: ${notRecorded("npm run perf:latency -- --record")}.`,
  );
  const llm = readFigures("perf-llm", dir);
  if (llm) {
    const f = (key: string): number => figure(llm, "perf-llm", key);
    const perThreads = String(llm.figures["threads"])
      .split(",")
      .map((t) => `${f(`prefill_tok_s_${t}t`).toFixed(1)} / ${f(`decode_tok_s_${t}t`).toFixed(1)} tok/s at ${t} thread${t === "1" ? "" : "s"}`)
      .join(", ");
    lines.push(
      `- **Local model on the CPU** (\`npm run perf:llm\`; ${measuredOn(llm)}), ${String(llm.figures["model"])}, ${String(llm.figures["engine"])}: prefill / decode ${perThreads}; time to first token of a second session sharing the first one's prefix ${(f("ttft_second_ms") / 1000).toFixed(1)} s against ${(f("ttft_first_ms") / 1000).toFixed(1)} s for the first (${(f("ttft_first_ms") / f("ttft_second_ms")).toFixed(1)}×); the runtime's own work per round ${f("overhead_per_round_ms").toFixed(1)} ms of a typical ${(f("typical_round_ms") / 1000).toFixed(1)} s round.`,
    );
  } else {
    lines.push(`- **Local model on the CPU**: ${notRecorded("npm run perf:llm -- --record")}.`);
  }
  const live = readFigures("perf-live", dir);
  if (live) {
    const f = (key: string): number => figure(live, "perf-live", key);
    const step = f("step_minutes");
    lines.push(
      `- **A live passenger's first token** (\`npm run perf:live\`; ${measuredOn(live)}), ${String(live.figures["model"])}, ${f("threads")} threads: ${(f("live_ttft_ms") / 1000).toFixed(1)} s with the prompt warmer against ${(f("warm_ttft_ms") / 1000).toFixed(1)} s for a fully warm prompt (**${f("live_over_warm").toFixed(2)}×**, median of ${f("reps")}); ${(f("before_ttft_ms") / 1000).toFixed(1)} s when the prompt stated the second and nothing was prefilled (${f("before_over_live").toFixed(1)}× longer). Prefilling the next stated time takes ${(f("warmup_ms") / 1000).toFixed(1)} s here, so live prompts state the time to ${step} minute${step === 1 ? "" : "s"}.`,
    );
  } else {
    lines.push(`- **A live passenger's first token**: ${notRecorded("npm run perf:live -- --record")}.`);
  }
  const anchor = readFigures("perf-anchor", dir);
  if (anchor) {
    const shares = String(anchor.figures["rows"])
      .split(",")
      .map((row) => {
        const [arch, threads] = row.split("_");
        return `${arch} at ${threads?.replace("t", "")} thread(s) prefill ${figure(anchor, "perf-anchor", `prefill_share_${row}`)} %, decode ${figure(anchor, "perf-anchor", `decode_share_${row}`)} %`;
      })
      .join("; ");
    const alike = anchor.figures["compiled_alike"] === "yes" ? "compiled alike" : "**not compiled alike**, so the shares compare builds as well as engines";
    lines.push(
      `- **Ours against llama.cpp's own llama-bench** on the same 4B-shaped files and threads (\`npm run perf:anchor\`; ${measuredOn(anchor)}; ${String(anchor.figures["settings"])}): ${shares}. Ours: ${String(anchor.figures["ours"])}; llama-bench: ${String(anchor.figures["llama_bench"])} — ${alike}.`,
    );
  } else {
    lines.push(`- **Ours against llama.cpp's own llama-bench**: ${notRecorded("npm run anchors:build && npm run perf:anchor -- --record")}.`);
  }
  lines.push(PERFORMANCE.end);
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { rule, ruleRef } = freshReports();
  const blocks: [Block, string][] = [
    [SCORES, scoreTable(rule, ruleRef)],
    [ROBUSTNESS, robustnessTable(robustnessReport())],
    [OTHERS, othersTable(othersReport())],
    [PERFORMANCE, performanceText()],
  ];
  const readme = readFileSync(README, "utf8");
  const next = blocks.reduce((text, [block, fresh]) => withBlock(text, block, fresh), readme);
  if (process.argv.includes("--check")) {
    const differing = blocks.filter(([block, fresh]) => blockOf(readme, block) !== fresh);
    if (differing.length > 0) {
      process.stderr.write(`README.md's figures differ from fresh runs and the stored runs; run npm run readme:facts\n\n${differing.map(([, fresh]) => fresh).join("\n\n")}\n`);
      process.exit(1);
    }
    process.stdout.write("README.md's figures match fresh runs and the stored runs\n");
  } else {
    writeFileSync(README, next);
    process.stdout.write(`${next === readme ? "unchanged" : "rewrote"} the figures in README.md\n`);
  }
}
