// Issue 13, finding 4 as the Electron shell assembles the kiosk (its config through host/runtime.ts):
// the PIN lockout is kept beside the operator config (userData), so restarting the app gives no
// fresh guesses.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashPin, writeOperatorConfig } from "../runtime/operator/pin.ts";
import { createKioskRuntime } from "../host/runtime.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { kioskRuntimeConfig, shellConfig } from "./config.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-electron-host-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Electron shell: PIN lockout across restarts (finding 4)", () => {
  it("wrong PINs before a restart still count after it, and the lockout holds", async () => {
    const appRoot = path.join(dir, "app");
    const userData = path.join(dir, "user");
    mkdirSync(path.join(appRoot, "framebooks"), { recursive: true });
    mkdirSync(userData, { recursive: true });
    const config = shellConfig([], {}, { appRoot, userData });
    writeOperatorConfig(config.operatorConfig, { pinHash: await hashPin("9731", { N: 1024, r: 8, p: 1 }) });
    const start = () => createKioskRuntime({ ...kioskRuntimeConfig(config, testPack(), () => undefined), ledger: ":memory:", benchDb: null });

    let runtime = await start();
    try {
      expect(await runtime.operator.login({ operator: "alice", pin: "0000" })).toMatchObject({ ok: false, reason: "wrong_pin", attemptsLeft: 2 });
      expect(await runtime.operator.login({ operator: "alice", pin: "0001" })).toMatchObject({ ok: false, reason: "wrong_pin", attemptsLeft: 1 });
    } finally {
      await runtime.close();
    }
    runtime = await start();
    try {
      expect(await runtime.operator.login({ operator: "alice", pin: "0002" })).toMatchObject({ ok: false, reason: "locked" });
      expect(await runtime.operator.login({ operator: "alice", pin: "9731" })).toMatchObject({ ok: false, reason: "locked" });
    } finally {
      await runtime.close();
    }
  });
});
