// Model isolation end to end, with the tiny generated GGUF in a real model process (a Node child
// process running models/worker/main.ts through tsx, as `kiosk serve` starts it):
//   1. the model process is killed (SIGKILL) in the middle of a passenger's answer: the passenger
//      still gets the rule policy's answer (purchasable, with the "assistant unavailable" banner),
//      the kiosk's pushed state says the model is restarting, and the process comes back by itself
//      and answers the next passenger;
//   2. the model process hangs (SIGSTOP): the hang check kills it, the passenger asking meanwhile
//      gets the rule answer, and the process is restarted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTinyModel, type TinyModelFixture } from "../models/testing/tiny-model.ts";
import { nodeWorkerSpawner, type WorkerPort, type WorkerSpawner } from "../models/worker/spawn.ts";
import type { KioskStatus } from "../runtime/kiosk/bridge.ts";
import { TEST_NOW, TYPED_TRIP } from "../runtime/kiosk/testing.ts";
import type { PassengerAssistant } from "./assistant.ts";
import { createKioskRuntime, type KioskRuntime } from "./runtime.ts";

let tiny: TinyModelFixture;
let dir: string;
let runtime: KioskRuntime;
const ports: WorkerPort[] = [];
/** Set by a test: called when the kiosk sends the model process a completion. */
let onComplete: ((port: WorkerPort) => void) | null = null;
let completions = 0;
const states: KioskStatus[] = [];
const logs: string[] = [];

/** The real spawner, watched: which processes were started, and when a completion is sent to one. */
const watched: WorkerSpawner = () => {
  const port = nodeWorkerSpawner()();
  ports.push(port);
  return {
    ...port,
    pid: port.pid,
    send: (message) => {
      port.send(message);
      if ((message as { type?: string }).type === "complete") {
        completions++;
        onComplete?.(port);
      }
    },
  };
};

/** A trip with typed text: the router sends it to the model, after the rule policy's provisional answer. */
const typed = TYPED_TRIP;

beforeAll(async () => {
  tiny = makeTinyModel();
  dir = mkdtempSync(path.join(tmpdir(), "model-isolation-"));
  runtime = await createKioskRuntime({
    pack: tiny.pack,
    ledger: ":memory:",
    operatorDir: path.join(dir, "operator"),
    pin: { hash: null },
    benchDb: null,
    assistant: { mode: "hybrid", model: tiny.file, threads: 1, modelDeadlineMs: 4_000 },
    spawnModel: watched,
    modelProcess: { gpu: false, restartDelayMs: 200, pingIntervalMs: 500, pingTimeoutMs: 2_000, abortGraceMs: 1_000 },
    clock: () => new Date(TEST_NOW),
    log: (m) => logs.push(m),
  });
  runtime.app.onState((s) => states.push(s));
});

afterAll(async () => {
  await runtime?.close();
  for (const port of ports) port.kill();
  tiny?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const modelState = () => (runtime.assistant as PassengerAssistant).process.status;

describe("the passenger model in its own process", () => {
  it("is killed mid-answer: the passenger gets the rule answer, the process restarts and serves again", async () => {
    expect(runtime.app.status()).toMatchObject({ assistant: "model", model: { state: "ready", restarts: 0 } });
    const first = ports[0]!;
    expect(first.pid).not.toBe(process.pid);

    onComplete = (port) => {
      onComplete = null;
      process.kill(port.pid!, "SIGKILL");
    };
    const answer = await runtime.app.ask(typed);
    expect(answer.check).toMatchObject({ decidedBy: "rule-fallback", reason: "free_text" });
    expect(answer).toMatchObject({ assistantUnavailable: true, purchasable: true, policy: "rule" });
    expect(answer.state.advisory_banners?.at(-1)).toMatchObject({ title: "Assistant unavailable" });
    expect(answer.state.fare_quote?.total).toBe(2.5);

    // Shown to the operator (and pushed to the screen): the model is restarting, and why.
    const down = states.find((s) => s.model?.state === "restarting");
    expect(down).toMatchObject({ assistant: "unavailable", model: { restarts: 1, lastFailure: "the model process exited (killed by SIGKILL)" } });
    expect(logs.join("\n")).toMatch(/the model process exited \(killed by SIGKILL\): passengers are answered by the rule policy while it restarts/);

    // Back by itself: a new process, the model answering again.
    await expect.poll(() => modelState().state, { timeout: 180_000, interval: 200 }).toBe("ready");
    expect(modelState().restarts).toBe(1);
    expect(ports).toHaveLength(2);
    expect(ports[1]!.pid).not.toBe(first.pid);
    expect(runtime.app.status()).toMatchObject({ assistant: "model", model: { state: "ready", restarts: 1 } });
    // The next passenger's check goes to the new process (whatever the random-weight model then says).
    const before = completions;
    const next = await runtime.app.ask(typed);
    expect(completions).toBeGreaterThan(before);
    expect(next.check?.reason).toBe("free_text");
  });

  it("hangs: the hang check kills and restarts it, and the passenger asking meanwhile gets the rule answer", async () => {
    const hung = ports[ports.length - 1]!;
    process.kill(hung.pid!, "SIGSTOP");
    const answer = await runtime.app.ask(typed);
    expect(answer.check?.decidedBy).toBe("rule-fallback");
    expect(answer).toMatchObject({ purchasable: true, policy: "rule" });
    await expect.poll(() => modelState().lastFailure ?? "", { timeout: 60_000, interval: 100 }).toMatch(/^the model process hung \(/);
    await expect.poll(() => modelState().state, { timeout: 180_000, interval: 200 }).toBe("ready");
    expect(modelState().restarts).toBe(2);
    expect(ports[ports.length - 1]!.pid).not.toBe(hung.pid);
    expect(logs.join("\n")).toMatch(/the model process is not responding/);
  });
});
