// A framebook's fare policies as the kiosk reads them, in the words the operator sees before they
// take effect.
import { describe, expect, it } from "vitest";
import { farePolicyReadingText, needsDecision, readFarePolicy, readingInWords } from "./policy-reading.ts";

describe("readFarePolicy", () => {
  it("reads a rule exactly, with its window", () => {
    const reading = readFarePolicy({
      policy_id: "seniors-free-week",
      text: "Golden-years week: special fares for everyone who has reached 65.",
      rule: { applies_to: ["seniors"], free: true },
      valid_from: "2026-03-09T00:00",
      valid_until: "2026-03-15T23:59",
    });
    expect(reading).toMatchObject({ source: "rule", unread: [], asksPassenger: false });
    expect([...reading.effects.free]).toEqual(["seniors"]);
    expect(readingInWords(reading)).toEqual(["seniors-free-week: seniors travel free; from 2026-03-09 00:00 until 2026-03-15 23:59 (from its rule)"]);
  });

  it("reads a text clause by clause and names the clause it cannot read", () => {
    const reading = readFarePolicy({ policy_id: "mixed", text: "Seniors ride free. Pay by card and save 10% on all fares.", if_unread: "refer" });
    expect(reading.source).toBe("text");
    expect([...reading.effects.free]).toEqual(["seniors"]);
    expect(reading.unread).toEqual(["Pay by card and save 10% on all fares."]);
    expect(needsDecision(reading)).toBe(false);
    expect(readingInWords(reading)).toEqual([
      "mixed: seniors travel free; always in force",
      'mixed: NOT READ: "Pay by card and save 10% on all fares." \u2014 while in force, sales are referred to staff',
    ]);
  });

  it("with if_unread: ignore, prices only what it read", () => {
    const reading = readFarePolicy({ policy_id: "mixed", text: "Seniors ride free. Pay by card and save 10% on all fares.", if_unread: "ignore" });
    expect(reading.effects.multiplier).toBe(1);
    expect(readingInWords(reading)[0]).toBe("mixed: seniors travel free; always in force");
    expect(readingInWords(reading)[1]).toMatch(/^mixed: NOT READ: "Pay by card and save 10% on all fares\." \u2014 ignored: tickets are sold as if it were not there/);
  });

  it("quotes the whole text when nothing in it was read, and asks for a decision", () => {
    const reading = readFarePolicy({ policy_id: "golden", text: "Golden-years week: special fares for everyone who has reached 65." });
    expect(reading.unread).toEqual(["Golden-years week: special fares for everyone who has reached 65."]);
    expect(needsDecision(reading)).toBe(true);
    expect(readingInWords(reading)[0]).toBe("golden: no fare change read; always in force");
  });

  it("says when the kiosk asks the passenger (an offer for card holders)", () => {
    const reading = readFarePolicy({ policy_id: "hayya", text: "Travel for free with your Hayya Card.", if_unread: "refer" });
    expect(reading.asksPassenger).toBe(true);
    expect(readingInWords(reading)).toContain("hayya: the offer depends on the passenger: the kiosk asks the passenger whether it applies to them (if it does, staff sell the ticket)");
  });

  it("reads nothing into a text that is not about fares", () => {
    const reading = readFarePolicy({ policy_id: "wifi", text: "Free Wi-Fi at every station." });
    expect(reading.unread).toEqual([]);
    expect(needsDecision(reading)).toBe(false);
  });
});

describe("farePolicyReadingText", () => {
  it("lists every valid entry under a heading, and nothing without fare policies", () => {
    const text = farePolicyReadingText({ fare_policies: [{ policy_id: "half", text: "Weekend: half price on all trips.", valid_until: "2026-03-15T23:59" }, { text: "no id" }] });
    expect(text).toBe("fare policies as the kiosk reads them:\n  half: every fare half price; until 2026-03-15 23:59\n");
    expect(farePolicyReadingText({})).toBe("");
  });
});
