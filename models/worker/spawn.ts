// How a model process is started: the spawner gives the supervisor a port to it. Node's child
// process (`kiosk serve`, the bench) lives here; Electron's utilityProcess in electron/model-process.ts.
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A started model process, as the supervisor sees it. */
export interface WorkerPort {
  readonly pid: number | undefined;
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Once, when the process is gone (code null: killed by `signal`). */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Kill it now (SIGKILL: it may be hung). */
  kill(): void;
}

export type WorkerSpawner = () => WorkerPort;

/** The environment variable naming a compiled model-process entry (a bundle's own file). */
export const MODEL_WORKER_ENV = "KIOSK_MODEL_WORKER";
const COMPILED_NAMES = ["model-worker.mjs", "model-worker.js", "model-worker.cjs"];

/**
 * The model process's entry: $KIOSK_MODEL_WORKER, else models/worker/main.ts beside this file (run
 * from source), else a compiled `model-worker.{mjs,js,cjs}` beside the bundle this code was compiled into.
 */
export function modelWorkerEntry(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[MODEL_WORKER_ENV];
  if (given) return path.resolve(given);
  const here = path.dirname(fileURLToPath(import.meta.url));
  const source = path.join(here, "main.ts");
  if (existsSync(source)) return source;
  const compiled = COMPILED_NAMES.map((name) => path.join(here, name)).find((file) => existsSync(file));
  if (compiled) return compiled;
  throw new Error(`the model process's entry is missing (no ${source}, no ${COMPILED_NAMES.join("/")} in ${here}); set $${MODEL_WORKER_ENV} to it`);
}

/** Node's `--import` for a TypeScript entry: tsx's loader, resolved from this package (any cwd). */
function typeScriptLoader(): string[] {
  const loader = createRequire(import.meta.url).resolve("tsx");
  return ["--import", pathToFileURL(loader).href];
}

/** A Node child process running `entry` (TypeScript through tsx, or a compiled file). */
export function nodeWorkerSpawner(entry: string = modelWorkerEntry()): WorkerSpawner {
  return () => {
    const child = fork(entry, [], {
      execArgv: entry.endsWith(".ts") ? typeScriptLoader() : [],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json",
    });
    return {
      pid: child.pid,
      send: (message) => {
        // A process killed since `connected` was read fails the write (EPIPE) to this callback
        // instead of throwing in the host: its exit is what restarts it.
        if (child.connected) child.send(message as object, (err) => void err);
      },
      onMessage: (listener) => void child.on("message", listener),
      onExit: (listener) => void child.once("exit", listener),
      kill: () => void child.kill("SIGKILL"),
    };
  };
}
