// The system prompt of a case (CONTRACT §7.1): the profile's blocks, in order, each emitted when
// its condition holds, with placeholders filled from the system's data and the case context.
import type { SystemContext } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { hasKey, pyJsonDumps, pyTruthy } from "../../tools/py/index.ts";
import { CONDITIONS, pyGet, type PromptInputs } from "./conditions.ts";
import { compileProfile, fillTemplate, PromptProfileError } from "./profile.ts";
import type { PromptProfile } from "../../tools/data/schemas.ts";
import { pyStr } from "./pystr.ts";

/** fares.json keys copied into the fare rules when present and non-empty, in this order. */
const FARE_RULE_COPIED_KEYS = ["discounts", "fare_brackets", "surcharges", "station_overrides", "payment_methods"] as const;
/** The reference's defaults when a file leaves a value out (never used by the published pack). */
const DEFAULT_FARE_MODEL = "flat";
const DEFAULT_PREMIUM_CARD = "Gold Card";

function record(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new PromptProfileError(`${what} is not an object`);
  return v as Record<string, unknown>;
}

/**
 * The `- Fare rules:` object: model, base fare text (symbol + Python str of the number: "$2.5",
 * "NT$20"), currency, display format, payment names, the non-empty raw fare tables, and the gold
 * class when fares.json has a gold fare. Float markers of fares.json are kept ("fare": 0.0).
 */
export function fareRules(system: SystemData): Record<string, unknown> {
  const fares = record(system.faresPy, `${system.id} fares.json`);
  const framebook = record(system.framebookPy, `${system.id} framebook`);
  const terminology = record(framebook.terminology, `${system.id} framebook.terminology`);
  const symbol = pyStr(framebook.currency_symbol);
  const rules: Record<string, unknown> = {
    model: hasKey(fares, "model") ? fares.model : DEFAULT_FARE_MODEL,
    base_fare: `${symbol}${pyStr(fares.base_fare)}`,
    currency: framebook.currency_code,
    format: framebook.fare_display_format,
    payment: [terminology.smartcard, terminology.contactless],
  };
  for (const key of FARE_RULE_COPIED_KEYS) if (pyTruthy(fares[key])) rules[key] = fares[key];
  if (hasKey(fares, "gold_fare")) {
    rules.gold_class = {
      fare: `${symbol}${pyStr(fares.gold_fare)}`,
      card: hasKey(terminology, "smartcard_premium") ? terminology.smartcard_premium : DEFAULT_PREMIUM_CARD,
    };
  }
  return rules;
}

// The JSON blocks depend only on the system's data: serialise them once per system.
const systemJsonCache = new WeakMap<SystemData, { fareRules: string; operatingHours: string }>();

function systemJson(system: SystemData): { fareRules: string; operatingHours: string } {
  let cached = systemJsonCache.get(system);
  if (!cached) {
    const framebookPy = record(system.framebookPy, `${system.id} framebook`);
    cached = { fareRules: pyJsonDumps(fareRules(system)), operatingHours: pyJsonDumps(framebookPy.operating_hours) };
    systemJsonCache.set(system, cached);
  }
  return cached;
}

/** Placeholder values (lazy: a section's values are read only when it is emitted). */
function placeholderValues(inputs: PromptInputs): Record<string, () => string> {
  const { system, context } = inputs;
  const framebook = system.framebook;
  const temporalField = (key: string) => () => pyStr(pyGet(pyGet(context, "temporal_context"), key));
  return {
    org_name: () => pyStr(framebook.org_name),
    full_name: () => pyStr(framebook.full_name),
    line_names: () => system.lines.map((l) => l.name).join(", "),
    fare_rules_json: () => systemJson(system).fareRules,
    primary_language: () => pyStr(framebook.primary_language),
    operating_hours_json: () => systemJson(system).operatingHours,
    current_time: temporalField("current_time"),
    day_of_week: temporalField("day_of_week"),
    notes: temporalField("notes"),
    smartcard: () => pyStr(framebook.terminology.smartcard),
    currency_symbol: () => pyStr(framebook.currency_symbol),
    policy_text: () => pyStr(pyGet(pyGet(context, "policy_change"), "text")),
  };
}

// Many sessions share a prompt (same system, same conditions): remember recent renderings. The key
// holds every context field a condition or placeholder reads.
const MAX_CACHED_PROMPTS_PER_SYSTEM = 256;
const promptCache = new WeakMap<SystemData, WeakMap<PromptProfile, Map<string, string>>>();

function contextKey(context: SystemContext): string {
  return JSON.stringify([
    pyGet(context, "temporal_context") ?? null,
    pyGet(context, "policy_change") ?? null,
    pyTruthy(pyGet(context, "accessibility_mode")),
    pyTruthy(pyGet(context, "knowledge_query")),
    pyTruthy(pyGet(context, "active_disruptions")),
  ]);
}

/** The system prompt for a system and a case context, rendered from the profile. */
export function buildSystemPrompt(system: SystemData, context: SystemContext, profile: PromptProfile): string {
  let byProfile = promptCache.get(system);
  if (!byProfile) promptCache.set(system, (byProfile = new WeakMap()));
  let cache = byProfile.get(profile);
  if (!cache) byProfile.set(profile, (cache = new Map()));
  const key = contextKey(context);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const prompt = renderSystemPrompt(system, context, profile);
  if (cache.size >= MAX_CACHED_PROMPTS_PER_SYSTEM) cache.clear();
  cache.set(key, prompt);
  return prompt;
}

/**
 * How much of a live session's system prompt does not depend on the clock: the length it shares
 * with the same prompt stated at another time (every digit of the time changed, another day).
 * Engines checkpoint there, so the next minute's prompt evaluates only what follows the time.
 */
export function clockFreeLength(system: SystemData, context: SystemContext, profile: PromptProfile): number {
  const temporal = context.temporal_context;
  if (!temporal) return buildSystemPrompt(system, context, profile).length;
  const otherTime = (iso: string): string => iso.replace(/\d/g, (d) => String((Number(d) + 1) % 10));
  const other: SystemContext = {
    ...context,
    current_time: otherTime(context.current_time),
    temporal_context: { ...temporal, current_time: otherTime(temporal.current_time), day_of_week: `~${temporal.day_of_week ?? ""}` },
  };
  const a = buildSystemPrompt(system, context, profile);
  // Rendered once and not cached: it is never a session's prompt.
  const b = renderSystemPrompt(system, other, profile);
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function renderSystemPrompt(system: SystemData, context: SystemContext, profile: PromptProfile): string {
  const compiled = compileProfile(profile);
  const inputs: PromptInputs = { system, context };
  const values = placeholderValues(inputs);
  let out = "";
  for (const block of compiled.blocks) {
    const condition = CONDITIONS[block.when];
    const where = `prompt profile ${compiled.name}, block '${block.id}'`;
    if (!condition) throw new PromptProfileError(`${where}: unknown condition '${block.when}'`);
    if (condition.kind === "test") {
      if (condition.test(inputs)) out += fillTemplate(block.text, values, where);
    } else {
      for (const item of condition.items(inputs)) out += fillTemplate(block.text, values, where, item);
    }
  }
  return out;
}
