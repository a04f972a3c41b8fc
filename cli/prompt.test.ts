import { readFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../test/paths.ts";
import { UsageError } from "./context.ts";
import { registerPromptCommand } from "./prompt.ts";

function program(): Command {
  const p = new Command("kiosk").option("--data <dir>").exitOverride();
  registerPromptCommand(p);
  return p;
}

async function run(...args: string[]): Promise<string> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  });
  try {
    await program().parseAsync(["node", "kiosk", "--data", SHARED_DATA_DIR, ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

function oracleRecord(system: string, caseId: string): { system_prompt: string; user_turns: string[] } {
  const line = readFileSync(path.join(ORACLE_DIR, "prompts", `${system}.jsonl`), "utf8")
    .split("\n")
    .find((l) => l.includes(`"case_id": "${caseId}"`));
  if (!line) throw new Error(`${caseId} not in the oracle`);
  return JSON.parse(line) as { system_prompt: string; user_turns: string[] };
}

describe("kiosk prompt", () => {
  afterEach(() => vi.restoreAllMocks());

  it("--json prints exactly case_id, system_prompt, user_turns and the full tools", async () => {
    const parsed = JSON.parse(await run("prompt", "MARTA-G-015", "--json")) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["case_id", "system_prompt", "user_turns", "tools"]);
    const oracle = oracleRecord("marta", "MARTA-G-015");
    expect(parsed.case_id).toBe("MARTA-G-015");
    expect(parsed.system_prompt).toBe(oracle.system_prompt);
    expect(parsed.user_turns).toEqual(oracle.user_turns);
    const tools = parsed.tools as Array<{ type: string; function: { name: string; parameters: unknown } }>;
    expect(tools).toHaveLength(7);
    expect(tools.at(-1)?.function.name).toBe("submit_assistant_state");
    expect(tools[0]?.function.parameters).toBeTypeOf("object");
  });

  it("prints the text form: system prompt, numbered user turns, tool names with one-line descriptions", async () => {
    const text = await run("prompt", "CTA-A-001");
    const oracle = oracleRecord("cta", "CTA-A-001");
    expect(text).toContain(oracle.system_prompt);
    expect(text).toContain(`=== User turn 1 of 1 ===\n${oracle.user_turns[0]}\n`);
    const toolLines = text.slice(text.indexOf("=== Tools (7) ===")).trim().split("\n").slice(1);
    expect(toolLines.map((l) => l.split(":")[0])).toEqual([
      "- route_planner",
      "- fare_calculator",
      "- station_info",
      "- line_info",
      "- disruption_feed",
      "- knowledge_base",
      "- submit_assistant_state",
    ]);
  });

  it("rejects an unknown case id with a usage error that suggests one", async () => {
    await expect(run("prompt", "NOPE-1")).rejects.toThrow(UsageError);
    await expect(run("prompt", "NOPE-1")).rejects.toThrow(/unknown case id 'NOPE-1'.*MARTA-A-001/);
    await expect(run("prompt", "marta-a-002")).rejects.toThrow(/did you mean MARTA-A-002\?/);
  });
});
