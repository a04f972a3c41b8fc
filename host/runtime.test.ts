import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { askFromCase, TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { createKioskRuntime } from "./runtime.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-host-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("createKioskRuntime", () => {
  it("assembles a selling kiosk with its operator console and technician bench, and closes them", async () => {
    const logs: string[] = [];
    const runtime = await createKioskRuntime({
      pack: testPack(),
      ledger: path.join(dir, "ledger.sqlite"),
      operatorDir: path.join(dir, "operator"),
      pin: { hash: null },
      benchDb: path.join(dir, "bench.sqlite"),
      clock: () => new Date(TEST_NOW),
      log: (m) => logs.push(m),
    });
    const answer = await runtime.backend.ask(askFromCase("MARTA-A-001"));
    expect(await runtime.backend.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: true });
    expect(runtime.technician?.info().database).toBe(path.join(dir, "bench.sqlite"));
    expect(runtime.backend.status()).toEqual(runtime.app.status());
    expect(logs.join("\n")).toMatch(/no operator PIN is set up/);
    await runtime.close();
    // Closed: the ledger file is free and kept the sale.
    const ledger = Ledger.open(path.join(dir, "ledger.sqlite"));
    expect(ledger.sales()).toHaveLength(1);
    ledger.close();
  });

  it("closes what it opened when the kiosk cannot start (a bad operator file), and says which", async () => {
    const operatorDir = path.join(dir, "bad-operator");
    mkdirSync(path.join(operatorDir, "marta"), { recursive: true });
    writeFileSync(path.join(operatorDir, "marta", "local-names.yaml"), "language: ar\nnames:\n  MARTA-NOWHERE: نقطة\n");
    const closed = vi.spyOn(Ledger.prototype, "close");
    await expect(
      createKioskRuntime({ pack: testPack(), ledger: path.join(dir, "ledger-2.sqlite"), operatorDir, pin: { hash: null }, benchDb: null, log: () => undefined }),
    ).rejects.toThrow(/MARTA-NOWHERE/);
    // The ledger it had opened was closed again.
    expect(closed).toHaveBeenCalledTimes(1);
    closed.mockRestore();
  });
});
