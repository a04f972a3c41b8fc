// Service hours as the generator reads them: the day's own hours, a close past midnight belonging
// to the day it opened, and chosen times well clear of every opening and close.
import { describe, expect, it } from "vitest";
import type { Framebook } from "../../tools/data/schemas.ts";
import { MARGIN_MIN, WEEK, closedTime, hoursNote, hoursOn, lastTrainTime } from "./hours.ts";
import { seededRng } from "./rng.ts";

// Hours strings are checked by the framebook schema, not here: "24h" stands for a malformed one.
const framebook = (hours: { default: string } & Record<string, string>): Framebook => ({
  org_name: "T",
  full_name: "T",
  primary_language: "en",
  currency_symbol: "$",
  currency_code: "USD",
  fare_display_format: "$X.XX",
  terminology: { smartcard: "card", contactless: "contactless" },
  operating_hours: hours,
  cultural_notes: [],
});

// BART's shape: weekdays 05:00-00:00, Saturday from 06:00, Sunday from 08:00; MARTA's runs to 01:00.
const bart = framebook({ default: "05:00-00:00", weekday: "05:00-00:00", saturday: "06:00-00:00", sunday: "08:00-00:00" });
const marta = framebook({ default: "05:00-01:00" });

describe("service hours", () => {
  it("reads the day's key, then weekend/weekday, then the default; a close at or before the opening runs past midnight", () => {
    expect(hoursOn(bart, 6)).toEqual({ text: "08:00-00:00", open: 480, close: 1440 });
    expect(hoursOn(bart, 2)).toEqual({ text: "05:00-00:00", open: 300, close: 1440 });
    expect(hoursOn(marta, 0)).toEqual({ text: "05:00-01:00", open: 300, close: 1500 });
    expect(hoursOn(framebook({ default: "24h" }), 0)).toBeUndefined();
  });

  it("picks closed times clear of the night before's tail and the day's opening", () => {
    for (let seed = 0; seed < 200; seed++) {
      const t = closedTime(marta, seededRng(seed))!;
      // MARTA: trains until 01:00 and from 05:00, so closed times lie in 01:30–04:30.
      expect(t.minute).toBeGreaterThanOrEqual(60 + MARGIN_MIN);
      expect(t.minute).toBeLessThanOrEqual(300 - MARGIN_MIN);
      const s = closedTime(bart, seededRng(seed))!;
      const open = hoursOn(bart, s.dayIndex)!.open;
      expect(s.minute <= open - MARGIN_MIN || s.minute >= 1440 + MARGIN_MIN).toBe(true);
      expect(s.minute).toBeGreaterThanOrEqual(MARGIN_MIN);
    }
    expect(closedTime(framebook({ default: "05:00-05:00" }), seededRng(1))).toBeUndefined();
  });

  it("picks last-train times within the hour before the close that leave the trip time to finish", () => {
    for (let seed = 0; seed < 100; seed++) {
      const t = lastTrainTime(marta, 20, seededRng(seed))!;
      // MARTA's close is 01:00 the next morning: the time is after midnight, on the next day.
      expect(t.minute).toBeGreaterThanOrEqual(60 - 55);
      expect(t.minute + 20 + 10).toBeLessThanOrEqual(60);
    }
    expect(lastTrainTime(marta, 50, seededRng(1))).toBeUndefined();
    expect(hoursNote(marta, 3, 30)).toBe("Operating hours (Wednesday): 05:00-01:00; (Thursday): 05:00-01:00");
    expect(hoursNote(bart, 6, 23 * 60)).toBe("Operating hours (Sunday): 08:00-00:00");
    expect(WEEK[0]).toEqual({ day: "Monday", date: "2026-03-09" });
    expect(new Date(`${WEEK[6].date}T12:00:00Z`).getUTCDay()).toBe(0);
  });
});
