// The `kiosk` command line: one program, a sub-command per job (cli/commands.ts). Only the module
// of the command being run is loaded; `kiosk --help` lists the commands from the table alone.
import { Command, CommanderError } from "commander";
import { DataFileError, DataPackNotFoundError } from "../tools/data/errors.ts";
import { COMMANDS, commandNamed, runsToCompletion } from "./commands.ts";
import { tuneJitForBatch } from "./jit-tiering.ts";
import type { BuildCache } from "./validated-files.ts";

/**
 * The root command: global options and help settings, no sub-command yet (`registerCommands` or a
 * command module's register function adds them).
 */
export function buildProgram(): Command {
  return new Command("kiosk")
    .description("Metro kiosk runtime: tools, policies, bench and kiosk app for MetroLLM-Bench systems")
    .option("--data <dir>", "benchmark data pack directory (else $METRO_DATA_DIR, ./data/metrollm-bench, ../shared/metrollm-bench)")
    .option("--systems-dir <dir>", "imported systems (kiosk network import) directory (else $METRO_SYSTEMS_DIR, ./data/systems)")
    .showHelpAfterError()
    .exitOverride();
}

/**
 * Register the commands `argv` needs: the named command's module only, or — for the program's
 * own help, an unknown command or none — every command by name and description (so help lists
 * them and a typo gets a suggestion) without loading any module. `"all"` loads every module.
 */
export async function registerCommands(program: Command, argv: readonly string[] | "all"): Promise<void> {
  if (argv === "all") {
    for (const entry of COMMANDS) (await entry.load())(program);
    return;
  }
  const entry = commandNamed(argv.slice(2));
  if (entry) {
    (await entry.load())(program);
    return;
  }
  for (const c of COMMANDS) program.command(c.name).description(c.description);
}

/**
 * Run the command line `argv`. `build`: the compiled build being run, from bin/kiosk.js (absent
 * when the sources run directly, as in tests): its caches are used.
 */
export async function main(argv: string[], build?: BuildCache): Promise<void> {
  // Before any command's work: a process that runs to completion tiers up later (cli/jit-tiering.ts).
  if (runsToCompletion(argv.slice(2))) tuneJitForBatch();
  if (build) (await import("./context.ts")).useBuildCache(build);
  const program = buildProgram();
  try {
    await registerCommands(program, argv);
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    const { UsageError } = await import("./context.ts");
    if (err instanceof DataFileError || err instanceof DataPackNotFoundError || err instanceof UsageError) {
      process.stderr.write(`kiosk: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
