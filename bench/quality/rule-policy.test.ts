// The embedded default policy must keep its published quality: measured like the paper
// (per-case Tier 1 %, mean per system, mean of the six system means) on the held-out split.
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { runCase } from "../../runtime/session/case.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { scoreCaseNoJudge, type CaseScore } from "../scorer/index.ts";
import { summarizeRun } from "../stats/index.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";

describe("rule policy quality", () => {
  it("reaches at least 90 Tier 1 on the held-out partition (the reference baseline: 84.6)", async () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const scores: Record<string, CaseScore[]> = {};
    for (const system of pack.systemIds) {
      const list: CaseScore[] = [];
      for (const kase of pack.cases(system)) list.push(scoreCaseNoJudge(kase, await runCase(pack, kase, rulePolicy), pack.system(system)));
      scores[system] = list;
    }
    const summary = summarizeRun(scores, pack.split());
    const heldOut = summary.partitions.holdout.overall.tier1_mean_of_system_means;
    console.log(`rule policy: held-out Tier 1 ${heldOut}, full ${summary.partitions.full.overall.tier1_mean_of_system_means}`);
    expect(heldOut).toBeGreaterThanOrEqual(90);
  });
});
