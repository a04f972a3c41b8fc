// The kiosk's prompt warmer end to end, with the tiny generated qwen35 GGUF in a real model process
// (as `kiosk serve --model` runs it): while nobody is at the screen the warmer prefills the system
// turn the next passenger will get, and that passenger's first model round finds the whole system
// turn cached, nothing of it evaluated again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTinyModel, type TinyModelFixture } from "../models/testing/tiny-model.ts";
import { nodeWorkerSpawner, type WorkerPort, type WorkerSpawner } from "../models/worker/spawn.ts";
import type { CompletionResult } from "../runtime/model/backend.ts";
import { TYPED_TRIP } from "../runtime/kiosk/testing.ts";
import { createKioskRuntime, type KioskRuntime } from "./runtime.ts";

let tiny: TinyModelFixture;
let dir: string;
let runtime: KioskRuntime;
const ports: WorkerPort[] = [];
/** The model process's answers to completions, in order. */
const completions: CompletionResult[] = [];
const logs: string[] = [];

/** The real spawner, listening to what the model process answers. */
const watched: WorkerSpawner = () => {
  const port = nodeWorkerSpawner()();
  ports.push(port);
  port.onMessage((message) => {
    const value = (message as { value?: { usage?: unknown } }).value;
    if (value?.usage) completions.push(value as CompletionResult);
  });
  return port;
};

beforeAll(async () => {
  tiny = makeTinyModel({ architecture: "qwen35" });
  dir = mkdtempSync(path.join(tmpdir(), "prompt-warmer-"));
  runtime = await createKioskRuntime({
    pack: tiny.pack,
    ledger: ":memory:",
    operatorDir: path.join(dir, "operator"),
    pin: { hash: null },
    benchDb: null,
    assistant: { mode: "hybrid", model: tiny.file, threads: 1, modelDeadlineMs: 60_000 },
    spawnModel: watched,
    modelProcess: { gpu: false },
    clock: () => new Date("2026-03-09T14:00:07"),
    log: (m) => logs.push(m),
  });
});

afterAll(async () => {
  await runtime?.close();
  for (const port of ports) port.kill();
  tiny?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the kiosk's prompt warmer", () => {
  it("prefills the next passenger's system turn, which their first model round then finds cached", async () => {
    expect(runtime.warmer).not.toBeNull();
    await expect.poll(() => runtime.warmer?.status.warmed ?? 0, { timeout: 120_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    expect(completions).toHaveLength(0);

    const answer = await runtime.app.ask(TYPED_TRIP);
    expect(answer.check?.reason).toBe("free_text");
    const first = completions[0];
    expect(first).toBeDefined();
    // The system turn (tools block and system prompt) is thousands of tokens; all of it was cached,
    // and only the passenger's turn and the generation prompt were evaluated.
    expect(first!.usage.promptTokens).toBeGreaterThan(3_000);
    expect(first!.usage.promptTokens - first!.usage.cachedPromptTokens).toBeLessThan(200);
    expect(first!.usage.checkpointReplayTokens ?? 0).toBe(0);
  });
});
