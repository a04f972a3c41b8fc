// The `kiosk` command line: one program, a sub-command per job. Each command module registers
// itself on the program; `--help` works on every level.
import { Command, CommanderError } from "commander";
import { DataFileError, DataPackNotFoundError } from "../tools/data/errors.ts";
import { registerAlertsCommands } from "./alerts.ts";
import { registerBenchCommands } from "./bench.ts";
import { UsageError } from "./context.ts";
import { registerDataCommands } from "./data.ts";
import { registerFramebookCommands } from "./framebook.ts";
import { registerModelCommands } from "./model.ts";
import { registerOperatorCommands } from "./operator.ts";
import { registerProbeCommand } from "./probe.ts";
import { registerPromptCommand } from "./prompt.ts";
import { registerServeCommand } from "./serve.ts";
import { registerToolCommand } from "./tool.ts";

export function buildProgram(): Command {
  const program = new Command("kiosk")
    .description("Metro kiosk runtime: tools, policies, bench and kiosk app for MetroLLM-Bench systems")
    .option("--data <dir>", "benchmark data pack directory (else $METRO_DATA_DIR, ./data/metrollm-bench, ../shared/metrollm-bench)")
    .showHelpAfterError()
    .exitOverride();
  registerDataCommands(program);
  registerToolCommand(program);
  registerPromptCommand(program);
  registerBenchCommands(program);
  registerFramebookCommands(program);
  registerModelCommands(program);
  registerProbeCommand(program);
  registerOperatorCommands(program);
  registerServeCommand(program);
  registerAlertsCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof DataFileError || err instanceof DataPackNotFoundError || err instanceof UsageError) {
      process.stderr.write(`kiosk: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
