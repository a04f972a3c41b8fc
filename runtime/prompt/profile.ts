// The prompt profile (prompt-profile/metrollm-v24.json) read into a checked, compiled form: every
// block id, every `when` condition and every placeholder must be one this code knows how to
// render, otherwise compiling fails with an error that names it (text is never silently dropped).
import { z } from "zod";
import type { PromptProfile } from "../../tools/data/schemas.ts";
import { CONDITIONS } from "./conditions.ts";

export const ProfileBlockSchema = z.object({
  id: z.string().min(1),
  when: z.string().min(1),
  text: z.string(),
});
export type ProfileBlock = z.infer<typeof ProfileBlockSchema>;

export const UserMessageFormatSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export const ProfileTextSchema = z.looseObject({
  profile: z.string().optional(),
  system_prompt: z.array(ProfileBlockSchema).min(1),
  user_message: UserMessageFormatSchema,
});

/** Block ids of the system prompt that this renderer knows. */
export const KNOWN_BLOCK_IDS: ReadonlySet<string> = new Set([
  "header",
  "fare_rules",
  "language",
  "cultural_notes_header",
  "cultural_note",
  "service_hours",
  "temporal_header",
  "temporal_day",
  "temporal_notes",
  "temporal_footer",
  "role_workflow_rules",
  "disruption",
  "accessibility",
  "policy_update_header",
  "policy_update_text",
  "policy_update_footer",
  "policies_header",
  "policy_item",
  "policies_footer",
  "knowledge_base",
]);

/** Placeholders any system-prompt block may use (values computed in system.ts). */
export const SYSTEM_PLACEHOLDERS: readonly string[] = [
  "org_name",
  "full_name",
  "line_names",
  "fare_rules_json",
  "primary_language",
  "operating_hours_json",
  "current_time",
  "day_of_week",
  "notes",
  "smartcard",
  "currency_symbol",
  "policy_text",
];

/** User-message format keys, and the placeholders each template may use. */
export const USER_MESSAGE_KEYS: Readonly<Record<string, { type: "template"; placeholders: readonly string[] } | { type: "text" } | { type: "list" }>> = {
  join: { type: "text" },
  station_selected: { type: "template", placeholders: ["Field", "value"] },
  passenger_count_changed: { type: "template", placeholders: ["counts"] },
  passenger_count_item: { type: "template", placeholders: ["n", "rider_type"] },
  passenger_count_order: { type: "list" },
  passenger_count_separator: { type: "text" },
  freetext_input: { type: "template", placeholders: ["text"] },
  payment_method_selected: { type: "template", placeholders: ["Method_Title_Case"] },
  disruption_update: { type: "template", placeholders: ["message"] },
  disruption_update_default_message: { type: "text" },
};

export interface UserMessageFormat {
  join: string;
  station_selected: string;
  passenger_count_changed: string;
  passenger_count_item: string;
  passenger_count_order: readonly string[];
  passenger_count_separator: string;
  freetext_input: string;
  payment_method_selected: string;
  disruption_update: string;
  disruption_update_default_message: string;
}

export interface CompiledProfile {
  name: string;
  blocks: readonly ProfileBlock[];
  user: UserMessageFormat;
}

export class PromptProfileError extends Error {
  override name = "PromptProfileError";
}

const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * A template split at its placeholders: text, name, text, …, text (odd indexes are names). The
 * profile's few templates are filled thousands of times in a bench run: split once each.
 */
const templateParts = new Map<string, readonly string[]>();
const MAX_CACHED_TEMPLATES = 1000;

function partsOf(template: string): readonly string[] {
  let parts = templateParts.get(template);
  if (!parts) {
    // split with a capturing group keeps the names between the texts.
    parts = template.split(PLACEHOLDER);
    if (templateParts.size >= MAX_CACHED_TEMPLATES) templateParts.clear();
    templateParts.set(template, parts);
  }
  return parts;
}

/** The placeholder names used in a template, in order. */
export function placeholdersOf(template: string): string[] {
  return partsOf(template).filter((_, i) => i % 2 === 1);
}

/**
 * Fill `{name}` placeholders in one pass (values are not re-scanned). `item`, when given, is looked
 * up before `values` (a repeated block's own fields over the prompt's), so that no merged copy of
 * the two is built for every item.
 */
export function fillTemplate(
  template: string,
  values: Readonly<Record<string, string | (() => string)>>,
  where: string,
  item?: Readonly<Record<string, string>>,
): string {
  const parts = partsOf(template);
  let out = parts[0] ?? "";
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    let value: string | (() => string) | undefined;
    if (item !== undefined && Object.prototype.hasOwnProperty.call(item, name)) value = item[name];
    else if (Object.prototype.hasOwnProperty.call(values, name)) value = values[name];
    else throw new PromptProfileError(`${where}: no value for placeholder {${name}}`);
    out += (typeof value === "function" ? value() : (value as string)) + (parts[i + 1] ?? "");
  }
  return out;
}

function checkPlaceholders(template: string, allowed: readonly string[], where: string): void {
  for (const name of placeholdersOf(template)) {
    if (!allowed.includes(name)) {
      throw new PromptProfileError(`${where}: unknown placeholder {${name}} (known here: ${allowed.map((p) => `{${p}}`).join(", ")})`);
    }
  }
}

function compile(profile: PromptProfile): CompiledProfile {
  const parsed = ProfileTextSchema.safeParse(profile);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PromptProfileError(`prompt profile is malformed at ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
  }
  const name = parsed.data.profile ?? "(unnamed profile)";
  for (const block of parsed.data.system_prompt) {
    const where = `prompt profile ${name}, system_prompt block '${block.id}'`;
    if (!KNOWN_BLOCK_IDS.has(block.id)) {
      throw new PromptProfileError(`${where}: unknown block id (this runtime renders: ${[...KNOWN_BLOCK_IDS].join(", ")})`);
    }
    const condition = Object.hasOwn(CONDITIONS, block.when) ? CONDITIONS[block.when] : undefined;
    if (!condition) {
      throw new PromptProfileError(`${where}: unknown condition '${block.when}' (known: ${Object.keys(CONDITIONS).map((c) => `'${c}'`).join(", ")})`);
    }
    const allowed = condition.kind === "each" ? [...SYSTEM_PLACEHOLDERS, ...condition.itemPlaceholders] : SYSTEM_PLACEHOLDERS;
    checkPlaceholders(block.text, allowed, where);
  }
  const user = parsed.data.user_message;
  for (const [key, value] of Object.entries(user)) {
    const where = `prompt profile ${name}, user_message.${key}`;
    const spec = Object.hasOwn(USER_MESSAGE_KEYS, key) ? USER_MESSAGE_KEYS[key] : undefined;
    if (!spec) throw new PromptProfileError(`${where}: unknown user-message key (known: ${Object.keys(USER_MESSAGE_KEYS).join(", ")})`);
    if (spec.type === "list" ? !Array.isArray(value) : typeof value !== "string") {
      throw new PromptProfileError(`${where}: expected ${spec.type === "list" ? "a list of strings" : "a string"}`);
    }
    if (spec.type === "template") checkPlaceholders(value as string, spec.placeholders, where);
    if (spec.type === "text") checkPlaceholders(value as string, [], where);
  }
  for (const key of Object.keys(USER_MESSAGE_KEYS)) {
    if (!Object.hasOwn(user, key)) throw new PromptProfileError(`prompt profile ${name}, user_message: missing '${key}'`);
  }
  return { name, blocks: parsed.data.system_prompt, user: user as unknown as UserMessageFormat };
}

const compiled = new WeakMap<object, CompiledProfile>();

/** Check and compile a profile once (cached per profile object). Throws PromptProfileError. */
export function compileProfile(profile: PromptProfile): CompiledProfile {
  let result = compiled.get(profile);
  if (!result) {
    result = compile(profile);
    compiled.set(profile, result);
  }
  return result;
}
