import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashPin, loadPinHash, PIN_HASH_ENV, PinConfigError, PinGate, verifyPin, writeOperatorConfig } from "./pin.ts";

const CHEAP = { N: 1024, r: 8, p: 1 };
const dir = mkdtempSync(path.join(tmpdir(), "kiosk-pin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("PIN hash", () => {
  it("is salted scrypt: the same PIN hashes differently each time and verifies", async () => {
    const a = await hashPin("482916", CHEAP);
    const b = await hashPin("482916", CHEAP);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("482916");
    expect(await verifyPin("482916", a)).toBe(true);
    expect(await verifyPin("482916", b)).toBe(true);
    expect(await verifyPin("482917", a)).toBe(false);
    expect(await verifyPin("", a)).toBe(false);
    expect(await verifyPin("48291６", a)).toBe(false);
  });

  it("uses a slow default cost", async () => {
    expect(await hashPin("1234")).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it("refuses PINs that are not 4 to 12 digits and malformed hashes", async () => {
    await expect(hashPin("123", CHEAP)).rejects.toThrow(PinConfigError);
    await expect(hashPin("12345678901234", CHEAP)).rejects.toThrow(PinConfigError);
    await expect(hashPin("12a4", CHEAP)).rejects.toThrow(PinConfigError);
    await expect(verifyPin("1234", "sha256$abc")).rejects.toThrow(/scrypt\$N\$r\$p\$salt\$hash/);
    await expect(verifyPin("1234", "scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA==")).rejects.toThrow(/unusable scrypt parameters/);
    expect(() => new PinGate({ hash: "1234" })).toThrow(PinConfigError);
  });
});

describe("PIN configuration", () => {
  it("comes from the environment first, then the config file; none means not configured", async () => {
    const hash = await hashPin("2468", CHEAP);
    const file = path.join(dir, "operator.json");
    expect(loadPinHash({ env: {}, defaultFile: file })).toBeNull();
    writeOperatorConfig(file, { pinHash: hash });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ pinHash: hash });
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadPinHash({ env: {}, defaultFile: file })).toEqual({ hash, source: file });
    expect(loadPinHash({ env: { KIOSK_OPERATOR_CONFIG: file }, defaultFile: path.join(dir, "nope.json") })?.hash).toBe(hash);
    const other = await hashPin("1357", CHEAP);
    expect(loadPinHash({ env: { [PIN_HASH_ENV]: other }, defaultFile: file })).toEqual({ hash: other, source: `$${PIN_HASH_ENV}` });
  });

  it("reports a broken config file or hash instead of running without a PIN", () => {
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, "{ not json");
    expect(() => loadPinHash({ env: {}, file: bad })).toThrow(/operator config .*bad\.json/);
    writeFileSync(bad, JSON.stringify({ pin: "1234" }));
    expect(() => loadPinHash({ env: {}, file: bad })).toThrow(/expected \{"pinHash"/);
    expect(() => loadPinHash({ env: { [PIN_HASH_ENV]: "1234" } })).toThrow(PinConfigError);
  });
});

describe("PIN rate limit", () => {
  it("allows three wrong PINs, then locks out with doubling delays; the right PIN resets it", async () => {
    let now = 0;
    const gate = new PinGate({ hash: await hashPin("9731", CHEAP), now: () => now, lockoutMs: 30_000, maxLockoutMs: 100_000 });
    expect(await gate.check("0000")).toEqual({ ok: false, reason: "wrong_pin", retryAfterMs: 0, attemptsLeft: 2 });
    expect(await gate.check("0001")).toEqual({ ok: false, reason: "wrong_pin", retryAfterMs: 0, attemptsLeft: 1 });
    expect(await gate.check("0002")).toEqual({ ok: false, reason: "locked", retryAfterMs: 30_000, attemptsLeft: 0 });
    // Locked: even the right PIN is refused, without being checked.
    now = 29_999;
    expect(await gate.check("9731")).toEqual({ ok: false, reason: "locked", retryAfterMs: 1, attemptsLeft: 0 });
    now = 30_000;
    expect(await gate.check("0003")).toEqual({ ok: false, reason: "locked", retryAfterMs: 60_000, attemptsLeft: 0 });
    now = 90_000;
    expect(await gate.check("0004")).toEqual({ ok: false, reason: "locked", retryAfterMs: 100_000, attemptsLeft: 0 });
    now = 190_000;
    expect(await gate.check("9731")).toEqual({ ok: true });
    expect(await gate.check("0005")).toEqual({ ok: false, reason: "wrong_pin", retryAfterMs: 0, attemptsLeft: 2 });
  });

  it("counts parallel guesses one by one", async () => {
    const gate = new PinGate({ hash: await hashPin("9731", CHEAP), now: () => 0 });
    const results = await Promise.all(["1111", "2222", "3333", "4444", "9731"].map((p) => gate.check(p)));
    expect(results.map((r) => (r.ok ? "ok" : r.reason))).toEqual(["wrong_pin", "wrong_pin", "locked", "locked", "locked"]);
  });

  it("without a configured PIN every login is refused as not configured", async () => {
    const gate = new PinGate({ hash: null });
    expect(gate.configured).toBe(false);
    expect(await gate.check("1234")).toEqual({ ok: false, reason: "not_configured", retryAfterMs: 0, attemptsLeft: 0 });
  });
});

describe("PIN lockout per source", () => {
  it("wrong PINs from one source lock out that source only: the operator at another logs in", async () => {
    let now = 0;
    const gate = new PinGate({ hash: await hashPin("9731", CHEAP), now: () => now });
    for (const pin of ["0000", "0001", "0002", "0003"]) expect((await gate.check(pin, "10.0.0.66")).ok).toBe(false);
    expect(await gate.check("9731", "10.0.0.66")).toMatchObject({ ok: false, reason: "locked" });
    expect(await gate.check("9731", "10.0.0.5")).toEqual({ ok: true });
    expect(await gate.check("9731")).toEqual({ ok: true });
    // The lockout grows with each wrong PIN from the locked source, not from the others.
    now = 60_000;
    expect(await gate.check("0004", "10.0.0.66")).toMatchObject({ reason: "locked", retryAfterMs: 60_000 });
  });

  it("a technician's override clears one source's lockout (the others keep theirs) or every one", async () => {
    const gate = new PinGate({ hash: await hashPin("9731", CHEAP), now: () => 0 });
    for (const source of ["a", "b"]) for (const pin of ["0000", "0001", "0002"]) await gate.check(pin, source);
    expect(gate.clearLockout("a")).toEqual(["a"]);
    expect(await gate.check("9731", "a")).toEqual({ ok: true });
    expect(await gate.check("9731", "b")).toMatchObject({ reason: "locked" });
    expect(gate.clearLockout()).toEqual(["b"]);
    expect(await gate.check("9731", "b")).toEqual({ ok: true });
    expect(gate.clearLockout("nobody")).toEqual([]);
  });

  it("many sources together are slowed to one check per spacing, never locked out", async () => {
    let now = 0;
    const gate = new PinGate({ hash: await hashPin("9731", CHEAP), now: () => now, globalFreeFailures: 5, globalWindowMs: 600_000, globalSpacingMs: 30_000 });
    for (let i = 0; i < 5; i++) expect(await gate.check("0000", `made-up-${i}`)).toMatchObject({ reason: "wrong_pin" });
    // A sixth source, even with the right PIN, waits its turn (the guess is not counted against it).
    expect(await gate.check("9731", "operator")).toEqual({ ok: false, reason: "locked", retryAfterMs: 30_000, attemptsLeft: 3 });
    now = 30_000;
    expect(await gate.check("9731", "operator")).toEqual({ ok: true });
    expect(await gate.check("0000", "made-up-9")).toMatchObject({ reason: "wrong_pin" });
    expect(await gate.check("0000", "made-up-10")).toMatchObject({ reason: "locked", retryAfterMs: 30_000 });
    // Once the window has passed, checks run at full speed again.
    now = 30_000 + 600_000;
    expect(await gate.check("9731", "operator")).toEqual({ ok: true });
    expect(await gate.check("9731", "operator")).toEqual({ ok: true });
  });
});
