// The operator PIN: stored only as a salted scrypt hash the operator configures (environment
// variable or a config file written by `kiosk operator set-pin`), checked in constant time, and
// rate-limited per source — the screen, or a remote address of `kiosk serve` — not per operator
// name: after `freeAttempts` wrong PINs in a row from one source every further attempt from it
// waits a lockout that doubles from `lockoutMs` up to `maxLockoutMs`; a correct PIN resets it.
// During a lockout even the correct PIN is refused at that source (it is not checked at all), while
// the real operator at another source can still log in, and a technician logged in can clear a
// source's lockout (clearLockout). Sources are cheap to make up (addresses, page ids), so wrong PINs
// of all sources together are bounded too: past `globalFreeFailures` in `globalWindowMs`, one
// check per `globalSpacingMs` for the whole kiosk — slower for everyone, locked for no one. With
// `stateFile` the counts and lockouts are stored (wall-clock time) before the PIN is even checked,
// so neither a restart nor a crash in the middle of a check gives fresh guesses (issue 13, finding 4).
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../fs/atomic-write.ts";

export const PIN_HASH_ENV = "KIOSK_OPERATOR_PIN_HASH";
export const OPERATOR_CONFIG_ENV = "KIOSK_OPERATOR_CONFIG";
export const PIN_PATTERN = /^\d{4,12}$/;

/** scrypt cost parameters (N=2^15 takes ~50 ms and 32 MiB: fine for a login, slow for guessing). */
const DEFAULT_COST = { N: 32768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const HASH_PATTERN = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

export class PinConfigError extends Error {
  override name = "PinConfigError";
}

function scrypt(pin: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(pin, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(encoded: string): ParsedHash {
  const m = HASH_PATTERN.exec(encoded.trim());
  if (!m) throw new PinConfigError("the operator PIN hash is not in the form scrypt$N$r$p$salt$hash (create one with `kiosk operator hash-pin`)");
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!Number.isInteger(Math.log2(N)) || N < 1024 || N > 1 << 20 || r < 1 || r > 32 || p < 1 || p > 16) {
    throw new PinConfigError(`the operator PIN hash has unusable scrypt parameters (N=${N}, r=${r}, p=${p})`);
  }
  const salt = Buffer.from(m[4]!, "base64");
  const key = Buffer.from(m[5]!, "base64");
  if (salt.length < 16 || key.length < 16) throw new PinConfigError("the operator PIN hash has a salt or key that is too short");
  return { N, r, p, salt, key };
}

/** Hash a PIN for the configuration: `scrypt$N$r$p$<salt base64>$<key base64>`, with a fresh random salt. */
export async function hashPin(pin: string, cost: { N: number; r: number; p: number } = DEFAULT_COST): Promise<string> {
  if (!PIN_PATTERN.test(pin)) throw new PinConfigError("the PIN must be 4 to 12 digits");
  const salt = randomBytes(16);
  const key = await scrypt(pin, salt, KEY_LENGTH, { ...cost, maxmem: 256 * cost.N * cost.r });
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Does `pin` match the encoded hash? Constant-time comparison of the derived keys. */
export async function verifyPin(pin: string, encoded: string): Promise<boolean> {
  const h = parseHash(encoded);
  if (!PIN_PATTERN.test(pin)) return false;
  const key = await scrypt(pin, h.salt, h.key.length, { N: h.N, r: h.r, p: h.p, maxmem: 256 * h.N * h.r });
  return key.length === h.key.length && timingSafeEqual(key, h.key);
}

/** The operator config file: `{ "pinHash": "scrypt$…" }`. */
export const OperatorConfigSchema = z.object({ pinHash: z.string().min(1) });
export type OperatorConfig = z.infer<typeof OperatorConfigSchema>;

/**
 * Where the PIN hash comes from: $KIOSK_OPERATOR_PIN_HASH, else the config file ($KIOSK_OPERATOR_CONFIG
 * or `defaultFile`). Null when neither is set: the operator tools then stay locked ("not set up").
 */
export function loadPinHash(options: { env?: NodeJS.ProcessEnv; file?: string | undefined; defaultFile?: string | undefined }): { hash: string; source: string } | null {
  const env = options.env ?? process.env;
  const fromEnv = env[PIN_HASH_ENV]?.trim();
  if (fromEnv) {
    parseHash(fromEnv);
    return { hash: fromEnv, source: `$${PIN_HASH_ENV}` };
  }
  const file = options.file ?? env[OPERATOR_CONFIG_ENV] ?? options.defaultFile;
  if (!file || !existsSync(file)) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new PinConfigError(`operator config ${file}: ${(err as Error).message}`);
  }
  const parsed = OperatorConfigSchema.safeParse(json);
  if (!parsed.success) throw new PinConfigError(`operator config ${file}: expected {"pinHash": "scrypt$…"}`);
  parseHash(parsed.data.pinHash);
  return { hash: parsed.data.pinHash, source: file };
}

/** Write the config file (owner-only permissions, atomically, never through a planted symlink). */
export function writeOperatorConfig(file: string, config: OperatorConfig): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

/** Where the lockout state lives: beside the operator config file. */
export function pinStateFileFor(operatorConfig: string): string {
  return path.join(path.dirname(path.resolve(operatorConfig)), "operator-lockout.json");
}

/** The source of a login without one (the Electron screen: the kiosk's only local screen). */
export const LOCAL_PIN_SOURCE = "screen";
/** The stored key of the state every source not listed starts from (set by a damaged or old state file). */
const ANY_SOURCE = "*";
/** Sources whose count is remembered; past it the one whose lockout ends first is forgotten. */
const MAX_SOURCES = 1024;

const SourceStateSchema = z.object({ failures: z.number().int().nonnegative(), lockedUntil: z.number().nonnegative() });
type SourceState = z.infer<typeof SourceStateSchema>;
/** The state file: each source's count and lockout, and the times of recent wrong PINs (any source). */
const PinStateSchema = z.union([
  z.object({ sources: z.record(z.string(), SourceStateSchema), recent: z.array(z.number()) }),
  // A file from before lockouts were per source: its lockout holds for every source.
  SourceStateSchema.transform((legacy) => ({ sources: { [ANY_SOURCE]: legacy }, recent: [] as number[] })),
]);

export interface PinGateOptions {
  /** The encoded hash; null when no PIN is configured (every login is refused as "not_configured"). */
  hash: string | null;
  /** Wrong PINs in a row from one source before its lockouts start (default 3). */
  freeAttempts?: number;
  /** First lockout (default 30 s); it doubles with each further wrong PIN. */
  lockoutMs?: number;
  maxLockoutMs?: number;
  /** Wrong PINs from all sources together within globalWindowMs before checks are spaced out (default 20 in 10 minutes). */
  globalFreeFailures?: number;
  globalWindowMs?: number;
  /** Past that, one check per this long for the whole kiosk (default 30 s): slower for everyone, locked for no one. */
  globalSpacingMs?: number;
  /** Wall-clock milliseconds (injectable for tests); stored lockouts are in this time. */
  now?: () => number;
  /** Keep the failure counts and lockouts here, across restarts (owner-only, written atomically). */
  stateFile?: string;
  log?: (message: string) => void;
}

export type PinCheck =
  | { ok: true }
  | { ok: false; reason: "wrong_pin" | "locked" | "not_configured"; retryAfterMs: number; attemptsLeft: number };

export class PinGate {
  /** Per source (a remote address, the screen): wrong PINs lock out the source that typed them. */
  private sources = new Map<string, SourceState>();
  /** Wall-clock times of recent wrong PINs, all sources together (the global ceiling). */
  private recent: number[] = [];
  private lastCheckAt = Number.NEGATIVE_INFINITY;
  private readonly freeAttempts: number;
  private readonly lockoutMs: number;
  private readonly maxLockoutMs: number;
  private readonly globalFreeFailures: number;
  private readonly globalWindowMs: number;
  private readonly globalSpacingMs: number;
  private readonly now: () => number;
  /** One check at a time, so parallel guesses cannot slip past the counter. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PinGateOptions) {
    if (options.hash !== null) parseHash(options.hash);
    this.freeAttempts = options.freeAttempts ?? 3;
    this.lockoutMs = options.lockoutMs ?? 30_000;
    this.maxLockoutMs = options.maxLockoutMs ?? 15 * 60_000;
    this.globalFreeFailures = options.globalFreeFailures ?? 20;
    this.globalWindowMs = options.globalWindowMs ?? 10 * 60_000;
    this.globalSpacingMs = options.globalSpacingMs ?? 30_000;
    this.now = options.now ?? (() => Date.now());
    this.load();
  }

  /**
   * The stored state. Unreadable or damaged: as if every source had used its free attempts (the
   * next wrong PIN locks) — a broken file must not hand out fresh guesses. A stored lockout longer
   * than the longest one (a clock set back) is cut to it.
   */
  private load(): void {
    const file = this.options.stateFile;
    if (!file || !existsSync(file)) return;
    try {
      const state = PinStateSchema.parse(JSON.parse(readFileSync(file, "utf8")));
      const latest = this.now() + this.maxLockoutMs;
      this.sources = new Map(Object.entries(state.sources).map(([source, s]) => [source, { failures: s.failures, lockedUntil: Math.min(s.lockedUntil, latest) }]));
      this.recent = state.recent.slice(-this.globalFreeFailures);
    } catch (err) {
      this.sources = new Map([[ANY_SOURCE, { failures: this.freeAttempts, lockedUntil: 0 }]]);
      this.options.log?.(`operator lockout state ${file} is unreadable (${(err as Error).message}): counting the free attempts as used`);
    }
  }

  /** Store the state; false when it cannot be stored. */
  private save(): boolean {
    const file = this.options.stateFile;
    if (!file) return true;
    try {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      writeFileAtomic(file, `${JSON.stringify({ sources: Object.fromEntries(this.sources), recent: this.recent })}\n`, { mode: 0o600 });
      return true;
    } catch (err) {
      this.options.log?.(`operator lockout state ${file} cannot be written: ${(err as Error).message}`);
      return false;
    }
  }

  get configured(): boolean {
    return this.options.hash !== null;
  }

  private stateOf(source: string): SourceState {
    return { ...(this.sources.get(source) ?? this.sources.get(ANY_SOURCE) ?? { failures: 0, lockedUntil: 0 }) };
  }

  private setState(source: string, state: SourceState): void {
    this.sources.delete(source);
    this.sources.set(source, state);
    if (this.sources.size <= MAX_SOURCES) return;
    let first: [string, SourceState] | null = null;
    for (const entry of this.sources) if (entry[0] !== ANY_SOURCE && entry[0] !== source && (!first || entry[1].lockedUntil < first[1].lockedUntil)) first = entry;
    if (first) this.sources.delete(first[0]);
  }

  private view(state: SourceState): { retryAfterMs: number; attemptsLeft: number } {
    const retryAfterMs = Math.max(0, Math.ceil(state.lockedUntil - this.now()));
    return { retryAfterMs, attemptsLeft: retryAfterMs > 0 ? 0 : Math.max(0, this.freeAttempts - state.failures) };
  }

  /** Check a PIN typed at `source` (the screen, a remote address): its wrong PINs lock out that source only. */
  check(pin: string, source: string = LOCAL_PIN_SOURCE): Promise<PinCheck> {
    const run = this.queue.then(() => this.checkNow(pin, source));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The technician's override: forget the wrong PINs of one source (or of all, and the kiosk-wide
   * slow-down); returns the sources that were locked out.
   */
  clearLockout(source?: string): string[] {
    const now = this.now();
    const locked = [...this.sources].filter(([s, state]) => (source === undefined || s === source || s === ANY_SOURCE) && state.lockedUntil > now).map(([s]) => s);
    if (source === undefined) {
      this.sources.clear();
      this.recent = [];
      this.lastCheckAt = Number.NEGATIVE_INFINITY;
    } else {
      this.sources.delete(source);
      // A source the damaged or old file locked gets its own clean count.
      if (this.sources.has(ANY_SOURCE)) this.setState(source, { failures: 0, lockedUntil: 0 });
    }
    this.save();
    return locked.map((s) => (s === ANY_SOURCE ? (source ?? "every source") : s));
  }

  private async checkNow(pin: string, source: string): Promise<PinCheck> {
    const hash = this.options.hash;
    if (hash === null) return { ok: false, reason: "not_configured", retryAfterMs: 0, attemptsLeft: 0 };
    const now = this.now();
    const state = this.stateOf(source);
    if (state.lockedUntil > now) return { ok: false, reason: "locked", ...this.view(state) };
    // Many wrong PINs kiosk-wide (from many sources): one check per spacing, for everyone — the
    // total guess rate stays bounded while the real operator still gets a turn.
    this.recent = this.recent.filter((t) => now - t < this.globalWindowMs);
    const wait = this.lastCheckAt + this.globalSpacingMs - now;
    if (this.recent.length >= this.globalFreeFailures && wait > 0) return { ok: false, reason: "locked", retryAfterMs: Math.ceil(wait), attemptsLeft: this.view(state).attemptsLeft };
    // Count the attempt as wrong before checking it: a crash mid-check has spent the guess.
    const before = { sources: new Map(this.sources), recent: this.recent, lastCheckAt: this.lastCheckAt };
    state.failures++;
    const over = state.failures - this.freeAttempts;
    if (over >= 0) state.lockedUntil = now + Math.min(this.maxLockoutMs, this.lockoutMs * 2 ** over);
    this.setState(source, state);
    this.recent = [...this.recent, now].slice(-this.globalFreeFailures);
    this.lastCheckAt = now;
    if (!this.save()) {
      // A guess that cannot be counted is not checked.
      Object.assign(this, before);
      return { ok: false, reason: "locked", retryAfterMs: this.lockoutMs, attemptsLeft: 0 };
    }
    if (await verifyPin(pin, hash)) {
      // The right PIN: this source starts afresh, and a damaged file's caution has served its turn.
      this.sources.delete(source);
      this.sources.delete(ANY_SOURCE);
      this.recent = this.recent.slice(0, -1);
      this.save();
      return { ok: true };
    }
    return { ok: false, reason: over >= 0 ? "locked" : "wrong_pin", ...this.view(state) };
  }
}
