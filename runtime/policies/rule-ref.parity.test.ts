// rule-ref must reproduce the reference rule baseline call for call: tool names, arguments,
// results and errors, and the submitted (scored) response, for all 955 oracle records.
import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS } from "../../tools/data/schemas.ts";
import { runCase } from "../session/case.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { ruleRefPolicy } from "./rule-ref.ts";

interface OracleRecord {
  case_id: string;
  response: unknown;
  tool_calls_made: unknown[];
  error: string | null;
}

/** Drop our additions (timings) and normalise through JSON like a results file. */
function comparable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "ms" ? undefined : v)));
}

describe("rule-ref parity with the reference rule baseline", () => {
  const pack = new DataPack(SHARED_DATA_DIR);

  it("matches every oracle transcript call for call and submission for submission", async () => {
    const table: string[] = [];
    let total = 0;
    const mismatches: string[] = [];
    for (const system of PACK_SYSTEM_IDS) {
      const file = path.join(ORACLE_DIR, "rule-agent", `${system}.json`);
      const oracle = (JSON.parse(readFileSync(file, "utf8")) as { results: OracleRecord[] }).results;
      let same = 0;
      for (const expected of oracle) {
        const kase = pack.caseById(expected.case_id);
        if (!kase) throw new Error(`case ${expected.case_id} missing from the data pack`);
        const record = await runCase(pack, kase, ruleRefPolicy);
        const callsMatch = isDeepStrictEqual(comparable(record.tool_calls_made), expected.tool_calls_made);
        const responseMatch = isDeepStrictEqual(comparable(record.response), expected.response);
        if (callsMatch && responseMatch && record.error === expected.error) same++;
        else mismatches.push(`${expected.case_id}: calls ${callsMatch} response ${responseMatch}`);
      }
      total += same;
      table.push(`${system.padEnd(8)} ${same}/${oracle.length}`);
    }
    console.log(`rule-ref transcripts identical to the oracle:\n${table.join("\n")}\ntotal ${total}/955`);
    expect(mismatches).toEqual([]);
    expect(total).toBe(955);
  });
});
