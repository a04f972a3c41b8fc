// Service hours from the framebook: is there a train at this time of day?
import type { Framebook } from "../../../tools/data/schemas.ts";

const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
type Day = (typeof DAYS)[number];

export interface ClockTime {
  /** Day of the week the kiosk is in (from the temporal context, else from the date). */
  day: Day;
  /** Minutes since midnight. */
  minutes: number;
}

/** "2026-03-11T23:30:00" (+ optional day name) → day and minutes. */
export function clockTime(iso: string, dayName?: string | null): ClockTime | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!match) return undefined;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const named = dayName?.toLowerCase() as Day | undefined;
  const day = named && DAYS.includes(named) ? named : DAYS[new Date(Date.UTC(y, mo - 1, d)).getUTCDay()] ?? "monday";
  return { day, minutes: h * 60 + mi };
}

interface Range {
  open: number;
  /** Minutes after the opening day's midnight; > 1440 when service runs past midnight. */
  close: number;
}

function parseRange(text: unknown): Range | undefined {
  if (typeof text !== "string") return undefined;
  const m = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const open = Number(m[1]) * 60 + Number(m[2]);
  let close = Number(m[3]) * 60 + Number(m[4]);
  // "05:00-01:00" runs past midnight; "06:00-00:00" closes at midnight.
  if (close <= open) close += 24 * 60;
  return { open, close };
}

/** The framebook's hours for a day: a day-specific key, then weekend/weekday, then default. */
export function hoursFor(framebook: Framebook, day: Day): Range | undefined {
  const hours = framebook.operating_hours as Record<string, unknown>;
  const weekend = day === "saturday" || day === "sunday";
  const keys = [day, weekend ? "weekend" : "weekday", "default"];
  for (const key of keys) {
    const range = parseRange(hours[key]);
    if (range) return range;
  }
  return undefined;
}

/** The close of the service day `at` belongs to (the early hours: the night before's), after its own midnight. */
export function usualClose(framebook: Framebook, at: ClockTime): number | undefined {
  const day = at.minutes < 5 * 60 ? (DAYS[(DAYS.indexOf(at.day) + 6) % 7] as Day) : at.day;
  return hoursFor(framebook, day)?.close;
}

export interface ServiceStatus {
  open: boolean;
  /** Minutes until the day's service closes, when open. */
  minutesToClose?: number;
  /** Minutes until service opens, when closed. */
  minutesToOpen?: number;
  /** The hours that apply, e.g. "05:00-01:00". */
  hoursText: string;
}

const fmt = (minutes: number): string => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
};

export function serviceStatus(framebook: Framebook, at: ClockTime): ServiceStatus {
  const today = hoursFor(framebook, at.day);
  const previousDay = DAYS[(DAYS.indexOf(at.day) + 6) % 7] as Day;
  const yesterday = hoursFor(framebook, previousDay);
  if (!today) return { open: true, hoursText: "" };
  const hoursText = `${fmt(today.open)}-${fmt(today.close)}`;
  // After midnight, yesterday's service may still be running.
  if (yesterday && at.minutes + 1440 < yesterday.close) {
    return { open: true, minutesToClose: yesterday.close - (at.minutes + 1440), hoursText: `${fmt(yesterday.open)}-${fmt(yesterday.close)}` };
  }
  if (at.minutes >= today.open && at.minutes < today.close) return { open: true, minutesToClose: today.close - at.minutes, hoursText };
  const minutesToOpen = at.minutes < today.open ? today.open - at.minutes : today.open + 1440 - at.minutes;
  return { open: false, minutesToOpen, hoursText };
}

export { fmt as formatClock };
