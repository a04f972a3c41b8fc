// The bench's policy registry: `--policy NAME` → a factory that builds the Policy for a run from the
// command's options (--model, --threads, --base-url). Built in: the deterministic policies (rule,
// rule-ref) and the model policies of bench/model-policies.ts (llm, openai, hybrid). Tests and
// embedders replace a factory with `registerPolicyFactory`; a name listed in PLANNED fails with a
// "not available: …" message that says why.
import { z } from "zod";
import { ruleRefPolicy } from "../runtime/policies/rule-ref.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import type { Policy } from "../runtime/session/policy.ts";
import { BenchError } from "./errors.ts";
import type { CaseAnswerer } from "./run/runner.ts";
import { modelPolicyFactories } from "./model-policies.ts";

/** Options a policy factory may read; which ones a factory takes is listed in `accepts`. */
export const PolicyOptionsSchema = z.strictObject({
  /** Model name or file (model policies). */
  model: z.string().min(1).optional(),
  /** CPU threads for a local engine. */
  threads: z.number().int().positive().optional(),
  /** Endpoint of an OpenAI-compatible server. */
  baseUrl: z.url().optional(),
});
export type PolicyOptions = z.infer<typeof PolicyOptionsSchema>;
export type PolicyOptionName = keyof PolicyOptions;

/** The flag that sets each option, for messages. */
export const POLICY_OPTION_FLAGS: Readonly<Record<PolicyOptionName, string>> = {
  model: "--model",
  threads: "--threads",
  baseUrl: "--base-url",
};

/** A policy built for one run, and what to release when the run ends. */
export interface PolicyHandle {
  /** The policy each case's session runs; with `answerCase`, the model policy the pipeline calls. */
  policy: Policy;
  /** Answer each case as a whole instead (the kiosk's answer pipeline: `--policy hybrid`). */
  answerCase?: CaseAnswerer;
  /** What the run records as its model (the model name, or the policy id for rule policies). */
  model: string;
  /** Settings worth recording with the run (e.g. thinking, max tokens, the resolved model file). */
  settings?: Record<string, unknown>;
  dispose?(): void | Promise<void>;
}

export interface PolicyFactory {
  readonly name: string;
  readonly description: string;
  /** Same input, same transcript: no point in more than one worker, resumes reproduce exactly. */
  readonly deterministic: boolean;
  /** The options it reads; giving any other is an error (so a typo'd run is not silently a rule run). */
  readonly accepts: readonly PolicyOptionName[];
  create(options: PolicyOptions): PolicyHandle | Promise<PolicyHandle>;
}

const BUILT_IN: readonly PolicyFactory[] = [
  {
    name: "rule",
    description: "the kiosk's embedded deterministic policy (the default at the kiosk)",
    deterministic: true,
    accepts: [],
    create: () => ({ policy: rulePolicy, model: "rule" }),
  },
  {
    name: "rule-ref",
    description: "the reference rule-based baseline, quirks included (the published 84.6 Tier 1 held-out)",
    deterministic: true,
    accepts: [],
    create: () => ({ policy: ruleRefPolicy, model: "rule-based" }),
  },
  ...modelPolicyFactories(),
];

/** Policies the bench knows of whose factories are not registered yet, and why (none at present). */
const PLANNED: Readonly<Record<string, string>> = {};

const registry = new Map<string, PolicyFactory>(BUILT_IN.map((f) => [f.name, f]));

/** The policy cannot be used: unknown, not registered yet, or given options it does not take. */
export class PolicyNotAvailableError extends BenchError {
  override name = "PolicyNotAvailableError";
}

/**
 * Register (or replace) a factory. Returns a function that restores what was registered before,
 * for tests.
 */
export function registerPolicyFactory(factory: PolicyFactory): () => void {
  const previous = registry.get(factory.name);
  registry.set(factory.name, factory);
  return () => {
    if (previous) registry.set(factory.name, previous);
    else registry.delete(factory.name);
  };
}

/** Registered factories, then the planned names that have none yet. */
export function listPolicies(): { name: string; description: string; available: boolean }[] {
  const out = [...registry.values()].map((f) => ({ name: f.name, description: f.description, available: true }));
  for (const [name, why] of Object.entries(PLANNED)) {
    if (!registry.has(name)) out.push({ name, description: `not available: ${why}`, available: false });
  }
  return out;
}

export function policyFactory(name: string): PolicyFactory {
  const factory = registry.get(name);
  if (factory) return factory;
  const planned = PLANNED[name];
  if (planned !== undefined) throw new PolicyNotAvailableError(`policy '${name}' not available: ${planned}`);
  throw new PolicyNotAvailableError(`policy '${name}' not available: unknown policy (known: ${[...registry.keys(), ...Object.keys(PLANNED).filter((n) => !registry.has(n))].join(", ")})`);
}

/** Validate the options for `name` and build its policy. */
export async function createPolicy(name: string, rawOptions: PolicyOptions): Promise<{ factory: PolicyFactory; handle: PolicyHandle; options: PolicyOptions }> {
  const factory = policyFactory(name);
  const parsed = PolicyOptionsSchema.safeParse(Object.fromEntries(Object.entries(rawOptions).filter(([, v]) => v !== undefined)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    const flag = typeof key === "string" && key in POLICY_OPTION_FLAGS ? POLICY_OPTION_FLAGS[key as PolicyOptionName] : String(key ?? "options");
    throw new PolicyNotAvailableError(`policy '${name}': invalid ${flag}: ${issue?.message ?? "invalid value"}`);
  }
  const options = parsed.data;
  const rejected = (Object.keys(options) as PolicyOptionName[]).filter((k) => !factory.accepts.includes(k));
  if (rejected.length > 0) {
    throw new PolicyNotAvailableError(`policy '${name}' does not take ${rejected.map((k) => POLICY_OPTION_FLAGS[k]).join(", ")}`);
  }
  return { factory, handle: await factory.create(options), options };
}
