// Bounds on what one passenger session, and all of them together, may hold: a session's history
// is replayed to the policy on every follow-up, so an unbounded one grows memory and the time of
// each answer without end (issue 13, finding 6). Past a bound the passenger gets a clear message
// and starts again; the kiosk keeps serving everyone else.

/** Follow-ups per session (a real conversation at a kiosk is a handful of turns). */
export const MAX_TURNS_PER_SESSION = 30;
/** Bytes of events one session may accumulate (typed text, choices), as JSON. */
export const MAX_SESSION_BYTES = 64 * 1024;
/** Live sessions kept in memory at once. */
export const MAX_LIVE_SESSIONS = 200;
/**
 * A session idle this long may be evicted even if its answer could still be bought (the screen
 * resets an idle passenger long before: 60 s + a 30 s warning).
 */
export const PURCHASABLE_SESSION_TTL_MS = 10 * 60_000;

/** The passenger's session is full (→ HTTP 413, IPC rejection): start again. */
export class KioskLimitError extends Error {
  override name = "KioskLimitError";
  constructor(
    message: string,
    readonly code: "session_turns" | "session_bytes" | "kiosk_busy",
  ) {
    super(message);
  }
}

/** JSON size of a turn's events (what the session keeps and replays). */
export function eventBytes(events: unknown): number {
  return new TextEncoder().encode(JSON.stringify(events)).length;
}

/** Refuse a follow-up that would take the session past its bounds. */
export function checkSessionRoom(turns: number, bytes: number, next: unknown): void {
  if (turns >= MAX_TURNS_PER_SESSION) {
    throw new KioskLimitError(`This conversation has reached ${MAX_TURNS_PER_SESSION} questions. Please start again to continue.`, "session_turns");
  }
  if (bytes + eventBytes(next) > MAX_SESSION_BYTES) {
    throw new KioskLimitError("This conversation is too long for the kiosk to keep. Please start again to continue.", "session_bytes");
  }
}

export interface EvictionCandidate {
  id: string;
  /** Monotonic ms of the last request. */
  lastActiveMs: number;
  /** Payment in progress, or an answer being computed: never evicted. */
  busy: boolean;
  /** The answer can be bought and has not been: kept until PURCHASABLE_SESSION_TTL_MS idle. */
  purchasable: boolean;
}

/**
 * Which session to evict to make room: the one idle longest among those that are neither busy
 * nor (recently) purchasable; null when every session is protected (the new one is refused).
 */
export function evictionVictim(sessions: Iterable<EvictionCandidate>, nowMs: number): string | null {
  let victim: EvictionCandidate | null = null;
  for (const s of sessions) {
    if (s.busy) continue;
    if (s.purchasable && nowMs - s.lastActiveMs < PURCHASABLE_SESSION_TTL_MS) continue;
    if (!victim || s.lastActiveMs < victim.lastActiveMs) victim = s;
  }
  return victim?.id ?? null;
}
