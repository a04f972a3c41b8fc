// Issue 13, finding 4 as the Electron host assembles the kiosk: the PIN lockout is kept beside the
// operator config (userData), so restarting the app gives no fresh guesses.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashPin, writeOperatorConfig } from "../runtime/operator/pin.ts";
import { shellConfig } from "./config.ts";
import { createKioskRuntime } from "./runtime-host.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-electron-host-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Electron runtime host: PIN lockout across restarts (finding 4)", () => {
  it("wrong PINs before a restart still count after it, and the lockout holds", async () => {
    const appRoot = path.join(dir, "app");
    const userData = path.join(dir, "user");
    mkdirSync(path.join(appRoot, "framebooks"), { recursive: true });
    mkdirSync(userData, { recursive: true });
    const config = shellConfig([], {}, { appRoot, userData });
    writeOperatorConfig(config.operatorConfig, { pinHash: await hashPin("9731", { N: 1024, r: 8, p: 1 }) });
    const start = () => createKioskRuntime(config, { log: () => undefined });

    let runtime = start();
    try {
      expect(await runtime.operator.login({ operator: "alice", pin: "0000" })).toMatchObject({ ok: false, reason: "wrong_pin", attemptsLeft: 2 });
      expect(await runtime.operator.login({ operator: "alice", pin: "0001" })).toMatchObject({ ok: false, reason: "wrong_pin", attemptsLeft: 1 });
    } finally {
      runtime.close();
    }
    runtime = start();
    try {
      expect(await runtime.operator.login({ operator: "alice", pin: "0002" })).toMatchObject({ ok: false, reason: "locked" });
      expect(await runtime.operator.login({ operator: "alice", pin: "9731" })).toMatchObject({ ok: false, reason: "locked" });
    } finally {
      runtime.close();
    }
  });
});
