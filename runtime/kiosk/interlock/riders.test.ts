// The interlock's own rider reader on our phrasings (test/rider-phrasings.ts, tuned table): for
// every phrasing a quote of the party it states passes and quotes that disagree block — fewer
// riders, or a senior or child sold as an adult (what a lying model sells); numbers that are not
// riders (lines, platforms, minutes, times, station names) block nothing. The never-tuned table is
// graded by scripts/rider-phrasings.ts, not here, so no one tunes the reader on it.
import { describe, expect, it } from "vitest";
import { gradeInterlock } from "../../../test/rider-grading.ts";
import { TUNE, TUNE_2 } from "../../../test/rider-phrasings.ts";
import { testPack } from "../testing.ts";
import { readParty } from "./party.ts";
import { readRiderText, riderDisagreements, textRiderClaims } from "./riders.ts";

const pack = testPack();

describe("interlock rider reader: our own phrasings", () => {
  for (const phrasing of [...TUNE, ...TUNE_2]) {
    it(`[${phrasing.system}] ${phrasing.text}`, () => {
      expect(gradeInterlock(pack, phrasing)).toMatchObject({ wronglyPassed: [], wronglyBlocked: [] });
    });
  }
});

describe("interlock rider reader: how it reads", () => {
  const bart = pack.system("bart");
  it("reads as the language layer does: a bare number corrects the count before it; ages tell who counted riders are", () => {
    const mix = (adults: number, seniors = 0) => ({ adults, children: 0, seniors, disabled: 0 });
    expect(riderDisagreements(readRiderText(bart, "12 adults, I mean 2"), mix(2))).toEqual([]);
    expect(riderDisagreements(readRiderText(bart, "12 adults, I mean 2"), mix(12))).not.toEqual([]);
    expect(riderDisagreements(readRiderText(bart, "Three adults. Sorry, four"), mix(4))).toEqual([]);
    expect(riderDisagreements(readRiderText(bart, "1 adult aged 70"), mix(0, 1))).toEqual([]);
    expect(riderDisagreements(readRiderText(bart, "1 adult aged 70"), mix(1))).not.toEqual([]);
  });

  it("a group's size said twice is one group (an SGD turn, cases/others taipei-p-001): four, not eight", () => {
    const claims = readRiderText(bart, "I'm leaving from Qiyan going to Wanfang Hospital, we are four people.");
    expect(claims.exact.total).toBe(4);
    expect(riderDisagreements(claims, { adults: 4, children: 0, seniors: 0, disabled: 0 })).toEqual([]);
  });
  it("reads people named one by one with the age told after them or in brackets", () => {
    expect(readParty("my mum and I, she's 70")).toMatchObject({ people: 2, ages: [70] });
    expect(readParty("my husband (72) and I")).toMatchObject({ people: 2, ages: [72] });
    expect(readParty("我和我妈妈，她七十岁")).toMatchObject({ people: 2, ages: [70] });
    expect(readParty("my wife and I (both 70)")).toMatchObject({ people: 2, bothSenior: true });
    // "she is a senior" is not an age of 1.
    expect(readParty("me and my mum, who is a senior").ages).toEqual([]);
    // Everyone named and nothing else counted: exactly two.
    expect(readRiderText(bart, "my mum and I, she's 70")).toMatchObject({ atLeast: { seniors: 1 }, exact: { total: 2 } });
  });

  it("reads one age told of a whole group for each member, and companions who are not relatives", () => {
    // "twins aged 2" is two children of 2, not one: read once by party.ts, not again by the word loop.
    expect(readParty("twins aged 2 and me")).toMatchObject({ people: 3, ages: [2, 2], groupAgeWords: [2] });
    expect(readRiderText(bart, "twins aged 2 and me")).toMatchObject({ atLeast: { children: 2 }, exact: { total: 3 } });
    expect(readParty("a mom, a dad and twins of 3").ages).toEqual([3, 3]);
    expect(readParty("my triplets (4) and I")).toMatchObject({ people: 4, ages: [4, 4, 4] });
    expect(readParty("the twins are 3, traveling with me").ages).toEqual([3, 3]);
    // "of 3 stations" is no age.
    expect(readParty("me and the twins, ride of 3 stations").ages).toEqual([]);
    expect(readRiderText(bart, "me and my mate")).toMatchObject({ exact: { total: 2 } });
    expect(readRiderText(bart, "me + 2 buddies")).toMatchObject({ exact: { total: 3 } });
    expect(readRiderText(bart, "with my coworker")).toMatchObject({ atLeast: { total: 2 } });
    // Parents the speaker does not travel with are not riders; "my mate lives near Fremont" names none.
    expect(readParty("I'm meeting my parents at Powell St").people).toBe(0);
    expect(riderDisagreements(readRiderText(bart, "my mate lives near Fremont"), { adults: 1, children: 0, seniors: 0, disabled: 0 })).toEqual([]);
  });

  it("reads relatives in the plural, what is said of a companion, and ages listed after a group", () => {
    expect(readParty("my parents and I")).toMatchObject({ people: 3, complete: true });
    expect(readParty("twin girls (3) and their mom")).toMatchObject({ people: 3, ages: [3, 3] });
    expect(readParty("me with my twin boys, they're 5")).toMatchObject({ people: 3, ages: [5, 5] });
    expect(readParty("my disabled brother and I")).toMatchObject({ people: 2, disabled: 1 });
    expect(readParty("I'm with my sister, she uses a wheelchair")).toMatchObject({ people: 2, disabled: 1 });
    expect(readParty("my grown son and I")).toMatchObject({ grownUp: 1, complete: true });
    expect(readParty("my elderly father and I")).toMatchObject({ elderly: 1 });
    // Only the words that describe the companion: "adult" here is another rider.
    expect(readParty("one adult with two kids aged 2 and 4")).toMatchObject({ grownUp: 0, ages: [2, 4] });
    expect(readParty("my wife, me and our two kids aged 1 and 3")).toMatchObject({ people: 4, ages: [1, 3], complete: true });
    expect(readParty("yo con mis dos niños de 1 y 3 años")).toMatchObject({ people: 3, ages: [1, 3] });
    // A count word, a number that is not an age, or "my kids" of unknown number: not the whole party.
    expect(readParty("me and my wife plus 2 adults").complete).toBe(false);
    expect(readParty("me and my kids").complete).toBe(false);
    // Relatives who do not travel.
    expect(readParty("I pick up my kids at 3 from school").people).toBe(0);
    // Exactly that many: one rider too many blocks too.
    const claims = readRiderText(bart, "me and a friend");
    expect(claims.exact).toEqual({ total: 2 });
    expect(riderDisagreements(claims, { adults: 3, children: 0, seniors: 0, disabled: 0 })).not.toEqual([]);
    // A list of ages is read once, not also by the word loop.
    expect(readRiderText(bart, "my kids are 2 and 4, plus me").atLeast).toMatchObject({ children: 2, total: 3 });
    // "just me" is the whole party, whatever else the statement counted.
    expect(readRiderText(bart, "I have 2 kids at home, just me today").exact).toEqual({ total: 1 });
  });

  it("lets the last statement of a text win, and 'just' restart the party", () => {
    expect(readRiderText(bart, "3 adults and 2 children, no wait, just 2 adults").exact).toEqual({ adults: 2 });
    expect(readRiderText(bart, "Three adults. Sorry, four adults.").exact).toEqual({ adults: 4 });
    // Without "just", a correction of one count keeps the others.
    expect(readRiderText(bart, "2 adults, 1 kid, actually make that 2 kids").exact).toEqual({ adults: 2, children: 2 });
    // "no children" is a count, not a correction.
    expect(readRiderText(bart, "2 adults, no children").exact).toEqual({ adults: 2, children: 0 });
  });

  it("reads a mistyped rider noun and a speaker's age in words, but not minutes or a platform", () => {
    expect(readRiderText(bart, "3 adluts").exact).toEqual({ adults: 3 });
    expect(readRiderText(bart, "3 ppl").exact).toEqual({ total: 3 });
    expect(readRiderText(bart, "mi esposa y yo, las dos personas mayores de 65").atLeast).toMatchObject({ seniors: 2 });
    expect(readRiderText(bart, "I'm seventy two").atLeast).toEqual({ seniors: 1, notChildren: 1 });
    expect(readRiderText(bart, "I'm 20 minutes away")).toMatchObject({ exact: {}, atLeast: {} });
    expect(readRiderText(bart, "platform 2 at 16th St Mission")).toMatchObject({ exact: {}, atLeast: {} });
  });

  it("maps a senior to an adult where the fare table has no senior fare (Doha)", () => {
    expect(readRiderText(pack.system("doha"), "my mum and I, she's 70")).toMatchObject({ atLeast: { adults: 1 }, exact: { total: 2 } });
  });

  it("a child told to be past the free age is no free child, and the speaker and a spouse are no children", () => {
    const marta = pack.system("marta");
    const family = textRiderClaims(marta, [[{ type: "freetext_input", text: "airport to five points, me my wife and our 8 year old son" }]]);
    // MARTA: children under 5 ride free; the 8-year-old pays the adult fare — three adult tickets.
    expect(riderDisagreements(family, { adults: 2, children: 1, seniors: 0, disabled: 0 })).not.toEqual([]);
    expect(riderDisagreements(family, { adults: 3, children: 0, seniors: 0, disabled: 0 })).toEqual([]);
    // Under the free age the same boy is a free child.
    const young = textRiderClaims(marta, [[{ type: "freetext_input", text: "airport to five points, me my wife and our 3 year old son" }]]);
    expect(riderDisagreements(young, { adults: 2, children: 1, seniors: 0, disabled: 0 })).toEqual([]);
    // CTA's free age is 7: a 6-year-old rides free there.
    const cta = textRiderClaims(pack.system("cta"), [[{ type: "freetext_input", text: "me and my 6 year old" }]]);
    expect(riderDisagreements(cta, { adults: 1, children: 1, seniors: 0, disabled: 0 })).toEqual([]);
    expect(riderDisagreements(textRiderClaims(marta, [[{ type: "freetext_input", text: "me and my 6 year old" }]]), { adults: 1, children: 1, seniors: 0, disabled: 0 })).not.toEqual([]);
    // A height rule (Beijing) says nothing by age: the 8-year-old may ride free.
    const beijing = textRiderClaims(pack.system("beijing"), [[{ type: "freetext_input", text: "me and my 8 year old" }]]);
    expect(riderDisagreements(beijing, { adults: 1, children: 1, seniors: 0, disabled: 0 })).toEqual([]);
    // The speaker's own age is not a second rider's.
    const alone = textRiderClaims(marta, [[{ type: "freetext_input", text: "I am 12 years old, one ticket please" }]]);
    expect(riderDisagreements(alone, { adults: 1, children: 0, seniors: 0, disabled: 0 })).toEqual([]);
    // "our 8 year old son" is one person, not two.
    expect(readParty("me my wife and our 8 year old son")).toMatchObject({ people: 3 });
  });

  it("a later turn's correction replaces an earlier turn's count", () => {
    const claims = textRiderClaims(bart, [[{ type: "freetext_input", text: "my mum and I, she's 70" }], [{ type: "freetext_input", text: "sorry, just me" }]]);
    expect(riderDisagreements(claims, { adults: 1, children: 0, seniors: 0, disabled: 0 })).toEqual([]);
  });
});
