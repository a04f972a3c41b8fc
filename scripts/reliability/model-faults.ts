// Figure 5 — model failure. The kiosk runs a language model as its primary policy (LlmPolicy over
// a CompletionBackend, as `kind: "model"`), and faults are injected into it: model file missing
// and corrupt (the real LlamaEngine, which checks the GGUF before loading anything), the model
// process crashing (at once, or after a few good rounds), a timeout (an engine that answers only
// when aborted, and one that ignores the abort), the round budget exhausted (tool calls forever),
// the token budget exhausted (truncated output) and unparseable output. For each injected fault
// the answer counts as a correct fallback when
//   - it is the deterministic fallback's answer: exactly the state `rule` gives for the same
//     request, marked assistantUnavailable, answered by `rule`;
//   - it arrives within the kiosk deadline plus the time a deterministic answer may take;
//   - the operator can see it: the kiosk status says the assistant is unavailable, or the kiosk
//     log has a line about it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import { AssistantStateSchema } from "../../runtime/contract/index.ts";
import { KioskApp } from "../../runtime/kiosk/app.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import { SimulatedPaymentTerminal } from "../../runtime/kiosk/payment.ts";
import type { CompletionBackend, CompletionRequest, CompletionResult } from "../../runtime/model/backend.ts";
import { LlmPolicy } from "../../runtime/policies/llm.ts";
import { LlamaEngine } from "../../models/engine.ts";
import { Examples, errorText, figure, info, ms, type RunOptions, type SectionResult } from "./common.ts";
import { packExtras } from "../../runtime/kiosk/node/pack-extras.ts";

export const FAULT_KINDS = [
  "model_file_missing",
  "model_file_corrupt",
  "model_file_corrupt_header",
  "process_crash",
  "process_crash_mid_session",
  "timeout",
  "timeout_ignoring_abort",
  "round_budget_exhausted",
  "token_budget_exhausted",
  "unparseable_output",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The kiosk deadline for these runs (short, so timeouts do not take 20 s each). */
export const FAULT_DEADLINE_MS = 1_500;
/** What a deterministic answer may take on top of the deadline (the rule policy answers in ms). */
export const FALLBACK_GRACE_MS = 1_000;

const USAGE = { promptTokens: 10, completionTokens: 10, cachedPromptTokens: 0, ttftMs: 1, prefillMs: 1, decodeMs: 1, totalMs: 2 };
const TOOL_CALL = "ok\n</think>\n\n<tool_call>\n<function=line_info>\n<parameter=line>\nred\n</parameter>\n</function>\n</tool_call>";

/** A backend that misbehaves in one way (or the real engine over a broken model file). */
class FaultyBackend implements CompletionBackend {
  private rounds = 0;
  constructor(
    private readonly kind: FaultKind,
    private readonly template: string,
    private readonly engine?: LlamaEngine,
  ) {}

  chatTemplate(): string {
    return this.template;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    this.rounds++;
    const ok = (text: string, finishReason: "stop" | "length" = "stop"): CompletionResult => ({ text, finishReason, grammarTriggered: text.includes("<tool_call>"), usage: USAGE });
    switch (this.kind) {
      case "model_file_missing":
      case "model_file_corrupt":
      case "model_file_corrupt_header":
        // The kiosk loads the model on first use; a bad file fails the load with a typed error.
        await this.engine!.load();
        return this.engine!.complete(request);
      case "process_crash":
        throw new Error("model process exited (code 134, SIGABRT)");
      case "process_crash_mid_session":
        if (this.rounds <= 2) return ok(TOOL_CALL);
        throw new Error("model process exited (signal SIGSEGV)");
      case "timeout":
        return new Promise((_, reject) => {
          const fail = (): void => reject(new Error("generation aborted"));
          if (request.signal?.aborted) fail();
          request.signal?.addEventListener("abort", fail, { once: true });
        });
      case "timeout_ignoring_abort":
        return new Promise(() => undefined);
      case "round_budget_exhausted":
        return ok(TOOL_CALL);
      case "token_budget_exhausted":
        return ok("Let me think about the fastest route and every possible fare for this passenger and", "length");
      case "unparseable_output":
        return ok("\n</think>\n\n<tool_call>\n<function=route_planner>\n<parameter=origin>\nAirport\n</tool_call>");
    }
  }
}

interface Request {
  id: string;
  system: SystemId;
  turns: KioskEvent[][];
  now: Date;
  disruptions: Case["system_context"]["active_disruptions"];
}

function requestsFrom(pack: DataPack, quick: boolean): Request[] {
  const wanted = quick ? ["MARTA-A-001", "DOHA-B-003", "BART-C-006"] : ["MARTA-A-001", "MARTA-H-007", "DOHA-B-003", "DOHA-A-013", "BART-C-006", "BART-A-002", "TRTC-A-004", "TRTC-D-002", "CTA-A-002", "CTA-G-001", "BJM-A-003", "BJM-E-001"];
  const out: Request[] = [];
  for (const id of wanted) {
    const kase = pack.caseById(id);
    if (!kase) continue;
    const turns = (kase.multi_turn_events && kase.multi_turn_events.length > 0 ? kase.multi_turn_events : [kase.events]).map((t) => [...t]);
    const at = kase.system_context.temporal_context?.current_time || kase.system_context.current_time;
    out.push({ id, system: kase.system, turns, now: new Date(at), disruptions: [...kase.system_context.active_disruptions] });
  }
  return out;
}

export async function modelFaults(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const requests = requestsFrom(pack, options.quick);
  const template = pack.chatTemplate();
  const dir = mkdtempSync(path.join(tmpdir(), "model-faults-"));
  const files: Partial<Record<FaultKind, string>> = {
    model_file_missing: path.join(dir, "missing", "qwen-kiosk.gguf"),
    model_file_corrupt: path.join(dir, "random.gguf"),
    model_file_corrupt_header: path.join(dir, "header-only.gguf"),
  };
  writeFileSync(files.model_file_corrupt!, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
  const header = Buffer.alloc(64);
  header.write("GGUF", 0, "ascii");
  header.writeUInt32LE(3, 4);
  header.writeBigUInt64LE(5n, 8);
  header.writeBigUInt64LE(1_000_000n, 16);
  writeFileSync(files.model_file_corrupt_header!, header);

  let current: Request = requests[0]!;
  const conditions = (): { now: Date; disruptions: Request["disruptions"] } => ({ now: current.now, disruptions: current.disruptions });

  // What the deterministic fallback answers for each request.
  const reference = new Map<string, unknown>();
  {
    const ledger = Ledger.open(":memory:");
    const app = new KioskApp({ pack, extras: packExtras(pack), ledger, payment: new SimulatedPaymentTerminal(), conditions, clock: () => current.now, log: () => undefined });
    for (const r of requests) {
      current = r;
      let answer = await app.ask({ system: r.system, events: r.turns[0]! });
      for (const turn of r.turns.slice(1)) answer = await app.ask({ system: r.system, sessionId: answer.sessionId, events: turn });
      reference.set(r.id, answer.state);
    }
    ledger.close();
  }

  let injected = 0;
  let correct = 0;
  const byKind: Record<string, { injected: number; correct: number; rightState: number; inTime: number; visible: number; maxMs: number; terminations: string[] }> = {};
  const failures = new Examples<Record<string, unknown>>(20);
  try {
    for (const kind of FAULT_KINDS) {
      const stats = (byKind[kind] = { injected: 0, correct: 0, rightState: 0, inTime: 0, visible: 0, maxMs: 0, terminations: [] as string[] });
      const file = files[kind];
      const engine = file ? new LlamaEngine({ modelPath: file, gpu: false }) : undefined;
      const backend = new FaultyBackend(kind, template, engine);
      const policy = new LlmPolicy({ backend, chatTemplate: template, id: "llm" });
      const logs: string[] = [];
      const ledger = Ledger.open(":memory:");
      const app = new KioskApp({
        pack,
        extras: packExtras(pack),
        ledger,
        payment: new SimulatedPaymentTerminal(),
        assistant: { mode: "model", policy: () => policy },
        conditions,
        clock: () => current.now,
        deadlineMs: FAULT_DEADLINE_MS,
        log: (m) => logs.push(m),
      });
      try {
        for (const r of requests) {
          current = r;
          // Every injection reaches the model: clear the "unavailable" state a previous one left.
          app.modelRestored();
          injected++;
          stats.injected++;
          const logsBefore = logs.length;
          const t = performance.now();
          let answer;
          try {
            answer = await app.ask({ system: r.system, events: r.turns[0]! });
            for (const turn of r.turns.slice(1)) {
              app.modelRestored();
              answer = await app.ask({ system: r.system, sessionId: answer.sessionId, events: turn });
            }
          } catch (err) {
            failures.add({ kind, request: r.id, problem: `ask threw: ${errorText(err)}` });
            continue;
          }
          const elapsed = performance.now() - t;
          stats.maxMs = Math.max(stats.maxMs, ms(elapsed));
          const rows = ledger.sessionLog().filter((row) => row.session_id === answer.sessionId && row.event === "answer");
          const rightState = AssistantStateSchema.safeParse(answer.state).success && isDeepStrictEqual(answer.state, reference.get(r.id)) && answer.assistantUnavailable && answer.policy === "rule";
          const perTurnBudget = (FAULT_DEADLINE_MS + FALLBACK_GRACE_MS) * r.turns.length;
          const inTime = elapsed <= perTurnBudget;
          const visible = app.status().assistant === "unavailable" || logs.length > logsBefore;
          stats.terminations.push(String(rows.at(-1)?.termination ?? "?"));
          if (rightState) stats.rightState++;
          if (inTime) stats.inTime++;
          if (visible) stats.visible++;
          if (rightState && inTime && visible) {
            correct++;
            stats.correct++;
          } else {
            failures.add({ kind, request: r.id, rightState, inTime, elapsedMs: ms(elapsed), visible, policy: answer.policy, assistantUnavailable: answer.assistantUnavailable, status: app.status(), newLogs: logs.slice(logsBefore) });
          }
        }
      } finally {
        ledger.close();
        await engine?.unload().catch(() => undefined);
      }
      options.log(`model faults: ${kind} ${stats.correct}/${stats.injected}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const summary = Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, { ...v, terminations: [...new Set(v.terminations)] }]));
  return {
    id: "model",
    title: "5. Model failure",
    figures: [
      figure("model.fallbacks_correct", "correct fallbacks / injected faults", correct, { op: "eq", value: injected }, { of: `${injected} injected (${FAULT_KINDS.length} kinds × ${requests.length} requests)` }),
      info("model.max_answer_ms", "slowest answer under a fault", Math.max(0, ...Object.values(byKind).map((v) => v.maxMs)), { unit: "ms", of: `deadline ${FAULT_DEADLINE_MS} ms + ${FALLBACK_GRACE_MS} ms for the deterministic answer` }),
    ],
    details: { deadlineMs: FAULT_DEADLINE_MS, graceMs: FALLBACK_GRACE_MS, requests: requests.map((r) => r.id), byKind: summary, failures: failures.items },
    ms: performance.now() - t0,
  };
}
