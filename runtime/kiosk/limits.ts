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
 * An unpaid purchasable answer holds its session this long after it was quoted: one passenger
 * pays within a minute or two (the screen resets an idle passenger after 60 s + a 30 s warning),
 * and a quote older than this is not sold (the purchase is refused; the passenger asks again).
 */
export const UNPAID_SESSION_TTL_MS = 3 * 60_000;
/**
 * Unpaid purchasable sessions one client may hold; its next one ends its oldest. A kiosk screen
 * serves one passenger at a time, so a handful covers abandoned answers and a second tab.
 */
export const MAX_UNPAID_PER_CLIENT = 5;
/** The client of a call without one (the Electron screen: the kiosk's only local screen). */
export const LOCAL_CLIENT = "screen";

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
  /** Who asked for it (remote address, screen): a flood is weighed against its own client. */
  client: string;
  /** Monotonic ms of the last request. */
  lastActiveMs: number;
  /** Payment in progress, or an answer being computed: never evicted. */
  busy: boolean;
  /** Monotonic ms its unpaid purchasable answer was quoted; null when there is none (or it was bought). */
  quotedAtMs: number | null;
}

/** An unpaid purchasable answer still within its hold (the session is kept for its passenger). */
export function holdsQuote(quotedAtMs: number | null, nowMs: number, ttlMs: number): boolean {
  return quotedAtMs !== null && nowMs - quotedAtMs < ttlMs;
}

/**
 * Which session to evict to make room: the one idle longest among those that hold no fresh quote;
 * failing that, the oldest quote of the client holding the most (a flood pays for itself, never a
 * passenger of another client); null only when every session is busy (the new one is refused).
 */
export function evictionVictim(sessions: Iterable<EvictionCandidate>, nowMs: number, ttlMs: number = UNPAID_SESSION_TTL_MS): string | null {
  let idle: EvictionCandidate | null = null;
  const held: EvictionCandidate[] = [];
  const perClient = new Map<string, number>();
  for (const s of sessions) {
    if (s.busy) continue;
    if (holdsQuote(s.quotedAtMs, nowMs, ttlMs)) {
      held.push(s);
      perClient.set(s.client, (perClient.get(s.client) ?? 0) + 1);
    } else if (!idle || s.lastActiveMs < idle.lastActiveMs) idle = s;
  }
  if (idle) return idle.id;
  let victim: EvictionCandidate | null = null;
  for (const s of held) {
    if (!victim) victim = s;
    else {
      const more = (perClient.get(s.client) ?? 0) - (perClient.get(victim.client) ?? 0);
      if (more > 0 || (more === 0 && (s.quotedAtMs ?? 0) < (victim.quotedAtMs ?? 0))) victim = s;
    }
  }
  return victim?.id ?? null;
}
