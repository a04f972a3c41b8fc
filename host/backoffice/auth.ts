// Who may use the back office (issue 18). Kiosks: a token per kiosk, stored as the sha256 of a
// 32-byte random token — 256 random bits cannot be guessed, so a fast hash is enough and keeps each
// request cheap (scrypt is for low-entropy secrets). People: a user name and password stored as an
// scrypt hash with a random salt; a login gives a random 32-byte session id kept in memory, which
// expires after 30 minutes idle; failed logins are limited per client address and per user name.
import type { BackOfficeStore } from "./store.ts";
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from "node:crypto";

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 };

export function newKioskToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashKioskToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Who may act as a kiosk. A kiosk given its own token is bound to it: only that token is accepted
 * for its id, and once revoked nothing is (revocation always wins, the shared fleet token included).
 * The shared fleet token — deprecated — is accepted only for kiosk ids that never had a token of
 * their own; each such use is reported through `onSharedToken`.
 */
export function kioskAuthorizer(
  store: Pick<BackOfficeStore, "kioskToken">,
  fleetToken: string | null,
  onSharedToken: (kioskId: string) => void = () => undefined,
): (kioskId: string, token: string) => Promise<boolean> {
  return async (kioskId, given) => {
    const own = await store.kioskToken(kioskId);
    if (own !== null) return !own.revoked && sameSecret(own.hash, hashKioskToken(given));
    if (fleetToken === null || !sameSecret(fleetToken, given)) return false;
    onSharedToken(kioskId);
    return true;
  };
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** "scrypt$N$r$p$salt$hash" (base64url parts). */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/**
 * Whether `password` matches the stored scrypt hash. The scrypt work runs on libuv's thread pool, not
 * on the event loop: a burst of logins never holds up the kiosks' batches and heartbeats.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, Buffer.from(salt, "base64url"), expected.length, { N: Number(n), r: Number(r), p: Number(p) }, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return timingSafeEqual(actual, expected);
}

/** A hash to compare against when the user does not exist, so that case takes as long as a wrong password. */
export const DUMMY_PASSWORD_HASH = hashPassword(randomBytes(16).toString("hex"));

export const SESSION_IDLE_MS = 30 * 60_000;

export class Sessions {
  private readonly sessions = new Map<string, { user: string; lastUsed: number }>();
  constructor(private readonly now: () => number, private readonly idleMs = SESSION_IDLE_MS) {}

  create(user: string): string {
    const id = randomBytes(32).toString("base64url");
    this.sessions.set(id, { user, lastUsed: this.now() });
    return id;
  }

  /** The session's user (and its idle timer restarted), or null when unknown or expired. */
  touch(id: string | null): string | null {
    if (id === null) return null;
    const session = this.sessions.get(id);
    if (!session) return null;
    if (this.now() - session.lastUsed > this.idleMs) {
      this.sessions.delete(id);
      return null;
    }
    session.lastUsed = this.now();
    return session.user;
  }

  end(id: string | null): void {
    if (id !== null) this.sessions.delete(id);
  }
}

export interface LoginAttempt {
  /** The password was right: the attempt no longer counts against its keys. */
  succeed(): void;
  /** How long to hold a failed attempt's answer: doubling with each recent failure of its keys. */
  failureDelayMs(): number;
}

/**
 * Failed logins, limited per key — the client's address and the user name — in a sliding window.
 * An attempt is counted *before* the password is checked (begin), so logins sent at once cannot
 * slip past the limit while their checks run; a right password takes its attempt back.
 */
export class LoginLimiter {
  private readonly attempts = new Map<string, number[]>();
  constructor(
    private readonly now: () => number,
    private readonly options: { limit?: number; windowMs?: number; baseDelayMs?: number; maxDelayMs?: number } = {},
  ) {}

  private recent(key: string): number[] {
    const windowMs = this.options.windowMs ?? 60_000;
    const list = (this.attempts.get(key) ?? []).filter((t) => this.now() - t < windowMs);
    if (list.length > 0) this.attempts.set(key, list);
    else this.attempts.delete(key);
    return list;
  }

  /** Count an attempt for every key, or — when any key is at its limit — say how many seconds to wait. */
  begin(keys: readonly string[]): { ok: true; attempt: LoginAttempt } | { ok: false; retryAfterS: number } {
    // Made-up user names each leave a key behind for a window: sweep the expired ones now and then.
    if (this.attempts.size > 10_000) for (const key of [...this.attempts.keys()]) this.recent(key);
    const limit = this.options.limit ?? 5;
    const windowMs = this.options.windowMs ?? 60_000;
    const full = keys.map((key) => this.recent(key)).filter((list) => list.length >= limit);
    if (full.length > 0) {
      const waitMs = Math.max(...full.map((list) => windowMs - (this.now() - list[list.length - limit]!)));
      return { ok: false, retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    const at = this.now();
    for (const key of keys) this.attempts.set(key, [...this.recent(key), at]);
    return {
      ok: true,
      attempt: {
        succeed: () => {
          for (const key of keys) {
            const list = this.recent(key);
            const i = list.indexOf(at);
            if (i >= 0) list.splice(i, 1);
            if (list.length === 0) this.attempts.delete(key);
          }
        },
        failureDelayMs: () => {
          const failures = Math.max(...keys.map((key) => this.recent(key).length));
          return Math.min((this.options.baseDelayMs ?? 250) * 2 ** Math.max(0, failures - 1), this.options.maxDelayMs ?? 8_000);
        },
      },
    };
  }
}
