// The latency probe (`kiosk probe`): what a technician runs on a MacBook Air or on the kiosk itself
// to see whether the machine is fast enough. One engine, loaded once, then in this order:
//
//   1. load time of the model (file → context ready);
//   2. time to first token of the first probe case's round-1 prompt on the fresh context (cold:
//      the whole prompt is prefilled), then of the next probe case of the same system (warm: the
//      tools block and the framebook's part of the system turn are reused from the KV cache);
//      prefill tokens/s from the cold prompt;
//   3. decode tokens/s: free generation of `decodeTokens` tokens after a cached prompt;
//   4. every probe case as a full session (policy llm, or hybrid: the kiosk's answer pipeline, rule and
//      the model), end-to-end latency per case → p50/p95 (nearest rank), per-round token counts;
//   5. optionally `sustainedSeconds` of back-to-back fixed workloads (a fresh 256-token user turn
//      on the cached system turn, then 32 decoded tokens), sampled over time to show thermal
//      throttling;
// while the process's resident memory is sampled (peak RSS; also the OS's maxRSS).
import { hardwareInfo } from "../run/environment.ts";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case } from "../../tools/data/schemas.ts";
import { answerCase } from "../../runtime/answer/case.ts";
import { AnswerPipeline } from "../../runtime/answer/pipeline.ts";
import { LlmPolicy, sharedPrefixLength, type LlmPolicyOptions } from "../../runtime/policies/llm.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { ChatTemplateRenderer } from "../../runtime/model/render.ts";
import { eventsToUserMessage } from "../../runtime/prompt/index.ts";
import { caseSetup, runCase } from "../../runtime/session/case.ts";
import type { LlamaEngine } from "../../models/engine.ts";
import { loadLocalModel, locateLocalModel, type LocalModelInfo, type LocalModelOptions } from "../../models/local.ts";
import type { ThreadDecision, ThreadGovernorStatus } from "../../models/thread-governor.ts";
import type { ThreadTable } from "../../models/threads.ts";
import { projectAirM2, type AirProjection } from "./projection.ts";
import { probeCases, PROBE_SET_IDS } from "./set.ts";

export type ProbePolicy = "llm" | "hybrid";

export interface ProbeOptions extends LocalModelOptions {
  pack: DataPack;
  policy?: ProbePolicy;
  /** Probe cases to run as sessions: the first N of the 15 (default 15). */
  cases?: number;
  /** Tokens generated for the decode measurement (default 64). */
  decodeTokens?: number;
  /** Seconds of sustained load after the cases (default 0: none). */
  sustainedSeconds?: number;
  /** Interval of the memory sampler (default 50 ms). */
  memorySampleMs?: number;
  /** Progress (for a terminal): which step of how many, and an estimate of the time left. */
  onProgress?: (progress: ProbeProgress) => void;
  /** Hybrid options for `policy: "hybrid"` (tests: a shorter model deadline). */
  hybrid?: { modelDeadlineMs?: number };
  /** Options of the sessions' llm policy (tests: a small token budget per round). */
  llm?: Partial<Omit<LlmPolicyOptions, "backend">>;
}

export interface ProbeProgress {
  /** 1-based; steps: threads, load, time to first token, decode, each case, the sustained load. */
  step: number;
  steps: number;
  what: string;
  /** Estimated time left (known once a case has run: the cases' mean, plus the sustained load). */
  leftMs?: number;
}

export interface ProbeCaseResult {
  id: string;
  system: string;
  category: string;
  e2eMs: number;
  rounds: number;
  termination: string;
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
  /** Time to first token of the session's first model round (null: no model round). */
  firstTtftMs: number | null;
  /** Hybrid: the router's path and who answered. */
  path?: "rule" | "model";
  answeredBy?: string;
}

export interface LatencyStats {
  n: number;
  p50Ms: number | null;
  p95Ms: number | null;
  meanMs: number | null;
  maxMs: number | null;
}

export interface SustainedSample {
  /** Seconds since the sustained phase began (at the sample's end). */
  tS: number;
  prefillTokens: number;
  prefillTokS: number;
  decodeTokens: number;
  decodeTokS: number | null;
}

export interface SustainedResult {
  seconds: number;
  samples: SustainedSample[];
  /** Median decode tok/s over the first and the last third of the samples, and the drop. */
  decodeTokSFirst: number | null;
  decodeTokSLast: number | null;
  decodeDropPct: number | null;
  prefillTokSFirst: number | null;
  prefillTokSLast: number | null;
}

export interface ProbeResult {
  model: LocalModelInfo;
  policy: ProbePolicy;
  machine: ReturnType<typeof hardwareInfo>;
  startedAt: string;
  loadMs: number;
  ttftColdMs: number;
  ttftWarmMs: number;
  prefillTokensCold: number;
  prefillTokensWarm: number;
  /** Prompt tokens of the cold and warm prompts, and how many of the warm one came from the cache. */
  promptTokensCold: number;
  promptTokensWarm: number;
  cachedTokensWarm: number;
  coldCaseId: string;
  warmCaseId: string;
  prefillTokS: number;
  decodeTokS: number | null;
  decodeTokensMeasured: number;
  cases: ProbeCaseResult[];
  caseLatency: LatencyStats;
  /** policy hybrid: the case latency by router path. */
  byPath?: Record<"rule" | "model", LatencyStats>;
  /** Decode tok/s over every model round of the sessions (Σ tokens after the first / Σ decode time). */
  sessionDecodeTokS: number | null;
  /**
   * Decode speed per thread count on this machine (measured, or from the per-machine cache); `used`
   * is the count at the end. `adaptive` (absent when --threads pinned the count): every re-measure
   * the adaptive thread count made during the probe, and what it sees at the end.
   */
  threads: { table: ThreadTable; fromCache: boolean; used: number; adaptive?: { decisions: ThreadDecision[]; status: ThreadGovernorStatus } };
  /** MacBook Air M2 projection from the measured tokens per model session (labelled as such). */
  airProjection: AirProjection;
  peakRssMb: number;
  sustained?: SustainedResult;
  wallMs: number;
}

const now = (): number => performance.now();
const round1 = (x: number): number => Math.round(x * 10) / 10;

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function latencyStats(values: readonly number[]): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return {
    n,
    p50Ms: nearestRank(sorted, 50),
    p95Ms: nearestRank(sorted, 95),
    meanMs: n > 0 ? sorted.reduce((a, b) => a + b, 0) / n : null,
    maxMs: n > 0 ? (sorted[n - 1] as number) : null,
  };
}

function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Samples the process's resident set size until stopped. */
class RssSampler {
  private peak = process.memoryUsage.rss();
  private readonly timer: NodeJS.Timeout;
  constructor(intervalMs: number) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }
  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
  }
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    // maxRSS (kilobytes) is the OS's own high-water mark: it catches peaks between two samples.
    return Math.max(this.peak, process.resourceUsage().maxRSS * 1024);
  }
}

/** The round-1 prompt of a case exactly as policy llm renders it (tools block, thinking on). */
export function roundOnePrompt(pack: DataPack, kase: Case, renderer: ChatTemplateRenderer): string {
  const setup = caseSetup(pack, kase);
  const user = eventsToUserMessage(setup.scriptedTurns?.[0] ?? [], pack.promptProfile());
  return renderer.render(
    [
      { role: "system", content: setup.systemPrompt },
      { role: "user", content: user },
    ],
    { tools: setup.tools, enableThinking: true },
  );
}

/** Text of about `tokens` tokens for this model (a fixed sentence repeated, then trimmed). */
function textOfTokens(engine: LlamaEngine, tokens: number, seed: string): string {
  const sentence = "I need a ticket from the airport to the city centre for two adults and a child, with a step-free route please. ";
  let text = seed;
  while (engine.tokenize(text, false).length < tokens) text += sentence;
  let lo = seed.length;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (engine.tokenize(text.slice(0, mid), false).length <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}

async function sustainedLoad(engine: LlamaEngine, systemTurn: string, seconds: number, onProgress?: (what: string, leftMs: number) => void): Promise<SustainedResult> {
  const userText = textOfTokens(engine, 256, "");
  const samples: SustainedSample[] = [];
  const t0 = now();
  for (let i = 0; now() - t0 < seconds * 1000; i++) {
    // A new first word each time: the system turn stays cached, the user turn is prefilled anew.
    const prompt = `${systemTurn}<|im_start|>user\nSample ${i}. ${userText}<|im_end|>\n<|im_start|>assistant\n`;
    const r = await engine.complete({ prompt, maxTokens: 32 });
    const prefillTokens = r.usage.promptTokens - r.usage.cachedPromptTokens;
    samples.push({
      tS: round1((now() - t0) / 1000),
      prefillTokens,
      prefillTokS: round1(prefillTokens / Math.max(r.usage.prefillMs / 1000, 1e-6)),
      decodeTokens: r.usage.completionTokens,
      decodeTokS: r.usage.completionTokens > 1 && r.usage.decodeMs > 0 ? round1((r.usage.completionTokens - 1) / (r.usage.decodeMs / 1000)) : null,
    });
    if (i % 10 === 0) onProgress?.(`sustained load: ${Math.round((now() - t0) / 1000)} of ${seconds} s`, Math.max(0, seconds * 1000 - (now() - t0)));
  }
  const third = Math.max(1, Math.floor(samples.length / 3));
  const first = samples.slice(0, third);
  const last = samples.slice(-third);
  const decodes = (list: SustainedSample[]): number[] => list.flatMap((s) => (s.decodeTokS === null ? [] : [s.decodeTokS]));
  const decodeFirst = median(decodes(first));
  const decodeLast = median(decodes(last));
  return {
    seconds,
    samples,
    decodeTokSFirst: decodeFirst,
    decodeTokSLast: decodeLast,
    decodeDropPct: decodeFirst && decodeLast !== null ? round1((100 * (decodeFirst - decodeLast)) / decodeFirst) : null,
    prefillTokSFirst: median(first.map((s) => s.prefillTokS)),
    prefillTokSLast: median(last.map((s) => s.prefillTokS)),
  };
}

export async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
  const { pack } = options;
  const policyName = options.policy ?? "llm";
  const cases = probeCases(pack, options.cases);
  const sustainedMs = (options.sustainedSeconds ?? 0) * 1000;
  const steps = 4 + cases.length + (sustainedMs > 0 ? 1 : 0);
  const progress = (step: number, what: string, leftMs?: number): void => options.onProgress?.({ step, steps, what, ...(leftMs !== undefined ? { leftMs } : {}) });
  const startedAt = new Date().toISOString();
  const t0 = now();
  const memory = new RssSampler(options.memorySampleMs ?? 50);
  // The thread table is part of the probe (measured once per machine and model, then cached).
  const { file } = await locateLocalModel(options.model, options.modelsDir);
  const { chooseThreads } = await import("../../models/threads.ts");
  progress(1, "choosing the thread count …");
  const threadChoice = await chooseThreads(file, { gpu: options.gpu ?? "auto", onProgress: (m) => progress(1, m) });
  progress(2, `loading ${options.model ?? "4b"} …`);
  // A measured count adapts to the machine's load as in the kiosk; a pinned one (--threads) does not.
  const adaptiveThreads = options.threads === undefined && options.adaptiveThreads !== false ? { table: threadChoice.table } : undefined;
  const loaded = await loadLocalModel({
    ...options,
    threads: options.threads ?? threadChoice.threads,
    ...(adaptiveThreads ? { engine: { adaptiveThreads, ...options.engine } } : {}),
  });
  const { engine, info } = loaded;
  const threadDecisions: ThreadDecision[] = [];
  engine.onThreadDecision((decision) => threadDecisions.push(decision));
  try {
    const template = engine.chatTemplate();
    if (!template) throw new Error(`${info.fileName} has no embedded chat template (tokenizer.chat_template)`);
    const renderer = new ChatTemplateRenderer(template);

    // Cold, then warm: the next probe case of the same system shares the prompt's prefix.
    const coldCase = cases[0] as Case;
    const warmCase = PROBE_SET_IDS.map((id) => pack.caseById(id) as Case).find((c) => c.id !== coldCase.id && c.system === coldCase.system) ?? coldCase;
    progress(3, `time to first token: ${coldCase.id} (cold), ${warmCase.id} (warm) …`);
    const coldPrompt = roundOnePrompt(pack, coldCase, renderer);
    const cold = await engine.complete({ prompt: coldPrompt, maxTokens: 1, sharedPrefixChars: sharedPrefixLength(coldPrompt) });
    const warmPrompt = roundOnePrompt(pack, warmCase, renderer);
    const warm = await engine.complete({ prompt: warmPrompt, maxTokens: 1, sharedPrefixChars: sharedPrefixLength(warmPrompt) });
    const prefillTokensCold = cold.usage.promptTokens - cold.usage.cachedPromptTokens;
    const prefillTokensWarm = warm.usage.promptTokens - warm.usage.cachedPromptTokens;

    // Decode: the warm prompt is cached now, so this is (almost) pure generation.
    const decodeTokens = options.decodeTokens ?? 64;
    progress(4, `decode: ${decodeTokens} tokens …`);
    const decode = await engine.complete({ prompt: warmPrompt, maxTokens: decodeTokens });
    const decodeTokS = decode.usage.completionTokens > 1 && decode.usage.decodeMs > 0 ? (decode.usage.completionTokens - 1) / (decode.usage.decodeMs / 1000) : null;

    // The probe cases as sessions.
    const llm = new LlmPolicy({ ...options.llm, backend: engine });
    // Hybrid: the kiosk's own answer pipeline (router, provisional rule answer, the model's check).
    const pipeline =
      policyName === "hybrid"
        ? new AnswerPipeline({ rule: rulePolicy, assistant: { mode: "hybrid", policy: () => llm, ...options.hybrid }, profile: pack.promptProfile(), log: () => undefined })
        : null;
    const results: ProbeCaseResult[] = [];
    let decodeTokensSum = 0;
    let decodeMsSum = 0;
    for (const [i, kase] of cases.entries()) {
      const caseMs = results.reduce((n, r) => n + r.e2eMs, 0);
      progress(5 + i, `case ${i + 1}/${cases.length}: ${kase.id} …`, i > 0 ? (caseMs / i) * (cases.length - i) + sustainedMs : undefined);
      const record = pipeline ? await answerCase(pipeline, pack, kase) : await runCase(pack, kase, llm);
      const usages = record.kiosk.rounds.flatMap((r) => (r.usage ? [r.usage] : []));
      for (const u of usages) {
        if (u.completionTokens > 1 && u.decodeMs !== undefined) {
          decodeTokensSum += u.completionTokens - 1;
          decodeMsSum += u.decodeMs;
        }
      }
      const info = record.kiosk.policyInfo as { router?: { path?: "rule" | "model" }; answeredBy?: string } | undefined;
      results.push({
        id: kase.id,
        system: kase.system,
        category: kase.category,
        e2eMs: record.e2e_ms,
        rounds: record.api_rounds,
        termination: record.kiosk.termination,
        promptTokens: usages.reduce((n, u) => n + u.promptTokens, 0),
        cachedPromptTokens: usages.reduce((n, u) => n + (u.cachedPromptTokens ?? 0), 0),
        completionTokens: usages.reduce((n, u) => n + u.completionTokens, 0),
        firstTtftMs: usages[0]?.ttftMs ?? null,
        ...(info?.router?.path ? { path: info.router.path } : {}),
        ...(info?.answeredBy ? { answeredBy: info.answeredBy } : {}),
      });
    }

    const sustained =
      options.sustainedSeconds && options.sustainedSeconds > 0
        ? await sustainedLoad(engine, warmPrompt.slice(0, sharedPrefixLength(warmPrompt) ?? 0), options.sustainedSeconds, (what, leftMs) => progress(steps, what, leftMs))
        : undefined;

    await engine.threadsSettled();
    const adaptiveStatus = engine.adaptiveThreadsStatus();
    const result: ProbeResult = {
      model: info,
      policy: policyName,
      machine: hardwareInfo(),
      startedAt,
      loadMs: info.loadMs,
      ttftColdMs: cold.usage.ttftMs,
      ttftWarmMs: warm.usage.ttftMs,
      prefillTokensCold,
      prefillTokensWarm,
      promptTokensCold: cold.usage.promptTokens,
      promptTokensWarm: warm.usage.promptTokens,
      cachedTokensWarm: warm.usage.cachedPromptTokens,
      coldCaseId: coldCase.id,
      warmCaseId: warmCase.id,
      prefillTokS: prefillTokensCold / Math.max(cold.usage.prefillMs / 1000, 1e-6),
      decodeTokS,
      decodeTokensMeasured: decode.usage.completionTokens,
      cases: results,
      caseLatency: latencyStats(results.map((r) => r.e2eMs)),
      ...(policyName === "hybrid"
        ? {
            byPath: {
              rule: latencyStats(results.filter((r) => r.path === "rule").map((r) => r.e2eMs)),
              model: latencyStats(results.filter((r) => r.path === "model").map((r) => r.e2eMs)),
            },
          }
        : {}),
      sessionDecodeTokS: decodeMsSum > 0 ? decodeTokensSum / (decodeMsSum / 1000) : null,
      threads: {
        table: threadChoice.table,
        fromCache: threadChoice.fromCache,
        used: engine.info.threads,
        ...(adaptiveStatus ? { adaptive: { decisions: threadDecisions, status: adaptiveStatus } } : {}),
      },
      airProjection: projectAirM2(
        { bytes: info.bytes, parameters: info.parameters },
        results.filter((r) => r.path !== "rule" && r.promptTokens > 0).map((r) => ({ prefillTokens: r.promptTokens - r.cachedPromptTokens, generatedTokens: r.completionTokens })),
      ),
      peakRssMb: 0,
      ...(sustained ? { sustained } : {}),
      wallMs: 0,
    };
    result.peakRssMb = memory.stop() / (1024 * 1024);
    result.wallMs = now() - t0;
    return result;
  } finally {
    memory.stop();
    await engine.unload();
  }
}
