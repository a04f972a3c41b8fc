// Projected seconds per hybrid model session on a MacBook Air M2 (issue 15), for when no real
// weights are at hand. `kiosk probe` projects from the token counts of sessions the real student
// ran; random weights run no meaningful sessions, so here the conversations come from the data
// pack instead: every case the hybrid router sends to the model, replayed with the deterministic
// `rule` policy standing in for the model's tool use (the same calls, tool results and final
// submission a correct model session holds), rendered with the student's chat template and tools,
// and counted with the 4B-shaped synthetic model's tokenizer. Per session:
//   prefill   = conversation tokens − the shared system turn (cached on a warm kiosk) − generated;
//   generated = the assistant turns (tool calls and the submission), plus thinking: none (a floor)
//               or the thinking budget the model's 20 s deadline buys at the Air's projected decode
//               speed (each round's budget is what the remaining deadline buys, so a session never
//               thinks more than that in all; bench runs keep the paper's unlimited thinking).
// Priced at bench/probe/projection.ts's Air rates. A projection from stated assumptions, not a
// measurement: the real Qwen 3.5 tokenizer counts differently, and the real model may take other
// rounds than `rule` does.
//
//   npx tsx scripts/air-session-projection.ts [--split holdout|all]
import { parseArgs } from "node:util";
import { projectAirM2, type SessionTokens } from "../bench/probe/projection.ts";
import { inspectGgufFile } from "../models/gguf.ts";
import { sharedLlama } from "../models/llama.ts";
import { dataPackCorpus, ensureSynthetic4b } from "../models/synthetic-gguf.ts";
import { DEFAULT_MODEL_DEADLINE_MS } from "../runtime/answer/pipeline.ts";
import { renderChat } from "../runtime/model/render.ts";
import { decideRoute } from "../runtime/policies/hybrid.ts";
import { DEFAULT_RESERVE_TOKENS, sharedPrefixLength, thinkingTokens } from "../runtime/policies/llm.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { caseSetup, caseTurns, runCase } from "../runtime/session/case.ts";
import type { ChatMessage } from "../runtime/session/policy.ts";
import { DataPack } from "../tools/data/datapack.ts";

const { values } = parseArgs({ options: { split: { type: "string", default: "holdout" } } });
const pack = DataPack.locate();
const template = pack.chatTemplate();
const tools = pack.toolDefinitions();
const holdout = pack.holdoutIds();
const cases = pack.allCases().filter((c) => (values.split === "all" ? true : holdout.has(c.id)));

const { file } = ensureSynthetic4b({ chatTemplate: template, corpus: dataPackCorpus(pack) });
const llama = await sharedLlama(false);
const vocab = await llama.loadModel({ modelPath: file, vocabOnly: true });
const count = (text: string): number => vocab.tokenize(text, true).length;

// The synthetic file has the 4B student's shape and quantisation mix: its bytes and parameters.
const { inspection } = await inspectGgufFile(file);
const model = { bytes: inspection.fileSize, parameters: inspection.parameters };
const airDecodeTokS = projectAirM2(model, []).decodeTokS;

interface Counted extends SessionTokens {
  rounds: number;
}
const counted: Counted[] = [];
for (const kase of cases) {
  const setup = caseSetup(pack, kase);
  if (decideRoute(setup.system, setup.context, caseTurns(kase)).path !== "model") continue;
  const record = await runCase(pack, kase, rulePolicy);
  const messages = record.messages as ChatMessage[];
  const whole = renderChat(template, messages, { tools, addGenerationPrompt: false });
  const shared = count(whole.slice(0, sharedPrefixLength(whole) ?? 0));
  let generated = 0;
  let rounds = 0;
  for (let k = 0; k < messages.length; k++) {
    if (messages[k]?.role !== "assistant") continue;
    rounds++;
    // The assistant turn's tokens: the conversation through it, less the prompt that asked for it.
    const asked = renderChat(template, messages.slice(0, k), { tools });
    const answered = renderChat(template, messages.slice(0, k + 1), { tools, addGenerationPrompt: false });
    generated += count(answered) - count(asked);
  }
  counted.push({ prefillTokens: count(whole) - shared - generated, generatedTokens: generated, rounds });
}
await vocab.dispose();

const thinking = thinkingTokens({ deadline: { decodeTokS: airDecodeTokS } }, DEFAULT_MODEL_DEADLINE_MS, 0) ?? 0;
const floor = projectAirM2(model, counted);
const withThinking = projectAirM2(
  model,
  counted.map((s) => ({ prefillTokens: s.prefillTokens, generatedTokens: s.generatedTokens + thinking })),
);
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const out = (line: string): void => void process.stdout.write(`${line}\n`);
out(`Hybrid model sessions on a ${floor.machine} — a PROJECTION, not a measurement`);
out(`cases: ${counted.length} of ${cases.length} ${values.split === "all" ? "" : "held-out "}cases go to the model (hybrid router)`);
out(`per session (mean): ${mean(counted.map((s) => s.rounds)).toFixed(1)} model rounds, ${floor.meanPrefillTokens?.toFixed(0)} prompt tokens to evaluate (shared system turn cached), ${floor.meanGeneratedTokens?.toFixed(0)} generated without thinking`);
out(`Air rates: prefill ${floor.prefillTokS.toFixed(0)} tok/s, decode ${floor.decodeTokS.toFixed(1)} tok/s (4B student shape: ${(model.parameters / 1e9).toFixed(2)} B parameters, ${(model.bytes / 1e9).toFixed(2)} GB)`);
out(`no thinking (floor):                        mean ${floor.meanSessionSeconds?.toFixed(1)} s, slowest ${floor.maxSessionSeconds?.toFixed(1)} s`);
out(`with ${thinking} thinking tokens (the ${DEFAULT_MODEL_DEADLINE_MS / 1000} s deadline's budget, reserve ${DEFAULT_RESERVE_TOKENS}): mean ${withThinking.meanSessionSeconds?.toFixed(1)} s, slowest ${withThinking.maxSessionSeconds?.toFixed(1)} s`);
for (const a of floor.assumptions) out(`  assumption: ${a}`);
out("  assumption: the conversations are rule's (same tools, results and submission), counted with the synthetic model's vocabulary");
