// Speed of the in-process model path on this machine, by default with the product's architecture:
// the synthetic 4B (`synthetic-4b`: Qwen3.5-4B's qwen35 hybrid layout and Q4_K_M mix with random
// weights, models/synthetic-gguf.ts; gibberish output but realistic compute and memory traffic).
//
//   npx tsx scripts/perf-llm.ts [model.gguf] [--threads 1,2] [--gpu auto|off] [--prefill N] [--decode N]
//                               [--shared N] [--session N] [--json] [--record]
//
// Without a model path it uses the synthetic 4B, generated once into ~/.cache/metro-kiosk/models
// (2.6 GB, tens of seconds) and reused. Prints the machine, the model it measured (architecture,
// layers, quantisation) and the engine build; load time; prefill and decode tokens/s per thread
// count; time to first token of a second session that shares the first one's prefix (KV prefix
// reuse) against the first; and the runtime's own per-round overhead (render, grammar, parse)
// against a round's time; then all of it as one JSON object. With --json the JSON object is all of
// stdout (for a README generator) and the lines go to stderr. With --record (the default model only:
// the README speaks of the product's architecture) the figures go to docs/figures/perf-llm.json,
// which the README's performance section is written from (scripts/figures.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { describeMachine } from "../bench/report/table.ts";
import { hardwareInfo } from "../bench/run/environment.ts";
import { fmtParams } from "../cli/model.ts";
import { llamaCppSource } from "../models/anchors/llama-cpp.ts";
import { describeEngineBuild } from "../models/engine-build.ts";
import { LlamaEngine } from "../models/engine.ts";
import { inspectGgufFile, type GgufInspection } from "../models/gguf.ts";
import { dataPackCorpus, ensureSynthetic4b, SYNTHETIC_4B_SPEC } from "../models/synthetic-gguf.ts";
import { LazyToolCallGrammar } from "../runtime/model/grammar.ts";
import { parseModelOutputOrThrow } from "../runtime/model/parse.ts";
import { ChatTemplateRenderer } from "../runtime/model/render.ts";
import { sharedPrefixLength } from "../runtime/policies/llm.ts";
import { caseSetup } from "../runtime/session/case.ts";
import type { ChatMessage } from "../runtime/session/policy.ts";
import { eventsToUserMessage } from "../runtime/prompt/index.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { pyJsonDumps } from "../tools/py/index.ts";
import { recordFigures } from "./figures.ts";

let out: NodeJS.WriteStream = process.stdout;
const log = (line: string) => void out.write(`${line}\n`);
const ms = (x: number) => `${x.toFixed(0)} ms`;

interface Settings {
  gpu: "auto" | false;
  prefill: number;
  decode: number;
  shared: number;
  session: number;
}

// ---------------------------------------------------------------------------------------------
// Model file, and what it is (exported for scripts/perf-llm.test.ts)

/** The file to measure: the one given, else the product's architecture, the synthetic 4B (generated once). */
export function perfModel(given: string | undefined, deps: { pack?: () => DataPack; ensureSynthetic?: typeof ensureSynthetic4b } = {}): { file: string; synthetic: boolean; generated: boolean } {
  if (given) return { file: given, synthetic: false, generated: false };
  const pack = (deps.pack ?? (() => DataPack.locate()))();
  const made = (deps.ensureSynthetic ?? ensureSynthetic4b)({ chatTemplate: pack.chatTemplate(), corpus: dataPackCorpus(pack) });
  return { file: made.file, synthetic: true, generated: made.generated };
}

/** "model: FILE (qwen35 hybrid, 32 layers, Q4_K_M, 4.21 B parameters; synthetic-4b, random weights)". */
export function modelLine(file: string, i: GgufInspection, synthetic: boolean): string {
  const arch = `${i.architecture ?? "unknown architecture"}${i.recurrent ? " hybrid" : ""}`;
  return `model: ${file} (${arch}, ${i.layers} layers, ${i.quantization ?? "?"}, ${fmtParams(i.parameters)} parameters${synthetic ? `; ${SYNTHETIC_4B_SPEC}, random weights` : ""})`;
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

async function measureThreads(modelPath: string, threads: number, s: Settings): Promise<ThreadResult & { engineBuild: LlamaEngine["info"]["engineBuild"] }> {
  const engine = new LlamaEngine({ modelPath, threads, gpu: s.gpu, contextSize: 2048 });
  const t0 = performance.now();
  await engine.load();
  const loadMs = performance.now() - t0;
  try {
    const prefillPrompt = textOfTokens(engine, s.prefill, `prefill-${threads}`);
    const p = await engine.complete({ prompt: prefillPrompt, maxTokens: 1 });
    const evaluated = p.usage.promptTokens - p.usage.cachedPromptTokens;
    const decodePrompt = textOfTokens(engine, 8, `decode-${threads}`);
    const d = await engine.complete({ prompt: decodePrompt, maxTokens: s.decode });
    return {
      engineBuild: engine.info.engineBuild,
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

async function measurePrefixReuse(modelPath: string, threads: number, s: Settings) {
  const engine = new LlamaEngine({ modelPath, threads, gpu: s.gpu, contextSize: 2048 });
  await engine.load();
  try {
    // Ends at a line break, like the real shared prefix (a turn boundary), so that it tokenizes alike alone and in the prompt.
    const shared = `${textOfTokens(engine, s.shared, "framebook system prompt")}\n`;
    // The shared prefix is marked as the policy marks the tools block: a hybrid (recurrent) model can
    // only resume from a checkpoint taken there, not from an arbitrary common prefix.
    const first = await engine.complete({ prompt: shared + textOfTokens(engine, s.session, "session one user"), maxTokens: 1, sharedPrefixChars: shared.length });
    const second = await engine.complete({ prompt: shared + textOfTokens(engine, s.session, "session two user"), maxTokens: 1, sharedPrefixChars: shared.length });
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

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      threads: { type: "string", default: "1,2" },
      gpu: { type: "string", default: "off" },
      prefill: { type: "string", default: "128" },
      decode: { type: "string", default: "16" },
      shared: { type: "string", default: "256" },
      session: { type: "string", default: "32" },
      json: { type: "boolean", default: false },
      record: { type: "boolean", default: false },
    },
  });
  if (values.json) out = process.stderr;
  const threadCounts = values.threads.split(",").map(Number);
  const s: Settings = { gpu: values.gpu === "auto" ? "auto" : false, prefill: Number(values.prefill), decode: Number(values.decode), shared: Number(values.shared), session: Number(values.session) };

  if (!positionals[0]) log(`no model file given: the product's architecture, ${SYNTHETIC_4B_SPEC} (written once if missing, ~2.6 GB) …`);
  const model = perfModel(positionals[0]);
  if (model.generated) log(`  generated ${model.file}`);
  const { inspection } = await inspectGgufFile(model.file);
  const machine = hardwareInfo();
  log(`machine: ${describeMachine(machine)}`);
  log(modelLine(model.file, inspection, model.synthetic));
  const results: ThreadResult[] = [];
  let engineBuild: LlamaEngine["info"]["engineBuild"] = "prebuilt";
  for (const threads of threadCounts) {
    log(`measuring threads=${threads} (prefill ${s.prefill} tokens, decode ${s.decode} tokens) …`);
    const { engineBuild: build, ...r } = await measureThreads(model.file, threads, s);
    if (results.length === 0) log(`engine: ${describeEngineBuild(build, llamaCppSource().nodeLlamaCppVersion)}`);
    engineBuild = build;
    results.push(r);
    log(`  load ${ms(r.loadMs)}, prefill ${r.prefillTokPerS.toFixed(2)} tok/s, decode ${r.decodeTokPerS.toFixed(2)} tok/s`);
  }
  const best = results.reduce((a, b) => (b.decodeTokPerS > a.decodeTokPerS ? b : a));
  log(`measuring prefix reuse at threads=${best.threads} (shared ${s.shared} tokens + ${s.session} per session) …`);
  const reuse = await measurePrefixReuse(model.file, best.threads, s);
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
  const modelFacts = { file: model.file, synthetic: model.synthetic, architecture: inspection.architecture ?? null, recurrent: inspection.recurrent, layers: inspection.layers, quantization: inspection.quantization ?? null, parameters: inspection.parameters };
  process.stdout.write(`${JSON.stringify({ machine, model: modelFacts, engineBuild, gpu: s.gpu, threads: results, prefixReuse: reuse, overhead, typicalRoundMs }, null, 2)}\n`);
  if (values.record) {
    if (!model.synthetic) throw new Error("--record measures the product's architecture: run it without a model file");
    const two = (x: number): number => Math.round(x * 100) / 100;
    const perThreads = Object.fromEntries(results.flatMap((r) => [[`prefill_tok_s_${r.threads}t`, two(r.prefillTokPerS)], [`decode_tok_s_${r.threads}t`, two(r.decodeTokPerS)]]));
    const file = await recordFigures("perf-llm", `npm run perf:llm -- --threads ${values.threads} --record`, {
      model: `${inspection.architecture ?? "?"}${inspection.recurrent ? " hybrid" : ""}, ${inspection.layers} layers, ${inspection.quantization ?? "?"}, ${fmtParams(inspection.parameters)} parameters (${SYNTHETIC_4B_SPEC}, random weights)`,
      engine: describeEngineBuild(engineBuild, llamaCppSource().nodeLlamaCppVersion),
      threads: values.threads,
      ...perThreads,
      reuse_threads: best.threads,
      ttft_first_ms: Math.round(reuse.first.ttftMs),
      ttft_second_ms: Math.round(reuse.second.ttftMs),
      overhead_per_round_ms: two(perRound),
      typical_round_ms: Math.round(typicalRoundMs),
    });
    log(`recorded in ${file}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
