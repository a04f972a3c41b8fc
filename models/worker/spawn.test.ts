// The host's side of a model process's pipe: a write to a process that has just died must not throw
// in the host (EPIPE), whose supervisor restarts the process from its exit.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeWorkerSpawner } from "./spawn.ts";

describe("nodeWorkerSpawner", () => {
  it("drops a message sent to a process that died before the host saw it go, without an uncaught EPIPE", async () => {
    const entry = path.join(mkdtempSync(path.join(tmpdir(), "spawn-")), "dies.mjs");
    writeFileSync(entry, "process.send({ type: 'ready' }, () => process.exit(0));\n");
    const port = nodeWorkerSpawner(entry)();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => void uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      const exited = new Promise<void>((resolve) => port.onExit(() => resolve()));
      await new Promise<void>((resolve) => port.onMessage(() => resolve()));
      // Block the event loop while the child exits, so the host has not yet seen it disconnect.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      for (let i = 0; i < 50; i++) port.send({ type: "complete", id: i });
      await exited;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });
});
