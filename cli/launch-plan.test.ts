// Which build bin/kiosk.js runs a command line from, with which code cache and V8 flags.
import { describe, expect, it } from "vitest";
import { BATCH_INTERRUPT_BUDGET } from "./jit-tiering.ts";
import { launchPlan } from "./launch-plan.ts";

const BATCH_FLAG = `--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`;

describe("launchPlan", () => {
  it("runs a command that runs to completion from the code cache of its sub-command, with the batch tiering", () => {
    expect(launchPlan(["bench", "run", "--resume", "3"], [])).toEqual({ codeCache: "bench-run", v8Flags: BATCH_FLAG });
    expect(launchPlan(["--data", "/pack", "bench", "report", "latest"], [])).toEqual({ codeCache: "bench-report", v8Flags: BATCH_FLAG });
    expect(launchPlan(["model", "inspect", "m.gguf"], [])).toEqual({ codeCache: "model-inspect", v8Flags: BATCH_FLAG });
  });

  it("gives each policy of a bench run a cache of its own (a model policy's code and a rule policy's share little)", () => {
    expect(launchPlan(["bench", "run", "--policy", "rule-ref"], []).codeCache).toBe("bench-run-rule-ref");
    expect(launchPlan(["bench", "run", "--db", "x.sqlite", "--policy=llm", "--model", "2b"], []).codeCache).toBe("bench-run-llm");
    expect(launchPlan(["bench", "run", "--policy", "../../etc"], []).codeCache).toBe("bench-run");
    expect(launchPlan(["bench", "report", "--policy", "rule"], []).codeCache).toBe("bench-report");
  });

  it("keeps arguments that are not sub-command names (case ids, tool names, files) out of the cache's name", () => {
    expect(launchPlan(["prompt", "MARTA-A-001"], []).codeCache).toBe("prompt");
    expect(launchPlan(["tool", "route_planner", "{}"], []).codeCache).toBe("tool");
    expect(launchPlan(["framebook", "./a.yaml"], []).codeCache).toBe("framebook");
    expect(launchPlan(["data"], []).codeCache).toBe("data");
  });

  it("runs resident servers, help and unknown commands from the ES module build, with V8's defaults", () => {
    const esm = { codeCache: null, v8Flags: null };
    for (const args of [["serve"], ["--data=/pack", "serve", "--port", "0"], ["backoffice", "serve"], [], ["--help"], ["bench", "--help"], ["bench", "run", "-h"], ["help", "bench"], ["bnch"]]) {
      expect(launchPlan(args, []), args.join(" ")).toEqual(esm);
    }
  });

  it("leaves an --interrupt-budget given to Node alone", () => {
    expect(launchPlan(["bench", "run"], ["--interrupt-budget=67584"])).toEqual({ codeCache: expect.stringMatching(/^bench-run\.[0-9a-f]{8}$/), v8Flags: null });
  });

  it("gives each set of Node options a cache of its own (V8 rejects a cache made under other flags)", () => {
    const plain = launchPlan(["bench", "run", "--policy", "rule"], []).codeCache;
    const profiled = launchPlan(["bench", "run", "--policy", "rule"], ["--cpu-prof"]).codeCache;
    const semi = launchPlan(["bench", "run", "--policy", "rule"], ["--max-semi-space-size=4"]).codeCache;
    expect(plain).toBe("bench-run-rule");
    expect(profiled).toMatch(/^bench-run-rule\.[0-9a-f]{8}$/);
    expect(semi).toMatch(/^bench-run-rule\.[0-9a-f]{8}$/);
    expect(new Set([plain, profiled, semi]).size).toBe(3);
  });
});
