// Issue 13, finding 4: the PIN lockout survives restarts (stored with its expiry), and a crash in
// the middle of a check has spent the guess; finding 12: the operator config is written without
// following a planted symlink.
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashPin, PinGate, pinStateFileFor, writeOperatorConfig } from "./pin.ts";

const CHEAP = { N: 1024, r: 8, p: 1 };
const dir = mkdtempSync(path.join(tmpdir(), "kiosk-pin-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("PIN lockout across restarts (finding 4)", () => {
  it("a restarted kiosk keeps the count and the lockout; the right PIN works once it expires", async () => {
    const hash = await hashPin("9731", CHEAP);
    const stateFile = path.join(dir, "a", "operator-lockout.json");
    let now = 1_000_000;
    const gate = (): PinGate => new PinGate({ hash, stateFile, now: () => now, lockoutMs: 30_000 });
    expect(await gate().check("0000")).toMatchObject({ reason: "wrong_pin", attemptsLeft: 2 });
    // Restart after each guess: the count goes on.
    expect(await gate().check("0001")).toMatchObject({ reason: "wrong_pin", attemptsLeft: 1 });
    expect(await gate().check("0002")).toMatchObject({ reason: "locked", retryAfterMs: 30_000 });
    // Restarted during the lockout: still locked, even for the right PIN.
    expect(await gate().check("9731")).toMatchObject({ ok: false, reason: "locked" });
    expect(JSON.parse(readFileSync(stateFile, "utf8"))).toEqual({ sources: { screen: { failures: 3, lockedUntil: 1_030_000 } }, recent: [1_000_000, 1_000_000, 1_000_000] });
    if (process.platform !== "win32") expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    now += 30_000;
    expect(await gate().check("9731")).toEqual({ ok: true });
    expect(JSON.parse(readFileSync(stateFile, "utf8"))).toEqual({ sources: {}, recent: [1_000_000, 1_000_000, 1_000_000] });
  });

  it("counts a guess before checking it, so a crash mid-check gains nothing", async () => {
    const hash = await hashPin("9731", CHEAP);
    const stateFile = path.join(dir, "b", "operator-lockout.json");
    const first = new PinGate({ hash, stateFile, now: () => 0 });
    const pending = first.check("1111");
    // The kiosk dies while scrypt runs: the next process already counts that guess.
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse(readFileSync(stateFile, "utf8")).sources.screen.failures).toBe(1);
    expect(await new PinGate({ hash, stateFile, now: () => 0 }).check("2222")).toMatchObject({ reason: "wrong_pin", attemptsLeft: 1 });
    await pending;
  });

  it("a damaged state file gives no fresh guesses: the next wrong PIN locks", async () => {
    const hash = await hashPin("9731", CHEAP);
    const stateFile = path.join(dir, "c.json");
    writeFileSync(stateFile, "{ torn");
    const logs: string[] = [];
    expect(await new PinGate({ hash, stateFile, now: () => 0, log: (m) => logs.push(m) }).check("0000")).toMatchObject({ reason: "locked" });
    expect(logs.join("\n")).toMatch(/unreadable/);
  });

  it("a lockout stored far in the future (clock set back) is cut to the longest lockout", async () => {
    const hash = await hashPin("9731", CHEAP);
    const stateFile = path.join(dir, "d.json");
    writeFileSync(stateFile, JSON.stringify({ failures: 9, lockedUntil: 10 ** 15 }));
    const gate = new PinGate({ hash, stateFile, now: () => 0, maxLockoutMs: 60_000 });
    expect(await gate.check("9731")).toMatchObject({ reason: "locked", retryAfterMs: 60_000 });
  });

  it("keeps each source's lockout across a restart; a state file from before sources locks every source", async () => {
    const hash = await hashPin("9731", CHEAP);
    const stateFile = path.join(dir, "e.json");
    const gate = (): PinGate => new PinGate({ hash, stateFile, now: () => 0 });
    for (const pin of ["0000", "0001", "0002"]) await gate().check(pin, "10.0.0.66");
    expect(await gate().check("9731", "10.0.0.66")).toMatchObject({ reason: "locked" });
    expect(await gate().check("9731", "10.0.0.5")).toEqual({ ok: true });
    const legacy = path.join(dir, "f.json");
    writeFileSync(legacy, JSON.stringify({ failures: 3, lockedUntil: 30_000 }));
    expect(await new PinGate({ hash, stateFile: legacy, now: () => 0 }).check("9731", "10.0.0.5")).toMatchObject({ reason: "locked", retryAfterMs: 30_000 });
  });

  it("the state file sits beside the operator config", () => {
    expect(pinStateFileFor("/var/kiosk/operator.json")).toBe(path.resolve("/var/kiosk/operator-lockout.json"));
  });
});

describe("no symlink following (finding 12)", () => {
  it.skipIf(process.platform === "win32")("writing the operator config does not write through a planted temp-file symlink", () => {
    const config = path.join(dir, "operator.json");
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "precious");
    // Today's temp name was predictable (<file>.tmp-<pid>): plant a link there.
    symlinkSync(victim, `${config}.tmp-${process.pid}`);
    writeOperatorConfig(config, { pinHash: "scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5aw==" });
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(lstatSync(config).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(config, "utf8")).pinHash).toMatch(/^scrypt/);
    expect(existsSync(`${config}.tmp-${process.pid}`)).toBe(true);
  });
});
