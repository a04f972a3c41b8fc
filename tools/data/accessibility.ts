// What a station's accessibility record means for a rider who needs step-free access. A value
// may be null (an imported feed that says nothing): unknown is never taken as step-free.
import type { z } from "zod";
import type { AccessibilitySchema } from "./schemas.ts";

export type Accessibility = z.infer<typeof AccessibilitySchema>;

/** Step-free for a wheelchair: the station says so, and no lift is known to be missing. */
export function isStepFree(a: Partial<Accessibility> | undefined): boolean {
  return a?.step_free === true && a.elevator !== false;
}

/** Why a station is not step-free, in words for staff and logs (null: it is). */
export function stepFreeProblem(a: Partial<Accessibility> | undefined): string | null {
  if (isStepFree(a)) return null;
  if (a?.step_free === true) return "no working lift";
  return a?.step_free === false ? "no step-free access" : "no known step-free access";
}
