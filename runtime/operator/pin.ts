// The operator PIN: stored only as a salted scrypt hash the operator configures (environment
// variable or a config file written by `kiosk operator set-pin`), checked in constant time, and
// rate-limited for the whole kiosk — the attacker stands at the screen, so the limit is per kiosk,
// not per operator name. After `freeAttempts` wrong PINs in a row every further attempt waits a
// lockout that doubles from `lockoutMs` up to `maxLockoutMs`; a correct PIN resets it. During a
// lockout even the correct PIN is refused (it is not checked at all). With `stateFile` the count
// and the lockout's expiry are stored (wall-clock time) before the PIN is even checked, so
// neither a restart nor a crash in the middle of a check gives fresh guesses (issue 13, finding 4).
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

const PinStateSchema = z.object({ failures: z.number().int().nonnegative(), lockedUntil: z.number().nonnegative() });

export interface PinGateOptions {
  /** The encoded hash; null when no PIN is configured (every login is refused as "not_configured"). */
  hash: string | null;
  /** Wrong PINs in a row before lockouts start (default 3). */
  freeAttempts?: number;
  /** First lockout (default 30 s); it doubles with each further wrong PIN. */
  lockoutMs?: number;
  maxLockoutMs?: number;
  /** Wall-clock milliseconds (injectable for tests); stored lockouts are in this time. */
  now?: () => number;
  /** Keep the failure count and lockout here, across restarts (owner-only, written atomically). */
  stateFile?: string;
  log?: (message: string) => void;
}

export type PinCheck =
  | { ok: true }
  | { ok: false; reason: "wrong_pin" | "locked" | "not_configured"; retryAfterMs: number; attemptsLeft: number };

export class PinGate {
  private failures = 0;
  private lockedUntil = 0;
  private readonly freeAttempts: number;
  private readonly lockoutMs: number;
  private readonly maxLockoutMs: number;
  private readonly now: () => number;
  /** One check at a time, so parallel guesses cannot slip past the counter. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PinGateOptions) {
    if (options.hash !== null) parseHash(options.hash);
    this.freeAttempts = options.freeAttempts ?? 3;
    this.lockoutMs = options.lockoutMs ?? 30_000;
    this.maxLockoutMs = options.maxLockoutMs ?? 15 * 60_000;
    this.now = options.now ?? (() => Date.now());
    this.load();
  }

  /**
   * The stored state. Unreadable or damaged: as if the free attempts were used up (the next wrong
   * PIN locks) — a broken file must not hand out fresh guesses. A stored lockout longer than the
   * longest one (a clock set back) is cut to it.
   */
  private load(): void {
    const file = this.options.stateFile;
    if (!file || !existsSync(file)) return;
    try {
      const state = PinStateSchema.parse(JSON.parse(readFileSync(file, "utf8")));
      this.failures = state.failures;
      this.lockedUntil = Math.min(state.lockedUntil, this.now() + this.maxLockoutMs);
    } catch (err) {
      this.failures = Math.max(this.failures, this.freeAttempts);
      this.options.log?.(`operator lockout state ${file} is unreadable (${(err as Error).message}): counting the free attempts as used`);
    }
  }

  /** Store the state; false when it cannot be stored. */
  private save(): boolean {
    const file = this.options.stateFile;
    if (!file) return true;
    try {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      writeFileAtomic(file, `${JSON.stringify({ failures: this.failures, lockedUntil: this.lockedUntil })}\n`, { mode: 0o600 });
      return true;
    } catch (err) {
      this.options.log?.(`operator lockout state ${file} cannot be written: ${(err as Error).message}`);
      return false;
    }
  }

  get configured(): boolean {
    return this.options.hash !== null;
  }

  private state(): { retryAfterMs: number; attemptsLeft: number } {
    const retryAfterMs = Math.max(0, Math.ceil(this.lockedUntil - this.now()));
    return { retryAfterMs, attemptsLeft: retryAfterMs > 0 ? 0 : Math.max(0, this.freeAttempts - this.failures) };
  }

  check(pin: string): Promise<PinCheck> {
    const run = this.queue.then(() => this.checkNow(pin));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async checkNow(pin: string): Promise<PinCheck> {
    const hash = this.options.hash;
    if (hash === null) return { ok: false, reason: "not_configured", retryAfterMs: 0, attemptsLeft: 0 };
    if (this.lockedUntil > this.now()) return { ok: false, reason: "locked", ...this.state() };
    // Count the attempt as wrong before checking it: a crash mid-check has spent the guess.
    const before = { failures: this.failures, lockedUntil: this.lockedUntil };
    this.failures++;
    const over = this.failures - this.freeAttempts;
    if (over >= 0) this.lockedUntil = this.now() + Math.min(this.maxLockoutMs, this.lockoutMs * 2 ** over);
    if (!this.save()) {
      // A guess that cannot be counted is not checked.
      Object.assign(this, before);
      return { ok: false, reason: "locked", retryAfterMs: this.lockoutMs, attemptsLeft: 0 };
    }
    if (await verifyPin(pin, hash)) {
      this.failures = 0;
      this.lockedUntil = 0;
      this.save();
      return { ok: true };
    }
    return { ok: false, reason: over >= 0 ? "locked" : "wrong_pin", ...this.state() };
  }
}
