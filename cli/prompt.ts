// `kiosk prompt CASE_ID`: what the model receives for a case — system prompt, user turns and the
// tool definitions — rendered from the data pack's prompt profile.
import type { Command } from "commander";
import type { DataPack } from "../tools/data/datapack.ts";
import type { ToolDefinition } from "../tools/data/schemas.ts";
import { buildCasePrompt, toolDefinitions } from "../runtime/prompt/index.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";
import { commandDescription } from "./commands.ts";

interface PromptOptions {
  json?: boolean;
}

/** The first sentence of a tool's description, on one line. */
export function oneLineDescription(tool: ToolDefinition): string {
  const text = tool.function.description.replace(/\s+/g, " ").trim();
  const end = text.indexOf(". ");
  return end >= 0 ? text.slice(0, end + 1) : text;
}

function unknownCase(pack: DataPack, caseId: string): UsageError {
  const all = pack.allCases();
  const sameIgnoringCase = all.find((c) => c.id.toLowerCase() === caseId.trim().toLowerCase());
  const hint = sameIgnoringCase
    ? `did you mean ${sameIgnoringCase.id}?`
    : `case ids look like ${all[0]?.id ?? "MARTA-A-001"} (e.g. kiosk prompt ${all[0]?.id ?? "MARTA-A-001"})`;
  return new UsageError(`unknown case id '${caseId}': ${hint}`);
}

export function registerPromptCommand(program: Command): void {
  program
    .command("prompt")
    .description(commandDescription("prompt"))
    .argument("<case_id>", "a case id of the data pack, e.g. MARTA-A-001")
    .option("--json", 'print {"case_id", "system_prompt", "user_turns", "tools"} as JSON (tools: the full definitions)')
    .action((caseId: string, opts: PromptOptions, cmd: Command) => {
      const pack = dataPack(cmd.optsWithGlobals<GlobalOptions>());
      const kase = pack.caseById(caseId);
      if (!kase) throw unknownCase(pack, caseId);
      const prompt = buildCasePrompt(kase, pack.system(kase.system), pack.promptProfile());
      const tools = toolDefinitions(pack);
      if (opts.json) {
        printJson({ case_id: kase.id, system_prompt: prompt.systemPrompt, user_turns: prompt.userTurns, tools });
        return;
      }
      const out: string[] = [];
      out.push(`Case ${kase.id} (${kase.system}, category ${kase.category})${kase.title ? `: ${kase.title}` : ""}`, "");
      out.push("=== System prompt ===", prompt.systemPrompt.replace(/\n$/, ""), "");
      prompt.userTurns.forEach((turn, i) => out.push(`=== User turn ${i + 1} of ${prompt.userTurns.length} ===`, turn, ""));
      out.push(`=== Tools (${tools.length}) ===`);
      for (const tool of tools) out.push(`- ${tool.function.name}: ${oneLineDescription(tool)}`);
      process.stdout.write(`${out.join("\n")}\n`);
    });
}
