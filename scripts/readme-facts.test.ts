// The README's figures are what the runs give: the score table and the robustness table equal fresh
// runs, the performance text equals what the stored runs in docs/figures/ say. Each fails as soon as
// a change moves a figure and the README (npm run readme:facts) was not brought along.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIGURE_NAMES, figureFile, readFigures, recordFigures } from "./figures.ts";
import { blockOf, freshReports, OTHERS, othersReport, othersTable, PERFORMANCE, performanceText, README, robustnessReport, robustnessTable, ROBUSTNESS, SCORES, scoreTable } from "./readme-facts.ts";

const readme = readFileSync(README, "utf8");

describe("README facts", () => {
  it("the score table equals a fresh run of rule and rule-ref over all cases", { timeout: 300_000 }, () => {
    const block = blockOf(readme, SCORES);
    const { rule, ruleRef } = freshReports();
    expect(block, "README.md's scores differ from a fresh run: run npm run readme:facts").toBe(scoreTable(rule, ruleRef));
    // What `npm run main` prints for the held-out and full Tier 1 is in the table.
    expect(block).toContain(`**${rule.partitions.holdout.overall.tier1.toFixed(2)}**`);
    expect(block).toContain(`| ${rule.partitions.full.overall.tier1.toFixed(2)} |`);
  });

  it("the robustness table equals a fresh run of both halves", { timeout: 300_000 }, () => {
    const fresh = robustnessReport();
    const block = blockOf(readme, ROBUSTNESS);
    expect(block, "README.md's robustness table differs from a fresh run: run npm run readme:facts").toBe(robustnessTable(fresh));
    const report = fresh.halves.find((h) => h.half === "report");
    expect(block).toContain(`**${report?.overall.variantStrict.toFixed(1)} %**`);
  });

  it("the table of texts others wrote equals a fresh run of their tune half", { timeout: 300_000 }, () => {
    const fresh = othersReport();
    expect(blockOf(readme, OTHERS), "README.md's table of texts others wrote differs from a fresh run: run npm run readme:facts").toBe(othersTable(fresh));
    expect(fresh.rows.map((r) => r.key)).toEqual(["passenger requests", "operator notices"]);
  });

  it("the performance text is what the stored runs say, and every stored run is valid", () => {
    for (const name of FIGURE_NAMES) readFigures(name);
    expect(blockOf(readme, PERFORMANCE), "README.md's performance figures differ from docs/figures/: run npm run readme:facts").toBe(performanceText());
  });
});

describe("stored runs", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "figures-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a script's recorded figures appear in the text with the machine they ran on; a missing one says how to record it", async () => {
    expect(performanceText(dir)).toContain("*not recorded yet*: run `npm run perf:tools -- --record`");
    await recordFigures("perf-tools", "npm run perf:tools -- --record", { stations: 414, calls: 10000, route_p50_us: 35.2, route_p99_us: 170.4, fare_p50_us: 17, fare_p99_us: 1234, route_p99_budget_ms: 1 }, dir);
    const text = performanceText(dir);
    expect(text).toContain("p50 35 µs, p99 170 µs over 10,000 random calls");
    expect(text).toContain("p99 1.23 ms");
    expect(text).toMatch(/\d{4}-\d\d-\d\d, .+ ×\d+, \d+ GB, Node \d+/);
    expect(text).toContain("*not recorded yet*: run `npm run perf:latency -- --record`");
    expect(text).not.toContain("grid metro");
    // A run with the large network and the real feeds' imports says them too.
    await recordFigures("perf-tools", "npm run perf:tools -- --record", { stations: 414, calls: 10000, route_p50_us: 35.2, route_p99_us: 170.4, fare_p50_us: 17, fare_p99_us: 1234, route_p99_budget_ms: 1, grid_stations: 2000, grid_import_ms: 201, grid_route_p50_us: 169.8, grid_route_p99_us: 459.8, import_hyderabad_ms: 492 }, dir);
    expect(performanceText(dir)).toContain("A generated 2,000-station grid metro, imported from a GTFS feed in 201 ms: `route_planner` p50 170 µs, p99 460 µs. Importing the real feeds (read, validated, converted): Hyderabad 492 ms.");
  });

  it("the model's figures name the model and both builds, and say when llama-bench was not compiled like ours", async () => {
    await recordFigures("perf-llm", "npm run perf:llm -- --threads 1,2 --record", {
      model: "qwen35 hybrid, 32 layers, Q4_K_M, 4.21 B parameters (synthetic-4b, random weights)",
      engine: "node-llama-cpp 3.21.1 prebuilt binary",
      threads: "1,2",
      prefill_tok_s_1t: 8.04, decode_tok_s_1t: 3.1, prefill_tok_s_2t: 9.5, decode_tok_s_2t: 3.6,
      reuse_threads: 2, ttft_first_ms: 30100, ttft_second_ms: 4300, overhead_per_round_ms: 21.4, typical_round_ms: 68000,
    }, dir);
    await recordFigures("perf-anchor", "npm run perf:anchor -- --record", {
      rows: "qwen35_1t,qwen35_2t", ours: "node-llama-cpp 3.21.1 prebuilt binary", llama_bench: "llama.cpp b8390 native build", compiled_alike: "no", settings: "pp128 / tg32, median of 3 paired repetitions",
      prefill_share_qwen35_1t: 86.1, decode_share_qwen35_1t: 91.2, prefill_share_qwen35_2t: 85.9, decode_share_qwen35_2t: 89.4,
    }, dir);
    const text = performanceText(dir);
    expect(text).toContain("qwen35 hybrid, 32 layers, Q4_K_M");
    expect(text).toContain("8.0 / 3.1 tok/s at 1 thread, 9.5 / 3.6 tok/s at 2 threads");
    expect(text).toContain("4.3 s against 30.1 s for the first (7.0×)");
    expect(text).toContain("qwen35 at 2 thread(s) prefill 85.9 %, decode 89.4 %");
    expect(text).toContain("**not compiled alike**");
  });

  it("a broken stored run is an error naming the file and the field", () => {
    const file = figureFile("latency", dir);
    writeFileSync(file, JSON.stringify({ command: "x", recorded_at: "yesterday" }));
    expect(() => readFigures("latency", dir)).toThrow(`${file}: recorded_at`);
    writeFileSync(file, "{");
    expect(() => readFigures("latency", dir)).toThrow(`${file}: not JSON`);
  });
});
