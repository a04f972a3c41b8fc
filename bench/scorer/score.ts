// Scoring one case: run every applicable component, clamp to its max, total per tier.
import type { Case } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { pyRound } from "../../tools/py/index.ts";
import { CaseContext, type Scored } from "./context.ts";
import { COMPONENTS, type ComponentDefinition } from "./components/table.ts";
import type { JudgedPlan } from "./components/judged.ts";
import {
  buildJudgeRequest,
  judgmentKey,
  noJudge,
  parseJudgeRubrics,
  type Judge,
  type JudgeRequest,
  type JudgeRubrics,
  type JudgmentCache,
} from "./judge.ts";
import { hasOwn, pyNum, pyStr } from "./pyvalues.ts";
import { asScorable } from "./record.ts";
import { scored, type ReasonCode } from "./reasons.ts";

export interface BreakdownEntry {
  score: number;
  max: number;
  /** Why, in our words (bench/scorer/reasons.ts); `code` says the same for programs. */
  reason: string;
  tier: 1 | 2;
  code: ReasonCode;
}

/** One case's score, in the reference scorer's shape (plus `flags` and each component's reason `code`). */
export interface CaseScore {
  case_id: string;
  /** Totals rounded to 1 decimal; the percentages are computed from the unrounded sums. */
  total: number;
  max_possible: number;
  pct: number;
  tier1_total: number;
  tier1_max: number;
  tier1_pct: number;
  /** Per component, in the reference's order. */
  breakdown: Record<string, BreakdownEntry>;
  /** Malformed parts of the record (or case) that were read leniently; [] for a clean record. */
  flags: string[];
}

export interface ScoreOptions {
  /** Defaults to `noJudge` (the reference's --no-judge). */
  judge?: Judge;
  cache?: JudgmentCache;
  /** The data pack's judge-rubrics.json (`DataPack.judgeRubrics()`); required with a real judge. */
  rubrics?: unknown;
}

interface Pending {
  def: ComponentDefinition;
  max: number;
  result: Scored | JudgedPlan;
}

/** The applicable components with their maxima (a non-numeric max is flagged and skipped). */
function applicable(ctx: CaseContext): { def: ComponentDefinition; max: number }[] {
  const out: { def: ComponentDefinition; max: number }[] = [];
  for (const def of COMPONENTS) {
    let maxValue: unknown;
    if (hasOwn(ctx.scoring, def.name)) maxValue = ctx.scoring[def.name];
    else if (def.alwaysMax !== undefined) maxValue = def.alwaysMax;
    else continue;
    const max = pyNum(maxValue);
    if (max === undefined) {
      ctx.flag(`scoring.${def.name} is not a number (${pyStr(maxValue)}); component skipped`);
      continue;
    }
    out.push({ def, max });
  }
  return out;
}

function evaluate(ctx: CaseContext, skipJudged: boolean): Pending[] {
  return applicable(ctx).map(({ def, max }) => {
    if (def.kind === "programmatic") return { def, max, result: def.score(ctx, max) };
    if (skipJudged) return { def, max, result: scored(0, "judge_skipped") };
    return { def, max, result: def.plan(ctx, max) };
  });
}

function assemble(ctx: CaseContext, scored: { def: ComponentDefinition; max: number; result: Scored }[]): CaseScore {
  const breakdown: Record<string, BreakdownEntry> = {};
  let total = 0;
  let maxPossible = 0;
  let tier1Total = 0;
  let tier1Max = 0;
  for (const { def, max, result } of scored) {
    const score = Math.min(result.score, max);
    breakdown[def.name] = { score, max, reason: result.reason, tier: def.tier, code: result.code };
    total += score;
    maxPossible += max;
    if (def.tier === 1) {
      tier1Total += score;
      tier1Max += max;
    }
  }
  return {
    case_id: ctx.id,
    total: pyRound(total, 1),
    max_possible: pyRound(maxPossible, 1),
    pct: maxPossible > 0 ? pyRound((total / maxPossible) * 100, 1) : 0,
    tier1_total: pyRound(tier1Total, 1),
    tier1_max: pyRound(tier1Max, 1),
    tier1_pct: tier1Max > 0 ? pyRound((tier1Total / tier1Max) * 100, 1) : 0,
    breakdown,
    flags: ctx.flags,
  };
}

/** A case score in the reference scorer's output shape: without `flags` and the reason codes. */
export function toReferenceScore(s: CaseScore): Omit<CaseScore, "flags" | "breakdown"> & { breakdown: Record<string, Omit<BreakdownEntry, "code">> } {
  const { flags: _flags, breakdown, ...totals } = s;
  return { ...totals, breakdown: Object.fromEntries(Object.entries(breakdown).map(([name, { code: _code, ...entry }]) => [name, entry])) };
}

function isScored(result: Scored | JudgedPlan): result is Scored {
  return !("kind" in result);
}

/** Score a case without a judge (synchronous; every judged component scores 0). */
export function scoreCaseNoJudge(kase: Case, record: unknown, system: SystemData): CaseScore {
  const ctx = new CaseContext(kase, asScorable(record), system);
  return assemble(ctx, evaluate(ctx, true) as { def: ComponentDefinition; max: number; result: Scored }[]);
}

async function resolvePlan(ctx: CaseContext, name: string, plan: JudgedPlan, judge: Judge, rubrics: JudgeRubrics, cache?: JudgmentCache): Promise<Scored> {
  if (plan.kind === "final") return { score: plan.score, code: plan.code, reason: plan.reason };
  const key = judgmentKey(ctx.id, name, plan.text, judge.id);
  let judgment = cache?.get(key);
  if (!judgment) {
    const request = buildJudgeRequest(rubrics, { caseId: ctx.id, component: name, rubric: plan.rubric, fields: plan.fields, text: plan.text });
    judgment = await judge.judge(request);
    cache?.set(key, judgment);
  }
  let j = judgment.score;
  if (!Number.isFinite(j)) {
    ctx.flag(`judge returned a non-numeric score for ${name} (read as 1)`);
    j = 1;
  } else if (j < 0 || j > 2) {
    ctx.flag(`judge score ${j} for ${name} is outside 0..2 (clamped)`);
    j = Math.max(0, Math.min(2, j));
  }
  return plan.finish(j, judgment.reason);
}

/**
 * The judge requests scoring this record would make (none for components that take a shortcut),
 * e.g. to batch or pre-fetch judgments. Never calls a judge.
 */
export function plannedJudgeRequests(kase: Case, record: unknown, system: SystemData, rubrics: unknown): JudgeRequest[] {
  const parsed = parseJudgeRubrics(rubrics);
  const ctx = new CaseContext(kase, asScorable(record), system);
  const out: JudgeRequest[] = [];
  for (const { def, result } of evaluate(ctx, false)) {
    if (isScored(result) || result.kind !== "judge") continue;
    out.push(buildJudgeRequest(parsed, { caseId: ctx.id, component: def.name, rubric: result.rubric, fields: result.fields, text: result.text }));
  }
  return out;
}

/**
 * Score one result record against its case (CONTRACT §9). Never throws on a malformed record:
 * what can be scored is scored and the rest is listed in `flags`.
 */
export async function scoreCase(kase: Case, record: unknown, system: SystemData, options: ScoreOptions = {}): Promise<CaseScore> {
  const judge = options.judge ?? noJudge;
  if (judge === noJudge) return scoreCaseNoJudge(kase, record, system);
  const rubrics = parseJudgeRubrics(options.rubrics);
  const ctx = new CaseContext(kase, asScorable(record), system);
  const pending = evaluate(ctx, false);
  const scored = await Promise.all(
    pending.map(async ({ def, max, result }) => ({
      def,
      max,
      result: isScored(result) ? result : await resolvePlan(ctx, def.name, result, judge, rubrics, options.cache),
    })),
  );
  return assemble(ctx, scored);
}
