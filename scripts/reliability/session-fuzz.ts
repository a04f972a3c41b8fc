// Figure 1 — session fuzzing. Random passenger sessions (1–3 turns of random, sometimes garbled
// events; random live disruptions, times of day, accessibility mode and fare announcements) are
// answered by `rule` and by the scripted adversarial fake model (step-level and text-level through
// the real LlmPolicy), through KioskService exactly as the kiosk runs a live session (kiosk
// deadline, no rescue by another policy, so the policy's own record is judged). Each turn's events
// first pass the screen's request schema (AskRequestSchema), as IPC and `kiosk serve` do; a share
// of rejected turns is pushed into the session anyway to probe the runtime behind the boundary.
// Figures: crashes (an exception out of the service or the interlock, or an unhandled rejection),
// answers without a renderable state (record.kiosk.state must parse with AssistantStateSchema),
// and the p99 answer time against the kiosk deadline.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import { AssistantStateSchema } from "../../runtime/contract/index.ts";
import { AskRequestSchema } from "../../runtime/kiosk/bridge.ts";
import { checkInterlock } from "../../runtime/kiosk/interlock.ts";
import { localIsoMinute } from "../../runtime/kiosk/service.ts";
import { AnswerPipeline, DEFAULT_KIOSK_DEADLINE_MS } from "../../runtime/answer/pipeline.ts";
import { KioskService } from "../../runtime/kiosk/service.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import type { Policy } from "../../runtime/session/policy.ts";
import { adversarialStepPolicy, adversarialTextPolicy } from "./adversarial-model.ts";
import { Examples, errorText, figure, info, ms, percentile, Rng, type RunOptions, type SectionResult } from "./common.ts";
import { fuzzInputs, randomConditions, randomTurn } from "./fuzz-inputs.ts";

export const FUZZ_SESSIONS_FULL = 10_000;
export const FUZZ_SESSIONS_QUICK = 300;

export async function sessionFuzz(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const sessions = options.quick ? FUZZ_SESSIONS_QUICK : FUZZ_SESSIONS_FULL;
  const deadlineMs = DEFAULT_KIOSK_DEADLINE_MS;
  const inputs = fuzzInputs(pack);
  const template = pack.chatTemplate();
  const policies: Record<string, Policy> = {
    rule: rulePolicy,
    "adversarial-model": adversarialStepPolicy(`${options.seed}:step-model`),
    "adversarial-llm": adversarialTextPolicy(`${options.seed}:text-model`, template),
  };
  const schedule = ["rule", "adversarial-model", "rule", "adversarial-llm"];

  const answerMs: number[] = [];
  const sessionMs: number[] = [];
  const per: Record<string, { sessions: number; answers: number; crashes: number; invalid: number; fallback: number; terminations: Record<string, number>; p99Ms?: number; maxMs?: number; times: number[] }> = {};
  let crashes = 0;
  /** Crashes of sessions fed schema-invalid events (unreachable through IPC/HTTP). */
  let boundaryCrashes = 0;
  let invalid = 0;
  let answers = 0;
  let turnsRejected = 0;
  let turnsBypassed = 0;
  let sessionsNotStarted = 0;
  let offered = 0;
  let interlockOk = 0;
  const crashExamples = new Examples<Record<string, unknown>>(15);
  const invalidExamples = new Examples<Record<string, unknown>>(10);
  const boundaryExamples = new Examples<Record<string, unknown>>(10);
  const slowest: { ms: number; session: number; policy: string }[] = [];

  let unhandled = 0;
  const onUnhandled = (reason: unknown): void => {
    unhandled++;
    crashExamples.add({ session: -1, where: "unhandledRejection", error: errorText(reason) });
  };
  process.on("unhandledRejection", onUnhandled);
  try {
    for (let i = 0; i < sessions; i++) {
      const rng = new Rng(`${options.seed}:fuzz:${i}`);
      const policyName = schedule[i % schedule.length] as string;
      const policy = policies[policyName] as Policy;
      const stats = (per[policyName] ??= { sessions: 0, answers: 0, crashes: 0, invalid: 0, fallback: 0, terminations: {}, times: [] });
      stats.sessions++;
      const systemId = rng.pick(pack.systemIds) as SystemId;
      const system = pack.system(systemId);
      const draw = randomConditions(rng, inputs, system);
      const garble = rng.chance(0.3);
      const turnCount = rng.weighted<number>([[6, 1], [3, 2], [1, 3]]);
      const service = new KioskService({
        pack,
        // No rescue by another policy: the policy under test is the only one answering.
        pipeline: new AnswerPipeline({ rule: policy, profile: pack.promptProfile(), deadlineMs }),
        conditions: () => ({ now: draw.now, disruptions: draw.disruptions, ...(draw.policyChange ? { policyChange: draw.policyChange } : {}) }),
        newSessionId: () => `fuzz-${i}`,
      });
      const sent: KioskEvent[][] = [];
      let started = false;
      let tainted = false;
      let total = 0;
      for (let turn = 0; turn < turnCount; turn++) {
        const events = randomTurn(rng, inputs, system, garble);
        const checked = AskRequestSchema.safeParse({ system: systemId, events });
        if (!checked.success) {
          turnsRejected++;
          if (!rng.chance(0.2)) continue;
          turnsBypassed++;
          tainted = true;
        }
        const turnEvents = (checked.success ? checked.data.events : events) as KioskEvent[];
        const a0 = performance.now();
        try {
          const result = started
            ? await service.continue(`fuzz-${i}`, turnEvents)
            : await service.start({ system: systemId, events: turnEvents, accessibilityMode: draw.accessibilityMode });
          started = true;
          sent.push(turnEvents);
          const elapsed = performance.now() - a0;
          total += elapsed;
          answers++;
          stats.answers++;
          answerMs.push(elapsed);
          stats.times.push(elapsed);
          if (elapsed > (slowest[slowest.length - 1]?.ms ?? 0) || slowest.length < 5) {
            slowest.push({ ms: ms(elapsed), session: i, policy: policyName });
            slowest.sort((a, b) => b.ms - a.ms).splice(5);
          }
          const record = result.record;
          stats.terminations[record.kiosk.termination] = (stats.terminations[record.kiosk.termination] ?? 0) + 1;
          if (record.kiosk.fallback) stats.fallback++;
          const parsed = AssistantStateSchema.safeParse(record.kiosk.state);
          if (!parsed.success) {
            invalid++;
            stats.invalid++;
            invalidExamples.add({ session: i, policy: policyName, issue: parsed.error.issues[0]?.message });
          }
          const verdict = checkInterlock({
            system,
            state: record.kiosk.state,
            turns: sent,
            disruptions: draw.disruptions,
            toolCalls: record.tool_calls_made,
            now: { iso: localIsoMinute(draw.now) },
            accessibilityMode: draw.accessibilityMode,
          });
          if (verdict.offered) offered++;
          if (verdict.ok) interlockOk++;
        } catch (err) {
          const example = { session: i, seed: `${options.seed}:fuzz:${i}`, policy: policyName, turn, error: errorText(err), stack: (err as Error)?.stack?.split("\n")[1]?.trim() };
          if (tainted) {
            boundaryCrashes++;
            boundaryExamples.add(example);
            break;
          }
          crashes++;
          stats.crashes++;
          crashExamples.add(example);
          if (!started) break;
        }
      }
      if (!started) sessionsNotStarted++;
      else sessionMs.push(total);
      if ((i + 1) % 1000 === 0) options.log(`fuzz: ${i + 1}/${sessions} sessions`);
    }
    // Let timers and stray promises of the last sessions settle before counting.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }

  const p99 = percentile(answerMs, 99);
  const byPolicy = Object.fromEntries(
    Object.entries(per).map(([k, v]) => {
      const { times, ...rest } = v;
      return [k, { ...rest, p50Ms: ms(percentile(times, 50)), p99Ms: ms(percentile(times, 99)), maxMs: ms(Math.max(0, ...times)) }];
    }),
  );
  return {
    id: "fuzz",
    title: "1. Session fuzzing",
    figures: [
      info("fuzz.sessions", "random sessions", sessions, { of: `${answers} answers; ${turnsRejected} turns rejected by the request schema, ${turnsBypassed} of them fed in anyway` }),
      figure("fuzz.crashes", "crashes", crashes + unhandled, { op: "eq", value: 0 }, { of: `${sessions} sessions` }),
      figure("fuzz.invalid_states", "answers without a renderable state", invalid, { op: "eq", value: 0 }, { of: `${answers} answers` }),
      figure("fuzz.p99_ms", "p99 answer time", ms(p99), { op: "lt", value: deadlineMs }, { unit: "ms", of: `deadline ${deadlineMs} ms; p50 ${ms(percentile(answerMs, 50))} ms, max ${ms(Math.max(0, ...answerMs))} ms` }),
      info("fuzz.p99_session_ms", "p99 session time (all turns)", ms(percentile(sessionMs, 99)), { unit: "ms" }),
      info("fuzz.behind_boundary_crashes", "crashes on schema-invalid events fed in anyway", boundaryCrashes, { of: `${turnsBypassed} rejected turns fed in (IPC and HTTP reject them)` }),
    ],
    details: {
      sessions,
      answers,
      deadlineMs,
      sessionsNotStarted,
      turnsRejected,
      turnsBypassed,
      unhandledRejections: unhandled,
      offered,
      interlockOk,
      byPolicy,
      slowest,
      crashExamples: crashExamples.items,
      behindBoundaryExamples: boundaryExamples.items,
      invalidExamples: invalidExamples.items,
    },
    ms: performance.now() - t0,
  };
}
