// Latency levers, each measured (issue 15, item 6):
//   1. token prediction (node-llama-cpp's input-lookup predictor): decode tok/s with and without it,
//      on the tiny models of both architectures and on the 4B-shaped qwen35, with proof that the greedy
//      output is unchanged (identical text) and the predictor's hit counts;
//   2. the thinking budget derived from the passenger's remaining deadline: a capped round against an
//      uncapped one (tokens and seconds saved), and the budgets that this machine's and the Air's
//      decode speeds give for the kiosk's deadlines (bench runs keep the paper's unlimited thinking);
//   3. the context: 16,384 tokens by default (the paper's p99 conversation is 8,747) — its memory on
//      the 4B-shaped model, and how fast an overflowing conversation is refused (typed error).
//
//   npm run perf:levers -- [--skip-4b] [--threads N] [--decode 48]
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { LlamaEngine } from "../models/engine.ts";
import { ModelContextOverflowError } from "../models/errors.ts";
import { dataPackCorpus, ensureSynthetic4b } from "../models/synthetic-gguf.ts";
import { makeTinyModel, SERVING_PARITY_MIXING, SERVING_PARITY_PREFERENCES, SERVING_PARITY_TRANSITIONS, TINY_ARCHITECTURES } from "../models/testing/tiny-model.ts";
import { projectAirM2 } from "../bench/probe/projection.ts";
import { LazyToolCallGrammar } from "../runtime/model/grammar.ts";
import { renderChat } from "../runtime/model/render.ts";
import { DEFAULT_RESERVE_TOKENS, thinkingTokens } from "../runtime/policies/llm.ts";
import { DataPack } from "../tools/data/datapack.ts";

const { values } = parseArgs({
  options: {
    "skip-4b": { type: "boolean", default: false },
    threads: { type: "string", default: String(availableParallelism()) },
    decode: { type: "string", default: "48" },
  },
});
const threads = Number(values.threads);
const DECODE = Number(values.decode);
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const pack = DataPack.locate();

interface PredictionResult {
  model: string;
  plainTokS: number;
  predictedTokS: number;
  identical: boolean;
  validated: number;
  refuted: number;
}

/** The same prompts with and without input-lookup prediction (fresh engines, greedy). */
async function measurePrediction(model: string, file: string, prompts: string[], grammar?: LazyToolCallGrammar): Promise<PredictionResult> {
  const run = async (prediction: "off" | "input-lookup") => {
    const engine = new LlamaEngine({ modelPath: file, threads, gpu: false, contextSize: 8192, tokenPrediction: prediction });
    await engine.load();
    try {
      let tokens = 0;
      let ms = 0;
      const texts: string[] = [];
      for (const prompt of prompts) {
        const r = await engine.complete({ prompt, maxTokens: DECODE, lazyGrammar: grammar });
        texts.push(r.text);
        tokens += r.usage.completionTokens - 1;
        ms += r.usage.decodeMs;
      }
      return { tokS: tokens / (ms / 1000), texts, stats: engine.tokenPredictionStats() };
    } finally {
      await engine.unload();
    }
  };
  const plain = await run("off");
  const predicted = await run("input-lookup");
  return {
    model,
    plainTokS: plain.tokS,
    predictedTokS: predicted.tokS,
    identical: plain.texts.every((t, i) => t === predicted.texts[i]),
    validated: predicted.stats.validated,
    refuted: predicted.stats.refuted,
  };
}

// 1. Token prediction ------------------------------------------------------------------------
const tools = pack.toolDefinitions();
const stations = pack.system("marta").stations.map((s) => s.name);
const chatPrompts = (template: string): string[] =>
  [`Stations: ${stations.slice(0, 30).join(", ")}. Route from ${stations[3]} to ${stations[9]}?`, `Two adults from ${stations[1]} to ${stations[5]}, step-free.`].map((user) =>
    renderChat(template, [{ role: "system", content: "You are a kiosk agent." }, { role: "user", content: user }], { tools }),
  );
const prediction: PredictionResult[] = [];
for (const architecture of TINY_ARCHITECTURES) {
  // The serving-parity steering: the tiny model opens a tool call and copies station names into it.
  const tiny = makeTinyModel({ architecture, mixing: SERVING_PARITY_MIXING, preferredTokens: SERVING_PARITY_PREFERENCES, transitions: SERVING_PARITY_TRANSITIONS });
  try {
    log(`token prediction: tiny ${architecture} …`);
    prediction.push(await measurePrediction(`tiny ${architecture}`, tiny.file, chatPrompts(pack.chatTemplate()), new LazyToolCallGrammar(tools, { profile: "v0.4.0", parallelToolCalls: false })));
  } finally {
    tiny.cleanup();
  }
}
let synthetic: string | undefined;
if (!values["skip-4b"]) {
  synthetic = ensureSynthetic4b({ chatTemplate: pack.chatTemplate(), corpus: dataPackCorpus(pack) }).file;
  log("token prediction: 4B-shaped qwen35 …");
  // No tools block here: its ~2k-token prefill would take minutes per run on 2 cores and says nothing about decode.
  const short = renderChat(pack.chatTemplate(), [{ role: "user", content: `Route from ${stations[3]} to ${stations[9]}, then back from ${stations[9]} to ${stations[3]}?` }]);
  prediction.push(await measurePrediction("4B-shaped qwen35 (random Q4_K_M)", synthetic, [short]));
}
out(`1. token prediction (input-lookup), ${threads} threads, ${DECODE} tokens per prompt, greedy`);
out("model                              decode off   decode on   speedup   output identical   predictions validated/refuted");
for (const p of prediction) {
  out(`${p.model.padEnd(34)} ${p.plainTokS.toFixed(2).padStart(10)}  ${p.predictedTokS.toFixed(2).padStart(10)}  ${(p.predictedTokS / p.plainTokS).toFixed(2).padStart(7)}×  ${String(p.identical).padStart(16)}   ${p.validated}/${p.refuted}`);
}

// 2. Thinking budget -------------------------------------------------------------------------
{
  const tiny = makeTinyModel({ architecture: "qwen35" });
  const engine = new LlamaEngine({ modelPath: tiny.file, threads, gpu: false, contextSize: 8192 });
  await engine.load();
  try {
    const prompt = renderChat(pack.chatTemplate(), [{ role: "user", content: "Five Points to Airport" }]);
    const free = await engine.complete({ prompt, maxTokens: 256 });
    const capped = await engine.complete({ prompt, maxTokens: 256, reasoningBudget: { tokens: 32, endText: "\n</think>\n\n", endMarker: "</think>" } });
    out("");
    out("2. thinking budget (tiny qwen35; its random thinking never ends by itself)");
    out(`   uncapped: ${free.usage.completionTokens} tokens of thinking, ${free.usage.totalMs.toFixed(0)} ms; budget 32: closed by the engine (${capped.reasoningTruncated ? "yes" : "no"}), </think> at token ~32, round ${capped.usage.totalMs.toFixed(0)} ms for ${capped.usage.completionTokens} tokens`);
  } finally {
    await engine.unload();
    tiny.cleanup();
  }
  const hereTokS = prediction.find((p) => p.model.startsWith("4B"))?.plainTokS;
  const air = projectAirM2({ bytes: 2.7e9, parameters: 4.2e9 }, []).decodeTokS;
  out(`   deadline-derived budgets (reserve ${DEFAULT_RESERVE_TOKENS} tokens for the call after the thinking):`);
  out("   deadline   this machine (4B-shaped)   MacBook Air M2 (projection)");
  for (const seconds of [10, 20, 30]) {
    const budget = (tokS: number | undefined) => (tokS === undefined ? "–" : `${thinkingTokens({ deadline: { decodeTokS: tokS } }, seconds * 1000, 0)} tokens at ${tokS.toFixed(1)} tok/s`);
    out(`   ${`${seconds} s`.padStart(8)}   ${budget(hereTokS).padEnd(26)} ${budget(air)}`);
  }
}

// 3. Context ---------------------------------------------------------------------------------
if (synthetic) {
  out("");
  out("3. context (4B-shaped qwen35)");
  for (const contextSize of [8192, 16384]) {
    const before = process.memoryUsage.rss();
    const engine = new LlamaEngine({ modelPath: synthetic, threads, gpu: false, contextSize });
    await engine.load();
    try {
      const rss = (process.memoryUsage.rss() - before) / 1024 ** 2;
      const long = "Five Points to Airport please. ".repeat(Math.ceil(contextSize / 6));
      const t0 = performance.now();
      let refused = "";
      try {
        await engine.complete({ prompt: long, maxTokens: 1 });
      } catch (err) {
        refused = err instanceof ModelContextOverflowError ? `refused in ${(performance.now() - t0).toFixed(0)} ms (${err.promptTokens} > ${err.contextSize} tokens)` : String(err);
      }
      out(`   context ${contextSize}: ${engine.info.contextSize} tokens, +${rss.toFixed(0)} MB RSS for model + context${engine.info.contextFallback ? ` (fallback: ${engine.info.contextFallback})` : ""}; an overflowing prompt ${refused}`);
    } finally {
      await engine.unload();
    }
  }
}
