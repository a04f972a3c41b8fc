// The batch tiering: the flag it sets, when it leaves Node's own choice alone, and that setting it
// at run time (after V8 has started) really changes when a hot function is optimised.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BATCH_INTERRUPT_BUDGET, tuneJitForBatch } from "./jit-tiering.ts";
import { runsToCompletion } from "./commands.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe("cli/jit-tiering.ts", () => {
  it("raises V8's interrupt budget above its default (67,584)", () => {
    const set: string[] = [];
    expect(tuneJitForBatch([], (f) => set.push(f))).toBe(true);
    expect(set).toEqual([`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`]);
    expect(BATCH_INTERRUPT_BUDGET).toBeGreaterThan(67_584);
  });

  it("leaves a budget given on Node's command line as it is, in either spelling", () => {
    for (const execArgv of [["--interrupt-budget=67584"], ["--interrupt_budget=1000"], ["--interrupt-budget", "5000"], ["--no-warnings", "--interrupt-budget=1"]]) {
      const set: string[] = [];
      expect(tuneJitForBatch(execArgv, (f) => set.push(f)), execArgv.join(" ")).toBe(false);
      expect(set).toEqual([]);
    }
    const set: string[] = [];
    expect(tuneJitForBatch(["--max-old-space-size=4096"], (f) => set.push(f))).toBe(true);
    expect(set).toHaveLength(1);
  });

  it("is applied to commands that run to completion, not to resident servers", () => {
    expect(runsToCompletion(["bench", "run", "--policy", "rule-ref"])).toBe(true);
    expect(runsToCompletion(["--data", "/pack", "tool", "route_planner"])).toBe(true);
    expect(runsToCompletion(["--help"])).toBe(true);
    expect(runsToCompletion(["serve"])).toBe(false);
    expect(runsToCompletion(["--data=/pack", "serve", "--port", "0"])).toBe(false);
    expect(runsToCompletion(["backoffice", "serve"])).toBe(false);
  });

  it("takes effect when set at run time: V8 waits for several times as many calls before optimising a hot function", () => {
    // Synchronous optimisation, so that the status is read after V8 has decided: the child calls
    // `hot` in steps of 50 and prints after how many calls it first runs optimised code.
    const script = `
      if (process.argv[1] === "tune") (await import(${JSON.stringify(path.join(HERE, "jit-tiering.ts"))})).tuneJitForBatch([]);
      function hot(n) { let s = 0; for (let i = 0; i < 8; i++) s += (n * i) % 7; return s; }
      function drive(k) { let sum = 0; for (let i = 0; i < k; i++) sum += hot(i); return sum; }
      let calls = 0;
      // Bit 4 (16) of the status: the function runs optimised code.
      while (calls < 20000 && (%GetOptimizationStatus(hot) & 16) === 0) calls += drive(50) >= 0 ? 50 : 0;
      console.log(JSON.stringify({ calls }));
    `;
    const callsBeforeOptimised = (mode: string): number => {
      const child = spawnSync(process.execPath, ["--allow-natives-syntax", "--no-concurrent-recompilation", "--import", "tsx", "--input-type=module", "-e", script, mode], { encoding: "utf8", timeout: 60_000 });
      expect(child.status, child.stderr).toBe(0);
      return (JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as { calls: number }).calls;
    };
    const byDefault = callsBeforeOptimised("default");
    const tuned = callsBeforeOptimised("tune");
    expect(byDefault).toBeGreaterThan(0);
    expect(byDefault).toBeLessThan(20000);
    // 300,000 / 67,584 ≈ 4.4 times the bytecode.
    expect(tuned).toBeGreaterThanOrEqual(byDefault * 3);
  });
});
