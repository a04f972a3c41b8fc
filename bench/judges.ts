// The bench's judge registry: `--judge NAME` → a Judge for the six judged Tier 2 components.
// Only "none" (the reference's --no-judge) is built in; a model judge registers a factory here, and
// the run then caches its judgments in the bench database (table `judgments`, keyed by judgmentKey).
import { noJudge, type Judge } from "./scorer/index.ts";
import { BenchError } from "./errors.ts";

export interface JudgeFactory {
  readonly name: string;
  readonly description: string;
  create(): Judge | Promise<Judge>;
}

const registry = new Map<string, JudgeFactory>([
  ["none", { name: "none", description: "no judge: judged components score 0 (the reference's --no-judge)", create: () => noJudge }],
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

export async function createJudge(name: string): Promise<Judge> {
  const factory = registry.get(name);
  if (!factory) throw new BenchError(`judge '${name}' not available (known: ${judgeNames().join(", ")})`);
  return factory.create();
}
