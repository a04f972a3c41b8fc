// The kiosk's thinking budget (issue 15, item 6): a hybrid kiosk's model has a wall-clock deadline,
// so it may think only for what the remaining time buys at this machine's measured decode speed
// (the thread table of models/threads.ts), keeping room for the call that follows. Bench runs keep
// the paper's unlimited thinking (LlmPolicy's default); this is for passengers.
import type { LlmPolicyOptions } from "../runtime/policies/llm.ts";
import { cachedThreadTable, threadsCacheFile } from "./threads.ts";

/**
 * The deadline-derived budget for a model at `threads` here, from the measured decode speed; the
 * paper's setting when this machine has no measurement for that model and thread count.
 */
export function deadlineThinkingBudget(
  modelPath: string,
  gpu: string | false,
  threads: number,
  cacheFile: string = threadsCacheFile(),
): NonNullable<LlmPolicyOptions["thinkingBudget"]> {
  const measured = cachedThreadTable(modelPath, gpu, cacheFile)?.results.find((r) => r.threads === threads);
  return measured && measured.decodeTokS > 0 ? { deadline: { decodeTokS: measured.decodeTokS } } : "paper";
}
