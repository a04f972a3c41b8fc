// `kiosk probe` end to end on the tiny generated GGUFs (llama; the student's qwen35 hybrid) with a
// reduced probe set: the one-object JSON
// (headline keys, per-case rows, sustained series, the --out file), prefix reuse visible as a warm
// first token that prefills fewer tokens and comes sooner than the cold one, and the hybrid
// probe's latency split by router path. The tiny model's sessions get a 16-token budget per round
// (test hook), so each model session is one short text reply; the figures themselves mean nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { makeTinyModel, TINY_ARCHITECTURES, type TinyModelFixture } from "../models/testing/tiny-model.ts";
import { registerProbeCommand } from "./probe.ts";

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  let tiny: TinyModelFixture;
  let dir: string;

  const cacheHome = process.env.XDG_CACHE_HOME;
  beforeAll(() => {
    tiny = makeTinyModel({ architecture });
    dir = mkdtempSync(path.join(tmpdir(), "probe-cli-"));
    process.env.XDG_CACHE_HOME = dir; // the thread table's cache
  });

  afterAll(() => {
    if (cacheHome === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = cacheHome;
    tiny?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `kiosk probe` on the tiny model, one thread unless `threads` is null (the measured, adaptive count). */
  async function probe(argv: string[], threads: string | null = "1"): Promise<Record<string, unknown>> {
    const program = new Command("kiosk").option("--data <dir>").exitOverride();
    registerProbeCommand(program, { engine: { contextSize: 16384 }, llm: { maxTokens: 16 } });
    let stdout = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
    try {
      await program.parseAsync(["--data", SHARED_DATA_DIR, "probe", "--model", tiny.file, ...(threads ? ["--threads", threads] : []), "--gpu", "off", "--json", ...argv], { from: "user" });
    } finally {
      vi.restoreAllMocks();
    }
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0] as string) as Record<string, unknown>;
  }

  const HEADLINE = [
    "load_ms",
    "ttft_cold_ms",
    "ttft_warm_ms",
    "prefill_tokens_cold",
    "prefill_tokens_warm",
    "prefill_tok_s",
    "decode_tok_s",
    "case_latency_p50_ms",
    "case_latency_p95_ms",
    "peak_rss_mb",
  ];

  describe("kiosk probe on the tiny model", () => {
    it("prints one JSON object with the headline figures, reuses the prefix when warm, and writes --out", async () => {
      const out = path.join(dir, "probe.json");
      const json = await probe(["--cases", "2", "--sustained", "1", "--out", out]);
      expect(Object.keys(json).slice(0, HEADLINE.length)).toEqual(HEADLINE);
      for (const key of HEADLINE) {
        expect(typeof json[key], key).toBe("number");
        expect(json[key] as number, key).toBeGreaterThan(0);
      }
      // Prefix reuse: the warm prompt (the next MARTA probe case) prefills only what differs.
      expect(json.prefill_tokens_warm as number).toBeLessThan((json.prefill_tokens_cold as number) / 4);
      expect(json.ttft_warm_ms as number).toBeLessThan(json.ttft_cold_ms as number);
      expect(json).toMatchObject({ policy: "llm", cases_run: 2, cold_case: "MARTA-A-001", warm_case: "MARTA-B-011", model: { file: tiny.file, threads: 1, gpu: false } });
      expect(json.cached_tokens_warm as number).toBeGreaterThan(0);
      const cases = json.cases as { id: string; e2e_ms: number; rounds: number; prompt_tokens: number; termination: string }[];
      expect(cases.map((c) => c.id)).toEqual(["MARTA-A-001", "MARTA-B-011"]);
      for (const c of cases) {
        expect(c.e2e_ms).toBeGreaterThan(0);
        expect(c.rounds).toBeGreaterThan(0);
        expect(c.prompt_tokens).toBeGreaterThan(0);
      }
      expect(json.case_latency_p95_ms as number).toBeGreaterThanOrEqual(json.case_latency_p50_ms as number);
      const sustained = json.sustained as { seconds: number; samples: { t_s: number; decode_tok_s: number | null; prefill_tok_s: number }[] };
      expect(sustained.seconds).toBe(1);
      expect(sustained.samples.length).toBeGreaterThan(0);
      expect(sustained.samples.every((s) => s.prefill_tok_s > 0)).toBe(true);
      expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(json);
      // The thread table (1..cores, measured once and cached per machine and model) and the Air projection.
      const threads = json.threads as { used: number; table: { threads: number; decode_tok_s: number }[]; from_cache: boolean };
      expect(threads.used).toBe(1);
      expect(json.threads).toMatchObject({ adaptive: null }); // --threads pins the count
      expect(threads.table.map((t) => t.threads)).toEqual(Array.from({ length: availableParallelism() }, (_, i) => i + 1));
      expect(threads.table.every((t) => t.decode_tok_s > 0)).toBe(true);
      expect(existsSync(path.join(dir, "metro-kiosk", "threads.json"))).toBe(true);
      const air = json.air_m2_projection as { kind: string; model_sessions: number; mean_generated_tokens: number; mean_session_s: number };
      expect(air.kind).toBe("projection");
      expect(air.model_sessions).toBe(2);
      expect(air.mean_generated_tokens).toBeGreaterThan(0);
      expect(typeof air.mean_session_s).toBe("number"); // a tiny model: milliseconds on the Air
      console.log(`tiny-model probe (${architecture}):`, JSON.stringify(Object.fromEntries(HEADLINE.map((k) => [k, json[k]]))));
    });

    it("--policy hybrid splits the case latency by router path (with the measured thread count, which adapts)", async () => {
      const json = await probe(["--cases", "3", "--policy", "hybrid"], null);
      const threads = json.threads as { from_cache: boolean; used: number; table: { threads: number }[]; adaptive: { decisions: string[]; would: string } | null };
      expect(threads.from_cache).toBe(true);
      // Without --threads the count adapts: the probe says what it decided and would do.
      expect(threads.adaptive?.decisions).toBeInstanceOf(Array);
      expect(threads.adaptive?.would).toMatch(/^(keep|re-measure|check in)/);
      expect(threads.table.map((t) => t.threads)).toContain(threads.used);
      const byPath = json.by_path as Record<"rule" | "model", { n: number; p50_ms: number | null }>;
      // MARTA-A-001 and MARTA-B-011 are structured (rule); MARTA-C-004 has a station closure (model).
      expect(byPath.rule.n).toBe(2);
      expect(byPath.model.n).toBe(1);
      const cases = json.cases as { id: string; path: string }[];
      expect(cases.map((c) => [c.id, c.path])).toEqual([
        ["MARTA-A-001", "rule"],
        ["MARTA-B-011", "rule"],
        ["MARTA-C-004", "model"],
      ]);
      expect(byPath.rule.p50_ms as number).toBeLessThan(byPath.model.p50_ms as number);
    });
  });
});
