// Time to first token of a live passenger, through the kiosk's own code (the live session setup,
// the llm policy, the engine), by default on the product's architecture (the synthetic 4B):
//
//   npx tsx scripts/perf-live-prompt.ts [model.gguf] [--threads N] [--system ID] [--reps N] [--json] [--record]
//
// A live system prompt states the time. Three first rounds are compared, each a new passenger:
//   - before: the prompt stated the time to the second and the engine had no checkpoint where the
//     time starts (how the kiosk ran before the prompt warmer): the last passenger's session is in
//     the cache, a minute and some seconds earlier;
//   - live: the kiosk now — the prompt states the minute, the warmer prefilled the next minute's
//     system turn while nobody was at the screen (its cost is printed: it sets the stated time's
//     step, host/prompt-warmer.ts), then the passenger arrives;
//   - fully warm (the anchor): the same request again after another passenger of that minute, the
//     whole system turn cached — both evaluate the same passenger turn.
// Prints each time, live ÷ fully warm (the goal is ≤ 1.2×) and before ÷ live; the medians of
// `--reps` live/fully-warm pairs. With --record the figures go to docs/figures/perf-live.json.
import { parseArgs } from "node:util";
import { describeMachine } from "../bench/report/table.ts";
import { hardwareInfo } from "../bench/run/environment.ts";
import { LlamaEngine } from "../models/engine.ts";
import { cachedThreadTable } from "../models/threads.ts";
import { warmPlan } from "../host/prompt-warmer.ts";
import { AnswerPipeline } from "../runtime/answer/pipeline.ts";
import { KioskService } from "../runtime/kiosk/service.ts";
import { LlmPolicy, type LlmRoundInfo } from "../runtime/policies/llm.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { eventsToUserMessage } from "../runtime/prompt/index.ts";
import type { PolicyInput, SessionSetup } from "../runtime/session/policy.ts";
import { DataPack } from "../tools/data/datapack.ts";
import type { SystemId } from "../tools/data/schemas.ts";
import { recordFigures } from "./figures.ts";
import { perfModel } from "./perf-llm.ts";

let out: NodeJS.WriteStream = process.stdout;
const log = (line: string): void => void out.write(`${line}\n`);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Passengers' first requests: each session a different one, as at a real kiosk. */
const REQUESTS = ["Airport to Five Points, one adult", "two adults to the stadium please", "How do I get to Doraville?", "one senior to North Springs", "Is the train running late tonight?"];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    threads: { type: "string" },
    system: { type: "string" },
    reps: { type: "string", default: "2" },
    json: { type: "boolean", default: false },
    record: { type: "boolean", default: false },
  },
});
if (values.json) out = process.stderr;

const pack = DataPack.locate();
const system = (values.system ?? pack.systemIds[0]) as SystemId;
const model = perfModel(positionals[0], { pack: () => pack });
const threads = values.threads ? Number(values.threads) : (cachedThreadTable(model.file, false)?.best ?? 2);
const reps = Math.max(1, Number(values.reps));

const pipeline = new AnswerPipeline({ rule: rulePolicy, profile: pack.promptProfile() });
/** Live setups as the kiosk makes them now (the minute), or as it made them before (the second, no clock mark). */
const now = new KioskService({ pack, pipeline });
const before = new KioskService({ pack, pipeline, promptTime: (t) => t });
const setupNow = (at: Date): SessionSetup => now.setupFor({ system, stated: at });
function setupBefore(at: Date): SessionSetup {
  const setup = before.setupFor({ system, stated: at });
  delete setup.systemPromptClockAt;
  return setup;
}

const engine = new LlamaEngine({ modelPath: model.file, threads, gpu: false, contextSize: 8192 });
let request = 0;
/** A new passenger's first model round (one token: the time to it is what the passenger waits). */
async function firstRound(llm: LlmPolicy, rounds: LlmRoundInfo[], setup: SessionSetup, text: string = REQUESTS[request++ % REQUESTS.length]!): Promise<LlmRoundInfo["result"]> {
  const messages = [
    { role: "system" as const, content: setup.systemPrompt },
    { role: "user" as const, content: eventsToUserMessage([{ type: "freetext_input", text }], pack.promptProfile()) },
  ];
  const run = await llm.start(setup);
  await run.next({ turns: [], messages, toolCalls: [], signal: new AbortController().signal } satisfies PolicyInput);
  return rounds.at(-1)!.result;
}

const t0 = Date.now();
log(`machine: ${describeMachine(hardwareInfo())}`);
log(`model: ${model.file}${model.synthetic ? " (synthetic 4B: the student's qwen35 layout, random weights)" : ""}; ${threads} threads, CPU; system ${system}`);
await engine.load();
const rounds: LlmRoundInfo[] = [];
const llm = new LlmPolicy({ backend: engine, maxTokens: 1, onRound: (r) => rounds.push(r) });
const minute = (h: number, m: number, s = 0): Date => new Date(2026, 2, 9, h, m, s);

// Before: the last passenger at 14:00:07, the next at 14:01:23, the prompt to the second.
const cold = await firstRound(llm, rounds, setupBefore(minute(14, 0, 7)));
log(`cold start (nothing cached): ${seconds(cold.usage.ttftMs)} for ${cold.usage.promptTokens} prompt tokens`);
const old = await firstRound(llm, rounds, setupBefore(minute(14, 1, 23)));
log(`before: the next passenger a minute later, prompt to the second: ${seconds(old.usage.ttftMs)} (${old.usage.cachedPromptTokens} of ${old.usage.promptTokens} tokens cached)`);

// Now: a passenger at 14:02 leaves their session in the cache; then, each rep, the warmer
// prefills the next minute and its passenger arrives; another passenger of that minute follows,
// then the first passenger's request once more (the anchor).
await firstRound(llm, rounds, setupNow(minute(14, 2)));
const live: number[] = [];
const warm: number[] = [];
const warmCost: number[] = [];
for (let i = 0; i < reps; i++) {
  const at = minute(14, 3 + i);
  const prefill = await llm.prefill(setupNow(at));
  if (!prefill?.complete) throw new Error("the prefill did not complete");
  warmCost.push(prefill.ms);
  const text = REQUESTS[request++ % REQUESTS.length]!;
  const arrived = await firstRound(llm, rounds, setupNow(at), text);
  await firstRound(llm, rounds, setupNow(at));
  const same = await firstRound(llm, rounds, setupNow(at), text);
  live.push(arrived.usage.ttftMs);
  warm.push(same.usage.ttftMs);
  log(
    `rep ${i + 1}: warm-up of the ${at.toTimeString().slice(0, 5)} prompt ${seconds(prefill.ms)} (${prefill.evaluatedTokens} tokens evaluated, ${prefill.cachedTokens} cached); ` +
      `live passenger ${seconds(arrived.usage.ttftMs)} (${arrived.usage.cachedPromptTokens} of ${arrived.usage.promptTokens} cached); fully warm ${seconds(same.usage.ttftMs)}`,
  );
}
await engine.unload();

const plan = warmPlan(median(warmCost), 5_000);
const figures = {
  model: model.synthetic ? "synthetic 4B (qwen35, random weights)" : model.file,
  threads,
  system,
  reps,
  cold_ttft_ms: Math.round(cold.usage.ttftMs),
  before_ttft_ms: Math.round(old.usage.ttftMs),
  live_ttft_ms: Math.round(median(live)),
  warm_ttft_ms: Math.round(median(warm)),
  live_over_warm: Math.round((median(live) / median(warm)) * 100) / 100,
  before_over_live: Math.round((old.usage.ttftMs / median(live)) * 10) / 10,
  warmup_ms: Math.round(median(warmCost)),
  step_minutes: plan.stepMinutes,
};
log("");
log(`live passenger ${seconds(figures.live_ttft_ms)} against fully warm ${seconds(figures.warm_ttft_ms)}: ${figures.live_over_warm}× (goal ≤ 1.2×); before: ${seconds(figures.before_ttft_ms)}, ${figures.before_over_live}× the live time`);
log(`warming the next minute's prompt takes ${seconds(figures.warmup_ms)} here: the warmer states the time to ${plan.stepMinutes} minute${plan.stepMinutes === 1 ? "" : "s"}, warming ${seconds(plan.leadMs)} ahead`);
log(`(${Math.round((Date.now() - t0) / 1000)} s in all)`);
if (values.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
if (values.record) {
  const file = await recordFigures("perf-live", `npm run perf:live${positionals[0] ? ` -- ${positionals[0]}` : ""}`, figures);
  log(`recorded in ${file}`);
}
