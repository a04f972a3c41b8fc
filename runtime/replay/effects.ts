// The words a replay uses for what a changed answer means and who travelled, without the replay
// machinery (the operator contract and the renderer import these).

/** What a changed answer means for the passenger, most serious first (the operator reads one). */
export const REPLAY_EFFECTS = ["not_sold", "now_sold", "route", "fare", "notice", "answer"] as const;
export type ReplayEffect = (typeof REPLAY_EFFECTS)[number];

export const RIDER_KINDS = ["adults", "children", "seniors", "disabled"] as const;
export type Riders = Record<(typeof RIDER_KINDS)[number], number>;
