// Speed of the in-process model path on this machine, with a 4B-shaped random-weight GGUF
// (Qwen3-4B dimensions, Q4_K; gibberish output but realistic compute and memory traffic).
//
//   npx tsx scripts/perf-llm.ts [model.gguf] [--threads 1,2] [--gpu auto|off] [--prefill N] [--decode N]
//                               [--shared N] [--session N]
//
// Without a model path it writes one with ../shared/tools/make-bench-gguf.mjs into a temporary
// directory (2.3 GB, ~10 s) and deletes it afterwards. Prints: load time; prefill and decode
// tokens/s per thread count; time to first token of a second session that shares the first one's
// prefix (KV prefix reuse) against the first; and the runtime's own per-round overhead (render,
// grammar, parse) against a round's time.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { LlamaEngine } from "../models/engine.ts";
import { LazyToolCallGrammar } from "../runtime/model/grammar.ts";
import { parseModelOutputOrThrow } from "../runtime/model/parse.ts";
import { ChatTemplateRenderer } from "../runtime/model/render.ts";
import { sharedPrefixLength } from "../runtime/policies/llm.ts";
import { caseSetup } from "../runtime/session/case.ts";
import type { ChatMessage } from "../runtime/session/policy.ts";
import { eventsToUserMessage } from "../runtime/prompt/index.ts";
import { SHARED_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { pyJsonDumps } from "../tools/py/index.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    threads: { type: "string", default: "1,2" },
    gpu: { type: "string", default: "off" },
    prefill: { type: "string", default: "128" },
    decode: { type: "string", default: "16" },
    shared: { type: "string", default: "256" },
    session: { type: "string", default: "32" },
  },
});
const threadCounts = values.threads.split(",").map(Number);
const gpu = values.gpu === "auto" ? "auto" : false;
const PREFILL = Number(values.prefill);
const DECODE = Number(values.decode);
const SHARED = Number(values.shared);
const SESSION = Number(values.session);

const log = (line: string) => process.stdout.write(`${line}\n`);
const ms = (x: number) => `${x.toFixed(0)} ms`;

// ---------------------------------------------------------------------------------------------
// Model file

let modelPath = positionals[0];
let tempDir: string | undefined;
if (!modelPath) {
  tempDir = mkdtempSync(path.join(tmpdir(), "perf-llm-"));
  modelPath = path.join(tempDir, "bench-4b-q4k.gguf");
  const generator = path.join(SHARED_DIR, "tools", "make-bench-gguf.mjs");
  log(`generating a 4B-shaped random GGUF with ${generator} …`);
  const t0 = performance.now();
  execFileSync(process.execPath, [generator, modelPath], { stdio: ["ignore", "ignore", "inherit"] });
  log(`  done in ${ms(performance.now() - t0)}`);
}

/** Text of about `tokens` tokens for this model's tokenizer (prompts are sized in tokens). */
function textOfTokens(engine: LlamaEngine, tokens: number, seed: string): string {
  let text = "";
  let i = 0;
  while (engine.tokenize(text).length < tokens) text += `${seed} kiosk passenger ${i++} route fare station. `;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (engine.tokenize(text.slice(0, mid)).length <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}

interface ThreadResult {
  threads: number;
  loadMs: number;
  prefillTokPerS: number;
  decodeTokPerS: number;
  prefillTokens: number;
  decodeTokens: number;
}

async function measureThreads(threads: number): Promise<ThreadResult> {
  const engine = new LlamaEngine({ modelPath: modelPath as string, threads, gpu, contextSize: 2048 });
  const t0 = performance.now();
  await engine.load();
  const loadMs = performance.now() - t0;
  try {
    const prefillPrompt = textOfTokens(engine, PREFILL, `prefill-${threads}`);
    const p = await engine.complete({ prompt: prefillPrompt, maxTokens: 1 });
    const evaluated = p.usage.promptTokens - p.usage.cachedPromptTokens;
    const decodePrompt = textOfTokens(engine, 8, `decode-${threads}`);
    const d = await engine.complete({ prompt: decodePrompt, maxTokens: DECODE });
    return {
      threads,
      loadMs,
      prefillTokens: evaluated,
      prefillTokPerS: evaluated / (p.usage.prefillMs / 1000),
      decodeTokens: d.usage.completionTokens,
      decodeTokPerS: (d.usage.completionTokens - 1) / (d.usage.decodeMs / 1000),
    };
  } finally {
    await engine.unload();
  }
}

async function measurePrefixReuse(threads: number) {
  const engine = new LlamaEngine({ modelPath: modelPath as string, threads, gpu, contextSize: 2048 });
  await engine.load();
  try {
    // Ends at a line break, like the real shared prefix (a turn boundary), so that it tokenizes alike alone and in the prompt.
    const shared = `${textOfTokens(engine, SHARED, "framebook system prompt")}\n`;
    // The shared prefix is marked as the policy marks the tools block: a hybrid (recurrent) model can
    // only resume from a checkpoint taken there, not from an arbitrary common prefix.
    const first = await engine.complete({ prompt: shared + textOfTokens(engine, SESSION, "session one user"), maxTokens: 1, sharedPrefixChars: shared.length });
    const second = await engine.complete({ prompt: shared + textOfTokens(engine, SESSION, "session two user"), maxTokens: 1, sharedPrefixChars: shared.length });
    return { first: first.usage, second: second.usage };
  } finally {
    await engine.unload();
  }
}

/** Render + grammar + parse of a realistic round (MARTA case, after two tool rounds), averaged. */
function measureOverhead() {
  const pack = DataPack.locate();
  const kase = pack.cases("marta")[5] ?? (pack.cases("marta")[0] as ReturnType<DataPack["cases"]>[number]);
  const setup = caseSetup(pack, kase);
  const renderer = new ChatTemplateRenderer(pack.chatTemplate());
  const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });
  const messages: ChatMessage[] = [
    { role: "system", content: setup.systemPrompt },
    { role: "user", content: eventsToUserMessage(setup.scriptedTurns?.[0] ?? [], pack.promptProfile()) },
    { role: "assistant", content: "", reasoning_content: "Plan the route first.", tool_calls: [call("a", "route_planner", '{"origin":"Five Points","destination":"Airport"}')] },
    { role: "tool", tool_call_id: "a", content: pyJsonDumps({ route_id: "route_0270621855ef", stops: Array.from({ length: 8 }, (_, i) => ({ station_id: `S${i}`, station_name: `Station ${i}`, line: "red" })), transfers: 0, estimated_minutes: 17.6 }) },
    { role: "assistant", content: "", reasoning_content: "Now the fare.", tool_calls: [call("b", "fare_calculator", '{"route_id":"route_0270621855ef","passengers":{"adults":1}}')] },
    { role: "tool", tool_call_id: "b", content: pyJsonDumps({ total: 2.5, currency: "USD" }) },
  ];
  const output =
    'The fare is ready.\n</think>\n\n<tool_call>\n<function=submit_assistant_state>\n<parameter=outcome>\nroute_and_fare_ready\n</parameter>\n<parameter=kiosk_action>\n{"action": "prompt_purchase", "reason_code": "ok"}\n</parameter>\n<parameter=assistant_message>\nTake the Red line to Airport.\n</parameter>\n</function>\n</tool_call>';
  const N = 30;
  let render = 0;
  let grammarBuild = 0;
  let grammarContinue = 0;
  let parse = 0;
  let prompt = "";
  for (let i = 0; i < N; i++) {
    let t = performance.now();
    prompt = renderer.render(messages, { tools: setup.tools });
    render += performance.now() - t;
    t = performance.now();
    const lazy = new LazyToolCallGrammar(setup.tools);
    grammarBuild += performance.now() - t;
    t = performance.now();
    lazy.continueAfter(`<tool_call>\n#${i}`.slice(0, 12)); // uncached derivation each time
    grammarContinue += performance.now() - t;
    t = performance.now();
    parseModelOutputOrThrow(output, { tools: setup.tools });
    parse += performance.now() - t;
  }
  return { renderMs: render / N, grammarBuildMs: grammarBuild / N, grammarContinueMs: grammarContinue / N, parseMs: parse / N, promptChars: prompt.length, sharedPrefixChars: sharedPrefixLength(prompt) ?? 0 };
}

try {
  log(`model: ${modelPath}`);
  const results: ThreadResult[] = [];
  for (const threads of threadCounts) {
    log(`measuring threads=${threads} (prefill ${PREFILL} tokens, decode ${DECODE} tokens) …`);
    const r = await measureThreads(threads);
    results.push(r);
    log(`  load ${ms(r.loadMs)}, prefill ${r.prefillTokPerS.toFixed(2)} tok/s, decode ${r.decodeTokPerS.toFixed(2)} tok/s`);
  }
  const best = results.reduce((a, b) => (b.decodeTokPerS > a.decodeTokPerS ? b : a));
  log(`measuring prefix reuse at threads=${best.threads} (shared ${SHARED} tokens + ${SESSION} per session) …`);
  const reuse = await measurePrefixReuse(best.threads);
  log(`  session 1: prompt ${reuse.first.promptTokens} tokens, cached ${reuse.first.cachedPromptTokens}, TTFT ${ms(reuse.first.ttftMs)}`);
  log(`  session 2: prompt ${reuse.second.promptTokens} tokens, cached ${reuse.second.cachedPromptTokens}, TTFT ${ms(reuse.second.ttftMs)}`);
  const overhead = measureOverhead();
  const perRound = overhead.renderMs + overhead.grammarContinueMs + overhead.parseMs;
  // A typical student round: ~250 new prompt tokens (tool result + re-rendered turn) and ~150 generated.
  const typicalRoundMs = (250 / best.prefillTokPerS + 150 / best.decodeTokPerS) * 1000;
  log("runtime overhead per round (mean of 30):");
  log(`  render ${overhead.renderMs.toFixed(2)} ms (${overhead.promptChars} chars), grammar continue ${overhead.grammarContinueMs.toFixed(2)} ms, parse ${overhead.parseMs.toFixed(3)} ms → ${perRound.toFixed(2)} ms`);
  log(`  grammar build (once per tool set) ${overhead.grammarBuildMs.toFixed(2)} ms`);
  log(`  vs a typical round on this machine (250 prompt + 150 generated tokens at threads=${best.threads}): ${(typicalRoundMs / 1000).toFixed(1)} s → ${((100 * perRound) / typicalRoundMs).toFixed(4)} %`);
  process.stdout.write(`${JSON.stringify({ model: modelPath, gpu, threads: results, prefixReuse: reuse, overhead, typicalRoundMs }, null, 2)}\n`);
} finally {
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}
