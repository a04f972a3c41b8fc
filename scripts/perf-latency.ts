// Tap latency as a passenger feels it: runs the Chromium end-to-end test (cli/latency.e2e.test.ts:
// last tap → result on screen, structured MARTA and Beijing journeys, the deterministic policy) and
// prints the figures it wrote; with --record they go to docs/figures/latency.json, which the
// README's performance section is written from (scripts/figures.ts).
//
//   npm run perf:latency [-- --record]      (needs Debian's Chromium and `npm run build:renderer`)
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { recordFigures } from "./figures.ts";
import { REPO_ROOT } from "./readme-facts.ts";

const { values } = parseArgs({ options: { record: { type: "boolean", default: false } } });

const LatencySchema = z.object({ taps: z.number().int().positive(), p50_ms: z.number(), p95_ms: z.number(), max_ms: z.number(), budget_ms: z.number() });

const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--project", "e2e", "cli/latency.e2e.test.ts"], { cwd: REPO_ROOT, stdio: "inherit" });
if (run.status !== 0) throw new Error(`the latency test failed (exit ${run.status}); nothing recorded`);
const file = path.join(REPO_ROOT, "test-results", "latency.json");
const { taps, p50_ms, p95_ms, max_ms, budget_ms } = LatencySchema.parse(JSON.parse(readFileSync(file, "utf8")));
console.log(`last tap → result on screen: p50 ${p50_ms} ms, p95 ${p95_ms} ms, max ${max_ms} ms over ${taps} taps (budget ${budget_ms} ms)`);
if (values.record) console.log(`recorded in ${await recordFigures("latency", "npm run perf:latency -- --record", { taps, p50_ms, p95_ms, max_ms, budget_ms })}`);
