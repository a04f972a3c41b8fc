// The bench's judge registry: `--judge NAME` → a Judge for the six judged Tier 2 components.
// Built in: "none" (the reference's --no-judge), "llm" (a local GGUF in-process, bench/judges/llm.ts)
// and "openai" (an OpenAI-compatible endpoint, bench/judges/openai.ts). The run caches every
// judgment in the bench database (table `judgments`, keyed by judgmentKey), so a judgment is asked
// for once per judge, component, case and judge text.
import { z } from "zod";
import { noJudge, type Judge } from "./scorer/index.ts";
import { BenchError } from "./errors.ts";
import { llmJudgeFactory } from "./judges/llm.ts";
import { openAiJudgeFactory } from "./judges/openai.ts";

/** Options a judge factory may read (`--judge-model`, `--judge-base-url`, `--judge-threads`). */
export const JudgeOptionsSchema = z.strictObject({
  model: z.string().min(1).optional(),
  baseUrl: z.url().optional(),
  threads: z.number().int().positive().optional(),
});
export type JudgeOptions = z.infer<typeof JudgeOptionsSchema>;
export type JudgeOptionName = keyof JudgeOptions;

export const JUDGE_OPTION_FLAGS: Readonly<Record<JudgeOptionName, string>> = {
  model: "--judge-model",
  baseUrl: "--judge-base-url",
  threads: "--judge-threads",
};

/** A judge that holds resources (a loaded model) until the run ends. */
export interface DisposableJudge extends Judge {
  /** What the run records about the judge (model file, endpoint, …). */
  readonly settings?: Record<string, unknown>;
  dispose?(): void | Promise<void>;
}

export interface JudgeFactory {
  readonly name: string;
  readonly description: string;
  /** The options it reads; giving any other is an error. Default: none. */
  readonly accepts?: readonly JudgeOptionName[];
  create(options: JudgeOptions): DisposableJudge | Promise<DisposableJudge>;
}

const registry = new Map<string, JudgeFactory>([
  ["none", { name: "none", description: "no judge: judged components score 0 (the reference's --no-judge)", create: () => noJudge }],
  ["llm", llmJudgeFactory()],
  ["openai", openAiJudgeFactory()],
]);

export function registerJudgeFactory(factory: JudgeFactory): () => void {
  const previous = registry.get(factory.name);
  registry.set(factory.name, factory);
  return () => {
    if (previous) registry.set(factory.name, previous);
    else registry.delete(factory.name);
  };
}

export function judgeNames(): string[] {
  return [...registry.keys()];
}

export function listJudges(): { name: string; description: string }[] {
  return [...registry.values()].map((f) => ({ name: f.name, description: f.description }));
}

/** Validate the options for judge `name` and build it. */
export async function createJudge(name: string, rawOptions: JudgeOptions = {}): Promise<DisposableJudge> {
  const factory = registry.get(name);
  if (!factory) throw new BenchError(`judge '${name}' not available (known: ${judgeNames().join(", ")})`);
  const parsed = JudgeOptionsSchema.safeParse(Object.fromEntries(Object.entries(rawOptions).filter(([, v]) => v !== undefined)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    const flag = typeof key === "string" && key in JUDGE_OPTION_FLAGS ? JUDGE_OPTION_FLAGS[key as JudgeOptionName] : String(key ?? "options");
    throw new BenchError(`judge '${name}': invalid ${flag}: ${issue?.message ?? "invalid value"}`);
  }
  const options = parsed.data;
  const accepts = factory.accepts ?? [];
  const rejected = (Object.keys(options) as JudgeOptionName[]).filter((k) => !accepts.includes(k));
  if (rejected.length > 0) throw new BenchError(`judge '${name}' does not take ${rejected.map((k) => JUDGE_OPTION_FLAGS[k]).join(", ")}`);
  return factory.create(options);
}
