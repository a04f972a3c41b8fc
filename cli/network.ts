// `kiosk network import FEED --id ID`: a GTFS feed becomes a system in the systems directory
// (--systems-dir, $METRO_SYSTEMS_DIR, ./data/systems) that every command then runs. It prints
// each step, what it left out and what the operator should review; a refusal installs nothing and
// names every file, line and field at fault.
import type { Command } from "commander";
import { locateSystemsDir } from "../tools/data/datapack.ts";
import { importNetwork, NetworkImportError, noteText, type NetworkImportOutcome } from "../host/network/import.ts";
import type { ImportNote } from "../tools/gtfs/to-system.ts";
import { GtfsSourceError } from "../tools/gtfs/index.ts";
import { commandDescription } from "./commands.ts";
import { dataPack, forgetDataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";

interface ImportOptions extends GlobalOptions {
  id: string;
  fares?: string;
  attribution?: string;
  replace?: boolean;
  json?: boolean;
}

/** At most this many notes of one kind are printed (the report file has them all). */
const SHOWN = 12;

function notesText(title: string, notes: readonly ImportNote[]): string {
  if (notes.length === 0) return "";
  const shown = notes.slice(0, SHOWN).map((n) => `  - ${noteText(n)}`);
  const more = notes.length > SHOWN ? [`  … and ${notes.length - SHOWN} more`] : [];
  return `${title} (${notes.length}):\n${[...shown, ...more].join("\n")}\n`;
}

export function importText(outcome: NetworkImportOutcome): string {
  const s = outcome.summary;
  return (
    `imported '${outcome.id}' into ${outcome.dir}\n` +
    `  ${s.stations} stations, ${s.lines} lines, ${s.edges} track segments from ${s.trips} trips (${s.patterns} stopping patterns); fares: ${outcome.fares ?? "none"}${s.farePairs > 0 ? ` (${s.farePairs} station pairs priced)` : ""}\n` +
    notesText("left out or read with care", outcome.notes.filter((n) => n.severity === "warning")) +
    notesText("for the operator to review", outcome.notes.filter((n) => n.severity === "review")) +
    `next: kiosk framebook validate --system ${outcome.id}; kiosk serve runs it beside the other systems\n`
  );
}

export function registerNetworkCommands(program: Command): void {
  const network = program.command("network").description(commandDescription("network"));
  network
    .command("import <feed>")
    .description("turn a GTFS feed (a folder of .txt files or a .zip) into a system the kiosk runs; nothing is installed unless the whole feed converts")
    .requiredOption("--id <id>", "the new system's id (lowercase letters, digits, - and _; not one of the benchmark's systems)")
    .option("--fares <file>", "fare model in the kiosk's fares.json format, for a feed without fares (or to replace them)")
    .option("--attribution <text>", "the attribution the feed's licence asks for, kept with the system")
    .option("--replace", "replace an earlier import of the same id")
    .option("--json", "print the outcome as JSON")
    .action((feed: string, _o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ImportOptions>();
      const systemsDir = locateSystemsDir({ flag: opts.systemsDir });
      try {
        const outcome = importNetwork({
          feed,
          id: opts.id,
          systemsDir,
          pack: dataPack(opts),
          faresFile: opts.fares,
          attribution: opts.attribution,
          replace: opts.replace,
          onStep: opts.json ? undefined : (step) => process.stderr.write(`network import: ${step}…\n`),
        });
        forgetDataPack();
        if (opts.json) printJson(outcome);
        else process.stdout.write(importText(outcome));
      } catch (err) {
        if (err instanceof NetworkImportError) {
          const errors = err.notes.filter((n) => n.severity === "error");
          throw new UsageError(`${err.message}${errors.length > 0 ? `\n${notesText("errors", errors).trimEnd()}` : ""}`);
        }
        if (err instanceof GtfsSourceError) throw new UsageError(err.message);
        throw err;
      }
    });
}
