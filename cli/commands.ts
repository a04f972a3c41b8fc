// The `kiosk` sub-commands: name, one-line description, and the module that registers them. The
// CLI loads only the module of the command it runs (`kiosk --help` loads none), so a command's
// heavy dependencies (node-llama-cpp, SQLite, the kiosk server, the data-pack schemas) cost nothing
// to the others. Adding a command: a row here and its module's register function.
import type { Command } from "commander";
import { DEFAULT_MODEL_ID } from "../models/catalog.ts";

export interface CommandEntry {
  readonly name: string;
  /** Shown by `kiosk --help` and by the command's own help. */
  readonly description: string;
  /** Registers the command (with its sub-commands and options) on the program. */
  load(): Promise<(program: Command) => unknown>;
  /** Runs until stopped (a server), not to completion: keeps V8's default JIT tiering (cli/jit-tiering.ts). */
  readonly resident?: boolean;
}

export const COMMANDS = [
  {
    name: "data",
    description: "find, check and fetch the MetroLLM-Bench data pack",
    load: async () => (await import("./data.ts")).registerDataCommands,
  },
  {
    name: "tool",
    description: "run one transit tool (route_planner, fare_calculator, …) in a fresh session and print its JSON result",
    load: async () => (await import("./tool.ts")).registerToolCommand,
  },
  {
    name: "prompt",
    description: "print what the model receives for a case: system prompt, user turns and tool definitions",
    load: async () => (await import("./prompt.ts")).registerPromptCommand,
  },
  {
    name: "bench",
    description: "replay, score and report MetroLLM-Bench runs on this device",
    load: async () => (await import("./bench.ts")).registerBenchCommands,
  },
  {
    name: "network",
    description: "import a metro network from its GTFS feed (folder or .zip) as a system every command runs",
    load: async () => (await import("./network.ts")).registerNetworkCommands,
  },
  {
    name: "framebook",
    description: "validate, preview, apply and roll back operator framebooks",
    load: async () => (await import("./framebook.ts")).registerFramebookCommands,
  },
  {
    name: "model",
    description: `download and inspect the kiosk's language model (GGUF; default ${DEFAULT_MODEL_ID}, stored in --models-dir, $METRO_MODELS_DIR or ./models/cache)`,
    load: async () => (await import("./model.ts")).registerModelCommands,
  },
  {
    name: "probe",
    description:
      "latency probe on this machine: model load, first-token time cold and warm (KV prefix reuse), prefill and decode tokens/s, per-case latency p50/p95 over a fixed set of held-out cases, peak memory, decode speed per thread count (measured once per machine and model), a MacBook Air M2 projection; optionally sustained throughput over time",
    load: async () => (await import("./probe.ts")).registerProbeCommand,
  },
  {
    name: "operator",
    description: "set up the PIN of the kiosk's operator and technician screens",
    load: async () => (await import("./operator.ts")).registerOperatorCommands,
  },
  {
    name: "serve",
    description: "serve the kiosk screen (renderer/dist) and its API over HTTP + WebSocket, for a browser",
    load: async () => (await import("./serve.ts")).registerServeCommand,
    resident: true,
  },
  {
    name: "alerts",
    description: "service alerts: list, add or edit, end, import GTFS-Realtime feeds (the next passenger session sees them)",
    load: async () => (await import("./alerts.ts")).registerAlertsCommands,
  },
  {
    name: "backoffice",
    description: "the fleet's back office: receive every kiosk's replicated sales into PostgreSQL (serve)",
    load: async () => (await import("./backoffice.ts")).registerBackOfficeCommands,
    resident: true,
  },
] as const satisfies readonly CommandEntry[];

export type CommandName = (typeof COMMANDS)[number]["name"];

/** The description of a command, for its module to register it with. */
export function commandDescription(name: CommandName): string {
  return (COMMANDS.find((c) => c.name === name) as CommandEntry).description;
}

/** Global options that take a value: skipped when looking for the command name. */
const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(["--data", "--systems-dir"]);

/** The first two operands of a command line (`kiosk [--data DIR] <command> <sub-command or argument> …`). */
export function leadingOperands(args: readonly string[]): string[] {
  const operands: string[] = [];
  for (let i = 0; i < args.length && operands.length < 2; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (arg.startsWith("-")) {
      if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    operands.push(arg);
  }
  return operands;
}

/** The command the arguments name (`kiosk [--data DIR] <command> …`, `kiosk help <command>`), if it is one of ours. */
export function commandNamed(args: readonly string[]): CommandEntry | undefined {
  const operands = leadingOperands(args);
  const name = operands[0] === "help" ? operands[1] : operands[0];
  return COMMANDS.find((c) => c.name === name);
}

/** Whether the command the arguments name runs to completion (everything but a resident server). */
export function runsToCompletion(args: readonly string[]): boolean {
  return commandNamed(args)?.resident !== true;
}
