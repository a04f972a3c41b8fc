// Figure 2 — the purchase safety interlock. Every case of the data pack is answered by `rule`,
// `rule-ref` and a lying fake model (rule with its terminal state rewritten, several kinds of lie
// per case); each answer goes through the kiosk's interlock (checkInterlock, as KioskApp.ask and
// KioskApp.purchase call it) for the default payment method and for every payment method of the
// system. Whenever the interlock lets a state be shown or sold as purchasable, the sale is judged
// by the independent definition (independent.ts). Cases whose turns select stations on screen are
// also replayed with a follow-up turn as the screen sends it (only the changed count: +1 child).
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent } from "../../tools/data/schemas.ts";
import { checkInterlock } from "../../runtime/kiosk/interlock.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { ruleRefPolicy } from "../../runtime/policies/rule-ref.ts";
import { caseTurns, runCase } from "../../runtime/session/case.ts";
import type { Policy } from "../../runtime/session/policy.ts";
import { Examples, errorText, figure, info, Rng, type RunOptions, type SectionResult } from "./common.ts";
import { judgeSale } from "./independent.ts";
import { LIE_KINDS, lyingPolicy, type LieKind } from "./lying-model.ts";

interface Tally {
  sessions: number;
  offered: number;
  shown: number;
  wrongShown: number;
  saleChecks: number;
  salesAllowed: number;
  wrongSalesAllowed: number;
  rightBlocked: number;
  interlockErrors: number;
}

const emptyTally = (): Tally => ({ sessions: 0, offered: 0, shown: 0, wrongShown: 0, saleChecks: 0, salesAllowed: 0, wrongSalesAllowed: 0, rightBlocked: 0, interlockErrors: 0 });

function add(into: Tally, t: Tally): void {
  for (const k of Object.keys(into) as (keyof Tally)[]) into[k] += t[k];
}

/** The kiosk clock and on-screen access mode a case runs under (its temporal context, else its time). */
export function caseConditions(kase: Case): { now: { iso: string; day: string | null }; accessibilityMode: boolean } {
  const temporal = kase.system_context.temporal_context;
  return {
    now: { iso: temporal?.current_time || kase.system_context.current_time, day: temporal?.day_of_week ?? null },
    accessibilityMode: kase.system_context.accessibility_mode === true,
  };
}

/** Stratified subset for --quick: every n-th case of each system/category group. */
export function sampleCases(cases: readonly Case[], every: number): Case[] {
  const groups = new Map<string, Case[]>();
  for (const c of cases) {
    const key = `${c.system}/${c.category}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(c);
  }
  const out: Case[] = [];
  for (const list of groups.values()) list.forEach((c, i) => i % every === 0 && out.push(c));
  return out;
}

/** The case with a follow-up turn as the screen sends it: only the count that changed. */
function withFollowUp(kase: Case): Case | undefined {
  const turns = caseTurns(kase);
  const first = turns[0] ?? [];
  const chosen = (field: string): boolean => first.some((e) => e.type === "station_selected" && e.field === field);
  if (!chosen("origin") || !chosen("destination")) return undefined;
  let children = 0;
  for (const e of turns.flat()) if (e.type === "passenger_count_changed" && e.children !== undefined) children = e.children;
  const followUp: KioskEvent[] = [{ type: "passenger_count_changed", children: children + 1 }];
  return { ...kase, id: `${kase.id}+child`, multi_turn_events: [...turns.map((t) => [...t]), followUp] };
}

export async function interlockAudit(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const rng = new Rng(`${options.seed}:interlock`);
  const all = pack.allCases();
  const cases = options.quick ? sampleCases(all, 12) : all;
  const liesPerCase = options.quick ? 2 : 6;
  const byPolicy: Record<string, Tally> = {};
  const byLie: Record<string, { applied: number; wrong: number; caught: number; shown: number }> = {};
  const wrong = new Examples<Record<string, unknown>>(20);
  const blocked = new Examples<Record<string, unknown>>(10);
  const errors = new Examples<Record<string, unknown>>(10);

  async function audit(kase: Case, policy: Policy, label: string, lieKind?: LieKind, lieApplied?: () => boolean): Promise<void> {
    const tally = (byPolicy[label] ??= emptyTally());
    const system = pack.system(kase.system);
    const record = await runCase(pack, kase, policy);
    tally.sessions++;
    const turns = caseTurns(kase);
    // The case's announced fare policy is what the kiosk's framebook fare_policies are live.
    const policyText = kase.system_context.policy_change?.text ?? null;
    const base = { system, state: record.kiosk.state, turns, disruptions: kase.system_context.active_disruptions, toolCalls: record.tool_calls_made, policyText, ...caseConditions(kase) };
    let verdict;
    try {
      verdict = checkInterlock(base);
    } catch (err) {
      tally.interlockErrors++;
      errors.add({ case: kase.id, policy: label, error: errorText(err) });
      return;
    }
    const applied = lieApplied?.() ?? false;
    const lie = lieKind ? (byLie[lieKind] ??= { applied: 0, wrong: 0, caught: 0, shown: 0 }) : undefined;
    if (lie && applied) lie.applied++;
    if (!verdict.offered) return;
    tally.offered++;
    const screenMethod = [...turns.flat()].reverse().find((e) => e.type === "payment_method_selected");
    const shownMethod = screenMethod?.type === "payment_method_selected" ? screenMethod.method : verdict.paymentMethod;
    const judged = judgeSale(system, record.kiosk.state, turns, shownMethod, policyText);
    if (lie && applied && !judged.right) lie.wrong++;
    if (verdict.ok) {
      tally.shown++;
      if (lie && applied) lie.shown++;
      if (!judged.right) {
        tally.wrongShown++;
        wrong.add({ case: kase.id, policy: label, where: "shown", method: shownMethod, reasons: judged.reasons, total: record.kiosk.state.fare_quote?.total });
      }
    } else {
      if (lie && applied && !judged.right) lie.caught++;
      if (judged.right) {
        tally.rightBlocked++;
        blocked.add({ case: kase.id, policy: label, problems: verdict.problems });
      }
    }
    for (const method of Object.keys(system.fares.payment_methods ?? {})) {
      tally.saleChecks++;
      let sale;
      try {
        sale = checkInterlock({ ...base, paymentMethod: method });
      } catch (err) {
        tally.interlockErrors++;
        errors.add({ case: kase.id, policy: label, method, error: errorText(err) });
        continue;
      }
      if (!sale.ok) continue;
      tally.salesAllowed++;
      const j = judgeSale(system, record.kiosk.state, turns, method, policyText);
      if (!j.right) {
        tally.wrongSalesAllowed++;
        wrong.add({ case: kase.id, policy: label, where: "sale", method, reasons: j.reasons, total: record.kiosk.state.fare_quote?.total });
      }
    }
  }

  let lieIndex = 0;
  const runAll = async (kase: Case, suffix: string, kinds: LieKind[]): Promise<void> => {
    await audit(kase, rulePolicy, `rule${suffix}`);
    if (!suffix) await audit(kase, ruleRefPolicy, "rule-ref");
    for (const kind of kinds) {
      let applied = false;
      const policy = lyingPolicy({ inner: rulePolicy, kind, rng: rng.fork(`${kase.id}:${kind}`), onLie: (a) => (applied ||= a) });
      await audit(kase, policy, `lying${suffix}`, kind, () => applied);
    }
  };

  let done = 0;
  for (const kase of cases) {
    const kinds = Array.from({ length: liesPerCase }, () => LIE_KINDS[lieIndex++ % LIE_KINDS.length] as LieKind);
    await runAll(kase, "", kinds);
    const followUp = withFollowUp(kase);
    if (followUp && (!options.quick || done % 3 === 0)) {
      await runAll(followUp, "+follow-up", ["riders_drop_adults", "riders_fewer", LIE_KINDS[lieIndex++ % LIE_KINDS.length] as LieKind]);
    }
    if (++done % 100 === 0) options.log(`interlock: ${done}/${cases.length} cases`);
  }

  const total = emptyTally();
  for (const t of Object.values(byPolicy)) add(total, t);
  const lies = Object.values(byLie).reduce((s, l) => ({ applied: s.applied + l.applied, wrong: s.wrong + l.wrong, caught: s.caught + l.caught }), { applied: 0, wrong: 0, caught: 0 });
  return {
    id: "interlock",
    title: "2. Safety interlock",
    figures: [
      figure("interlock.wrong_shown", "wrong purchasable states shown", total.wrongShown, { op: "eq", value: 0 }, { of: `${total.shown} shown purchasable, ${total.sessions} sessions` }),
      figure("interlock.wrong_sales_allowed", "wrong sales allowed (any payment method)", total.wrongSalesAllowed, { op: "eq", value: 0 }, { of: `${total.salesAllowed} sales allowed of ${total.saleChecks} checks` }),
      figure("interlock.errors", "interlock errors (exceptions)", total.interlockErrors, { op: "eq", value: 0 }),
      info("interlock.lies_caught", "lies that made a wrong offer, blocked", lies.caught, { of: `${lies.wrong} wrong offers of ${lies.applied} lies applied` }),
      info("interlock.right_blocked", "right offers blocked (over-blocking)", total.rightBlocked, { of: `${total.offered} offered` }),
    ],
    details: { cases: cases.length, liesPerCase, byPolicy, byLie, wrongExamples: wrong.items, rightBlockedExamples: blocked.items, errorExamples: errors.items },
    ms: performance.now() - t0,
  };
}
