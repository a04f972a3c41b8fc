// The model process's side of the protocol (protocol.ts): loads the model once, answers
// completions (several may be queued; the engine serializes them per sequence), aborts the one
// asked, warm-boots the shared prompt prefix, prefills the next passenger's prompt prefix, answers
// pings (the kiosk's hang check), unloads on request. Transport-free: main.ts connects it to a Node IPC channel or an Electron parentPort.
import { LazyToolCallGrammar, type ToolCallGrammarOptions } from "../../runtime/model/grammar.ts";
import type { ToolDefinition } from "../../tools/data/schemas.ts";
import type { LoadedLocalModel } from "../local.ts";
import { formatThreadDecision } from "../thread-governor.ts";
import { WorkerRequestSchema, type WorkerCompleteRequest, type WorkerLoadOptions, type WorkerLoaded, type WorkerMessage, type WorkerWarmBoot } from "./protocol.ts";

export interface WorkerChannel {
  send(message: WorkerMessage): void;
  onMessage(listener: (message: unknown) => void): void;
}

export interface ServeWorkerOptions {
  /** How the model is loaded (default: models/local.ts loadLocalModel). */
  load?: (options: WorkerLoadOptions) => Promise<LoadedLocalModel>;
  /** Called after `unload` has been answered (main.ts exits the process). */
  onUnloaded?: () => void;
}

const MAX_GRAMMARS = 8;

export function serveModelWorker(channel: WorkerChannel, options: ServeWorkerOptions = {}): void {
  let loaded: LoadedLocalModel | undefined;
  const inFlight = new Map<number, AbortController>();
  // Grammars are costly to build and the same few tool sets come back every round.
  const grammars = new Map<string, LazyToolCallGrammar>();

  const grammarFor = (spec: NonNullable<WorkerCompleteRequest["grammar"]>): LazyToolCallGrammar => {
    const key = JSON.stringify(spec);
    let grammar = grammars.get(key);
    if (!grammar) {
      grammar = new LazyToolCallGrammar(spec.tools as ToolDefinition[], spec.options as ToolCallGrammarOptions);
      if (grammars.size >= MAX_GRAMMARS) grammars.clear();
      grammars.set(key, grammar);
    }
    return grammar;
  };

  const requireLoaded = (): LoadedLocalModel => {
    if (!loaded) throw new Error("the model is not loaded in this process");
    return loaded;
  };

  const handle = async (request: Exclude<ReturnType<typeof WorkerRequestSchema.parse>, { type: "abort" }>): Promise<unknown> => {
    switch (request.type) {
      case "load": {
        if (!loaded) {
          const load = options.load ?? (await import("../local.ts")).loadLocalModel;
          loaded = await load(request.options as WorkerLoadOptions);
          // Each re-measurement of the adaptive thread count (its table, what it decided) is logged.
          loaded.engine.onThreadDecision((decision) => channel.send({ type: "log", message: `model process: ${formatThreadDecision(decision)}` }));
        }
        const value: WorkerLoaded = { info: loaded.info, chatTemplate: loaded.engine.chatTemplate() ?? null };
        return value;
      }
      case "complete": {
        const { engine } = requireLoaded();
        const controller = new AbortController();
        inFlight.set(request.id, controller);
        try {
          const { grammar, ...rest } = request.request;
          return await engine.complete({ ...rest, ...(grammar ? { lazyGrammar: grammarFor(grammar) } : {}), signal: controller.signal });
        } finally {
          inFlight.delete(request.id);
        }
      }
      case "prefill": {
        const { engine } = requireLoaded();
        return await engine.prefill(request.request);
      }
      case "warmBoot": {
        const { engine } = requireLoaded();
        const t0 = performance.now();
        if (await engine.loadWarmState(request.file)) return { restored: true, tokens: null, ms: performance.now() - t0 } satisfies WorkerWarmBoot;
        const saved = await engine.saveWarmState(request.file, request.prefix);
        return { restored: false, tokens: saved.tokens, ms: performance.now() - t0 } satisfies WorkerWarmBoot;
      }
      case "ping":
        return "pong";
      case "unload":
        for (const controller of inFlight.values()) controller.abort(new Error("the model is unloading"));
        await loaded?.engine.unload();
        loaded = undefined;
        return null;
    }
  };

  channel.onMessage((raw) => {
    const parsed = WorkerRequestSchema.safeParse(raw);
    if (!parsed.success) {
      channel.send({ type: "log", message: `model process: ignored a malformed message (${parsed.error.issues[0]?.message ?? "invalid"})` });
      return;
    }
    const request = parsed.data;
    if (request.type === "abort") {
      inFlight.get(request.target)?.abort(new Error(request.reason));
      return;
    }
    handle(request).then(
      (value) => {
        channel.send({ id: request.id, ok: true, value });
        if (request.type === "unload") options.onUnloaded?.();
      },
      (err: unknown) => {
        const error = err instanceof Error ? { name: err.name, message: err.message } : { name: "Error", message: String(err) };
        channel.send({ id: request.id, ok: false, error });
      },
    );
  });
}
