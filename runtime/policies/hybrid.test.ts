import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { caseSetup } from "../session/case.ts";
import { decideRoute, type HybridPath } from "./hybrid.ts";

const pack = new DataPack(SHARED_DATA_DIR);

describe("hybrid router decision table (all 955 cases, no case keyed by id)", () => {
  it("sends every case down a documented path with a reason, and never reads the answer key", () => {
    const counts: Record<string, number> = {};
    for (const kase of pack.allCases()) {
      const turns = kase.multi_turn_events ?? [kase.events];
      const decision = decideRoute(pack.system(kase.system), kase.system_context, turns);
      counts[`${decision.path}:${decision.reason}`] = (counts[`${decision.path}:${decision.reason}`] ?? 0) + 1;
      // Structured A/B cases need no judgement; every case with typed text goes to the model.
      const typed = turns.flat().some((e) => e.type === "freetext_input");
      if ((kase.category === "A" || kase.category === "B") && !typed) expect(decision.path, kase.id).toBe("rule");
      if (typed) expect(decision).toMatchObject({ path: "model", reason: "free_text" });
      if (kase.system_context.active_disruptions.length > 0) expect(decision.path).toBe("model");
    }
    console.log("hybrid routing over 955 cases:", counts);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(955);
  });

  it("routes near closing time and after hours to the model, daytime structured trips to rule", () => {
    const marta = pack.system("marta");
    const trip = [[{ type: "station_selected" as const, field: "origin" as const, value: "Airport" }, { type: "station_selected" as const, field: "destination" as const, value: "Five Points" }]];
    const at = (time: string, day = "Wednesday"): HybridPath =>
      decideRoute(marta, { current_time: time, active_disruptions: [], framebook: "marta", temporal_context: { current_time: time, day_of_week: day } }, trip).path;
    expect(at("2026-03-11T14:00:00")).toBe("rule");
    expect(at("2026-03-11T00:30:00")).toBe("model"); // 30 min before the 01:00 close
    expect(at("2026-03-11T03:00:00")).toBe("model"); // closed
  });
});

describe("the router and a case's setup", () => {
  const structured = pack.caseById("MARTA-A-001")!;

  it("records the router's decision in the transcript setup it was given", () => {
    const setup = caseSetup(pack, structured);
    expect(decideRoute(setup.system, setup.context, setup.scriptedTurns ?? [])).toMatchObject({ path: "rule" });
  });
});
