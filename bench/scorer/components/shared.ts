// Small readers several components share.
import type { CaseContext } from "../context.ts";
import { dget, pyNum, pyStr } from "../pyvalues.ts";

/** The tools the reference knows; any other name is a hallucinated tool. */
export const KNOWN_TOOLS: ReadonlySet<string> = new Set([
  "route_planner",
  "fare_calculator",
  "station_info",
  "disruption_feed",
  "knowledge_base",
  "line_info",
  "submit_assistant_state",
]);

/** `tolerances.get(key, fallback)`; a present non-number is flagged and the fallback used. */
export function tolerance(ctx: CaseContext, key: string, fallback: number): number {
  const v = dget(ctx.tolerances, key, fallback);
  const n = pyNum(v);
  if (n !== undefined) return n;
  ctx.flag(`tolerances.${key} is not a number (${pyStr(v)}); using ${fallback}`);
  return fallback;
}

/** A list read leniently (`x.get(k, [])` then iterated); a present non-list is flagged and read as []. */
export function listAt(ctx: CaseContext, parent: Record<string, unknown>, key: string, where: string): unknown[] {
  const v = dget(parent, key, []);
  if (Array.isArray(v)) return v;
  if (v !== null) ctx.flag(`${where}.${key} is not a list (read as [])`);
  return [];
}

/** Whether GT admissible_outcomes includes route_and_fare_ready. */
export function admitsRouteAndFare(ctx: CaseContext): boolean {
  return listAt(ctx, ctx.gt, "admissible_outcomes", "ground_truth").includes("route_and_fare_ready");
}
