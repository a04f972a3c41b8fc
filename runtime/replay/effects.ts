// The words a replay uses for what a changed answer means and who travelled, without the replay
// machinery (the operator contract and the renderer import these).
import type { RIDER_TYPES } from "../../tools/data/schemas.ts";

/** What a changed answer means for the passenger, most serious first (the operator reads one). */
export const REPLAY_EFFECTS = ["not_sold", "now_sold", "route", "fare", "notice", "answer"] as const;
export type ReplayEffect = (typeof REPLAY_EFFECTS)[number];

export type Riders = Record<(typeof RIDER_TYPES)[number], number>;
