import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { caseSetup } from "../session/case.ts";
import type { SystemContext } from "../../tools/data/schemas.ts";
import { decideRoute, type HybridPath } from "./hybrid.ts";

const pack = new DataPack(SHARED_DATA_DIR);

describe("hybrid router decision table (all 955 cases, no case keyed by id)", () => {
  it("sends every case down a documented path with a reason, and never reads the answer key", () => {
    const counts: Record<string, number> = {};
    for (const kase of pack.allCases()) {
      const turns = kase.multi_turn_events ?? [kase.events];
      const decision = decideRoute(pack.system(kase.system), kase.system_context, turns);
      counts[`${decision.path}:${decision.reason}`] = (counts[`${decision.path}:${decision.reason}`] ?? 0) + 1;
      // Structured A/B cases need no judgement; typed text goes to the model unless it is a plain trip.
      const typed = turns.flat().some((e) => e.type === "freetext_input");
      if ((kase.category === "A" || kase.category === "B") && !typed) expect(decision.path, kase.id).toBe("rule");
      if (typed) expect(["model:free_text", "rule:plain_text"]).toContain(`${decision.path}:${decision.reason}`);
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

describe("typed text: a plain trip stays with the deterministic policy, anything more goes to the model", () => {
  const daytime = (framebook: string): SystemContext => ({ current_time: "2026-03-11T14:00:00", active_disruptions: [], framebook, temporal_context: { current_time: "2026-03-11T14:00:00", day_of_week: "Wednesday" } });
  const route = (system: string, text: string): string => {
    const d = decideRoute(pack.system(system), daytime(system), [[{ type: "freetext_input", text }]]);
    return `${d.path}:${d.reason}`;
  };
  // Our own wordings, not the benchmark's.
  it.each([
    ["bart", "2 adults from Powell St to Daly City please"],
    ["bart", "one ticket Embarcadero to Daly City"],
    ["marta", "I need to get from Airport to Five Points"],
    ["marta", "how much from Buckhead to Airport?"],
    ["bart", "dos adultos de Embarcadero a Daly City por favor"],
  ])("[%s] %s → rule", (system, text) => expect(route(system, text)).toBe("rule:plain_text"));

  it.each([
    ["bart", "Powell St to Daly City with my bike", "a word outside a plain trip"],
    ["bart", "Embarcadero to Daly City, I need to be there by 9", "a time"],
    ["marta", "Airport to Five Points at 9 tonight", "a time"],
    ["bart", "From SFO to my hotel near Powell St", "an unknown place"],
    ["marta", "to Five Points please", "no origin"],
    ["bart", "Embarcadero to Daly City and back", "a return journey"],
    ["bart", "me and my mum from Embarcadero to Daly City", "riders it cannot type (a mother of unknown age)"],
    ["beijing", "从西直门到东直门", "a script the model reads"],
    ["marta", "Is the elevator at Five Points working?", "a question"],
  ])("[%s] %s → model (%s)", (system, text) => expect(route(system, text)).toBe("model:free_text"));

  it("still sends a plain trip to the model when the network or the time of day needs judgement", () => {
    const bart = pack.system("bart");
    const text = [[{ type: "freetext_input" as const, text: "2 adults from Powell St to Daly City please" }]];
    expect(decideRoute(bart, { ...daytime("bart"), policy_change: { text: "Fares are half price today." } }, text)).toMatchObject({ path: "model", reason: "policy_change" });
    expect(decideRoute(bart, { ...daytime("bart"), temporal_context: { current_time: "2026-03-11T03:00:00", day_of_week: "Wednesday" } }, text)).toMatchObject({ path: "model", reason: "service_hours_boundary" });
  });
});

describe("the router and a case's setup", () => {
  const structured = pack.caseById("MARTA-A-001")!;

  it("records the router's decision in the transcript setup it was given", () => {
    const setup = caseSetup(pack, structured);
    expect(decideRoute(setup.system, setup.context, setup.scriptedTurns ?? [])).toMatchObject({ path: "rule" });
  });
});
