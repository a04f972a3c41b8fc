// V8's tier-up threshold for a `kiosk` process that runs to completion (a bench run, a report, a
// tool call). By default V8 hands a function to its optimising compiler after about 67 KB of its
// bytecode has run; in a run of a second or two most of those compiles finish too late to pay
// for themselves, and on a two-vCPU kiosk their background threads take the core the bench's
// writer thread needs. Waiting for four to five times as much keeps the optimising compiler for
// the code that is really hot: a whole 955-case `rule-ref` run takes 9–14 % less wall time and
// 17–20 % less CPU (docs/PERFORMANCE.md). A resident process (`kiosk serve`) keeps V8's default:
// over hours the threshold makes no difference, and it is left as V8 ships it.
import v8 from "node:v8";

/** Bytecode a function runs before V8 considers optimising it, in a batch process (V8's default: 67,584). */
export const BATCH_INTERRUPT_BUDGET = 300_000;

const FLAG = "--interrupt-budget";
/** The same V8 flag on Node's command line, in either spelling, with or without "=value". */
const GIVEN = /^--interrupt[-_]budget(?:=|$)/;

/**
 * Raise V8's tier-up threshold for this process, unless Node was started with its own
 * `--interrupt-budget` (which then stays: how the default is measured against this one).
 * Returns whether the flag was set. Call it before the command's work starts.
 */
export function tuneJitForBatch(execArgv: readonly string[] = process.execArgv, setFlags: (flags: string) => void = v8.setFlagsFromString): boolean {
  const flag = batchJitFlag(execArgv);
  if (flag === null) return false;
  setFlags(flag);
  return true;
}

/** The V8 flag tuneJitForBatch sets, or null when Node was started with its own `--interrupt-budget`. */
export function batchJitFlag(execArgv: readonly string[]): string | null {
  return execArgv.some((arg) => GIVEN.test(arg)) ? null : `${FLAG}=${BATCH_INTERRUPT_BUDGET}`;
}
