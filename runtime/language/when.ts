// When does a notice apply, by its own words? Operators write the window into the text ("beginning
// 10 p.m. Wednesday, December 31 until 4 a.m. Thursday, January 1", "from 10 November to 23 December
// 2022", "2025年12月31日22点30分至2026年1月1日6点止", "10月1日至7日") and feeds often carry no
// valid_from / valid_until. English dates are read with chrono-node; Chinese ones here (chrono's
// Chinese parser does not read ranges). Only calendar dates count — "today", "this weekend" and
// clock times alone say nothing a kiosk can check — and a date the words leave vague ("until mid
// May") leaves that end open: the notice then stays in force. So a window is only ever used to
// take a notice out of force when its words say for certain that it is not. Pure.
import * as chrono from "chrono-node";
import { announcesFareChange } from "../../tools/fares/policy-change.ts";

/** Local wall-clock times "YYYY-MM-DDTHH:MM"; an absent end is open. */
export interface NoticeWindow {
  from?: string;
  until?: string;
}

const MONTH_NAMES = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const MONTH = new RegExp(String.raw`\b${MONTH_NAMES}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b`, "i");
/**
 * Words that leave a start's window open ("beginning 10 p.m. …" with no end: from then on). A fare
 * that increases on a day ("cash fares increase by 25 cents on January 1") stays up after it.
 */
const OPEN_EN = /\b(?:from|beginning|starting|effective|as of|since|onwards?|until further notice|launch(?:es|ed|ing)?|begins?|starts?|takes effect|goes into effect|increases?|increasing|rises?|go(?:es)? up)\b/i;
/** Words before a date that make it the window's last day ("Elevators out at Embarcadero to 4/7/2017"). */
const UNTIL_EN = /\b(?:to|until|till|through|thru)\s*(?:(?:approximately|approx\.?|about|around|roughly)\s+)?$/i;
/** More days of the same month listed after a date ("Sept. 5, 6 & 7", "September 5, 6, and 7"). */
const MORE_DAYS = /^(?:\s*(?:,|&|and|,\s*and)\s*\d{1,2}\b(?!\s*(?::|\.\d|am|pm|a\.m|p\.m)))+/i;
/** A range of days of the same month after a date ("Jan 13 – 16", "May 7 - 11"). */
const TO_DAY = /^\s*(?:-|\u2013|\u2014|to|thru|through)\s*(\d{1,2})\b(?!\s*(?::|\.\d|am|pm|a\.m|p\.m))/i;

const pad = (n: number): string => String(n).padStart(2, "0");
const stamp = (y: number, m: number, d: number, h = 0, min = 0): string => `${y}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(min)}`;

/** The day after a local date, as a stamp at midnight. */
function dayAfter(y: number, m: number, d: number): string {
  const t = new Date(Date.UTC(y, m - 1, d + 1));
  return stamp(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

interface Span {
  from: string;
  /** undefined: open (from then on). */
  until: string | undefined;
  /** The date is when service resumes: the window ends there, whatever else is open. */
  ends?: boolean;
  /** A date the words leave vague: no window at all. */
  vague?: boolean;
}

/**
 * Holidays with a fixed date, right after an hour ("6 p.m. New Year's Eve until 6 a.m. New Year's
 * Day"), as the date chrono reads — only in words that give no date of their own: "a New Year's Eve
 * tradition" is no window, and a date written out is the window.
 */
const FIXED_HOLIDAYS: [RegExp, string][] = (
  [
    [String.raw`New Year[\u2019']?s Eve`, "December 31"],
    [String.raw`New Year[\u2019']?s Day`, "January 1"],
    ["Christmas Eve", "December 24"],
    ["Christmas Day", "December 25"],
  ] as const
).map(([holiday, date]) => [new RegExp(String.raw`(\d\s*[ap]\.?m\.?\s+(?:on\s+)?)${holiday}\b`, "gi"), `$1${date}`]);

function englishSpans(words: string, now: string): Span[] | undefined {
  const text = MONTH.test(words) ? words : FIXED_HOLIDAYS.reduce((t, [holiday, date]) => t.replace(holiday, date), words);
  const instant = new Date(`${now.slice(0, 16)}:00Z`);
  const spans: Span[] = [];
  const results = chrono.parse(text, { instant, timezone: 0 });
  results.forEach((r, i) => {
    if (!MONTH.test(r.text)) return;
    const ends = [r.start, ...(r.end ? [r.end] : [])];
    const certain = (c: chrono.ParsedComponents): boolean => c.isCertain("day") && c.isCertain("month");
    if (ends.some((c) => !certain(c))) {
      // "From Saturday 15 January to mid May 2022": a vague end after a certain start leaves the
      // window open from the start.
      const last = spans.at(-1);
      if (last && !last.vague && last.until === undefined && VAGUE_END.test(text.slice(Math.max(0, r.index - 24), r.index))) return;
      // A vague date ("May 2022"): its end of the window cannot be known, so no window.
      spans.length = 0;
      spans.push({ from: "", until: undefined, vague: true });
      return;
    }
    const at = (c: chrono.ParsedComponents, end: boolean, clock: chrono.ParsedComponents = c): string => {
      const y = c.get("year")!;
      const m = c.get("month")!;
      const d = c.get("day")!;
      if (clock.isCertain("hour")) return stamp(y, m, d, clock.get("hour")!, clock.get("minute") ?? 0);
      return end ? dayAfter(y, m, d) : stamp(y, m, d);
    };
    // "May 5, Sat 630 AM to 1130 PM": the hours right after a date are that date's.
    const next = results[i + 1];
    const hours = next && !MONTH.test(next.text) && next.start.isCertain("hour") && next.index - (r.index + r.text.length) <= 8 ? next : undefined;
    const before = text.slice(Math.max(0, r.index - 40), r.index);
    // "Services will resume on March 15": the window ends there.
    if (RESUMES.test(before)) {
      spans.push({ from: "", until: at(r.start, false, hours?.start ?? r.start), ends: true });
      return;
    }
    // "… to 4/7/2017": the last day.
    if (!r.end && UNTIL_EN.test(before)) {
      spans.push({ from: "", until: at(r.start, true), ends: true });
      return;
    }
    // "Sept. 5, 6 & 7": through the last day listed; "Jan 13 – 16": through the last day of the range.
    const after = text.slice(r.index + r.text.length);
    const more = !r.end && !hours ? (MORE_DAYS.exec(after) ?? TO_DAY.exec(after)) : null;
    if (more) {
      const last = Number(/(\d{1,2})\b(?![^]*\d)/.exec(more[0])?.[1]);
      const y = r.start.get("year")!;
      const m = r.start.get("month")!;
      if (last > r.start.get("day")! && last <= 31) {
        spans.push({ from: at(r.start, false), until: dayAfter(y, m, last) });
        return;
      }
    }
    if (hours) {
      spans.push({ from: at(r.start, false, hours.start), until: hours.end ? at(r.start, true, hours.end) : OPEN_EN.test(before) ? undefined : at(r.start, true) });
      return;
    }
    const from = at(r.start, false);
    let until = r.end ? at(r.end, true) : OPEN_EN.test(before) ? undefined : at(r.start, true);
    // A moment, not a span ("Fri, Oct 11 2024 2:48 PM to TBD"): from then on.
    if (until !== undefined && until <= from) until = undefined;
    spans.push({ from, until });
  });
  return spans.some((x) => x.vague) ? undefined : spans;
}

/** Words before a vague date that make it a window's end ("… to mid May 2022", "until late June"). */
const VAGUE_END = /\b(?:to|until|till|through|thru)\s+(?:(?:mid|early|late)[- ]?|(?:the )?(?:end|middle|beginning) of )?$/i;

/** Words before a date that make it the window's end: service resumes then. */
const RESUMES = /\b(?:resume[sd]?|resuming|reopen(?:s|ed|ing)?|return(?:s)? to normal|back to normal|restored)\b[^.]{0,28}$/i;

// Plain strings, not String.raw: the compiled CLI is ASCII-only and escapes only these.
// "114年12月31日": a year of the Republic of China calendar (Taiwan) is 1911 less than the Gregorian.
const ZH_DATE = "(?:(\\d{3,4})年)?(\\d{1,2})月(\\d{1,2})[日号號]";
const ZH_TIME = "(?:(早|晚|上午|下午|晚上)?(\\d{1,2})(?:[:：点點时時](\\d{1,2})?分?)?)?";
// "今日(9月1日)19:00起": a clock time may follow the date's closing bracket.
// "6月7日、8日": two days listed, read as the days they name.
const ZH_RANGE = new RegExp(`${ZH_DATE}[)）]?${ZH_TIME}(?:\\s*(至|到|~|～|—|-|、|和|及)\\s*(?:(?:(\\d{3,4})年)?(\\d{1,2})月)?(\\d{1,2})[日号號]${ZH_TIME})?`, "gu");

/**
 * This month and year named from the kiosk's clock ("自本月6日至明年1月18日"), as the dates they are.
 * ("下月17日" is not: read a month after the notice, next month is a month too late.)
 */
function withRelativeDatesWritten(text: string, now: string): string {
  const [year, month] = now.slice(0, 7).split("-").map(Number) as [number, number];
  return text
    .replace(/本月(?=\d{1,2}\s*[日号號])/gu, `${year}年${month}月`)
    .replace(/明年(?=\d{1,2}月)/gu, `${year + 1}年`)
    .replace(/今年(?=\d{1,2}月)/gu, `${year}年`);
}

function chineseSpans(words: string, now: string): Span[] {
  const text = withRelativeDatesWritten(words, now);
  const spans: Span[] = [];
  for (const m of text.matchAll(ZH_RANGE)) {
    const [, y1, m1, d1, p1, h1, n1, joiner, y2, m2, d2, p2, h2, n2] = m;
    // "下午3時32分": an afternoon or evening hour is past noon
    const hour = (part: string | undefined, h: string): number => (/下午|晚/u.test(part ?? "") && Number(h) < 12 ? Number(h) + 12 : Number(h));
    const sm = Number(m1);
    const sd = Number(d1);
    // A year left out is the one that puts the date nearest the kiosk's clock.
    const sy = y1 ? gregorian(Number(y1)) : nearestYear(sm, sd, now);
    // "至3月12日…仍然免费": the last day, with no start of its own ("截至9月13日7点30分" is "as of",
    // a report's moment, not an end).
    if (!d2 && /(?:至|到|直至|直到)\s*$/u.test(text.slice(Math.max(0, (m.index ?? 0) - 3), m.index ?? 0)) && !/(?:截至|截止)\s*$/u.test(text.slice(Math.max(0, (m.index ?? 0) - 3), m.index ?? 0))) {
      spans.push({ from: "", until: h1 ? stamp(sy, sm, sd, hour(p1, h1), Number(n1 ?? 0)) : dayAfter(sy, sm, sd), ends: true });
      continue;
    }
    const from = h1 ? stamp(sy, sm, sd, hour(p1, h1), Number(n1 ?? 0)) : stamp(sy, sm, sd);
    let until: string | undefined;
    if (d2) {
      const em = m2 ? Number(m2) : sm;
      const ed = Number(d2);
      const ey = y2 ? gregorian(Number(y2)) : em < sm ? sy + 1 : sy;
      // Two days listed apart ("7日、9日") are two windows, not the days between them.
      if (/[、和及]/u.test(joiner ?? "") && dayAfter(sy, sm, sd) !== stamp(ey, em, ed)) {
        spans.push({ from, until: dayAfter(sy, sm, sd) }, { from: stamp(ey, em, ed), until: dayAfter(ey, em, ed) });
        continue;
      }
      until = h2 ? stamp(ey, em, ed, hour(p2, h2), Number(n2 ?? 0)) : dayAfter(ey, em, ed);
    } else {
      // "…19:00起" with no end: from then on; else that day.
      const after = text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 12);
      // "…起至另有通知时止": until further notice, also open.
      const rest = text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 24);
      const furtherNotice = /^[^，,。;；]*?起\s*(?:至|到)\s*(?:另有通知|另行通知|另行公告|另有公告)/u.test(rest);
      // "…起延長至12月底": open here; the month's end is a span of its own (below).
      const toMonthEnd = /^[^，,。;；]*?起[^，,。;；]*?(?:至|到)\s*(?:\d{3,4}年)?\d{1,2}月底/u.test(rest);
      until = (/^[^，,。;；]*?起/u.test(after) && !/至|止/u.test(after)) || furtherNotice || toMonthEnd ? undefined : dayAfter(sy, sm, sd);
    }
    spans.push({ from, until });
  }
  // "至12月底": to the end of that month.
  for (const m of text.matchAll(/(?:至|到)\s*(?:(\d{3,4})年)?(\d{1,2})月底/gu)) {
    const month = Number(m[2]);
    const year = m[1] ? gregorian(Number(m[1])) : nearestYear(month, 15, now);
    spans.push({ from: "", until: month === 12 ? stamp(year + 1, 1, 1) : stamp(year, month + 1, 1), ends: true });
  }
  // "於下午4時13分恢復正常營運" in a notice that names no date: service resumed (or resumes) at that
  // time of the kiosk's day, so the notice ends there — only where it speaks of one line and of no
  // exception ("除文湖線…外,其餘路線均已於18時恢復營運": Wenhu is still stopped).
  const lines = new Set(text.match(/\d+[号號][线線]|\p{Script=Han}{2,4}[線线]/gu) ?? []);
  if (spans.length === 0 && lines.size <= 1 && !/除|其餘|其余|其他|其它|部分|部份|以外/u.test(text)) {
    for (const m of text.matchAll(ZH_RESUMED_AT)) {
      const later = /下午|晚上|晚间|晚間|中午/u.test(m[1] ?? "") && Number(m[2]) < 12 ? 12 : 0;
      const day = now.slice(0, 10).split("-").map(Number) as [number, number, number];
      spans.push({ from: "", until: stamp(...day, Number(m[2]) + later, Number(m[3] ?? 0)), ends: true });
    }
  }
  return spans;
}

// Plain string, not String.raw (the compiled CLI is ASCII-only).
const ZH_RESUMED_AT = new RegExp("(上午|下午|晚上|晚间|晚間|早上|凌晨|中午)?\\s*(\\d{1,2})\\s*[時时点點:：]\\s*(\\d{1,2})?\\s*分?\\s*(?:起\\s*)?(?:已)?(?:恢復|恢复)(?:正常)?(?:營運|运营|营运|運行|运行|運轉|运转|通車|通车|服務|服务)", "gu");

const AR_MONTHS = ["يناير", "فبراير", "مارس", "أبريل|ابريل", "مايو", "يونيو", "يوليو", "أغسطس|اغسطس", "سبتمبر", "أكتوبر|اكتوبر", "نوفمبر", "ديسمبر"];
// "ما بين 21 و24 يوليو", "من 21 إلى 24 يوليو 2021", "21 يوليو"; plain strings (the compiled CLI is ASCII-only).
const AR_RANGE = new RegExp(`(\\d{1,2})\\s*(?:(?:و|-|–|إلى|الى|حتى)\\s*(\\d{1,2}))?\\s+(${AR_MONTHS.join("|")})(?:\\s+(\\d{4}))?`, "gu");

// Plain strings, not String.raw (the compiled CLI is ASCII-only and escapes only these).
/** An Arabic clock's hour, in digits or words ("5:30", "الواحدة"): one group. */
export const AR_HOUR = "(\\d{1,2}(?::\\d{2})?|الواحدة|الأولى|الاولى|الثانية عشرة|الحادية عشرة|الثانية|الثالثة|الرابعة|الخامسة|السادسة|السابعة|الثامنة|التاسعة|العاشرة)";
/** The part of the day written after an Arabic hour ("صباحا", "مساء", "منتصف الليل"): one group. */
export const AR_PART = "(صباحا|صباح|ص|ظهرا|ظهر|مساء|م|منتصف الليل)";
/** Arabic hour words, in the order of the hours (the 1st to the 12th). */
const AR_HOUR_WORDS: readonly RegExp[] = [/^(?:الواحدة|الأولى|الاولى)$/u, /^الثانية$/u, /^الثالثة$/u, /^الرابعة$/u, /^الخامسة$/u, /^السادسة$/u, /^السابعة$/u, /^الثامنة$/u, /^التاسعة$/u, /^العاشرة$/u, /^الحادية عشرة$/u, /^الثانية عشرة$/u];

/** Minutes after midnight of an Arabic clock ("5:30" with صباحاً, "الواحدة", "12:00 منتصف الليل"). */
export function arabicClock(hour: string, part: string | undefined): number {
  const word = AR_HOUR_WORDS.findIndex((w) => w.test(hour));
  const [h, m] = word >= 0 ? [word + 1, 0] : hour.split(":").map(Number);
  if (part !== undefined && /^منتصف/u.test(part)) return 0;
  const evening = part !== undefined && /^(?:مساء|ظهر|م$)/u.test(part) && h! < 12;
  return ((evening ? h! + 12 : h! % 12) * 60) + (m ?? 0);
}

/** "…حتى السابعة صباح من يوم 14 أغسطس": the words before a date that make it the window's end, with the hour. */
const AR_UNTIL_BEFORE = new RegExp(`(?:حتى|إلى|الى)\\s+(?:الساعة\\s+)?${AR_HOUR}?\\s*${AR_PART}?[^0-9،.]{0,20}$`, "u");

function arabicSpans(text: string, now: string): Span[] {
  const latin = text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
  const spans: Span[] = [];
  for (const m of latin.matchAll(AR_RANGE)) {
    const [, d1, d2, name, y] = m;
    const month = AR_MONTHS.findIndex((alternatives) => alternatives.split("|").includes(name!)) + 1;
    const day = Number(d1);
    const year = y ? Number(y) : nearestYear(month, day, now);
    const until = d2 ? undefined : AR_UNTIL_BEFORE.exec(latin.slice(Math.max(0, (m.index ?? 0) - 48), m.index ?? 0));
    if (until) {
      const minutes = until[1] ? arabicClock(until[1], until[2]) : undefined;
      spans.push({ from: "", until: minutes === undefined ? dayAfter(year, month, day) : stamp(year, month, day, Math.floor(minutes / 60), minutes % 60), ends: true });
      continue;
    }
    spans.push({ from: stamp(year, month, day), until: dayAfter(year, month, Number(d2 ?? d1)) });
  }
  return spans;
}

/** A year as written: the Republic of China calendar's ("114年") in Gregorian years. */
const gregorian = (year: number): number => (year < 1000 ? year + 1911 : year);

/** The year that puts a month and day nearest the kiosk's clock (a notice's date without a year). */
function nearestYear(month: number, day: number, now: string): number {
  const year = Number(now.slice(0, 4));
  const at = Date.parse(`${now.slice(0, 10)}T00:00Z`);
  return [year - 1, year + 1].reduce((best, y) => (Math.abs(Date.UTC(y, month - 1, day) - at) < Math.abs(Date.UTC(best, month - 1, day) - at) ? y : best), year);
}

/**
 * The window a notice's own words give (the earliest start to the latest end of the calendar dates
 * it names), or undefined when they name none for certain. `now` is the kiosk's local time.
 */
/** Words naming a day or a date ("on Friday", "on the day", "March 8", "3月12日", "当天", "يوم الجمعة"). */
const DAY_WORDS = new RegExp(
  [
    String.raw`\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?\b|\b(?:today|tonight|tomorrow|on the day|this (?:weekend|week)|holidays?)\b`,
    String.raw`\b${MONTH_NAMES}\.?\s+\d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH_NAMES}\b`,
    String.raw`\u661f\u671f|\u793c\u62dc|\u79ae\u62dc|[\u5468\u9031][\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u65e5\u672b]|\d{1,2}\s*[\u65e5\u53f7\u865f]|[\u5f53\u7576]\u5929|[\u5f53\u7576]\u65e5|[\u4eca\u660e]\u5929|[\u4eca\u660e]\u65e5`,
    String.raw`\u064a\u0648\u0645|\u063a\u062f\u0627|${AR_MONTHS.join("|")}`,
  ].join("|"),
  "iu",
);

/** The text names a day or a date its words give no window for ("on Friday", "on the day"): when it holds is not known. */
export function namesUndatedDay(text: string, now: string): boolean {
  return DAY_WORDS.test(text) && noticeWindow(text, now) === undefined;
}

const CLOCK_TIME = /\b\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\b\.?|p\.?m\b\.?)|\b\d{1,2}:\d{2}\b|\b(?:noon|midnight)\b|\d{1,2}\s*[\u70b9\u9ede\u65f6\u6642]|\u0627\u0644\u0633\u0627\u0639\u0629/iu;

/** The text names a time of day ("before 1 p.m.", "7:30", "早7点", "الساعة"). */
export function namesClockTime(text: string): boolean {
  return CLOCK_TIME.test(text);
}

export function noticeWindow(text: string, now: string): NoticeWindow | undefined {
  return windowsOf(text, now)?.hull;
}

/**
 * The window a notice's words give (its hull, as noticeWindow) and, where they give separate closed
 * windows and no end of service ("May 5, Sat 630 AM to 1130 PM & May 6, Sun 745 AM to 1130 PM"),
 * each of them: the night between is not in force.
 */
function windowsOf(text: string, now: string): { hull: NoticeWindow; parts?: NoticeWindow[] } | undefined {
  const english = englishSpans(text, now);
  if (english === undefined) return undefined;
  const all = [...english, ...chineseSpans(text, now), ...arabicSpans(text, now)];
  const hull = hullOf(all);
  if (!hull) return undefined;
  const closed = all.filter((x) => !x.ends && x.until !== undefined);
  // Only windows with their own hours are separate; whole days listed ("between June 1 and October
  // 12", "2月11日首班车起至2月17日") may be a range's ends.
  const hours = (x: Span): boolean => !x.from.endsWith("T00:00") || !x.until!.endsWith("T00:00");
  const separate = closed.length > 1 && closed.length === all.length && closed.every(hours);
  return separate ? { hull, parts: closed.map((x) => ({ from: x.from, until: x.until! })) } : { hull };
}

function hullOf(all: readonly Span[]): NoticeWindow | undefined {
  const spans = all.filter((x) => !x.ends);
  const resumes = all.filter((x) => x.ends).map((x) => x.until!).sort();
  if (spans.length === 0) return resumes.length > 0 ? { until: resumes[0]! } : undefined;
  const from = spans.map((s) => s.from).sort()[0]!;
  const open = spans.some((s) => s.until === undefined);
  const until = resumes.length > 0 ? resumes.at(-1) : open ? undefined : spans.map((s) => s.until!).sort().at(-1);
  return { from, ...(until ? { until } : {}) };
}

/** A notice applies at `now` unless its own words say for certain it has not begun or has ended. */
export function inForceByWords(text: string, now: string): boolean {
  if (!withinDailyHours(text, now)) return false;
  const w = windowsOf(text, now);
  return !w || inWindows(w, now);
}

/** `now` lies in the words' separate windows where they give them, else in their hull. */
function inWindows(w: { hull: NoticeWindow; parts?: NoticeWindow[] }, now: string): boolean {
  const t = now.slice(0, 16);
  const inside = (x: NoticeWindow): boolean => (x.from === undefined || t >= x.from) && (x.until === undefined || t < x.until);
  return w.parts ? w.parts.some(inside) : inside(w.hull);
}

/**
 * A feed disruption applies at `now`: by its valid_from / valid_until where the feed gives them (the
 * structured fields first), else by the window its own words give; in either case only in the hours
 * of the day its words say it recurs ("midnight to 4am, nightly").
 */
export function disruptionInForce(d: { valid_from?: string | null; valid_until?: string | null; message?: string | null }, now: string): boolean {
  if (d.valid_from || d.valid_until) {
    const inWindow = !(d.valid_from && d.valid_from > now) && !(d.valid_until && d.valid_until < now);
    if (!inWindow || typeof d.message !== "string") return inWindow;
    if (!withinDailyHours(d.message, now)) return false;
    // The words refine the feed's window where the two overlap: a notice published early says when
    // it begins ("From Saturday 15 January …", shown since November). Words that miss the feed's
    // window altogether (a year slipped) leave the feed to decide.
    const words = windowsOf(d.message, now);
    if (!words) return true;
    const w = words.hull;
    const from = d.valid_from ? d.valid_from.slice(0, 16) : undefined;
    const until = d.valid_until ? d.valid_until.slice(0, 16) : undefined;
    const overlaps = (w.until === undefined || from === undefined || w.until > from) && (w.from === undefined || until === undefined || w.from < until);
    return !overlaps || inWindows(words, now);
  }
  return typeof d.message === "string" ? inForceByWords(d.message, now) : true;
}

/** Words that make a notice's clock range recur: every night, every day, on a span of weekdays. */
const RECURS = /\b(?:nightly|each night|every night|overnight|daily|each day|every day|weeknights?|weekdays?|weekends?|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(?:to|-|\u2013|thru|through)\s*(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)\b/i;
/** "midnight to 4am", "11pm to 4am", "945 AM to 3 PM", "between 1 a.m. and 4:30 a.m.", "1-4:30 a.m.". */
const CLOCK_RANGE = /\b(between\s+)?(midnight|noon|\d{1,4}(?::\d{2})?)\s*(a\.?m\.?|p\.?m\.?)?\s*(to|until|till|and|-|\u2013|\u2014)\s*(midnight|noon|\d{1,4}(?::\d{2})?)\s*(a\.?m\.?|p\.?m\.?)?(?![\w:])/giu;
const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const DAY_SPAN = /\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(?:to|-|\u2013|thru|through)\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(weekdays?|weekends?)\b/i;

/** Minutes after midnight of one end of a clock range, or undefined when it is no clock. */
function clockOf(token: string, marker: string | undefined, end: boolean): number | undefined {
  const t = token.toLowerCase();
  if (t === "midnight") return end ? 1440 : 0;
  if (t === "noon") return 720;
  const [h, m] = t.includes(":") ? t.split(":").map(Number) : t.length >= 3 ? [Math.floor(Number(t) / 100), Number(t) % 100] : [Number(t), 0];
  if (h === undefined || m === undefined || m > 59) return undefined;
  // a 24-hour clock ("1000", "2130") has no marker
  if (!marker) return h < 24 ? h * 60 + m : undefined;
  if (h > 12) return undefined;
  const pm = /^p/i.test(marker ?? "");
  return ((h % 12) + (pm ? 12 : 0)) * 60 + m;
}

interface DailyHours {
  from: number;
  /** Past `from`'s day when the hours run over midnight. */
  until: number;
  /** Days of the week (0 = Sunday) the hours are on; undefined: every day. */
  days?: ReadonlySet<number>;
}

/**
 * The hours of the day a notice says it recurs in ("midnight to 4am, nightly", "Mon to Fri, 945 AM to
 * 3 PM"), or undefined unless its words give exactly one clock range and say it recurs. Only these
 * certain readings take a notice out of force outside them.
 */
export function dailyHours(text: string): DailyHours | undefined {
  if (!RECURS.test(text)) return undefined;
  const ranges = new Map<string, DailyHours>();
  for (const m of text.matchAll(CLOCK_RANGE)) {
    const [, between, a, am, joiner, b, bm] = m;
    // "and" joins a clock range only after "between"; a range needs an am/pm, midnight or noon.
    if (joiner === "and" && !between) continue;
    // …or two 24-hour clocks ("between 0700 and 1000"): four digits each, on the quarter-hour-like
    // minutes a timetable uses, so years ("between 2019 and 2021") are not read as clocks.
    const clock24 = (t: string): boolean => /^[0-2]\d[0-5][05]$/.test(t) && Number(t.slice(0, 2)) < 24;
    const twentyFour = !am && !bm && clock24(a!) && clock24(b!);
    if (!am && !bm && !twentyFour && !/midnight|noon/i.test(`${a} ${b}`)) continue;
    const until = clockOf(b!, bm ?? am, true);
    let from = clockOf(a!, am ?? bm, false);
    // "9 to 3 pm": a start later than its pm end is a morning
    if (from !== undefined && until !== undefined && !am && bm && from > until) from -= 720;
    if (from === undefined || until === undefined || from < 0) continue;
    ranges.set(`${from}-${until}`, { from, until: until <= from ? until + 1440 : until });
  }
  if (ranges.size !== 1) return undefined;
  const hours = [...ranges.values()][0]!;
  const span = DAY_SPAN.exec(text);
  // Days only for hours inside one day: a night's hours belong to the evening before, and the
  // words rarely say which ("Mon to Thu, nightly").
  if (!span || hours.until > 1440) return hours;
  if (span[3]) return { ...hours, days: new Set(/^weekend/i.test(span[3]) ? [0, 6] : [1, 2, 3, 4, 5]) };
  const first = DAY_NAMES.indexOf(span[1]!.toLowerCase());
  const last = DAY_NAMES.indexOf(span[2]!.toLowerCase());
  const days = new Set<number>();
  for (let d = first; ; d = (d + 1) % 7) {
    days.add(d);
    if (d === last) break;
  }
  return { ...hours, days };
}

/**
 * A stop that lasts until a clock time of its day, with no start of its own: "Metro services will NOT
 * be available till 2:30 PM", "will not be available till 7.30 am", "will start at 9 am instead of
 * 7 am", "首班列車將延至約早上7時30分開出". Trains run after it. A range ("no service from 10 pm until 5 am") is not one: its start
 * is a clock too.
 */
const STOP_UNTIL_CLOCK = /\b(?:not (?:be )?(?:available|running|run|operating|operate|open)|closed|suspended)\b[^.]{0,80}?\b(?:till|until)\s+(\d{1,2})(?:[.:](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)/i;
/** "首班列車將延至約早上7時30分開出": the first trains leave later; nothing runs before then. */
const ZH_FIRST_LATER = /首班(?:列车|列車|车|車)[^。；;，,]{0,12}?(?:延至|推迟至|推遲至|延后至|延後至|延到|推迟到|推遲到)\s*(?:约|約)?\s*(?:早上|上午|清晨)?\s*(\d{1,2})\s*[时時点點:：]\s*(\d{1,2})?/u;
const START_INSTEAD = /\bwill (?:start|commence|begin) (?:at|from) (\d{1,2})(?:[.:](\d{2}))?\s*(a\.?m\.?|p\.?m\.?) instead of\b/i;

/** Minutes after midnight at which a stop of the notice's day ends (see STOP_UNTIL_CLOCK), if its words give one. */
export function stopEndsAt(text: string): number | undefined {
  const until = STOP_UNTIL_CLOCK.exec(text);
  // "from 10 pm until 5 am": a clock right before "until" makes it a range, read elsewhere.
  const range = until && /\d\s*(?:a\.?m\.?|p\.?m\.?)?\s*$/i.test(until[0].slice(0, until[0].search(/\b(?:till|until)\s+\d/i)));
  const m = (range ? null : until) ?? START_INSTEAD.exec(text);
  return m ? clockOf(m[2] ? `${m[1]}:${m[2]}` : m[1]!, m[3], true) : firstTrainsLeaveAt(text);
}

/** The hour, in minutes after midnight, a notice says the first trains now leave at, later than usual (ZH_FIRST_LATER). */
export function firstTrainsLeaveAt(text: string): number | undefined {
  const zh = ZH_FIRST_LATER.exec(text);
  return zh ? Number(zh[1]) * 60 + Number(zh[2] ?? 0) : undefined;
}

/** `now` lies in the hours of the day the notice's words say it recurs in (or they say none), and before a stop of its day ends. */
function withinDailyHours(text: string, now: string): boolean {
  const hours = dailyHours(text);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(now);
  if (!m) return true;
  const minutes = Number(m[4]) * 60 + Number(m[5]);
  const ends = stopEndsAt(text);
  if (ends !== undefined && minutes >= ends) return false;
  if (!hours) return true;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay();
  if (hours.days && !hours.days.has(day)) return false;
  return (minutes >= hours.from && minutes < hours.until) || minutes + 1440 < hours.until;
}

/**
 * The moments a notice in force speaks of the kiosk's night: `now`, and in the early hours (before
 * 05:00) also the last minute of the evening before — the night's service began then, so a notice
 * that ran it late ("12月31日 … 延长80分钟") still holds after midnight.
 */
export function serviceNightMoments(now: string): string[] {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})/.exec(now);
  if (!m || Number(m[2]) >= 5) return [now];
  const day = new Date(`${m[1]}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return [now, `${day.toISOString().slice(0, 10)}T23:59:00`];
}

/**
 * A feed disruption in force for the kiosk's night at `now` (serviceNightMoments): at `now`, or at the
 * evening before in the early hours — unless its own words end it by `now` ("…至1月1日24時止" is over
 * at 01:00 on 2 January, whatever ran late the evening before).
 */
export function disruptionInForceTonight(d: { valid_from?: string | null; valid_until?: string | null; message?: string | null }, now: string): boolean {
  if (disruptionInForce(d, now)) return true;
  // (An end at a clock time the words give; a date alone ends with its day, and its night runs on.)
  const end = typeof d.message === "string" ? windowsOf(d.message, now)?.hull.until : undefined;
  if (end !== undefined && !end.endsWith("T00:00") && now.slice(0, 16) >= end) return false;
  return serviceNightMoments(now).some((t) => t !== now && disruptionInForce(d, t));
}

/** Where a sentence ends: not after "p.m.", "Sept." or "St." ("until 6 a.m. Tuesday, January 1"). */
const SENTENCE_END = /(?<=[.!?])(?<!\b(?:[ap]\.m|[AaPp]\.M|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun|St|Ave|Mt|No|Dr|Mr|Mrs|Ms|Jr|Sr|vs|approx|e\.g|i\.e)\.)\s+|(?<=[。！？])/u;

/**
 * A fare or policy announcement's text while its words say it applies, else null. Where the sentences
 * that change a fare give their own window ("penny rides … beginning at 8 p.m. on Monday, December 31
 * until 6 a.m. Tuesday, January 1"), that window alone counts: a date elsewhere ("service will operate
 * on a Sunday schedule Tuesday, January 1") would stretch a cheaper fare past its end.
 */
const TAKES_EFFECT = /\b(?:takes? effect|go(?:es)? into effect|effective|starting|beginning|as of)\b/i;

/** The day a change takes effect, where its words say ("will take effect on or about March 1"); "" where they do not. */
export function takesEffectFrom(text: string, now: string): string {
  const cue = TAKES_EFFECT.exec(text);
  if (!cue) return "";
  const sentence = text.slice(cue.index).split(SENTENCE_END)[0] ?? "";
  return noticeWindow(sentence, now)?.from ?? "";
}

/** Fares taken again from a day on ("will resume fare collection", "fares will be required", "begins revenue service", 恢复收费). */
const FARES_RESUME = /\bresum(?:e|es|ing)\s+(?:fare collection|collecting fares|fares|charging(?: fares)?)\b|\bfares?\s+(?:will\s+be\s+|are\s+)?(?:required|reinstated)\b|\bbegins?\s+revenue service\b|\bfare collection\s+(?:will\s+)?resumes?\b|\u6062\u590d\u6536\u8d39|\u6062\u5fa9\u6536\u8cbb/iu;

/** The text says fares are taken again from a day that has not come yet: until then none are. */
export function faresResumeLater(text: string, now: string): boolean {
  if (!FARES_RESUME.test(text)) return false;
  const from = noticeWindow(text, now)?.from;
  return from !== undefined && now < from;
}

export function announcementInForce(text: string | null | undefined, now: string): string | null {
  if (!text) return null;
  const fareSentences = text.split(SENTENCE_END).filter((sentence) => announcesFareChange(sentence));
  const own = fareSentences.join(" ");
  const words = own !== "" && noticeWindow(own, now) !== undefined ? own : text;
  return inForceByWords(words, now) ? text : null;
}
