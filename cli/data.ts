// `kiosk data …`: locate, check and fetch the benchmark data pack.
import path from "node:path";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { DataFetchError, fetchDataPack, packManifest, verifyPack } from "../tools/data/fetch.ts";
import { dataPackValidatedNow, printJson, UsageError, type GlobalOptions } from "./context.ts";
import { commandDescription } from "./commands.ts";

function formatMiB(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

export function registerDataCommands(program: Command): void {
  const data = program.command("data").description(commandDescription("data"));
  data
    .command("check")
    .description("load and validate every file of the data pack; print what was found")
    .action((_opts: unknown, cmd: Command) => {
      // A check checks: every file is validated now, whatever an earlier run remembered.
      const pack = dataPackValidatedNow(cmd.optsWithGlobals<GlobalOptions>());
      const t0 = performance.now();
      const counts = pack.loadAll();
      const problems = verifyPack(pack.root, packManifest(), { includeProfile: true });
      printJson({
        root: pack.root,
        upstream_commit: pack.upstreamCommit(),
        ...counts,
        checksums: problems.length === 0 ? "all files match the pinned commit" : problems,
        ms: Math.round(performance.now() - t0),
      });
    });
  data
    .command("fetch")
    .description("download the pinned upstream commit of the data pack into ./data/metrollm-bench and verify it")
    .option("--target <dir>", "where to put the pack", "data/metrollm-bench")
    .option("--archive <file>", "use an already downloaded .tar.gz of the upstream commit instead of the network")
    .option("--profile-from <dir>", "copy the prompt profile (not in the upstream repository) from this existing pack")
    .option("--url <url>", "download from this URL instead of GitHub")
    .action(async (opts: { target: string; archive?: string; profileFrom?: string; url?: string }) => {
      const bar = process.stderr.isTTY
        ? new SingleBar({ format: "downloading [{bar}] {percentage}% {received}", hideCursor: true }, undefined)
        : undefined;
      let started = false;
      try {
        const result = await fetchDataPack({
          target: path.resolve(opts.target),
          ...(opts.archive ? { archive: opts.archive } : {}),
          ...(opts.profileFrom ? { profileFrom: opts.profileFrom } : {}),
          ...(opts.url ? { url: opts.url } : {}),
          onProgress: ({ receivedBytes, totalBytes }) => {
            if (!bar) return;
            if (!started) bar.start(totalBytes ?? 100, 0, { received: "" });
            started = true;
            bar.update(totalBytes ? receivedBytes : Math.min(99, receivedBytes / 40000), { received: formatMiB(receivedBytes) });
          },
        });
        bar?.stop();
        const profileNote =
          result.profile === "copied"
            ? "prompt profile copied and verified"
            : "note: the prompt profile (prompt-profile/) is not part of the upstream repository — copy it from the kiosk distribution with --profile-from DIR before running prompts or models";
        process.stdout.write(`Data pack verified (${result.files} files) in ${result.target}\n${profileNote}\n`);
      } catch (err) {
        bar?.stop();
        if (err instanceof DataFetchError) throw new UsageError(err.message);
        throw err;
      }
    });
}
