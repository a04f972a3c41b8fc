// What bin/kiosk.js decides before it loads the CLI (dist/node/launch-plan.cjs: the command table
// and this, a few KB). A command that runs to completion (a bench run, a report, a tool call) runs
// from the CommonJS bundle with V8's code cache, and the batch JIT tiering (cli/jit-tiering.ts)
// is set before the bundle is compiled: V8 accepts a code cache only under the flags it was made
// with. A resident server, help and an unknown command run from the ES module build, whose chunks
// load per command (`kiosk --help` loads almost nothing).
import { commandNamed, leadingOperands, runsToCompletion } from "./commands.ts";
import { batchJitFlag } from "./jit-tiering.ts";

export interface LaunchPlan {
  /**
   * Which code cache the run uses ("bench-run-rule-ref", "tool"), or null for the ES module build. A
   * cache holds the code of what made it, so each sub-command has its own: a `bench list` that
   * made the bench's cache would leave a later `bench run` most of its compiling. Node's own
   * options name a cache of their own ("bench-run.3f2a9c1b"): V8 rejects a cache made under other
   * flags, and a run under them (a profile, an experiment) would otherwise replace the usual cache.
   */
  codeCache: string | null;
  /** V8 flags to set before compiling the CLI, or null. */
  v8Flags: string | null;
}

/** A sub-command's name (lowercase words joined by dashes), not an argument such as a case id or a file. */
const SUB_COMMAND = /^[a-z]+(?:-[a-z]+)*$/;
const HELP = new Set(["--help", "-h"]);

/** `args`: the command line after `kiosk`; `execArgv`: Node's own options. */
export function launchPlan(args: readonly string[], execArgv: readonly string[]): LaunchPlan {
  const command = commandNamed(args);
  const operands = leadingOperands(args);
  const help = operands[0] === "help" || args.some((a) => HELP.has(a));
  if (!command || help || !runsToCompletion(args)) return { codeCache: null, v8Flags: null };
  const sub = operands[1];
  let name = sub !== undefined && SUB_COMMAND.test(sub) ? `${command.name}-${sub}` : command.name;
  // A bench run's code is mostly its policy's: a model policy's run (node-llama-cpp's code besides)
  // and a rule policy's share little, and each keeps a cache of its own.
  const policy = name === "bench-run" ? optionValue(args, "--policy") : undefined;
  if (policy !== undefined && SUB_COMMAND.test(policy)) name = `${name}-${policy}`;
  return { codeCache: execArgv.length > 0 ? `${name}.${fnv1a32(execArgv.join("\0"))}` : name, v8Flags: batchJitFlag(execArgv) };
}

/** The value of an option given as `--name value` or `--name=value` (the first, before a `--`), if any. */
function optionValue(args: readonly string[], option: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") return undefined;
    if (arg === option) return args[i + 1];
    if (arg.startsWith(`${option}=`)) return arg.slice(option.length + 1);
  }
  return undefined;
}

/** A short stable hash (FNV-1a, 32 bits, 8 hex digits): no crypto module to load before every command. */
function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}
