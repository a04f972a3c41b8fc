// `kiosk data …`: locate and check the benchmark data pack.
import type { Command } from "commander";
import { dataPack, printJson, type GlobalOptions } from "./context.ts";

export function registerDataCommands(program: Command): void {
  const data = program.command("data").description("find, check and fetch the MetroLLM-Bench data pack");
  data
    .command("check")
    .description("load and validate every file of the data pack; print what was found")
    .action((_opts: unknown, cmd: Command) => {
      const pack = dataPack(cmd.optsWithGlobals<GlobalOptions>());
      const t0 = performance.now();
      const counts = pack.loadAll();
      printJson({ root: pack.root, upstream_commit: pack.upstreamCommit(), ...counts, ms: Math.round(performance.now() - t0) });
    });
}
