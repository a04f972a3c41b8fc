// The interlock checks a quote against who travels by the passenger's words, read by the language
// layer's one reader (test/rider-phrasings.ts, tuned tables): a quote of the party a phrasing states
// passes and quotes that disagree block; a phrasing the reader is unsure of blocks every quote until
// the counts are confirmed on screen. The never-tuned tables are graded by scripts/rider-phrasings.ts.
import { describe, expect, it } from "vitest";
import type { KioskEvent } from "../../../tools/data/schemas.ts";
import { gradeInterlock } from "../../../test/rider-grading.ts";
import { TUNE, TUNE_2 } from "../../../test/rider-phrasings.ts";
import { testPack } from "../testing.ts";
import { riderWordProblems } from "./riders.ts";

const pack = testPack();
const mix = (adults: number, children = 0, seniors = 0, disabled = 0) => ({ adults, children, seniors, disabled });
const typed = (...texts: string[]): KioskEvent[][] => texts.map((text) => [{ type: "freetext_input", text }]);

describe("interlock riders: our own phrasings", () => {
  for (const phrasing of [...TUNE, ...TUNE_2]) {
    it(`[${phrasing.system}] ${phrasing.text}`, () => {
      const grade = gradeInterlock(pack, phrasing);
      // Never a wrong quote let through; a right one blocked only where the reader asks.
      expect(grade.wronglyPassed).toEqual([]);
    });
  }
});

describe("interlock riders: the words as the kiosk reads them", () => {
  const bart = pack.system("bart");
  it("a sure reading must be the quote, count by count", () => {
    expect(riderWordProblems(bart, typed("12 adults, I mean 2"), mix(2), null)).toEqual([]);
    expect(riderWordProblems(bart, typed("12 adults, I mean 2"), mix(12), null)).toEqual(["adults: the passenger wrote 2, quoted 12"]);
    expect(riderWordProblems(bart, typed("1 adult aged 70"), mix(0, 0, 1), null)).toEqual([]);
    expect(riderWordProblems(bart, typed("I'm leaving from Qiyan going to Wanfang Hospital, we are four people."), mix(4), null)).toEqual([]);
    // Words that say nothing of riders block nothing.
    expect(riderWordProblems(bart, typed("platform 2 at 16th St Mission"), mix(1), null)).toEqual([]);
  });

  it("an unsure reading, or companions named but not read, blocks until the counts are confirmed on screen", () => {
    for (const text of ["a family of five", "3 or 4 people", "me and my mum", "Me, my wife and daughter would be three."]) {
      expect(riderWordProblems(bart, typed(text), mix(1), null), text).toEqual(["the passenger's words do not say for sure who travels, and no count was confirmed on screen"]);
    }
    const confirmed: KioskEvent[][] = [...typed("a family of five"), [{ type: "passenger_count_changed", adults: 2, children: 3 }]];
    expect(riderWordProblems(bart, confirmed, mix(2, 3), mix(2, 3))).toEqual([]);
    // A group on the counter before the words is taken as set; the screen's default of one is not.
    expect(riderWordProblems(bart, typed("me and my mum"), mix(1, 0, 1), mix(1, 0, 1))).toEqual([]);
    expect(riderWordProblems(bart, typed("me and my mum"), mix(1), mix(1))).not.toEqual([]);
  });

  it("with counts set on screen before the words, the words may not name more riders than the counter", () => {
    expect(riderWordProblems(bart, typed("my child is 4"), mix(2, 1), mix(2, 1))).toEqual([]);
    expect(riderWordProblems(bart, typed("3 adults"), mix(2), mix(2))).toEqual(["the passenger wrote 3 adults, the counter shows 2 adults"]);
    expect(riderWordProblems(bart, typed("just 1 adult"), mix(2), mix(2))).not.toEqual([]);
  });

  it("the latest text that says who travels wins, across turns", () => {
    expect(riderWordProblems(bart, typed("my mum and I, she's 70", "sorry, just me"), mix(1), null)).toEqual([]);
    expect(riderWordProblems(bart, typed("2 adults", "Airport please"), mix(1), null)).toEqual(["adults: the passenger wrote 2, quoted 1"]);
  });

  it("ages map through each system's fare table (MARTA: under 5 free; CTA: under 7)", () => {
    const marta = pack.system("marta");
    expect(riderWordProblems(marta, typed("airport to five points, me my wife and our 8 year old son"), mix(3), null)).toEqual([]);
    expect(riderWordProblems(marta, typed("airport to five points, me my wife and our 8 year old son"), mix(2, 1), null)).not.toEqual([]);
    expect(riderWordProblems(pack.system("cta"), typed("me and my 6 year old"), mix(1, 1), null)).toEqual([]);
    expect(riderWordProblems(marta, typed("me and my 6 year old"), mix(1, 1), null)).not.toEqual([]);
  });
});
