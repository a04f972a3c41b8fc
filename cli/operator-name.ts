// Who is making an operator change (framebook apply/rollback, alerts): the audit log records a
// person, never the OS account by default. `--operator NAME`, else asked on a terminal, else an error.
import { createInterface } from "node:readline/promises";
import { UsageError } from "./context.ts";

export interface AskOptions {
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  output?: NodeJS.WritableStream;
}

export async function operatorName(flag: string | undefined, what: string, io: AskOptions = {}): Promise<string> {
  const given = flag?.trim();
  if (given) return given;
  if (flag !== undefined) throw new UsageError("--operator must not be empty");
  const input = io.input ?? process.stdin;
  if (!input.isTTY) throw new UsageError(`--operator NAME is required: the audit log records who ${what}`);
  const rl = createInterface({ input, output: io.output ?? process.stderr });
  try {
    const answer = (await rl.question(`Your name (recorded in the audit log as who ${what}): `)).trim();
    if (!answer) throw new UsageError(`no name given: nothing was changed (the audit log records who ${what})`);
    return answer;
  } finally {
    rl.close();
  }
}

/** Ask a yes/no question on a terminal (false without one). */
export async function confirm(question: string, io: AskOptions = {}): Promise<boolean> {
  const input = io.input ?? process.stdin;
  if (!input.isTTY) return false;
  const rl = createInterface({ input, output: io.output ?? process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
