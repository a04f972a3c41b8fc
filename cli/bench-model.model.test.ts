// The bench's model policies and the llm judge end to end on the tiny generated GGUFs (the llama
// layout and the student's qwen35 hybrid), through the command line with a temporary database:
//   1. `kiosk bench run --policy llm --model tiny.gguf --cases <3 MARTA ids> --json`: the stored
//      transcripts hold grammar-valid tool calls (real tools, arguments valid for the tool's
//      schema), every case ends with a recorded termination, rounds carry token counts, and the
//      later sessions reuse the KV prefix of the earlier ones; the run records the model.
//   2. `--policy hybrid --model tiny.gguf --system doha --split holdout`: the held-out cases of one
//      system complete and the report carries the routing shares. (All 156 Doha cases take ~4 min
//      on 2 busy cores: most model sessions re-prefill part of the system turn; all 955 cases:
//      scripts/hybrid-tiny-all.ts.)
//   3. `--policy rule --judge llm --judge-model tiny.gguf` on one case: two judgments by the tiny
//      model, parsed (gibberish scores 1) and cached in the run database.
// Test-only mechanisms: the llm factory is registered with the engine's `forcedOutputPrefix`
// (every round opens a tool call, which a random-weight model never would; everything after the
// trigger is sampled under the grammar), and the hybrid run gives the model a 16-token budget per
// round, so that each model session ends at once with text and the rule policy finishes it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { checkJsonSchema } from "../runtime/model/testing/schema-check.ts";
import type { JsonSchema } from "../runtime/model/tools.ts";
import { caseSetup } from "../runtime/session/case.ts";
import type { TerminationReason } from "../runtime/session/record.ts";
import { registerBenchCommands } from "./bench.ts";
import { makeTinyModel, TINY_ARCHITECTURES, type TinyModelFixture } from "../models/testing/tiny-model.ts";
import { registerJudgeFactory } from "../bench/judges.ts";
import { llmJudgeFactory } from "../bench/judges/llm.ts";
import { hybridPolicyFactory, llmPolicyFactory } from "../bench/model-policies.ts";
import { registerPolicyFactory } from "../bench/policies.ts";
import type { BenchReport } from "../bench/report/build.ts";
import { BenchStore } from "../bench/store/store.ts";

const TERMINATIONS: readonly TerminationReason[] = [
  "submitted",
  "text_reply",
  "policy_done",
  "round_budget_exhausted",
  "deadline",
  "aborted",
  "policy_error",
  "malformed_tool_arguments",
  "truncated",
  "empty_responses",
];
const CASES = ["MARTA-A-001", "MARTA-B-011", "MARTA-C-004"];

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  let tiny: TinyModelFixture;
  let dir: string;
  const restore: (() => void)[] = [];

  beforeAll(() => {
    tiny = makeTinyModel({ architecture });
    dir = mkdtempSync(path.join(tmpdir(), "bench-model-run-"));
    restore.push(
      registerPolicyFactory(llmPolicyFactory({ gpu: false, engine: { forcedOutputPrefix: "The passenger needs help.\n</think>\n\n<tool_call>\n" } })),
      registerPolicyFactory(hybridPolicyFactory({ gpu: false, llm: { maxTokens: 16 } })),
      registerJudgeFactory(llmJudgeFactory({ gpu: false })),
    );
  });

  afterAll(() => {
    for (const r of restore.reverse()) r();
    tiny?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function kiosk(...argv: string[]): Promise<string> {
    const program = new Command("kiosk").option("--data <dir>").exitOverride();
    registerBenchCommands(program);
    let stdout = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await program.parseAsync(["--data", SHARED_DATA_DIR, "bench", ...argv], { from: "user" });
    } finally {
      vi.restoreAllMocks();
    }
    return stdout;
  }

  /** The tool's schema as the grammar enforces it: string parameters are free text (no enums). */
  function grammarSchema(parameters: JsonSchema): JsonSchema {
    const props = (parameters.properties ?? {}) as Record<string, JsonSchema>;
    return { ...parameters, properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.type === "string" ? { type: "string" } : v])) };
  }

  describe("bench run with the tiny model", () => {
    it("policy llm: grammar-valid tool calls, recorded terminations, token counts and prefix reuse in the stored transcripts", async () => {
      const db = path.join(dir, "llm.sqlite");
      const summary = JSON.parse(await kiosk("run", "--policy", "llm", "--model", tiny.file, "--threads", "1", "--cases", CASES.join(","), "--db", db, "--json")) as Record<string, unknown>;
      expect(summary).toMatchObject({ status: "finished", policy: "llm", model: path.basename(tiny.file), cases: { total: 3, done: 3 } });

      const store = BenchStore.open(db);
      try {
        const run = store.requireRun(summary.run_id as number);
        expect(run.deterministic).toBe(false);
        expect(run.policyOptions).toEqual({ model: tiny.file, threads: 1 });
        expect(run.policySettings).toMatchObject({ model_file: tiny.file, model_bytes: tiny.bytes.length, threads: 1, gpu: false, thinking: true, max_tokens: 4096 });
        expect(run.policySettings).toHaveProperty("quantization");
        expect(run.policySettings.load_ms).toBeGreaterThan(0);

        const stored = store.casesWithRecords(run.id);
        expect(stored.map((c) => c.caseId)).toEqual(CASES);
        let calls = 0;
        for (const [i, c] of stored.entries()) {
          const record = c.record;
          const tools = caseSetup(tiny.pack, tiny.pack.caseById(c.caseId)!).tools;
          // Termination recorded, within the round budget.
          expect(TERMINATIONS).toContain(record.kiosk.termination);
          expect(c.termination).toBe(record.kiosk.termination);
          expect(record.api_rounds).toBeGreaterThan(0);
          expect(record.api_rounds).toBeLessThanOrEqual(20);
          expect(record.kiosk.rounds).toHaveLength(record.api_rounds);
          // Every call the model made names a real tool, with arguments valid for its schema.
          for (const m of record.messages) {
            if (m.role !== "assistant") continue;
            for (const call of m.tool_calls ?? []) {
              calls++;
              const tool = tools.find((t) => t.function.name === call.function.name);
              expect(tool, `unknown tool ${call.function.name} in ${c.caseId}`).toBeDefined();
              const args = JSON.parse(call.function.arguments) as unknown;
              expect(checkJsonSchema(args, grammarSchema(tool!.function.parameters as JsonSchema)), `${c.caseId} ${call.function.name}`).toEqual([]);
            }
          }
          for (const made of record.tool_calls_made) expect(tools.map((t) => t.function.name)).toContain(made.name);
          // Token counts on every round, and in the record's totals.
          for (const r of record.kiosk.rounds) {
            expect(r.usage?.promptTokens).toBeGreaterThan(0);
            expect(r.usage?.completionTokens).toBeGreaterThan(0);
          }
          expect(record.input_tokens).toBeGreaterThan(0);
          expect(record.output_tokens).toBeGreaterThan(0);
          // Prefix reuse: later rounds reuse the session so far; later sessions the shared system turn.
          const [first, second] = record.kiosk.rounds;
          if (second) expect(second.usage?.cachedPromptTokens).toBeGreaterThanOrEqual((first?.usage?.promptTokens ?? 0) - 1);
          if (i > 0) expect(first?.usage?.cachedPromptTokens).toBeGreaterThan(0);
        }
        expect(calls).toBeGreaterThanOrEqual(3);
      } finally {
        store.close();
      }
    });

    it("policy hybrid over one system's held-out cases completes and the report carries the routing shares", async () => {
      const db = path.join(dir, "hybrid.sqlite");
      const summary = JSON.parse(
        await kiosk("run", "--policy", "hybrid", "--model", tiny.file, "--threads", "1", "--system", "doha", "--split", "holdout", "--db", db, "--json"),
      ) as Record<string, unknown>;
      const holdout = tiny.pack.holdoutIds();
      const total = tiny.pack.cases("doha").filter((c) => holdout.has(c.id)).length;
      expect(summary).toMatchObject({ status: "finished", policy: "hybrid", cases: { total, done: total } });
      const report = JSON.parse(await kiosk("report", "--db", db, "--json")) as BenchReport;
      const hybrid = report.hybrid;
      expect(hybrid?.routed).toBe(total);
      const full = hybrid!.partitions.full;
      expect(hybrid!.partitions.holdout.n).toBe(total);
      expect(full.overall.paths.rule.n + full.overall.paths.model.n).toBe(total);
      expect(full.overall.paths.rule.n).toBeGreaterThan(0);
      expect(full.overall.paths.model.n).toBeGreaterThan(0);
      expect(full.overall.paths.rule.sharePct + full.overall.paths.model.sharePct).toBeCloseTo(100, 0);
      // The tiny model never submits a state: every model session is finished by the rule policy.
      expect(full.answeredBy["rule-fallback"].n).toBe(full.overall.paths.model.n);
      expect(full.answeredBy.deterministic.tier1).toBeGreaterThan(0);
      console.log(
        `tiny-model hybrid (${architecture}), doha held-out:`,
        JSON.stringify({ n: full.n, rule: full.overall.paths.rule, model: full.overall.paths.model, deterministic: full.answeredBy.deterministic, reasons: hybrid!.reasons }),
      );
    });

    it("judge llm: the tiny model judges a case's two judged components, and the judgments are cached in the run database", async () => {
      const db = path.join(dir, "judge.sqlite");
      const summary = JSON.parse(
        await kiosk("run", "--policy", "rule", "--cases", "MARTA-C-002", "--judge", "llm", "--judge-model", tiny.file, "--judge-threads", "1", "--db", db, "--json"),
      ) as Record<string, unknown>;
      expect(summary).toMatchObject({ status: "finished", judge: "llm", cases: { scored: 1 } });
      const store = BenchStore.open(db);
      try {
        const rows = store.db.prepare("SELECT judge, component, case_id, score, reason FROM judgments ORDER BY component").all() as { judge: string; component: string; case_id: string; score: number; reason: string }[];
        expect(rows.map((r) => [r.judge, r.component, r.case_id])).toEqual([
          [`llm:${path.basename(tiny.file)}`, "advisory_content_correct", "MARTA-C-002"],
          [`llm:${path.basename(tiny.file)}`, "scope_adherence", "MARTA-C-002"],
        ]);
        for (const r of rows) {
          expect([0, 1, 2]).toContain(r.score);
          expect(typeof r.reason).toBe("string");
        }
        const run = store.requireRun(summary.run_id as number);
        expect(run.judgeOptions).toEqual({ model: tiny.file, threads: 1 });
        expect(run.judgeSettings).toMatchObject({ model_file: tiny.file, threads: 1, temperature: 0 });
        const score = store.casesWithScores(run.id)[0]?.score;
        expect(score?.breakdown["scope_adherence"]).toMatchObject({ code: "judged", reason: expect.stringMatching(/^the judge gave [012] of 2: /) });
      } finally {
        store.close();
      }
    });
  });
});
