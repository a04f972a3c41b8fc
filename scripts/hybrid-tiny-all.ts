// Policy hybrid over all 955 cases with the tiny generated GGUF as its model: shows that a full
// hybrid run completes and how the router splits the benchmark (what CI checks on one system's
// held-out cases, cli/bench-model.model.test.ts). The tiny model's answers are gibberish, so every
// case the router sends to the model ends with the rule policy (fallback); the figures that carry
// over to a real model are the routing shares and the rule path's Tier 1.
//
//   npx tsx scripts/hybrid-tiny-all.ts [--threads N] [--db FILE] [--max-tokens N] [--tool-calls]
//                                      [--split all|holdout|train] [--json]
//
//   --max-tokens  the model's token budget per round (default 16: a model session is one short text
//                 reply, then the rule policy takes over)
//   --tool-calls  test-only: force every model round to open a tool call (the tiny model then
//                 writes grammar-constrained calls for up to 14 rounds per session; much slower)
//   --db          keep the run in this bench database (default: a temporary one), for
//                 `kiosk bench report RUN --db FILE`
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { hybridPolicyFactory } from "../bench/model-policies.ts";
import { registerPolicyFactory } from "../bench/policies.ts";
import { buildReport } from "../bench/report/build.ts";
import { formatMs, hybridBlocks } from "../bench/report/table.ts";
import { startRun } from "../bench/run/execute.ts";
import { SplitFilterSchema } from "../bench/store/schema.ts";
import { BenchStore } from "../bench/store/store.ts";
import { makeTinyModel } from "../models/testing/tiny-model.ts";

const { values } = parseArgs({
  options: {
    threads: { type: "string", default: "1" },
    db: { type: "string" },
    "max-tokens": { type: "string", default: "16" },
    "tool-calls": { type: "boolean", default: false },
    split: { type: "string", default: "all" },
    json: { type: "boolean", default: false },
  },
});
const threads = Number(values.threads);
const maxTokens = Number(values["max-tokens"]);
const split = SplitFilterSchema.parse(values.split);

const tiny = makeTinyModel();
const temp = values.db ? undefined : mkdtempSync(path.join(tmpdir(), "hybrid-tiny-"));
const db = values.db ?? path.join(temp as string, "bench.sqlite");
const restore = registerPolicyFactory(
  hybridPolicyFactory({
    gpu: false,
    llm: { maxTokens },
    ...(values["tool-calls"] ? { engine: { forcedOutputPrefix: "The passenger needs help.\n</think>\n\n<tool_call>\n" } } : {}),
  }),
);
const store = BenchStore.open(db);
try {
  const t0 = performance.now();
  let last = 0;
  const outcome = await startRun({
    pack: tiny.pack,
    store,
    policy: "hybrid",
    policyOptions: { model: tiny.file, threads },
    selection: { split },
    onProgress: (p) => {
      if (p.done - last >= 50 || p.done === p.total) {
        last = p.done;
        process.stderr.write(`${p.done}/${p.total} cases · ${formatMs(performance.now() - t0)}\n`);
      }
    },
  });
  const report = buildReport(store, outcome.runId);
  const hybrid = report.hybrid;
  if (!hybrid) throw new Error("the run's sessions carry no router decision");
  const figures = Object.fromEntries(
    (["holdout", "train", "full"] as const)
      .filter((p) => hybrid.partitions[p].n > 0)
      .map((p) => {
        const part = hybrid.partitions[p];
        return [
          p,
          {
            n: part.n,
            routed_rule: { n: part.overall.paths.rule.n, share_pct: part.overall.paths.rule.sharePct, tier1: part.overall.paths.rule.tier1, e2e_ms: part.overall.paths.rule.e2eMs },
            routed_model: { n: part.overall.paths.model.n, share_pct: part.overall.paths.model.sharePct, tier1: part.overall.paths.model.tier1, e2e_ms: part.overall.paths.model.e2eMs },
            answered_deterministically: { n: part.answeredBy.deterministic.n, share_pct: part.answeredBy.deterministic.sharePct, tier1: part.answeredBy.deterministic.tier1 },
            answered_by_model: { n: part.answeredBy.model.n, tier1: part.answeredBy.model.tier1 },
            fallbacks: part.overall.fallbacks,
            tier1_overall: report.partitions[p].overall.tier1,
          },
        ];
      }),
  );
  const summary = { run_id: outcome.runId, db: values.db ?? null, cases: outcome.casesDone, wall_ms: Math.round(outcome.wallMs), threads, max_tokens: maxTokens, tool_calls: values["tool-calls"], reasons: hybrid.reasons, partitions: figures };
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    process.stdout.write(`hybrid over ${outcome.casesDone} cases with the tiny model in ${formatMs(outcome.wallMs)} (run ${outcome.runId}${values.db ? ` in ${values.db}` : ""})\n\n`);
    process.stdout.write(`${hybridBlocks(hybrid).join("\n\n")}\n\n${JSON.stringify(summary, null, 2)}\n`);
  }
} finally {
  store.close();
  restore();
  tiny.cleanup();
  if (temp) rmSync(temp, { recursive: true, force: true });
}
