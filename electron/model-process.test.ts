import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";

vi.mock("electron", () => ({ utilityProcess: { fork: () => { throw new Error("no Electron here"); } } }));
const { bundledWorkerEntry, utilityProcessSpawner } = await import("./model-process.ts");

class FakeUtilityProcess extends EventEmitter {
  pid: number | undefined = 4321;
  posted: unknown[] = [];
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill(): boolean {
    this.emit("exit", 1);
    return true;
  }
}

describe("the shell's model process: an Electron utilityProcess behind the supervisor's port", () => {
  it("forks the bundled worker and maps messages, exit and kill", () => {
    const child = new FakeUtilityProcess();
    const fork = vi.fn(() => child as never);
    const port = utilityProcessSpawner(bundledWorkerEntry("/app/dist/electron"), fork)();
    expect(fork).toHaveBeenCalledWith("/app/dist/electron/model-worker.cjs", [], { serviceName: "Kiosk model", stdio: "inherit" });
    expect(port.pid).toBe(4321);
    const got: unknown[] = [];
    port.onMessage((m) => got.push(m));
    child.emit("message", { id: 1, ok: true, value: "pong" });
    expect(got).toEqual([{ id: 1, ok: true, value: "pong" }]);
    port.send({ id: 2, type: "ping" });
    expect(child.posted).toEqual([{ id: 2, type: "ping" }]);
    const exits: unknown[] = [];
    port.onExit((code, signal) => exits.push([code, signal]));
    child.emit("exit", 139);
    expect(exits).toEqual([[139, null]]);
    // Gone: nothing more is posted to it.
    port.send({ id: 3, type: "ping" });
    expect(child.posted).toHaveLength(1);
  });

  it("kills with SIGKILL (a hung or stopped process must go at once)", () => {
    const child = new FakeUtilityProcess();
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    try {
      utilityProcessSpawner("/w.cjs", () => child as never)().kill();
      expect(kill).toHaveBeenCalledWith(4321, "SIGKILL");
    } finally {
      kill.mockRestore();
    }
  });
});
