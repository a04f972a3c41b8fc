import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { clarificationOf } from "../../runtime/contract/clarification.ts";
import { runCase } from "../../runtime/session/case.ts";
import { DISPUTED_NO_SALE } from "../disputed-keys.ts";
import { runWithTaps, type VariantOutcome } from "./run.ts";
import { renderHalfTable, renderSuiteHtml, summarizeHalf } from "./summary.ts";
import { assemble, loadSuite } from "./suite.ts";

const pack = new DataPack(SHARED_DATA_DIR);

describe("robustness suite", () => {
  it("has at least 600 passenger and 100 operator variants over 11 categories and 6 systems, assembled from the pack", () => {
    const suite = loadSuite(pack);
    const passengers = suite.filter((s) => !s.operator);
    expect(passengers.length).toBeGreaterThanOrEqual(600);
    expect(suite.length - passengers.length).toBeGreaterThanOrEqual(100);
    expect(new Set(passengers.map((s) => s.base.category)).size).toBe(11);
    expect(new Set(suite.map((s) => s.base.system)).size).toBe(6);
    expect(new Set(suite.map((s) => s.id)).size).toBe(suite.length);
  });

  it("re-prices a variant that asks for other riders with the pack's fare engine", () => {
    const kase = assemble(pack, { base: "BART-A-003", kinds: ["typed"], text: "Two adult tickets from Embarcadero to SFO please", riders: { adults: 2 } }, "BART-A-003~x1", "test");
    expect((kase.ground_truth as { fare: { total: number } }).fare.total).toBe(19.9);
    expect(kase.events.some((e) => e.type === "station_selected")).toBe(false);
  });

  it("asks which station when a name is ambiguous, and sells after the passenger taps the choice", async () => {
    const kase = assemble(pack, { base: "CTA-A-014", kinds: ["typed"], text: "Howard to Kedzie", clarify: "destination" }, "CTA-A-014~x1", "test");
    const first = await runCase(pack, kase, rulePolicy);
    const question = clarificationOf(first.tool_calls_made);
    expect(question?.kind).toBe("station");
    expect(first.kiosk.state.kiosk_action.action).not.toBe("prompt_purchase");
    const outcome = await runWithTaps(pack, kase, rulePolicy);
    expect(outcome.askedFirst).toBe(true);
    expect(outcome.strict.problems).toEqual([]);
    expect(outcome.strict).toMatchObject({ pass: true, purchasable: true, wrongOffer: false });
  });

  it("a closed station trains run through, in words the notice's own reader knows, is passed, not routed around at a dearer fare", async () => {
    const disruption = "Zhongxiao Fuxing is closed for a water leak. Blue and Brown trains go straight through it.";
    const kase = assemble(pack, { base: "TRTC-C-002", kinds: ["disruption_reworded"], disruption }, "TRTC-C-002~x1", "test");
    const outcome = await runWithTaps(pack, kase, rulePolicy);
    expect(outcome.strict.problems).toEqual([]);
    expect(outcome.strict).toMatchObject({ pass: true, purchasable: true, wrongOffer: false });
  });

  it("strict score: a sale read from an alias becomes purchasable only after the confirmation tap", async () => {
    const kase = assemble(pack, { base: "BART-A-003", kinds: ["typed"], text: "Two adult tickets from Embarcadero to SFO please", riders: { adults: 2 } }, "BART-A-003~x2", "test");
    const outcome = await runWithTaps(pack, kase, rulePolicy);
    expect(outcome.taps).toBe(1);
    expect(outcome.strict.pass).toBe(true);
  });
});

describe("robustness report: wrong offers", () => {
  const outcome = (id: string, base: string, wrongOffer: boolean): VariantOutcome =>
    ({
      entry: { id, half: "report", base: { id: base, category: "I" }, variant: { kinds: ["time"], text: `text of ${id}` }, operator: false },
      original: { tier1: 100, strict: { pass: true, wrongOffer: false, problems: [] }, askedFirst: false, taps: 0 },
      variant: { tier1: 100, strict: { pass: !wrongOffer, wrongOffer, problems: wrongOffer ? ["purchasable, but no sale is due"] : [] }, askedFirst: false, taps: 0 },
    }) as unknown as VariantOutcome;

  it("lists an offer on a disputed answer key apart, with why, and counts only the others as wrong", () => {
    const s = summarizeHalf("report", [outcome("CTA-I-004~r1", "CTA-I-004", true), outcome("BART-I-004~r1", "BART-I-004", true), outcome("BART-A-001~r1", "BART-A-001", false)]);
    expect(s.wrong.map((w) => w.id)).toEqual(["BART-I-004~r1"]);
    expect(s.overall.wrongOffers).toBe(1);
    expect(s.disputed).toEqual([{ id: "CTA-I-004~r1", text: "text of CTA-I-004~r1", problems: ["purchasable, but no sale is due"], why: DISPUTED_NO_SALE["CTA-I-004"] }]);
    // The strict score still counts the disputed variant as a miss.
    expect(s.overall.variantStrict).toBe(33.3);
    expect(renderHalfTable(s)).toContain("offers on a disputed answer key (left out above): 1");
    expect(renderSuiteHtml([s])).toContain("Offers on a disputed answer key (left out above): 1.");
  });
});
