// ModelProcess against in-memory model processes (serveModelWorker over a fake engine, no child
// process): requests and replies, a crash mid-answer failing the request at once, restarts with
// backoff, hang detection by ping and by an abort that is not honoured, a failed first start, stop.
import { afterEach, describe, expect, it } from "vitest";
import type { CompletionRequest, CompletionResult, PrefillRequest, PrefillResult } from "../../runtime/model/backend.ts";
import { LazyToolCallGrammar } from "../../runtime/model/grammar.ts";
import { testPack } from "../../runtime/kiosk/testing.ts";
import type { LoadedLocalModel } from "../local.ts";
import { serveModelWorker } from "./serve.ts";
import type { WorkerPort, WorkerSpawner } from "./spawn.ts";
import { ModelProcess, ModelProcessError, type ModelProcessStatus } from "./supervisor.ts";

interface FakeEngineBehaviour {
  /** How a completion goes: answer at once, never (until aborted), or never even when aborted (a hang). */
  complete: "answer" | "until-aborted" | "stuck";
  /** The process stops answering pings. */
  deaf?: boolean;
  /** Loading fails. */
  loadFails?: string;
}

interface FakeProcess extends WorkerPort {
  requests: CompletionRequest[];
  prefills: PrefillRequest[];
  alive: boolean;
  crash(): void;
}

const result = (text: string): CompletionResult => ({
  text,
  finishReason: "stop",
  grammarTriggered: false,
  usage: { promptTokens: 3, completionTokens: 1, cachedPromptTokens: 0, ttftMs: 1, prefillMs: 1, decodeMs: 0, totalMs: 1 },
});

/** A spawner of in-memory model processes: serveModelWorker over a fake engine. */
function fakeSpawner(behaviour: () => FakeEngineBehaviour) {
  const spawned: FakeProcess[] = [];
  let pid = 100;
  const spawner: WorkerSpawner = () => {
    const b = behaviour();
    const toParent = new Set<(m: unknown) => void>();
    const toChild = new Set<(m: unknown) => void>();
    const exits = new Set<(code: number | null, signal: string | null) => void>();
    const fake: FakeProcess = {
      pid: ++pid,
      requests: [],
      prefills: [],
      alive: true,
      send: (message) => {
        if (!fake.alive) return;
        if (b.deaf && (message as { type?: string }).type === "ping") return;
        // Asynchronous, like IPC.
        setTimeout(() => fake.alive && toChild.forEach((l) => l(JSON.parse(JSON.stringify(message)))), 0);
      },
      onMessage: (listener) => void toParent.add(listener),
      onExit: (listener) => void exits.add(listener),
      kill: () => fake.crash(),
      crash: () => {
        if (!fake.alive) return;
        fake.alive = false;
        setTimeout(() => exits.forEach((l) => l(null, "SIGKILL")), 0);
      },
    };
    const engine = {
      chatTemplate: () => "{{ messages }}",
      complete: (request: CompletionRequest): Promise<CompletionResult> => {
        fake.requests.push(request);
        if (b.complete === "answer") return Promise.resolve(result(request.lazyGrammar ? `grammar:${request.lazyGrammar.triggers.join("|")}` : "ok"));
        return new Promise((_, reject) => {
          if (b.complete === "until-aborted") request.signal?.addEventListener("abort", () => reject(new Error(String((request.signal?.reason as Error).message))));
        });
      },
      prefill: async (request: PrefillRequest): Promise<PrefillResult> => {
        fake.prefills.push(request);
        return { promptTokens: 9, cachedTokens: 4, evaluatedTokens: 5, ms: 2, complete: true };
      },
      loadWarmState: async () => false,
      saveWarmState: async (_file: string, prefix: string) => ({ fileSize: 1, tokens: prefix.length }),
      unload: async () => undefined,
      onThreadDecision: () => () => undefined,
    };
    serveModelWorker(
      { send: (message) => fake.alive && setTimeout(() => toParent.forEach((l) => l(JSON.parse(JSON.stringify(message)))), 0), onMessage: (listener) => void toChild.add(listener) },
      {
        load: async () => {
          if (b.loadFails) throw new Error(b.loadFails);
          return { engine, info: { fileName: "fake.gguf", threads: 1, gpu: false, loadMs: 1 } } as unknown as LoadedLocalModel;
        },
        onUnloaded: () => fake.crash(),
      },
    );
    spawned.push(fake);
    return fake;
  };
  return { spawner, spawned };
}

const started: ModelProcess[] = [];
afterEach(async () => {
  for (const p of started.splice(0)) await p.stop();
});

function supervised(spawner: WorkerSpawner, extra: Partial<ConstructorParameters<typeof ModelProcess>[0]> = {}) {
  const logs: string[] = [];
  const statuses: ModelProcessStatus[] = [];
  const process = new ModelProcess({ spawn: spawner, load: { model: "fake" }, restartDelayMs: 20, pingIntervalMs: 1_000_000, log: (m) => logs.push(m), ...extra });
  process.onStatus((s) => statuses.push(s));
  started.push(process);
  return { process, logs, statuses };
}

const until = async (what: () => boolean, ms = 3_000): Promise<void> => {
  const t0 = Date.now();
  while (!what()) {
    if (Date.now() - t0 > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe("ModelProcess", () => {
  it("loads the model in the process and answers completions, the tool-call grammar rebuilt there", async () => {
    const { spawner, spawned } = fakeSpawner(() => ({ complete: "answer" }));
    const { process } = supervised(spawner);
    const loaded = await process.start();
    expect(loaded.info.fileName).toBe("fake.gguf");
    expect(process.chatTemplate()).toBe("{{ messages }}");
    expect(process.status).toMatchObject({ state: "ready", pid: 101, restarts: 0 });
    expect((await process.complete({ prompt: "hi", maxTokens: 8 })).text).toBe("ok");
    const grammar = new LazyToolCallGrammar(testPack().toolDefinitions());
    expect((await process.complete({ prompt: "hi", lazyGrammar: grammar })).text).toBe(`grammar:${grammar.triggers.join("|")}`);
    expect(spawned[0]!.requests[1]!.lazyGrammar?.gbnf).toBe(grammar.gbnf);
  });

  it("passes message-text ranges, the shared prefixes and the thinking budget through to the engine in the process", async () => {
    // Without literalRanges the model process would tokenize a passenger's "<|im_start|>" as a control token.
    const { spawner, spawned } = fakeSpawner(() => ({ complete: "answer" }));
    const { process } = supervised(spawner);
    await process.start();
    const request = {
      prompt: "<|im_start|>user\n<|im_start|>system<|im_end|>\n",
      sharedPrefixChars: 5,
      stablePrefixChars: 3,
      literalRanges: [{ start: 17, end: 36 }, { start: 40, end: 41, modelOutput: true }],
      reasoningBudget: { tokens: 12, endText: "\n</think>\n\n", endMarker: "</think>" },
    };
    await process.complete(request);
    expect(spawned[0]!.requests.at(-1)).toMatchObject(request);
  });

  it("prefills the next passenger's prompt prefix in the process, and refuses while the process is down", async () => {
    const { spawner, spawned } = fakeSpawner(() => ({ complete: "answer" }));
    const { process } = supervised(spawner);
    await expect(process.prefill({ prompt: "x" })).rejects.toThrow(/the model process is stopped/);
    await process.start();
    const request = { prompt: "<|im_start|>system\nYou are a kiosk. Time: 14:00<|im_end|>\n", literalRanges: [{ start: 19, end: 45 }], stablePrefixChars: 19, livePrefixChars: 39 };
    expect(await process.prefill(request)).toEqual({ promptTokens: 9, cachedTokens: 4, evaluatedTokens: 5, ms: 2, complete: true });
    expect(spawned[0]!.prefills).toEqual([request]);
  });

  it("fails the answer in flight at once when the process dies, and restarts it with growing delays", async () => {
    const { spawner, spawned } = fakeSpawner(() => ({ complete: "until-aborted" }));
    const { process, statuses, logs } = supervised(spawner);
    await process.start();
    const answer = process.complete({ prompt: "hi" });
    await until(() => spawned[0]!.requests.length === 1);
    spawned[0]!.crash();
    await expect(answer).rejects.toThrow(ModelProcessError);
    await expect(answer).rejects.toThrow("the model process exited (killed by SIGKILL)");
    expect(logs.join("\n")).toMatch(/passengers are answered by the rule policy while it restarts/);
    // Meanwhile requests are refused at once (the kiosk answers with rule).
    await expect(process.complete({ prompt: "hi" })).rejects.toThrow(/the model process is restarting/);
    await until(() => process.status.state === "ready");
    expect(process.status).toMatchObject({ restarts: 1, pid: 102, lastFailure: "the model process exited (killed by SIGKILL)" });
    // Crash again at once: the next restart waits twice as long.
    spawned[1]!.crash();
    await until(() => process.status.state === "restarting");
    const second = process.status;
    expect(second.nextStartAt! - Date.now()).toBeGreaterThan(20);
    await until(() => process.status.state === "ready");
    const transitions = statuses.map((s) => s.state).filter((state, i, all) => state !== all[i - 1]);
    expect(transitions).toEqual(["starting", "ready", "restarting", "ready", "restarting", "ready"]);
    expect(process.status.restarts).toBe(2);
  });

  it("detects a hang by ping, kills the process and restarts it", async () => {
    let first = true;
    const { spawner, spawned } = fakeSpawner(() => {
      const deaf = first;
      first = false;
      return { complete: "answer", deaf };
    });
    const { process, logs } = supervised(spawner, { pingIntervalMs: 20, pingTimeoutMs: 60 });
    await process.start();
    await until(() => process.status.restarts === 1 && process.status.state === "ready");
    expect(spawned[0]!.alive).toBe(false);
    expect(logs.join("\n")).toMatch(/the model process is not responding \(ping took longer than 60 ms\): restarting it/);
    expect(process.status.lastFailure).toBe("the model process hung (ping took longer than 60 ms)");
  });

  it("treats a completion that does not stop when aborted as a hang", async () => {
    const { spawner, spawned } = fakeSpawner(() => ({ complete: "stuck" }));
    const { process } = supervised(spawner, { abortGraceMs: 50 });
    await process.start();
    const abort = new AbortController();
    const answer = process.complete({ prompt: "hi", signal: abort.signal });
    await until(() => spawned[0]!.requests.length === 1);
    abort.abort(new Error("model deadline of 100 ms exceeded"));
    await expect(answer).rejects.toThrow(/the model process hung \(a completion did not stop within 50 ms of its abort\)/);
    await until(() => process.status.state === "ready" && process.status.restarts === 1);
  });

  it("a first start that fails leaves it stopped and says why", async () => {
    const { spawner } = fakeSpawner(() => ({ complete: "answer", loadFails: "Model file not found: /nope.gguf" }));
    const { process } = supervised(spawner);
    await expect(process.start()).rejects.toThrow("Model file not found: /nope.gguf");
    expect(process.status).toMatchObject({ state: "stopped", lastFailure: "Model file not found: /nope.gguf" });
  });

  it("keeps retrying when a restart cannot load the model, and stops for good on stop()", async () => {
    let n = 0;
    const { spawner } = fakeSpawner(() => (n++ === 0 ? { complete: "answer" } : { complete: "answer", loadFails: "disk gone" }));
    const { process, logs } = supervised(spawner);
    await process.start();
    (process as unknown as { port: WorkerPort }).port.kill();
    await until(() => logs.filter((l) => l.includes("could not be restarted (disk gone)")).length >= 2);
    expect(process.status.state).toBe("restarting");
    await process.stop();
    expect(process.status.state).toBe("stopped");
  });
});
