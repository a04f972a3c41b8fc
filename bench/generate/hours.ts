// Service hours from the framebook's operating_hours ("05:00-01:00" per day type, a close at or
// before the opening time running past midnight), and times that are clearly inside or outside
// them. Times near an opening or a close are avoided: whether a train "still runs" at 00:59 is a
// question the framebook cannot settle.
import type { Framebook } from "../../tools/data/schemas.ts";
import type { Rng } from "./rng.ts";

/** The week generated cases happen in (2026-03-09 is a Monday), so that dates and weekdays agree. */
export const WEEK = [
  { day: "Monday", date: "2026-03-09" },
  { day: "Tuesday", date: "2026-03-10" },
  { day: "Wednesday", date: "2026-03-11" },
  { day: "Thursday", date: "2026-03-12" },
  { day: "Friday", date: "2026-03-13" },
  { day: "Saturday", date: "2026-03-14" },
  { day: "Sunday", date: "2026-03-15" },
] as const;

/** Minutes kept between a chosen time and any opening or close. */
export const MARGIN_MIN = 30;

export interface Hours {
  /** The framebook's text for the day ("05:00-01:00"). */
  text: string;
  open: number;
  /** Minutes after the day's midnight; past 1440 when service runs past midnight. */
  close: number;
}

function parseRange(text: string): Hours | undefined {
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const open = Number(m[1]) * 60 + Number(m[2]);
  let close = Number(m[3]) * 60 + Number(m[4]);
  if (open > 1440 || close > 1440) return undefined;
  if (close <= open) close += 1440;
  return { text, open, close };
}

/** The hours of a weekday (0 = Monday): its own key, then weekend/weekday, then the default. */
export function hoursOn(framebook: Framebook, dayIndex: number): Hours | undefined {
  const table = framebook.operating_hours as Record<string, unknown>;
  const day = WEEK[dayIndex % 7]!.day.toLowerCase();
  const keys = [day, dayIndex % 7 >= 5 ? "weekend" : "weekday", "default"];
  for (const key of keys) {
    const value = table[key];
    if (typeof value === "string") {
      const parsed = parseRange(value);
      if (parsed) return parsed;
    }
  }
  return undefined;
}

/** Minutes of the calendar day [0, 1440) with trains: the day's own service and the night before's tail. */
function serviceIntervals(framebook: Framebook, dayIndex: number): [number, number][] | undefined {
  const today = hoursOn(framebook, dayIndex);
  const yesterday = hoursOn(framebook, (dayIndex + 6) % 7);
  if (!today || !yesterday) return undefined;
  const out: [number, number][] = [[today.open, Math.min(today.close, 1440)]];
  // A close at midnight sharp still ends service at this day's minute 0 (the margin counts from it).
  if (yesterday.close >= 1440) out.push([0, yesterday.close - 1440]);
  return out;
}

export interface ClosedTime {
  dayIndex: number;
  minute: number;
  /** The next opening is at most 90 minutes away. */
  beforeOpening: boolean;
}

/** A time on some day with no service at all, at least MARGIN_MIN from any opening or close. */
export function closedTime(framebook: Framebook, rng: Rng): ClosedTime | undefined {
  const choices: ClosedTime[] = [];
  for (let d = 0; d < 7; d++) {
    const service = serviceIntervals(framebook, d);
    const today = hoursOn(framebook, d);
    if (!service || !today) continue;
    for (let minute = 0; minute < 1440; minute += 5) {
      const clear = service.every(([a, b]) => minute <= a - MARGIN_MIN || minute >= b + MARGIN_MIN);
      if (clear) choices.push({ dayIndex: d, minute, beforeOpening: minute < today.open && today.open - minute <= 90 });
    }
  }
  return choices.length > 0 ? rng.pick(choices) : undefined;
}

/**
 * A time inside a day's service within an hour of its close (the last-train warning applies),
 * early enough that a trip of `tripMinutes` ends 10 minutes before the close (so it is possible
 * whether the kiosk reads the hours as last departure or last arrival). A close past midnight
 * gives a time on the next calendar day.
 */
export function lastTrainTime(framebook: Framebook, tripMinutes: number, rng: Rng): { dayIndex: number; minute: number } | undefined {
  const choices: { dayIndex: number; minute: number }[] = [];
  for (let d = 0; d < 7; d++) {
    const today = hoursOn(framebook, d);
    if (!today || today.close - today.open >= 1440) continue;
    for (let minute = today.close - 55; minute <= today.close - 20; minute += 5) {
      if (minute < today.open + MARGIN_MIN) continue;
      if (minute + tripMinutes + 10 > today.close) continue;
      choices.push(minute < 1440 ? { dayIndex: d, minute } : { dayIndex: (d + 1) % 7, minute: minute - 1440 });
    }
  }
  return choices.length > 0 ? rng.pick(choices) : undefined;
}

/** "Operating hours (Thursday): 05:00-01:00", with the night before's when its service runs into the morning. */
export function hoursNote(framebook: Framebook, dayIndex: number, minute: number): string {
  const today = hoursOn(framebook, dayIndex);
  const yesterday = hoursOn(framebook, (dayIndex + 6) % 7);
  const own = `Operating hours (${WEEK[dayIndex]!.day}): ${today?.text ?? "unknown"}`;
  if (yesterday && yesterday.close > 1440 && minute < 720) return `Operating hours (${WEEK[(dayIndex + 6) % 7]!.day}): ${yesterday.text}; ${own.slice("Operating hours ".length)}`;
  return own;
}

export const clock = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
