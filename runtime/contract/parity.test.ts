// Parity with the reference tool server: every submit_assistant_state call of the reference rule
// agent (oracle/rule-agent) must be accepted or rejected as it was, with the same body text, the
// same field paths and, when accepted, the same response_id.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS } from "../../tools/data/schemas.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { validateSubmission } from "./index.ts";

interface OracleToolCall {
  name: string;
  arguments: unknown;
  result: { accepted?: boolean; response_id?: string } | null;
  error: string | null;
}
interface OracleRecord {
  case_id: string;
  tool_calls_made: OracleToolCall[];
}

/** The reference rule agent kept only the first 200 characters of an error body. */
const RULE_AGENT_ERROR_CHARS = 200;
const truncate = (s: string, n: number): string => Array.from(s).slice(0, n).join("");

/** The field a reference error body names (read from the body text, independently of the code). */
function oraclePaths(errorBody: string): string[] {
  const prefixes: Array<[string, string]> = [
    ['{"detail":"Invalid outcome:', "outcome"],
    ['{"detail":"Invalid action:', "kiosk_action.action"],
    ['{"detail":"Invalid reason_code:', "kiosk_action.reason_code"],
    ['{"detail":"route required', "route"],
    ['{"detail":"fare_quote required', "fare_quote"],
    ['{"detail":"Unknown station IDs in route.stops', "route.stops"],
  ];
  for (const [prefix, field] of prefixes) if (errorBody.startsWith(prefix)) return [field];
  const parsed = JSON.parse(errorBody) as { detail: Array<{ loc: Array<string | number> }> };
  return parsed.detail.map((d) => d.loc.slice(1).join("."));
}

describe("submit_assistant_state parity with the reference server (oracle/rule-agent)", () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const totals = { calls: 0, accepted: 0, rejected: 0 };

  for (const systemId of PACK_SYSTEM_IDS) {
    it(`${systemId}: same verdict, body, paths and response_id for every submission`, () => {
      const system = pack.system(systemId);
      const file = JSON.parse(readFileSync(path.join(ORACLE_DIR, "rule-agent", `${systemId}.json`), "utf8")) as {
        results: OracleRecord[];
      };
      const counts = { calls: 0, accepted: 0, rejected: 0 };
      const mismatches: string[] = [];
      for (const record of file.results) {
        for (const call of record.tool_calls_made.filter((c) => c.name === "submit_assistant_state")) {
          counts.calls++;
          const verdict = validateSubmission(call.arguments, system);
          const expectedAccepted = call.error === null;
          if (verdict.accepted !== expectedAccepted) {
            mismatches.push(`${record.case_id}: accepted ${verdict.accepted}, oracle ${expectedAccepted}`);
            continue;
          }
          if (verdict.accepted) {
            counts.accepted++;
            if (verdict.responseId !== call.result?.response_id) {
              mismatches.push(`${record.case_id}: response_id ${verdict.responseId}, oracle ${call.result?.response_id}`);
            }
          } else {
            counts.rejected++;
            const expected = call.error ?? "";
            if (truncate(verdict.body, RULE_AGENT_ERROR_CHARS) !== expected) {
              mismatches.push(`${record.case_id}: body\n  ours:   ${verdict.body}\n  oracle: ${expected}`);
            }
            const paths = verdict.errors.map((e) => e.path);
            if (JSON.stringify(paths) !== JSON.stringify(oraclePaths(expected))) {
              mismatches.push(`${record.case_id}: paths ${JSON.stringify(paths)}, oracle ${JSON.stringify(oraclePaths(expected))}`);
            }
          }
        }
      }
      totals.calls += counts.calls;
      totals.accepted += counts.accepted;
      totals.rejected += counts.rejected;
      console.log(`contract parity ${systemId}: ${counts.calls} submissions, ${counts.accepted} accepted, ${counts.rejected} rejected, ${mismatches.length} mismatches`);
      expect(mismatches.slice(0, 5)).toEqual([]);
      expect(counts.calls).toBe(file.results.length);
    });
  }

  it("covers all 955 submissions, 733 of them rejected", () => {
    console.log(`contract parity total: ${totals.calls} submissions, ${totals.accepted} accepted, ${totals.rejected} rejected`);
    expect(totals).toEqual({ calls: 955, accepted: 222, rejected: 733 });
  });
});
