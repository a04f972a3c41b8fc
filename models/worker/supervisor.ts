// ModelProcess: the kiosk's side of its model process (main.ts). It starts the process through a
// spawner, loads the model there, and is the CompletionBackend the llm policy talks to — so the
// kiosk never runs node-llama-cpp itself. It watches the process: an exit (a native crash, a kill)
// or a hang (no answer to a ping, or a completion that does not stop when aborted) fails the
// completions in flight at once, kills what is left and restarts the process with backoff
// (1 s, 2 s, 4 s … up to 60 s; back to 1 s once it has stayed up a minute). Every state change
// goes to the listeners — the host holds the model's breaker open while the process is not ready,
// so passengers are answered by `rule` meanwhile, and the operator sees the state in the status.
import type { CompletionBackend, CompletionRequest, CompletionResult, PrefillRequest, PrefillResult } from "../../runtime/model/backend.ts";
import { ModelError } from "../errors.ts";
import { WorkerMessageSchema, type WorkerLoaded, type WorkerLoadOptions, type WorkerRequest, type WorkerWarmBoot } from "./protocol.ts";
import { nodeWorkerSpawner, type WorkerPort, type WorkerSpawner } from "./spawn.ts";

/** The model process is not there (restarting, stopped) or went away during the request. */
export class ModelProcessError extends ModelError {
  override name = "ModelProcessError";
}

export type ModelProcessState = "starting" | "ready" | "restarting" | "stopped";

export interface ModelProcessStatus {
  state: ModelProcessState;
  pid: number | null;
  /** Restarts after a crash or a hang since the first start. */
  restarts: number;
  /** Why the process last went down or failed to start (null: never). */
  lastFailure: string | null;
  /** While restarting: when the next start is due (epoch ms). */
  nextStartAt: number | null;
}

export interface ModelProcessOptions {
  /** How the process is started (default: a Node child process running models/worker/main.ts). */
  spawn?: WorkerSpawner;
  /** What the process loads (models/local.ts options: the model, threads, GPU, engine settings). */
  load: WorkerLoadOptions;
  /** Warm boot after every (re)start: restore the saved shared prefix, else evaluate and save it. */
  warmBoot?: { file: string; prefix: (chatTemplate: string) => string };
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** Ready this long and the next crash restarts at the first delay again. */
  healthyAfterMs?: number;
  /** Hang check: a ping this often, answered within pingTimeoutMs. */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  /** A completion must stop this soon after its abort, else the process is hung. */
  abortGraceMs?: number;
  /** Loading the model (and the warm boot) may take this long. */
  loadTimeoutMs?: number;
  /** Wall clock, epoch ms. */
  now?: () => number;
  log?: (message: string) => void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class ModelProcess implements CompletionBackend {
  private port: WorkerPort | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private loaded: WorkerLoaded | null = null;
  private current: ModelProcessStatus = { state: "stopped", pid: null, restarts: 0, lastFailure: null, nextStartAt: null };
  private readonly listeners = new Set<(status: ModelProcessStatus) => void>();
  private consecutiveFailures = 0;
  private readyAt = 0;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private pinging = false;
  private stopping = false;
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: ModelProcessOptions) {
    this.now = options.now ?? (() => Date.now());
    this.log = options.log ?? ((m) => console.error(`kiosk: ${m}`));
  }

  get status(): ModelProcessStatus {
    return { ...this.current };
  }

  /** What the model process loaded (null before the first start). */
  get model(): WorkerLoaded["info"] | null {
    return this.loaded?.info ?? null;
  }

  onStatus(listener: (status: ModelProcessStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Start the process and load the model. Rejects (and leaves it stopped) when the first load fails. */
  async start(): Promise<WorkerLoaded> {
    this.stopping = false;
    try {
      return await this.launch();
    } catch (err) {
      this.stopping = true;
      this.port?.kill();
      this.set({ state: "stopped", pid: null, lastFailure: (err as Error).message, nextStartAt: null });
      throw err;
    }
  }

  chatTemplate(): string | undefined {
    return this.loaded?.chatTemplate ?? undefined;
  }

  complete(request: CompletionRequest): Promise<CompletionResult> {
    if (this.current.state !== "ready" || !this.port) {
      return Promise.reject(new ModelProcessError(`the model process is ${this.current.state}${this.current.lastFailure ? ` (${this.current.lastFailure})` : ""}`));
    }
    const { lazyGrammar, signal, ...rest } = request;
    const message = { type: "complete" as const, request: { ...rest, ...(lazyGrammar ? { grammar: { tools: [...lazyGrammar.spec.tools], options: lazyGrammar.spec.options } } : {}) } };
    return this.call(message, signal ? { signal } : {}) as Promise<CompletionResult>;
  }

  prefill(request: PrefillRequest): Promise<PrefillResult> {
    if (this.current.state !== "ready" || !this.port) return Promise.reject(new ModelProcessError(`the model process is ${this.current.state}`));
    return this.call({ type: "prefill", request }) as Promise<PrefillResult>;
  }

  /** Unload the model and end the process (no restart after this). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.clearTimers();
    const port = this.port;
    if (port) {
      const gone = new Promise<void>((resolve) => port.onExit(() => resolve()));
      try {
        await this.call({ type: "unload" }, { timeoutMs: 10_000 });
      } catch {
        // It is going away either way.
      }
      const killer = setTimeout(() => port.kill(), 5_000);
      await gone;
      clearTimeout(killer);
    }
    this.set({ state: "stopped", pid: null, nextStartAt: null });
  }

  // ---------------------------------------------------------------------------------------------

  private async launch(): Promise<WorkerLoaded> {
    this.set({ state: this.current.restarts > 0 ? "restarting" : "starting", nextStartAt: null });
    const port = (this.options.spawn ?? nodeWorkerSpawner())();
    this.port = port;
    port.onMessage((message) => this.received(message));
    port.onExit((code, signal) => this.exited(port, code, signal));
    this.set({ pid: port.pid ?? null });
    const loadTimeoutMs = this.options.loadTimeoutMs ?? 300_000;
    const loaded = (await this.call({ type: "load", options: this.options.load as Record<string, unknown> }, { timeoutMs: loadTimeoutMs })) as WorkerLoaded;
    this.loaded = loaded;
    const warm = this.options.warmBoot;
    if (warm && loaded.chatTemplate) {
      try {
        const booted = (await this.call({ type: "warmBoot", file: warm.file, prefix: warm.prefix(loaded.chatTemplate) }, { timeoutMs: loadTimeoutMs })) as WorkerWarmBoot;
        this.log(
          booted.restored
            ? `warm boot: the shared prompt prefix was restored from ${warm.file}`
            : `warm boot: evaluated the shared prompt prefix (${booted.tokens} tokens, ${Math.round(booted.ms)} ms) and saved it to ${warm.file}`,
        );
      } catch (err) {
        this.log(`warm boot skipped (${(err as Error).message})`);
      }
    }
    this.readyAt = this.now();
    this.set({ state: "ready" });
    this.startPings();
    return loaded;
  }

  private call(message: DistributiveOmit<WorkerRequest, "id">, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<unknown> {
    const port = this.port;
    if (!port) return Promise.reject(new ModelProcessError("the model process is not running"));
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      let timeout: ReturnType<typeof setTimeout> | undefined;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => {
        port.send({ type: "abort", target: id, reason: String((options.signal?.reason as Error | undefined)?.message ?? "aborted") });
        // A completion that does not stop when told means the process is stuck.
        const graceMs = this.options.abortGraceMs ?? 5_000;
        grace ??= setTimeout(() => this.hung(`a completion did not stop within ${graceMs} ms of its abort`), graceMs);
      };
      const settle = (): void => {
        if (timeout !== undefined) clearTimeout(timeout);
        if (grace !== undefined) clearTimeout(grace);
        options.signal?.removeEventListener("abort", onAbort);
        this.pending.delete(id);
      };
      this.pending.set(id, {
        resolve: (value) => {
          settle();
          resolve(value);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      if (options.timeoutMs !== undefined) {
        timeout = setTimeout(() => {
          settle();
          reject(new ModelProcessError(`the model process did not answer ${message.type} within ${options.timeoutMs} ms`));
          this.hung(`${message.type} took longer than ${options.timeoutMs} ms`);
        }, options.timeoutMs);
      }
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
      port.send({ ...message, id });
    });
  }

  private received(raw: unknown): void {
    const parsed = WorkerMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.log(`model process: unreadable message ignored (${parsed.error.issues[0]?.message ?? "invalid"})`);
      return;
    }
    const message = parsed.data;
    if ("type" in message) {
      this.log(message.message);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.ok) pending.resolve(message.value);
    else {
      const error = new Error(message.error.message);
      error.name = message.error.name;
      pending.reject(error);
    }
  }

  private exited(port: WorkerPort, code: number | null, signal: string | null): void {
    if (port !== this.port) return;
    this.port = null;
    this.clearTimers();
    const reason = this.pendingFailure ?? `the model process exited (${signal ? `killed by ${signal}` : `exit code ${code}`})`;
    this.pendingFailure = null;
    for (const pending of [...this.pending.values()]) pending.reject(new ModelProcessError(reason));
    this.pending.clear();
    if (this.stopping) {
      this.set({ state: "stopped", pid: null });
      return;
    }
    // Gone while (re)starting: the failed launch schedules the next attempt itself.
    if (this.current.state !== "ready") return;
    if (this.now() - this.readyAt >= (this.options.healthyAfterMs ?? 60_000)) this.consecutiveFailures = 0;
    this.log(`${reason}: passengers are answered by the rule policy while it restarts`);
    this.scheduleRestart(reason);
  }

  /** Set by hung(): the reason the kill that follows is reported with. */
  private pendingFailure: string | null = null;

  private hung(reason: string): void {
    if (!this.port || this.stopping) return;
    this.log(`the model process is not responding (${reason}): restarting it`);
    this.pendingFailure = `the model process hung (${reason})`;
    this.port.kill();
  }

  private scheduleRestart(reason: string): void {
    const first = this.options.restartDelayMs ?? 1_000;
    const delay = Math.min(this.options.maxRestartDelayMs ?? 60_000, first * 2 ** this.consecutiveFailures);
    this.consecutiveFailures++;
    this.set({ state: "restarting", pid: null, restarts: this.current.restarts + 1, lastFailure: reason, nextStartAt: this.now() + delay });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      this.launch().catch((err: unknown) => {
        if (this.stopping) return;
        const failure = `restart failed: ${(err as Error).message}`;
        this.log(`the model process could not be restarted (${(err as Error).message})`);
        const port = this.port;
        this.port = null;
        port?.kill();
        this.scheduleRestart(failure);
      });
    }, delay);
    this.restartTimer.unref?.();
  }

  private startPings(): void {
    const every = this.options.pingIntervalMs ?? 5_000;
    this.pingTimer = setInterval(() => {
      if (this.pinging || this.current.state !== "ready") return;
      this.pinging = true;
      this.call({ type: "ping" }, { timeoutMs: this.options.pingTimeoutMs ?? 10_000 })
        .catch(() => undefined)
        .finally(() => (this.pinging = false));
    }, every);
    this.pingTimer.unref?.();
  }

  private clearTimers(): void {
    if (this.pingTimer !== undefined) clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    if (this.restartTimer !== undefined) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.pinging = false;
  }

  private set(patch: Partial<ModelProcessStatus>): void {
    this.current = { ...this.current, ...patch };
    const status = this.status;
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch {
        // A broken listener must not stop the supervisor.
      }
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
