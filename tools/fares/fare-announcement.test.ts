// Which operator announcements are about fares, and which of those the kiosk cannot price (so it
// sells nothing under them). Our own wordings and the robustness suite's tune half (never its
// report half); the pack's templates are checked over every case.
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../data/datapack.ts";
import { announcesFareChange, unpriceableFareAnnouncement } from "./policy-change.ts";

describe("fare announcements the kiosk cannot price", () => {
  it("recognises fare announcements however they are worded", () => {
    // The robustness suite's tune half and our own; its report half is not used here.
    for (const text of [
      "Riders 65 and older ride free starting today.",
      "Weekend deal: every single fare is 50% off.",
      "A $0.50 sustainability fee applies to every trip starting today.",
      "Groups of 4+ adults get 25 percent off the total fare starting today.",
      "Special fares apply today for students. Ask at the service counter.",
      "Peak-hour pricing applies today on some lines.",
      "Tickets are free for everyone on New Year's Eve.",
      "Pensioners travel at no charge this week.",
      "Two-for-one on all journeys this Sunday: pay for one adult, the second goes free.",
    ]) {
      expect(announcesFareChange(text), text).toBe(true);
      expect(unpriceableFareAnnouncement(text), text).toBe(true);
    }
  });

  it("leaves other announcements and the rules it reads alone", () => {
    for (const text of [
      "Free Wi-Fi is now available on all trains.",
      "Wi-Fi is now free on every train.",
      "We cannot take cash right now. Please use a Breeze Card or contactless.",
      "Station toilets at Five Points are closed for cleaning.",
      "Bikes are allowed on all trains from today.",
      "Shuttle buses replace trains to the airport tonight (the usual fare applies, no extra charge).",
    ]) {
      expect(announcesFareChange(text), text).toBe(false);
    }
    expect(unpriceableFareAnnouncement("EFFECTIVE TODAY: Senior citizens (65+) ride free.")).toBe(false);
    expect(unpriceableFareAnnouncement("Half-price fares this weekend.")).toBe(false);
    expect(announcesFareChange("This weekend single tickets cost half price.")).toBe(true);
    expect(unpriceableFareAnnouncement("This weekend single tickets cost half price.")).toBe(false);
    expect(unpriceableFareAnnouncement(null)).toBe(false);
  });

  it("reads every fare announcement of the benchmark's cases (none is left unpriced)", () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const unread = new Set<string>();
    for (const kase of pack.allCases()) {
      const change = (kase.system_context as { policy_change?: unknown }).policy_change;
      const text = typeof change === "string" ? change : change && typeof change === "object" ? String((change as { text?: unknown }).text ?? "") : "";
      if (unpriceableFareAnnouncement(text)) unread.add(text);
    }
    expect([...unread]).toEqual([]);
  });
});
