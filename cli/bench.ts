// `kiosk bench …`: replay and score MetroLLM-Bench cases on the device and report on stored runs.
//   run     replay cases with a policy, score, store (cli/bench-run.ts)
//   report  a run's figures with bootstrap CIs, terminal / JSON / HTML (cli/bench-report.ts)
//   list    the stored runs
//   score   score a reference-format results file (bench-score.ts)
//   robustness  the robustness suite: originals vs variants, Tier 1 and the strict kiosk score
//   generate  a case file for any system, ground truth from its network (bench-generate.ts)
import type { Command } from "commander";
import { registerScoreCommand } from "./bench-score.ts";
import { registerBenchReportCommands } from "./bench-report.ts";
import { registerBenchGenerateCommand } from "./bench-generate.ts";
import { registerBenchRobustnessCommand } from "./bench-robustness.ts";
import { registerBenchRunCommand } from "./bench-run.ts";
import { commandDescription } from "./commands.ts";

export function registerBenchCommands(program: Command): Command {
  const bench = program.command("bench").description(commandDescription("bench"));
  registerBenchRunCommand(bench);
  registerBenchReportCommands(bench);
  registerScoreCommand(bench);
  registerBenchRobustnessCommand(bench);
  registerBenchGenerateCommand(bench);
  return bench;
}
