// `kiosk operator …`: set up the PIN that opens the operator and technician screens. The PIN itself
// is never stored: only a salted scrypt hash, in the operator config file (owner-only) or printed
// for $KIOSK_OPERATOR_PIN_HASH. The PIN is read from the terminal without echo (twice), or from
// standard input when it is not a terminal (`printf 482916 | kiosk operator set-pin`).
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { hashPin, OPERATOR_CONFIG_ENV, PIN_HASH_ENV, PIN_PATTERN, writeOperatorConfig } from "../runtime/operator/pin.ts";
import { UsageError } from "./context.ts";
import { DEFAULT_OPERATOR_CONFIG } from "./serve.ts";
import { commandDescription } from "./commands.ts";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Ask for a line on the terminal without echoing it. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    output._writeToOutput = (s: string) => {
      if (s.includes(question)) process.stderr.write(question);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
  });
}

/** The new PIN: from the terminal (asked twice) or from standard input. */
export async function readNewPin(): Promise<string> {
  let pin: string;
  if (process.stdin.isTTY) {
    pin = (await askHidden("New operator PIN (4–12 digits): ")).trim();
    if (!PIN_PATTERN.test(pin)) throw new UsageError("the PIN must be 4 to 12 digits");
    if ((await askHidden("Repeat the PIN: ")).trim() !== pin) throw new UsageError("the two PINs differ; nothing was changed");
  } else {
    pin = (await readStdin()).trim();
    if (!PIN_PATTERN.test(pin)) throw new UsageError("the PIN on standard input must be 4 to 12 digits");
  }
  if (/^(\d)\1+$/.test(pin) || "01234567890".includes(pin) || "09876543210".includes(pin)) {
    throw new UsageError("choose a PIN that is not a repeated or consecutive run of digits");
  }
  return pin;
}

export function registerOperatorCommands(program: Command): void {
  const operator = program.command("operator").description(commandDescription("operator"));

  operator
    .command("set-pin")
    .description("store a salted hash of a new operator PIN in the operator config file")
    .option("--config <file>", `operator config file (else $${OPERATOR_CONFIG_ENV}, else ./${DEFAULT_OPERATOR_CONFIG})`)
    .action(async (opts: { config?: string }) => {
      const file = opts.config ?? process.env[OPERATOR_CONFIG_ENV] ?? DEFAULT_OPERATOR_CONFIG;
      const pinHash = await hashPin(await readNewPin());
      writeOperatorConfig(file, { pinHash });
      process.stdout.write(`operator PIN set: ${file} (salted scrypt hash, readable by this user only)\n`);
      if (process.env[PIN_HASH_ENV]) process.stderr.write(`note: $${PIN_HASH_ENV} is set and takes precedence over ${file}\n`);
    });

  operator
    .command("hash-pin")
    .description(`print a salted hash of a PIN for $${PIN_HASH_ENV} (nothing is written)`)
    .action(async () => {
      process.stdout.write(`${await hashPin(await readNewPin())}\n`);
    });
}
