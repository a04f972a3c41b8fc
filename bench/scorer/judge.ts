// The language-model judge behind the six judged Tier 2 components (CONTRACT §9.5): the interface
// a judge implements, the no-judge stand-in, the judgment cache key, rubric prompt filling and the
// parser for the judge's "Score: N | reason" reply.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { z } from "zod";
import { pyInt } from "./pyvalues.ts";
import { because } from "./reasons.ts";

/** The rubric prompts in prompt-profile/judge-rubrics.json. */
export const RUBRIC_IDS = [
  "advisory_content",
  "policy_acknowledged",
  "cultural_accuracy",
  "temporal_accuracy",
  "safety_response",
  "scope_adherence",
  "no_fabrication",
] as const;
export type RubricId = (typeof RUBRIC_IDS)[number];

export const JudgeRubricsFileSchema = z.looseObject({
  judge_model_reference: z.string(),
  max_tokens: z.number().int().positive(),
  temperature: z.number(),
  system: z.string().min(1),
  rubrics: z.record(z.string(), z.string()),
});
export type JudgeRubrics = z.infer<typeof JudgeRubricsFileSchema>;

const parsedRubrics = new WeakMap<object, JudgeRubrics>();

/**
 * Validate the rubric file's content (as `DataPack.judgeRubrics()` returns it); the result is
 * remembered per object, so passing the pack's object on every call costs nothing.
 */
export function parseJudgeRubrics(raw: unknown): JudgeRubrics {
  if (typeof raw !== "object" || raw === null) {
    throw new Error("judging needs the rubric prompts: pass the data pack's judgeRubrics()");
  }
  const known = parsedRubrics.get(raw);
  if (known) return known;
  const rubrics = JudgeRubricsFileSchema.parse(raw);
  const missing = RUBRIC_IDS.filter((id) => typeof rubrics.rubrics[id] !== "string");
  if (missing.length > 0) throw new Error(`judge-rubrics.json lacks the rubric(s): ${missing.join(", ")}`);
  parsedRubrics.set(raw, rubrics);
  parsedRubrics.set(rubrics, rubrics);
  return rubrics;
}

/** One judgment to make: the filled rubric prompt plus everything needed to call the judge. */
export interface JudgeRequest {
  readonly caseId: string;
  /** The scoring component, e.g. "advisory_content_correct". */
  readonly component: string;
  readonly rubric: RubricId;
  /** The judge's system instruction. */
  readonly system: string;
  /** The filled rubric: the judge's user message. */
  readonly prompt: string;
  /** The judge text (CONTRACT §9.5) inserted into the prompt; judgments are cached on it. */
  readonly text: string;
  readonly maxTokens: number;
  readonly temperature: number;
  /** The reference's judge model (claude-haiku-4-5-20251001); a judge may be another model. */
  readonly referenceModel: string;
}

export interface Judgment {
  /** 0, 1 or 2. */
  score: number;
  reason: string;
}

export interface Judge {
  /** Identifies the judge (model and settings) in cache keys and outputs. */
  readonly id: string;
  judge(request: JudgeRequest): Promise<Judgment>;
}

/** The reason every judged component gets without a judge. */
export const NO_JUDGE_REASON = because("judge_skipped").reason;

/**
 * The reference's `--no-judge`: every judged component, its structural part and its blank-text
 * shortcut included, scores 0. The scorer recognises this object and never builds a request.
 */
export const noJudge: Judge = Object.freeze({
  id: "skipped",
  judge: () => Promise.resolve({ score: 0, reason: NO_JUDGE_REASON }),
});

export interface JudgmentCache {
  get(key: string): Judgment | undefined;
  set(key: string, value: Judgment): void;
}

/** An in-memory JudgmentCache (a Map). */
export function memoryJudgmentCache(): JudgmentCache & { readonly size: number } {
  const map = new Map<string, Judgment>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void map.set(key, value),
    get size() {
      return map.size;
    },
  };
}

/** The cache key of a judgment: judge, component, case and the SHA-256 of the judge text. */
export function judgmentKey(caseId: string, component: string, judgeText: string, judgeId: string): string {
  return `${judgeId}|${component}|${caseId}|${bytesToHex(sha256(utf8ToBytes(judgeText)))}`;
}

/**
 * Parse the judge's reply the reference's way: "Score: N | reason" gives N clamped to 0–2 and the
 * text after the first "|"; anything else scores 1 with the whole reply as the reason.
 */
export function parseJudgeReply(reply: string): Judgment {
  const text = reply.trim();
  let score = 1;
  let reason = text;
  if (text.startsWith("Score:")) {
    const bar = text.indexOf("|");
    const head = bar >= 0 ? text.slice(0, bar) : text;
    const n = pyInt(head.replaceAll("Score:", ""));
    if (n !== undefined) score = Math.max(0, Math.min(2, n));
    if (bar >= 0) reason = text.slice(bar + 1).trim();
  }
  return { score, reason };
}

/** Python str.format with named fields ({name}; {{ and }} are literal braces). */
export function fillTemplate(template: string, fields: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string | undefined) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    const value = fields[name as string];
    if (value === undefined) throw new Error(`rubric placeholder {${name}} has no value`);
    return value;
  });
}

export interface JudgeRequestSpec {
  caseId: string;
  component: string;
  rubric: RubricId;
  /** Placeholder values other than {response_text}. */
  fields: Readonly<Record<string, string>>;
  /** The judge text; it fills {response_text}. */
  text: string;
}

/**
 * Fill a rubric from the data pack's judge-rubrics.json (`DataPack.judgeRubrics()`, raw or parsed)
 * into a complete request.
 */
export function buildJudgeRequest(rubricFile: unknown, spec: JudgeRequestSpec): JudgeRequest {
  const rubrics = parseJudgeRubrics(rubricFile);
  const template = rubrics.rubrics[spec.rubric];
  if (template === undefined) throw new Error(`judge-rubrics.json has no rubric '${spec.rubric}'`);
  return {
    caseId: spec.caseId,
    component: spec.component,
    rubric: spec.rubric,
    system: rubrics.system,
    prompt: fillTemplate(template, { ...spec.fields, response_text: spec.text }),
    text: spec.text,
    maxTokens: rubrics.max_tokens,
    temperature: rubrics.temperature,
    referenceModel: rubrics.judge_model_reference,
  };
}
