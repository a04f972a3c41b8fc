// Parity with the reference prompts: for every case, the system prompt and every user turn must
// be byte-identical to oracle/prompts/<system>.jsonl; the tool definitions must equal the
// oracle's and the pack's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS } from "../../tools/data/schemas.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { buildCasePrompt, toolDefinitions } from "./index.ts";

interface OraclePrompt {
  case_id: string;
  system_prompt: string;
  user_turns: string[];
}

/** The first differing offset of two texts, with context, for a readable failure. */
function firstDifference(ours: string, expected: string): string | undefined {
  if (ours === expected) return undefined;
  let i = 0;
  while (i < ours.length && i < expected.length && ours[i] === expected[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  return `differs at offset ${i} (lengths ${ours.length} vs ${expected.length})\n    ours:   ${around(ours)}\n    oracle: ${around(expected)}`;
}

describe("prompt parity with the reference (oracle/prompts)", () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const profile = pack.promptProfile();
  const totals = { cases: 0, systemPrompts: 0, userTurns: 0 };

  for (const systemId of PACK_SYSTEM_IDS) {
    it(`${systemId}: system prompt and user turns are byte-identical`, () => {
      const system = pack.system(systemId);
      const oracle = readFileSync(path.join(ORACLE_DIR, "prompts", `${systemId}.jsonl`), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as OraclePrompt);
      const cases = new Map(pack.cases(systemId).map((c) => [c.id, c]));
      expect(oracle.length).toBe(cases.size);
      const mismatches: string[] = [];
      let turns = 0;
      let systemPrompts = 0;
      for (const expected of oracle) {
        const kase = cases.get(expected.case_id);
        if (!kase) {
          mismatches.push(`${expected.case_id}: not in the pack's cases`);
          continue;
        }
        const prompt = buildCasePrompt(kase, system, profile);
        const diff = firstDifference(prompt.systemPrompt, expected.system_prompt);
        if (diff) mismatches.push(`${kase.id} system prompt ${diff}`);
        else systemPrompts++;
        if (prompt.userTurns.length !== expected.user_turns.length) {
          mismatches.push(`${kase.id}: ${prompt.userTurns.length} user turns, oracle ${expected.user_turns.length}`);
          continue;
        }
        expected.user_turns.forEach((turn, n) => {
          const turnDiff = firstDifference(prompt.userTurns[n] ?? "", turn);
          if (turnDiff) mismatches.push(`${kase.id} user turn ${n} ${turnDiff}`);
          else turns++;
        });
      }
      totals.cases += oracle.length;
      totals.systemPrompts += systemPrompts;
      totals.userTurns += turns;
      console.log(`prompt parity ${systemId}: ${oracle.length} cases, ${systemPrompts} system prompts and ${turns} user turns identical, ${mismatches.length} mismatches`);
      if (mismatches.length > 0) console.log(mismatches.slice(0, 3).join("\n"));
      expect(mismatches.length).toBe(0);
    });
  }

  it("covers all 955 cases", () => {
    console.log(`prompt parity total: ${totals.cases} cases, ${totals.systemPrompts} system prompts, ${totals.userTurns} user turns identical`);
    expect(totals.cases).toBe(955);
    expect(totals.systemPrompts).toBe(955);
    expect(totals.userTurns).toBe(1141);
  });

  it("tool definitions equal the oracle's and the pack's file, in order", () => {
    const ours = toolDefinitions(pack);
    const oracle: unknown = JSON.parse(readFileSync(path.join(ORACLE_DIR, "prompts", "tool-definitions.json"), "utf8"));
    const packFile: unknown = JSON.parse(readFileSync(pack.file("prompt-profile/tool-definitions.json"), "utf8"));
    expect(ours).toStrictEqual(oracle);
    expect(ours).toStrictEqual(packFile);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(oracle));
    console.log(`tool definitions: ${ours.length} (${ours.map((t) => t.function.name).join(", ")})`);
  });
});
