// Tool parity against the reference oracle: every tool call the reference rule agent made on the
// 955 cases is replayed on a fresh ToolSession per case and compared with the recorded result
// (structurally, floats to 1e-9) or the recorded error body (the rule agent kept its first 200
// characters). With the default python-hash-13 line order everything must be identical; the only
// tolerated difference is the label of equal-cost parallel lines (line / transfer_to /
// line_sequence), which is what the "sorted" order (reported for information) changes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../data/datapack.ts";
import { PACK_SYSTEM_IDS } from "../data/schemas.ts";
import type { LineOrder } from "../network/expanded.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { TOOL_NAMES, ToolSession, type ToolOutcome } from "./index.ts";

interface OracleCall {
  name: string;
  arguments: Record<string, unknown>;
  result: unknown;
  error: string | null;
}
interface OracleRecord {
  case_id: string;
  tool_calls_made: OracleCall[];
}

type Verdict = "identical" | "labels" | "mismatch";

const LABEL_KEYS = new Set(["line", "transfer_to", "line_sequence"]);

function sameValue(a: unknown, b: unknown, ignore?: ReadonlySet<string>): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || Math.abs(a - b) <= 1e-9;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i], ignore));
  }
  const ka = Object.keys(a).filter((k) => !ignore?.has(k));
  const kb = Object.keys(b).filter((k) => !ignore?.has(k));
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false; // same keys, same order
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], ignore));
}

/** Python's text[:200] (code points). */
function first200(text: string): string {
  return Array.from(text).slice(0, 200).join("");
}

function judge(call: OracleCall, got: ToolOutcome): Verdict {
  if (call.error !== null) return !got.ok && first200(got.body) === call.error ? "identical" : "mismatch";
  if (!got.ok) return "mismatch";
  if (sameValue(got.result, call.result)) return "identical";
  if (call.name === "route_planner" && sameValue(got.result, call.result, LABEL_KEYS)) return "labels";
  return "mismatch";
}

interface Tally {
  identical: number;
  labels: number;
  mismatch: number;
}

function replay(pack: DataPack, lineOrder: LineOrder) {
  const tallies = new Map<string, Tally>(); // `${system}/${tool}`
  const mismatches: string[] = [];
  for (const system of PACK_SYSTEM_IDS) {
    const data = pack.system(system);
    const file = path.join(ORACLE_DIR, "rule-agent", `${system}.json`);
    const records = (JSON.parse(readFileSync(file, "utf8")) as { results: OracleRecord[] }).results;
    for (const record of records) {
      const kase = pack.caseById(record.case_id);
      if (!kase) throw new Error(`oracle case ${record.case_id} is not in the data pack`);
      const session = new ToolSession(data, { lineOrder });
      session.setDisruptions(kase.system_context.active_disruptions);
      for (const call of record.tool_calls_made) {
        if (call.name === "submit_assistant_state") continue;
        // The rule agent injected its case id into disruption_feed only, and never a current_time.
        const context = call.name === "disruption_feed" ? { case_id: record.case_id } : {};
        const got = session.call(call.name, call.arguments, context);
        const verdict = judge(call, got);
        const key = `${system}/${call.name}`;
        const t = tallies.get(key) ?? { identical: 0, labels: 0, mismatch: 0 };
        t[verdict]++;
        tallies.set(key, t);
        if (verdict !== "identical" && mismatches.length < 20) {
          mismatches.push(
            `${record.case_id} ${call.name} ${JSON.stringify(call.arguments)} [${verdict}]\n  want ${JSON.stringify(call.error ?? call.result).slice(0, 400)}\n  got  ${JSON.stringify(got).slice(0, 400)}`,
          );
        }
      }
    }
  }
  return { tallies, mismatches };
}

function table(title: string, tallies: Map<string, Tally>): { text: string; total: Tally } {
  const tools = TOOL_NAMES.filter((t) => PACK_SYSTEM_IDS.some((s) => tallies.has(`${s}/${t}`)));
  const cell = (t: Tally | undefined): string => {
    if (!t) return "-";
    const n = t.identical + t.labels + t.mismatch;
    return `${t.identical}/${n}${t.labels ? ` (+${t.labels}L)` : ""}${t.mismatch ? ` !${t.mismatch}` : ""}`;
  };
  const add = (a: Tally, b: Tally | undefined): Tally =>
    b ? { identical: a.identical + b.identical, labels: a.labels + b.labels, mismatch: a.mismatch + b.mismatch } : a;
  const zero = (): Tally => ({ identical: 0, labels: 0, mismatch: 0 });
  const rows: string[][] = [["system", ...tools, "all"]];
  let total = zero();
  for (const s of PACK_SYSTEM_IDS) {
    let sys = zero();
    const row: string[] = [s];
    for (const t of tools) {
      const x = tallies.get(`${s}/${t}`);
      sys = add(sys, x);
      row.push(cell(x));
    }
    row.push(cell(sys));
    total = add(total, sys);
    rows.push(row);
  }
  const all = ["all"];
  for (const t of tools) all.push(cell(PACK_SYSTEM_IDS.reduce((acc, s) => add(acc, tallies.get(`${s}/${t}`)), zero())));
  all.push(cell(total));
  rows.push(all);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const text = rows.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ")).join("\n");
  const n = total.identical + total.labels + total.mismatch;
  const pct = ((100 * total.identical) / n).toFixed(2);
  return {
    text: `${title}: ${total.identical}/${n} identical (${pct}%), ${total.labels} label-only, ${total.mismatch} mismatched\n` +
      `(cells: identical/calls, +N L = line-label tie-break differences, !N = real mismatches)\n${text}`,
    total,
  };
}

describe("tool parity with the reference rule-agent oracle (955 cases)", () => {
  const pack = new DataPack(SHARED_DATA_DIR);

  it("replays every tool call identically with the python-hash-13 line order", () => {
    const { tallies, mismatches } = replay(pack, "python-hash-13");
    const { text, total } = table("python-hash-13", tallies);
    console.log(`${text}\n${mismatches.join("\n")}`);
    expect(mismatches, mismatches.join("\n")).toEqual([]);
    expect(total.mismatch).toBe(0);
    expect(total.identical).toBeGreaterThan(2700);
  });

  it("reports the figures with the sorted line order (information only)", () => {
    const { tallies, mismatches } = replay(pack, "sorted");
    const { text } = table("sorted", tallies);
    console.log(`${text}\n${mismatches.filter((m) => m.includes("[mismatch]")).join("\n")}`);
  });
});
