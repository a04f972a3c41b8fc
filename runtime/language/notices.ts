import type { SystemData } from "../../tools/data/system.ts";
import { lexiconFor } from "./lexicon.ts";
import { AR_HOUR, AR_PART, arabicClock, firstTrainsLeaveAt } from "./when.ts";

// What a service notice's words say of a closed station: whether trains still run through it
// ("trains skip it", "will not stop there", "Blue and Brown trains go straight through it") or the
// line is cut there ("trains cannot pass through"). One reading for the policies and the purchase
// interlock alike: a weaker copy in one of them re-plans or blocks what the other sells.

const SKIPS = /\b(?:skip|skips|skipping|bypass|bypasses|bypassing|pass(?:es|ing)? through (?:(?:those|these|the|this|that|both) )?(?:stations? )?without stopping|(?:will not|won'?t|do not|don'?t|does not|doesn'?t|not) stop (?:there|here|at)|(?:not|no longer) (?:be )?stopping (?:there|here|at))\b/i;
const PASS_THROUGH = /\b(?:trains?|services?) (?:\w+ )?(?:pass|run|go)(?:es)? (?:straight |right |directly )?through\b/i;
const NO_PASSING = /\b(?:cannot|can'?t|not|unable to|won'?t|will not) (?:pass|run|go) through\b/i;

/** Short forms operators write in feeds and tweets ("temp susp btwn Harlem and Addison", "svc", "trks"). */
const SHORT_WORDS: [RegExp, string][] = [
  [/\bbtwn\b/giu, "between"],
  [/\btemp(?:orarily)? susp(?:d|ended)?\b/giu, "temporarily suspended"],
  [/\bsusp(?:d)?\b/giu, "suspended"],
  [/\bsvc\b/giu, "service"],
  [/\btrks\b/giu, "tracks"],
  [/\bsta\b(?=\.?\s)/giu, "station"],
  [/\bavail\b/giu, "available"],
  [/\bthru\b/giu, "through"],
];

/** A notice's words with the short forms operators use written out, read by both readers alike. */
export function withWordsWrittenOut(message: string): string {
  return SHORT_WORDS.reduce((text, [form, word]) => text.replace(form, word), message);
}

const ZH_LATER = /(?:末班车|末班車|运营|運營|营运|營運|服务|服務)[^。；;，,]{0,14}?(?:延长|延長|推迟|推遲|延时|延時)(?:至|到)\s*(次日|翌日|凌晨)?\s*(\d{1,2})(?:\s*[:：点點时時]\s*(\d{1,2})?)?/u;
/** "延长运营服务时间至24点": the extending verb before what it extends. */
const ZH_EXTEND_TO = /(?:延长|延長|延时|延時)(?:运营|運營|营运|營運|服务|服務)[^。；;，,]{0,8}?(?:至|到)\s*(次日|翌日|凌晨)?\s*(\d{1,2})(?:\s*[:：点點时時]\s*(\d{1,2})?)?/u;
/** "末班车自次日0:30从两端站发出": the last train leaves in the next day's early hours. */
const ZH_LAST_TRAIN_NEXT_DAY = /(?:末班车|末班車)[^。；;，,]{0,6}?(次日|翌日|凌晨)\s*(\d{1,2})(?:\s*[:：点點时時]\s*(\d{1,2})?)?/u;
/** "延长80分钟运营时间", "运营时间延长30分钟": later by so many minutes than the usual close. */
const ZH_EXTEND_BY = /(?:延长|延長|延时|延時)\s*(\d{1,3})\s*分钟|(?:运营|運營|营运|營運|服务|服務)[^。；;，,]{0,8}?(?:延长|延長|延时|延時)\s*(\d{1,3})\s*分钟/u;
/** "延长运营服务1小时", "延长运营服务1.5小时": later by so many hours. */
const ZH_EXTEND_BY_HOURS = /(?:延长|延長|延时|延時)(?:运营|運營|营运|營運|服务|服務)*\s*(\d{1,2}(?:\.\d)?)\s*(?:个|個)?(?:小时|小時|钟头|鐘頭)/u;
/** "並持續營運至凌晨2時", "运营至次日1时": running on into the next day's early hours (a plain "运营至22时" may be an early close). */
const ZH_RUN_ON_TO = /(?:运营|運營|营运|營運|运行|運行)(?:至|到)\s*(次日|翌日|凌晨)\s*(\d{1,2})(?:\s*[:：点點时時]\s*(\d{1,2})?)?/u;
/** "連續營運42小時", "全线连续42小时营运不收班", "通宵运营": trains run all night. */
const ZH_ALL_NIGHT = /(?:连续|連續)\s*(?:运营|運營|营运|營運)?\s*\d{2,3}\s*(?:个|個)?(?:小时|小時)|不收班|通宵(?:运营|運營|营运|營運|运行|運行)/u;
const EN_LATER = /\b(?:run|runs|operate|operates|open|opens|service)\b[^.]{0,40}?\b(?:to|until|till)\s+(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)/giu;
/** "it has been extended till 1 a.m.", "extended until approximately 4 a.m.", "until 0300hrs": a later end in other words. */
const EN_EXTENDED_TO = /\b(?:extend|extends|extended|extending)\b[^!?]{0,80}?\b(?:to|until|till)\s+(?:(?:approximately|approx\.?|about|around)\s+)?(?:(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)|(\d{2})(\d{2})\s*hrs?\b)/giu;
const EN_LATER_MIDNIGHT = /\b(?:run|runs|operate|operates|open|opens|service)\b[^.]{0,40}?\b(?:to|until|till)\s+(?:12(?::00)?\s*)?midnight\b/iu;

/** A clock read from a notice, in minutes after the midnight its service day starts at (the early hours past 24:00). */
function nightClock(nextDay: string | undefined, hour: string, minute: string | undefined): number {
  const h = Number(hour);
  const minutes = h * 60 + Number(minute ?? 0);
  return nextDay || h < 5 ? 1440 + minutes : minutes;
}

/**
 * The hour a notice says service now runs until, in minutes after the midnight its day starts at
 * ("末班车时间延长至次日0:30" → 24:30, "It will run from 6 am to 3 am" → 27:00), or undefined.
 * `usualClose` (the framebook's close that day, same scale) reads an extension by minutes
 * ("延长80分钟运营时间"). Only a later end than usual counts: a notice never shortens service hours
 * by this reading.
 */
export function serviceRunsUntil(message: string, usualClose?: number): number | undefined {
  const ends: number[] = [];
  // Until the next morning's usual opening, as the kiosk's night goes (05:00).
  if (ZH_ALL_NIGHT.test(message)) ends.push(1440 + 5 * 60);
  for (const form of [ZH_LATER, ZH_EXTEND_TO, ZH_LAST_TRAIN_NEXT_DAY, ZH_RUN_ON_TO]) {
    const zh = form.exec(message);
    if (zh) ends.push(nightClock(zh[1], zh[2]!, zh[3]));
  }
  const by = ZH_EXTEND_BY.exec(message);
  if (by && usualClose !== undefined) ends.push(usualClose + Number(by[1] ?? by[2]));
  const byHours = ZH_EXTEND_BY_HOURS.exec(message);
  if (byHours && usualClose !== undefined) ends.push(usualClose + Math.round(Number(byHours[1]) * 60));
  for (const minutes of arabicServiceClocks(message).until) ends.push(minutes < 5 * 60 ? minutes + 1440 : minutes);
  for (const en of message.matchAll(EN_EXTENDED_TO)) {
    // "The closure has been extended until 5 a.m." keeps trains stopped, not running.
    const said = message.slice(Math.max(0, (en.index ?? 0) - 60), (en.index ?? 0) + en[0].length).split(/(?<=[.!?])\s+(?=[A-Z])/u).at(-1) ?? en[0];
    if (/clos|suspen|shut|works?\b|maint|repair|disrupt|bus/i.test(said)) continue;
    if (en[4] !== undefined) ends.push(nightClock(undefined, en[4], en[5]));
    else ends.push(nightClock(undefined, String((Number(en[1]) % 12) + (/^p/i.test(en[3]!) ? 12 : 0)), en[2]));
  }
  for (const en of message.matchAll(EN_LATER)) {
    const h12 = Number(en[1]) % 12;
    ends.push(nightClock(undefined, String(/^p/i.test(en[3]!) ? h12 + 12 : h12), en[2]));
  }
  if (EN_LATER_MIDNIGHT.test(message)) ends.push(1440);
  // "from 6am to 12:00 midnight on Thursdays … Saturday to Wednesday from 6am to 11pm": the latest
  return ends.length > 0 ? Math.max(...ends) : undefined;
}

/**
 * Whether any of these notices keeps service running at `minutes` (after the midnight of its day;
 * early hours count as the day before). Only the night counts (20:00 on): a later end says nothing of
 * the morning ("from 9 am to 3 am on Fridays" does not open the station at 8).
 */
export function runsLateAt(messages: readonly string[], minutes: number, usualClose?: number): boolean {
  const late = minutes < 5 * 60 ? minutes + 1440 : minutes;
  if (late < 20 * 60) return false;
  return messages.some((m) => {
    const until = serviceRunsUntil(m, usualClose);
    return until !== undefined && late < until;
  });
}

/**
 * Arabic service hours, clause by clause: "وسيعمل الخط الأخضر من الساعة 5:30 صباحاً إلى 1:00 صباح اليوم
 * التالي", "مد ساعات العمل … ليستمر حتى الساعة الواحدة". A clause counts where a verb of running is in it
 * and it speaks of the metro, not of buses or a tram, and stops nothing. Clocks are written in digits or
 * as words, the part of the day after them.
 */
const AR_RUN_VERB = /يعمل|تعمل|سيعمل|ستعمل|تشغيل|التشغيل|العمل|تبدأ|يبدأ|ستبدأ|سيبدأ|يستمر|ليستمر|تستمر/u;
const AR_FROM_CLOCK = new RegExp(`(?:^|\\s)من\\s+(?:تمام\\s+)?(?:الساعة\\s+)?${AR_HOUR}\\s*${AR_PART}?`, "u");
const AR_UNTIL_CLOCK = new RegExp(`(?:حتى|إلى|الى)\\s+(?:تمام\\s+)?(?:الساعة\\s+)?${AR_HOUR}\\s*${AR_PART}?`, "u");
/** "موعد آخر قطار الساعة الثانية صباحا": the last train's hour, an end of service. */
const AR_LAST_TRAIN_CLOCK = new RegExp(`(?:آخر|اخر)\\s+قطار[^،.]{0,12}?(?:الساعة\\s+)${AR_HOUR}\\s*${AR_PART}?`, "u");
/** The starts and ends of service an Arabic notice's clauses give, in minutes after midnight. */
function arabicServiceClocks(message: string): { from: number[]; until: number[] } {
  const out = { from: [] as number[], until: [] as number[] };
  if (!/\p{Script=Arabic}/u.test(message)) return out;
  const plain = message.replace(/[\u064b-\u065f\u0670\u0640]/gu, "");
  for (const clause of plain.split(/[.،؛\n]+/u)) {
    if (!AR_RUN_VERB.test(clause) || AR_STOP.test(clause) || /حافلات|باصات|ترام/u.test(clause)) continue;
    const from = AR_FROM_CLOCK.exec(clause);
    if (from) out.from.push(arabicClock(from[1]!, from[2]));
    const until = AR_UNTIL_CLOCK.exec(clause) ?? AR_LAST_TRAIN_CLOCK.exec(clause);
    if (until) out.until.push(arabicClock(until[1]!, until[2]));
  }
  return out;
}

/** A verb of service running or starting ("commence", "will run", "operate trains"): a clock after it is a start. */
const EN_RUN_VERB = /\b(?:commence|commences|start|starts|begin|begins|open|opens|run|runs|operate|operates)\b/i;
/** A start of service: "at 5 am", "from 6am" (a clock after a verb of running). */
const EN_START = /\b(?:at|from)\s+(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)/giu;
/** "首班车提前至5时30分", "首班车发车时间由目前的6时10分提前至5时30分", "文湖线提前至5:30运营": the first train leaves earlier. */
const ZH_EARLIER = /(?:首班车|首班車|运营|運營|营运|營運)[^。；;]{0,24}?(?:提前|提早)(?:至|到)\s*(\d{1,2})\s*[:：时時点點]\s*(\d{1,2})?|(?:提前|提早)(?:至|到)\s*(\d{1,2})\s*[:：时時点點]\s*(\d{1,2})?\s*分?\s*(?:开始|開始)?(?:运营|運營|营运|營運|发车|發車)/gu;
const DAY_NAMES = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/**
 * The days words limit themselves to: named days and ranges ("on Fridays", "Saturday to Wednesday")
 * apart from the words whose days differ between countries ("weekdays", "weekends"), or undefined
 * where they name none.
 */
function daysNamed(words: string): { named: Set<string>; loose: Set<string> } | undefined {
  const t = words.toLowerCase();
  const named = new Set<string>();
  const loose = new Set<string>();
  for (const range of t.matchAll(/\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)s?\s+(?:to|through|thru|-|–)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)s?\b/g)) {
    const from = DAY_NAMES.indexOf(range[1] as (typeof DAY_NAMES)[number]);
    const to = DAY_NAMES.indexOf(range[2] as (typeof DAY_NAMES)[number]);
    for (let k = from; ; k = (k + 1) % 7) {
      named.add(DAY_NAMES[k]!);
      if (k === to) break;
    }
  }
  for (const d of DAY_NAMES) if (new RegExp(`\\b${d}s?\\b`).test(t)) named.add(d);
  if (/الجمعة/u.test(words)) named.add("friday");
  if (/\bweekdays?\b/.test(t)) for (const d of DAY_NAMES.slice(1, 6)) loose.add(d);
  if (/\bweekends?\b/.test(t)) loose.add("saturday").add("sunday");
  return named.size + loose.size > 0 ? { named, loose } : undefined;
}

/**
 * The morning hour a notice says service starts at on `day` ("commence at 5 am … on weekdays",
 * "首班车提前至5时30分", "من الساعة الخامسة صباحاً"), in minutes after midnight, or undefined. Each start
 * holds on the days its own words name (else its sentence's); a day named outright ("on Fridays")
 * outranks "weekdays", which means other days in other countries. Where several starts hold, the
 * latest does: an earlier start is never guessed.
 */
export function serviceRunsFrom(message: string, day: string): number | undefined {
  const starts: { minutes: number; days: ReturnType<typeof daysNamed> }[] = [];
  for (const sentence of noticeSentences(message)) {
    const verb = EN_RUN_VERB.exec(sentence);
    // "Trains will not run from 4 am to 6 am": a stop, not a start.
    // …and only trains start: "shuttle buses will run from 5 am" opens no station.
    const before = verb ? sentence.slice(0, verb.index + verb[0].length) : "";
    const trainsStart = /\b(?:trains?|services?|metro|subway|stations?|lines?|it|they)\b/i.test(before) && !/\b(?:bus|buses|shuttles?|trams?|ferr(?:y|ies)|cable cars?|gondolas?|light rail)\b/i.test(before);
    if (verb && trainsStart && !/\b(?:not|no|never|won'?t|cannot|can'?t|suspend\w*|clos\w*|halt\w*|shut\w*)\b/i.test(before)) {
      const clocks = [...sentence.slice(verb.index).matchAll(EN_START)];
      clocks.forEach((m, k) => {
        if (!/^a/i.test(m[3]!)) return;
        const scope = sentence.slice(verb.index).slice(m.index, clocks[k + 1]?.index);
        starts.push({ minutes: (Number(m[1]) % 12) * 60 + Number(m[2] ?? 0), days: daysNamed(scope) ?? daysNamed(sentence) });
      });
    }
    for (const zh of sentence.matchAll(ZH_EARLIER)) starts.push({ minutes: Number(zh[1] ?? zh[3]) * 60 + Number(zh[2] ?? zh[4] ?? 0), days: daysNamed(sentence) });
    for (const minutes of arabicServiceClocks(sentence).from) starts.push({ minutes, days: daysNamed(sentence) });
  }
  const morning = starts.filter((x) => x.minutes >= 3 * 60 && x.minutes < 12 * 60);
  const namedToday = morning.filter((x) => x.days?.named.has(day));
  const holding = namedToday.length > 0 ? namedToday : morning.filter((x) => x.days === undefined || x.days.loose.has(day));
  return holding.length > 0 ? Math.max(...holding.map((x) => x.minutes)) : undefined;
}

/** Whether any of these notices has trains running at `minutes` of a morning on `day`, before the usual opening. */
export function runsEarlyAt(messages: readonly string[], minutes: number, day: string): boolean {
  if (minutes >= 12 * 60) return false;
  return messages.some((m) => {
    const from = serviceRunsFrom(m, day);
    return from !== undefined && minutes >= from;
  });
}

/**
 * Whether any of these notices runs trains at `minutes` outside the usual hours: later than the
 * usual close ("末班车延长至次日0:30") or, on `day`, earlier than the usual opening ("commence at 5 am").
 */
export function runsOutsideUsualHoursAt(messages: readonly string[], minutes: number, usualClose: number | undefined, day: string | undefined): boolean {
  return runsLateAt(messages, minutes, usualClose) || (day !== undefined && runsEarlyAt(messages, minutes, day));
}

const EN_ENDS_EARLY = /\b(?:service|trains?)\b[^.]{0,140}?\b(?:will )?(?:end|ends|stop|stops|close|closes|finish|finishes)\b(?: early)?\s+at\s+(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)/iu;
const ZH_ENDS_EARLY = /(?:提早|提前)(?:至|到|于|於)?\s*(?:晚上|晚间|晚間)?(\d{1,2})\s*[時时点點:：]\s*(\d{1,2})?[^。；;]{0,8}?(?:收班|结束运营|結束營運|停止运营|停止營運)/u;

/**
 * The evening hour a notice says service now ends at, earlier than usual ("train service on all
 * Taipei Metro Lines … will end at 10pm today", "提早至22時收班"), in minutes after midnight; undefined
 * where it says none. Only an evening end counts (from noon): a closing time is never read as an opening.
 */
export function serviceEndsAt(message: string): number | undefined {
  const en = EN_ENDS_EARLY.exec(message);
  const zh = ZH_ENDS_EARLY.exec(message);
  const minutes = en ? ((Number(en[1]) % 12) + (/^p/i.test(en[3]!) ? 12 : 0)) * 60 + Number(en[2] ?? 0) : zh ? Number(zh[1]) * 60 + Number(zh[2] ?? 0) + (Number(zh[1]) < 12 ? 720 : 0) : undefined;
  return minutes !== undefined && minutes >= 12 * 60 && minutes < 24 * 60 ? minutes : undefined;
}

/** Whether any of these notices ends service before `minutes` (after midnight) and `usualClose` (same scale). */
export function endedEarlyAt(messages: readonly string[], minutes: number, usualClose?: number): boolean {
  return messages.some((m) => {
    const end = serviceEndsAt(m);
    return end !== undefined && minutes >= end && (usualClose === undefined || end < usualClose);
  });
}

/** The notice says trains still run through the closed station (without stopping). */
export function trainsRunThrough(message: string): boolean {
  return SKIPS.test(message) || (PASS_THROUGH.test(message) && !NO_PASSING.test(message)) || ZH_SKIPS.test(message);
}

/** A station shut for want of its staff, not for anything on the track ("closed due to strike action by the RMT"). */
const STAFF_CLOSURE = /\b(?:strikes?|strike action|industrial action|walk-?outs?|staff(?:ing)? shortages?|shortage of staff|lack of staff|no staff|unstaffed)\b|罢工|罷工|人手不足|إضراب/iu;

/**
 * Trains still run through a closed station: the words say so, or the station is shut for want of
 * its staff (a strike), which stops nobody on the line — unless the words say trains cannot pass.
 * A closure for anything else ("closed for police activity") is not passed through on a guess.
 */
export function closedStationPassable(message: string): boolean {
  return trainsRunThrough(message) || ((STAFF_CLOSURE.test(message) || GATES_CLOSED.test(message)) && !NO_PASSING.test(message));
}

/** A station's gates shut ("Entry & exit gates of Cumberland are closed", "All gates of Souq Waqif … are closed"): nobody enters or leaves; trains are not stopped. */
const GATES_CLOSED = /\b(?:all |entry (?:&|and) exit |entry |exit )?gates (?:of|at)\b[^.]{0,80}?\b(?:are|is|will be|remain|have been) closed\b/i;

/**
 * A part of a station, not the station, is what a sentence says is shut or opened ("the current
 * Argyle station entrance is closed", "Temporary Station and Entrance Opens", "the south exit").
 */
export const STATION_PART = /\b(?:entrances?|exits?|doors?|stairs|stairways?|escalators?|elevators?|lifts?|platforms?|parking|car park|lot|bus bay|ticket (?:office|machines?)|toilets?|restrooms?|concourse|tunnel|footbridge|overpass|passageway)\b/i;

/**
 * The sentence speaks of a part of a station and of no train, line or station closing ("the current
 * Argyle station entrance is closed", "the new entrance is next to the closed one") — unlike
 * "Education City station closed for platform tile repair".
 */
export function speaksOfStationPartOnly(sentence: string): boolean {
  return STATION_PART.test(sentence) && !/\b(?:trains?|services?|lines?)\b/i.test(sentence.replace(/\b(?:out of|in|back in) service\b/gi, "")) && !STATION_CLOSED.test(sentence);
}

const STATION_CLOSED = /\bstations?\s+(?:is\s+|are\s+|will\s+(?:be\s+)?|has been\s+|remains?\s+)?(?:closed|shut|close)\b|\bclos(?:e|es|ed|ing)\s+(?:the\s+|this\s+)?(?:[\w'’/-]+\s+){0,4}?stations?\b/i;

/** Words right after a station's name make it a part of the station ("Argyle station entrance …"). */
export function namesStationPart(wordsAfterName: string): boolean {
  return new RegExp(`^(?:stations?\\s+)?${STATION_PART.source}`, "i").test(wordsAfterName);
}

/** The sentence announces that something opens or runs again ("Temporary Station Opens", "resume stopping", "back in service"). */
export const OPENS_AGAIN = /\b(?:opens?|opened|reopens?|reopened|is (?:now )?open|are (?:now )?open|resumes?|resumed|back in service|restored|running normally)\b/i;

/** "列车在北京站通过不停车", "不停站通过", "甩站": trains pass without stopping. */
const PASS_THROUGH_ZH = /通过不停车|通過不停車|不停车通过|不停車通過|不停站|甩站|停止办理乘客上下车|停止辦理乘客上下車|不办理乘客上下车|不辦理乘客上下車|不开放旅客上下车|不開放旅客上下車|(?:列车|列車)[^，,。；;]{0,4}在[^，,。；;]{1,12}站(?:通过|通過)|越站(?:通过|通過)|(?:列车|列車)(?:不会|不會)停/u;
/** Trains skip the stations a clause names ("实施跳站运行", "采取跳站措施"), or pass them (PASS_THROUGH_ZH). */
const ZH_SKIPS = new RegExp(`跳站|${PASS_THROUGH_ZH.source}`, "u");
/** A station's service, right after its name ("郭庄子站运营服务", "動物園站暫停運營", "北京南站临时停止运营服务"): the station is what stops. */
const ZH_STATION_SERVICE = /站(?:的)?(?:临时|臨時)?(?:暂停|暫停|停止)?(?:运营服务|運營服務|营运服务|營運服務|运营|運營|服务|服務)/u;

const LIFT_OUT =
  /\bno step[- ]free access\b|\bstep[- ]free access is (?:not|no longer) available\b|\b(?:elevators?|lifts?|escalators?)\b[^.]{0,60}\b(?:out of service|out-of-service|removed from service|taken out of service|not working|broken|unavailable|not available|closed|faulty|out of order)\b|\bfaulty (?:lift|elevator)\b|\bno (?:up |down )?(?:escalator|elevator|lift) service\b|\b(?:removed|taken) (?:\w+ ){0,2}(?:out of|from) service (?:\w+ ){0,3}(?:elevators?|lifts?|escalators?)\b|(?:电梯|電梯|升降机|升降機)[^。]{0,20}(?:停用|故障|暂停|暫停|维修|維修)|المصعد[^.]{0,30}(?:معطل|متوقف)/iu;

/**
 * The notice says a station's lift, escalator or step-free access is out ("No Step Free Access", "the
 * elevator … is temporarily out-of-service", "a faulty lift", "the 'up' escalator … is out of
 * service"): the station still serves riders who can use stairs, so it is no closure — whether the
 * trip suits a rider is the rider's question.
 */
export function saysLiftOut(message: string): boolean {
  return LIFT_OUT.test(message);
}

/**
 * The stations a Chinese lift notice names where the lift is out ("目前淡水線忠義站及板南線善導寺站,正進
 * 行電梯更新工程,期間電梯暫停開放"): the stations of each sentence that says a lift is out — not a line's
 * or a section's name ("淡水線", "文湖線木柵段").
 */
export function chineseLiftStations(system: SystemData, message: string): string[] {
  if (!/\p{Script=Han}/u.test(message)) return [];
  const lexicon = lexiconFor(system);
  const out = new Set<string>();
  for (const sentence of message.split(/[。；;！!？?]/u)) {
    if (!saysLiftOut(sentence)) continue;
    for (const m of lexicon.find(sentence)) {
      if ((m.kind !== "local" && m.kind !== "name") || m.candidates.length !== 1) continue;
      if (/^[^，,、]{0,2}[線线段]/u.test(sentence.slice(m.end))) continue;
      out.add(m.candidates[0]!);
    }
  }
  return [...out];
}

/** A lift notice that says the lift works again ("Elevator at Paulina Back in Service"): nothing is out. */
export function saysLiftBack(message: string): boolean {
  return /\b(?:elevators?|lifts?)\b|电梯|電梯|المصعد/iu.test(message) && OPENS_AGAIN.test(message) && !saysLiftOut(message);
}

/**
 * Service that is over or will not run, in words the stop lists do not hold: "[Pink] train service
 * has ended for the evening", "trains will not operate on the Labor Day holiday", "Metro services
 * will NOT be available till 2:30 PM".
 */
export const SERVICE_OUT = /\b(?:service|services|trains?)\s+(?:has|have)\s+(?:now\s+)?ended\b|\b(?:services?|trains?|metro|subway|lines?|connector)\b[^.]{0,40}?\b(?:(?:will|do|does|shall)\s+not|won'?t)\s+(?:operate|run|be\s+(?:available|operating|running|in\s+service))\b/i;
const ON_EVERY_LINE = /\b(?:on|across|throughout|for)\s+(?:all|every)\s+(?:\w+\s+)?(?:lines?|routes?)\b(?!\s+(?:except|but|other than|apart from))/i;

/** The words say their stop holds on every line ("… will NOT be available till 2:30 PM on all Lines of the Beijing Subway"), none excepted. */
export function onEveryLine(words: string): boolean {
  return ON_EVERY_LINE.test(words) && !/\bexcept\b/i.test(words);
}

/**
 * "[Red] trains provide alternate service", "[Red] [Brown] trains and [SB] free shuttle buses provide
 * alternate service": the lines named run, whatever the sentence closes.
 */
const ALTERNATE = /(?:(?:\[[^\]]+\]|\b[\w-]+ line)\s*(?:,|\band\b|&)?\s*)+trains?(?:\s+(?:and|&)\s+(?:\[[^\]]+\]\s*)?(?:free\s+)?(?:shuttle\s+)?bus(?:es)?)?\s+(?:will\s+)?(?:provide|offer)\s+(?:an?\s+)?alternat\w*\s+service/giu;

export function withoutAlternateService(text: string): string {
  return text.replace(ALTERNATE, " ");
}

/** The lines a notice says provide alternate service ("[Blue] [Red] [Gold] trains … provide alternate service"). */
export function linesRunningInstead(system: SystemData, message: string): string[] {
  const words = [...message.matchAll(ALTERNATE)].map((m) => m[0]).join(" ");
  if (words === "") return [];
  const lexicon = lexiconFor(system);
  const named = [...words.matchAll(/\[([^\]]+)\]|\b([\w-]+) line\b/giu)].map((m) => (m[1] ?? m[2] ?? "").toLowerCase());
  return [...new Set(system.lines.filter((l) => named.some((n) => lexicon.isLineWord(n) && (system.aliasLine(n) === l.id || l.name.toLowerCase().startsWith(`${n} `)))).map((l) => l.id))];
}

/**
 * The track of a stopped line that no line said to run instead shares: a line stopped while "[Blue]
 * trains provide alternate service" leaves the Blue Line's track open, and only the rest is closed.
 */
export function trackOnlyOn(system: SystemData, line: string, others: readonly string[]): [string, string][] {
  const shared = new Set(system.edges.filter((e) => others.includes(e.line)).map((e) => pairKey(e.from, e.to)));
  const out = new Map<string, [string, string]>();
  for (const e of system.edges) if (e.line === line && !shared.has(pairKey(e.from, e.to))) out.set(pairKey(e.from, e.to), [e.from, e.to]);
  return [...out.values()];
}

/** A track between two stations, either way round. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

const SKIP_VERB = /\b(?:skip|skips|skipping|bypass|bypasses|bypassing|(?:will not|won'?t|do not|don'?t|does not|doesn'?t) stop at|(?:will not|won'?t) be stopping at)\b/giu;
/** What may stand between the names of a list: commas, "and", a line in brackets ("Kedzie (Pink)"). */
const LIST_GAP = /^\)?(?:\s|,|&|\band\b|\bor\b|\([^)]*\))*$/iu;

/**
 * The stations a notice says trains skip, as a list after the verb ("Millbrae-bound trains skip
 * Pleasant Hill and Walnut Creek", "Trains skip Western (Pink), Damen (Pink) and 18th in both
 * directions"); the list ends at the first words that are no station ("skip Avondale All trains
 * board at … Decatur": Avondale only). A name several stations share is read on the notice's `line`
 * where it gives one, else as each of them (skipping too many only refuses a sale). Trains still
 * run through a skipped station: nobody boards or leaves there.
 */
export function skippedStations(system: SystemData, message: string, line?: string | null): string[] {
  const out = new Set<string>();
  const onLine = line ? new Set(system.lineById(system.aliasLine(line))?.stations ?? []) : undefined;
  for (const verb of message.matchAll(SKIP_VERB)) {
    // The list ends where its names do, not at a full stop ("Shahe Univ. Park").
    const clause = message.slice((verb.index ?? 0) + verb[0].length).slice(0, 400);
    let from = 0;
    for (const m of lexiconFor(system).find(clause)) {
      // "at the following stations: Katara, Al Qassar, DECC, and Corniche"
      if (!LIST_GAP.test(clause.slice(from, m.start).replace(/^\s*(?:the\s+)?(?:following\s+stations?\s*:)?/iu, ""))) break;
      const onIt = onLine ? m.candidates.filter((id) => onLine.has(id)) : [];
      for (const id of onIt.length > 0 ? onIt : m.candidates) out.add(id);
      // "Bypass Granville thru Bryn Mawr": every station from the one to the other on the line.
      const next = lexiconFor(system).find(clause.slice(m.end)).at(0);
      const thru = next && /^\s*(?:thru|through|to)\s*$/iu.test(clause.slice(m.end, m.end + next.start)) ? next : undefined;
      if (thru) for (const id of stationsBetween(system, m.candidates, thru.candidates, line)) out.add(id);
      from = m.end;
    }
  }
  for (const id of expressSkips(system, message, line)) out.add(id);
  return [...out];
}

/** Where a notice's skipping trains are bound: the line, and a station of it they head towards. */
export interface SkipDirection {
  line: string;
  toward: string;
}

/** "Kimball-bound trains", "Dongzhimen bound [13] trains", "(开往环球度假区站方向)". */
const BOUND_FOR = /([\p{L}\p{N}][\p{L}\p{N} .'/&-]{0,40}?)[- ]bound\b|(?:开往|開往|往)\s*([^,，。;；()（）]{1,12}?)\s*(?:站)?方向/giu;

/**
 * The direction of a notice's skip, where its words name the station the trains are bound for on
 * its line ("Kimball-bound trains bypass Western"); undefined where they name none (a compass
 * "northbound" says nothing the network's data can place) or it is not on the line.
 */
export function skipDirection(system: SystemData, message: string, line?: string | null): SkipDirection | undefined {
  const own = line ? system.lineById(system.aliasLine(line)) : undefined;
  for (const m of message.matchAll(BOUND_FOR)) {
    const words = m[1] ?? m[2] ?? "";
    const named = lexiconFor(system).find(words).at(-1);
    if (!named) continue;
    for (const l of own ? [own] : system.lines) {
      const toward = named.candidates.find((id) => l.stations.includes(id));
      if (toward) return { line: l.id, toward };
    }
  }
  return undefined;
}

/**
 * Whether a rider at `station` rides a train of the skip's line heading its way: arriving from
 * `from` or leaving for `to` along the line towards `toward`. Where the line's order cannot tell,
 * it does (the skip holds).
 */
export function ridesSkipWay(system: SystemData, dir: SkipDirection, station: string, from?: string, to?: string): boolean {
  const order = system.lineById(dir.line)?.stations ?? [];
  const at = order.indexOf(station);
  const goal = order.indexOf(dir.toward);
  if (at < 0 || goal < 0 || goal === at) return true;
  const way = Math.sign(goal - at);
  const moves = [
    from !== undefined && order.includes(from) ? Math.sign(at - order.indexOf(from)) : undefined,
    to !== undefined && order.includes(to) ? Math.sign(order.indexOf(to) - at) : undefined,
  ].filter((x): x is number => x !== undefined);
  // not on the skip's line at this station at all: the line's trains are not what the rider takes
  if (moves.length === 0) return false;
  return moves.some((m) => m === way);
}

/** The stations of one line from an end to the other, both included (the notice's line, else the first that has both). */
function stationsBetween(system: SystemData, a: readonly string[], b: readonly string[], line?: string | null): string[] {
  const own = line ? system.lineById(system.aliasLine(line)) : undefined;
  for (const l of own ? [own] : system.lines) {
    const i = l.stations.findIndex((id) => a.includes(id));
    const j = l.stations.findIndex((id) => b.includes(id));
    if (i >= 0 && j >= 0) return l.stations.slice(Math.min(i, j), Math.max(i, j) + 1);
  }
  return [];
}

const EXPRESS = /\b(?:running|run|runs|operating|operate|operates) express (?:from|between) (.+?) (?:to|and) (.+?)(?=[.,;]| because\b| due\b| until\b|$)/iu;

/**
 * "Southbound [Red] trains are running express from Shilin to Minquan West Road": the stations
 * between the two ends, on the notice's line (or the one line that has both), are passed without
 * stopping.
 */
function expressSkips(system: SystemData, message: string, line?: string | null): string[] {
  const m = EXPRESS.exec(message);
  if (!m) return [];
  const lexicon = lexiconFor(system);
  const ends = [m[1]!, m[2]!].map((words) => lexicon.find(words).flatMap((x) => x.candidates));
  const own = line ? system.lineById(system.aliasLine(line)) : undefined;
  const lines = own ? [own] : system.lines;
  for (const l of lines) {
    const a = l.stations.findIndex((id) => ends[0]!.includes(id));
    const b = l.stations.findIndex((id) => ends[1]!.includes(id));
    if (a < 0 || b < 0 || Math.abs(a - b) < 2) continue;
    return l.stations.slice(Math.min(a, b) + 1, Math.max(a, b));
  }
  return [];
}

/**
 * A measure the notice says will be taken only if something happens ("遇极端情况,将立即采取封闭车站…
 * 等措施", "stations may be closed if necessary"): nothing it says stops now. Narrow on purpose —
 * "因遇大雨,13号线将暂停运营" (because of rain) is a stop in force, and "各站末班车发出后,车站将只出不进"
 * ends service at a last train the same notice moves to 19:00: a stop read as a contingency would be
 * sold through.
 */
const CONTINGENT =
  /(?:当|當)[^。；;]{2,40}?(?:时|時)[，,]?\s*(?:即|将|將|就)|(?:时|時)[，,]\s*(?:将|將|即)(?:采取|採取|实施|實施)|(?:如遇|若遇|如果遇到|遇到?(?:极端|極端|特殊|紧急|緊急|突发|突發|恶劣|惡劣)[^。；;]{0,8}(?:情况|情況|天气|天氣))[^。；;]*(?:将|將|会|會|可能|采取|採取)|必要时|必要時|视情况|視情況|(?:将|將|会|會)?有可能(?:会|會)?(?:停止|暂停|暫停|停运|停運)|可能(?:会|會)(?:停止|暂停|暫停|停运|停運)|(?<!(?:因|由于|由於)[^。；;，,]{0,4})(?:风力|風力)[^。；;]{0,12}?(?:达到|達到|达|達)\s*\d+\s*(?:级|級)|(?:暂停|暫停|停止)(?:行驶|行駛|运营|運營|营运|營運|运行|運行)?(?:后|後)[，,]|(?:^|[，,。；;：:])\s*(?:若|如果|倘若|假如|如若)[^。；;]{1,30}?(?:将|將|会|會|即)|\bif (?:necessary|needed|required)\b|\bin the event of\b|\bmay (?:need to |have to )?(?:be )?(?:closed?|suspended?|shut)\b/iu;

export function contingentMeasure(sentence: string): boolean {
  return CONTINGENT.test(sentence);
}

/**
 * The words a notice excepts from what it says: "(except the Capital Airport Express line)",
 * "excluding the airport branch", "除首都机场线外". Their lines are outside the notice's scope.
 */
export function exceptedWords(message: string): string[] {
  const english = [...message.matchAll(/\b(?:except(?: for)?|excluding|other than|apart from|but not)\b([^.;)]{1,80})/giu)].map((m) => m[1]!);
  const chinese = [...message.matchAll(/除(?:了)?([^，,。；;]{1,30}?)(?:以)?外/gu)].map((m) => m[1]!);
  return [...english, ...chinese];
}

/**
 * Trains share one track on a stretch ("can only use one track between Liujiayao and Songjiazhuang",
 * "single tracking between A and B") and the words stop nothing: slower, not closed.
 */
export function singleTrackOnly(message: string): boolean {
  return /\b(?:single[- ]track\w*|(?:only )?(?:use|using|uses) (?:one|a single) track|on one track)\b|单线双向|單線雙向|单线运行|單線運行/iu.test(message) && !/\b(?:no (?:\w+ ){0,3}(?:service|trains?)|suspend\w*|clos(?:e|ed|es|ing|ure)\b|not (?:run|operat)\w*|shuttle bus\w*)/i.test(message);
}

/** Feed disruption types that close what they scope (a station, a line, a section) unless their words say otherwise; buses replacing trains leave no trains there. */
export const CLOSURE_TYPES: ReadonlySet<string> = new Set(["station_closure", "line_suspension", "planned_maintenance", "station_entry_restriction", "replacement_bus"]);

/** "Three Metro stations will be closed on National Day: Corniche, National Museum and Souq Waqif": the list after the colon. */
const CLOSED_LIST = /\bstations?\b[^:.]{0,60}?\b(?:closed|shut|suspended)\b[^:.]{0,40}:\s*([^.;]+)/i;

/** The stations a sentence lists, after a colon, as closed (every one, sure of its name). */
export function stationsListedClosed(system: SystemData, message: string): string[] {
  const list = CLOSED_LIST.exec(message)?.[1];
  if (list === undefined) return [];
  return lexiconFor(system)
    .find(list)
    .filter((m) => m.candidates.length === 1 && m.confidence >= 0.85)
    .map((m) => m.candidates[0]!);
}

/** A notice's sentences, Chinese (。；) and Western (. ; ! ?) alike. */
export function noticeSentences(message: string): string[] {
  return message.split(/(?<=[。；;！!？?])|(?<=[.])\s+|\n+/u).filter((s) => s.trim() !== "");
}

/**
 * "暂时关闭1号及4号出口", "3號出口預定1月10日起封閉施工", "…側鐵捲門暫時關閉": a Chinese clause shutting an
 * exit, a gate or a lift, not trains.
 */
const ZH_PART_SHUT = /(?:关闭|關閉|封闭|封閉)[^，,。;；]{0,20}?(?:出口|出入口|入口|铁门|鐵門|铁卷门|鐵捲門|卷帘门|捲簾門|通道|电梯|電梯|扶梯)|(?:出口|出入口|入口|铁门|鐵門|铁卷门|鐵捲門|卷帘门|捲簾門|通道|电梯|電梯|扶梯)[^，,。;；站]{0,14}?(?:关闭|關閉|封闭|封閉)/gu;
/** "will temporarily close the bus loop", "BUS LOOP TO CLOSE": an English phrase shutting a part of a station. */
const EN_PART = String.raw`(?:bus loops?|kiss (?:&|and) ride(?: area| lot)?|park (?:&|and) ride(?: lot)?|parking (?:lots?|garages?|decks?)|car parks?|entrances?|exits?|stairs|stairways?|escalators?|footbridges?|overpass|passageways?|ticket (?:office|machines?)|toilets?|restrooms?)`;
/** A word between the part and its closing that is not a station, a platform, a train or a list ("the station and exits"). */
const PART_FILLER = String.raw`(?:(?!(?:and|or|stations?|platforms?|trains?|lines?|services?)\b)[\w-]+\s+)`;
const EN_PART_SHUT = new RegExp(String.raw`\b(?:clos(?:e|es|ed|ing)|shut(?:s|ting)?|barricad\w+)\s+(?:the\s+|its\s+|an?\s+)?${PART_FILLER}{0,2}?${EN_PART}\b|\b${EN_PART}\s+${PART_FILLER}{0,3}?(?:to\s+)?(?:clos(?:e|es|ed|ing)|shut)\b`, "gi");

/** A notice's words without the clauses that shut only a part of a station (an exit, a bus loop, a gate). */
export function withoutStationPartClosures(message: string): string {
  return message.replace(ZH_PART_SHUT, "").replace(EN_PART_SHUT, "");
}

/**
 * Words of stopping that stop nothing now: the close of the day as a time ("all day today, through
 * closing"), a bus bridge that has ended, "no change in metro timings", a line's "terminating stations",
 * numbered trains that are stopped ("Trains #826 and #815 are stopped": delays, not a stop of service).
 */
const STOPS_NOTHING = /\bterminat(?:ing|ion|us|i|al) stations?\b|\btrains? #?\d+(?:\s*(?:,|and|&)\s*#?\d+)*\s+(?:are|is|were|was)\s+(?:stopped|holding|standing)\b|\b(?:through|until|till|to|before|by)\s+(?:the\s+)?clos(?:e|ing)(?:\s+time)?\b|\b(?:bus bridges?|shuttle bus(?:es)?|bus(?:es)? replacing (?:the )?trains?)\s+(?:has|have)\s+(?:now\s+)?(?:ended|been (?:discontinued|withdrawn)|stopped)\b|\bno (?:change|changes) (?:in|to)\b|\b(?:will )?(?:be )?clos(?:e|ed) at (?:the )?(?:normal|usual|regular|scheduled) (?:time|hours?)\b|\b(?:are|is|will be) (?:now )?(?:stopping|making (?:all )?stops) along\b/gi;

/** A notice's words without the phrases that speak of stopping but stop nothing now. */
export function withoutWordsThatStopNothing(message: string): string {
  return withoutStationPartClosures(message).replace(STOPS_NOTHING, " ");
}

/** What a Chinese or Arabic notice says, clause by clause (the lines and stations it names, and what happens to them). */
export interface ClauseNoticeReading {
  /** The whole network stops ("全网各线路所有列车和车站将停止运营服务"). */
  systemWide: boolean;
  /** Lines it stops: those it suspends ("13号线暂停运营", "文湖線…停止營運"), and every line but those it says run again. */
  linesClosed: string[];
  /** Lines it says run again ("1、2、5…号线…恢复运行"). */
  linesResumed: string[];
  /** Sections it stops ("圓山站至淡水站…停止營運"): on the line that joins both ends. */
  sections: { line: string; from: string; to: string }[];
  /** Stations it closes ("天安门东站、天安门西站封站"). */
  stationsClosed: string[];
  /** Trains still pass through the closed stations ("通过不停车"). */
  passThrough: boolean;
  /** Clauses that say something stops but name nothing the kiosk can map ("淡水信義線高架平面路段暫停營運"): it cannot tell which trips they stop. */
  unread: string[];
  /** The lines those clauses name, where they name any: only their trips may be touched. */
  unreadLines: string[];
}

/** "尾班車已開出", "末班车已经发出": the last train has left. */
const ZH_LAST_TRAIN_GONE = /(?:尾班|末班)(?:車|车)(?:已經|已经|已)(?:開出|开出|發出|发出|駛離|驶离|開走|开走)/u;
const ZH_CLAUSE = /[。；;！!？?，,]/u;
const ZH_LINES = /((?:\d+|[A-Za-z]\d*)(?:\s*[、和及与與]\s*(?:\d+|[A-Za-z]\d*))*)\s*号线|((?:\d+|[A-Za-z]\d*)(?:\s*[、和及與]\s*(?:\d+|[A-Za-z]\d*))*)\s*號線/gu;
const ZH_SYSTEM = /全网|全網|全线网|全線網|所有线路|所有線路|各线路所有|各線路所有|全部线路|全部線路/u;
// "…古亭至公館站暫停", "列車服務暫停": 暫停 alone where nothing follows it (not "暫停使用", an elevator's).
const ZH_SUSPEND = /(?:启动|啟動|开启|開啟|改由|改以)(?:公交|公車|公车|巴士)?(?:接驳|接駁)|请不要乘坐|請不要乘坐|请勿乘坐|請勿乘坐|暂停运营|暫停運營|暂停营运|暫停營運|停止运营|停止運營|停止营运|停止營運|停运|停運|停驶|停駛|停止服务|停止服務|(?:暂停|暫停)(?=$|[。；;，,！!\s]|运行|運行|行驶|行駛|服务|服務|通车|通車|运作|運作)/u;
const ZH_CLOSE_STATION = /封站|关闭|關閉|封闭|封閉/u;
const ZH_RESUME = /恢复运行|恢復運行|恢复运营|恢復營運|恢复营运|恢復營運/u;
const ZH_ALL_BUT = /除(?:了)?([^。；;]{1,30}?)(?:以)?外[，,]?[^。；;]*?(?:其他|其它|其余|其餘|所有|全部)[^。；;]*?(?:暂停|暫停|停运|停運|停止|停駛|停驶)/u;
/** Only the sections named run ("维持…区段运营", "分段运行", "小交路运营"). */
const ZH_ONLY_SECTIONS_RUN = /(?:维持|維持)[^。；;]*?(?:运营|運營|运行|運行)|分段(?:运营|運營|运行|運行)|小交路|(?:区段|區段|区间|區間)正常(?:运营|運營|营运|營運)/u;
const ZH_DEPENDING = /(?:视|視)[^。；;，,]{1,12}?(?:调整|調整|采取|採取)/u;

/** The notice's words without the clauses whose measure is taken only depending on something ("…將視運量及風速調整…"). */
export function withoutDependingClauses(text: string): string {
  return text
    .split(/(?<=[，,；;。])/u)
    .filter((clause) => !ZH_DEPENDING.test(clause))
    .join("");
}
/** Every line runs again ("所有…线路均已全部恢复运营"): no line stays stopped. */
const ZH_ALL_RESUMED = /(?:全部|均已|均|全线网|全線網|全网|全網|所有线路|所有線路)[^。；;]{0,6}(?:恢复|恢復)/u;
/** A part of a station, not the station ("过街通道封闭", "B口关闭", "停止2号线和8号线换乘"): the station still serves riders. */
const ZH_STATION_PART = /通道|出入口|出口|入口|[A-Za-z\d]口|闸机|閘機|铁门|鐵門|电梯|電梯|扶梯|站厅|站廳|换乘|換乘|停车场|停車場/u;
/** Words after a line's name that make it a part of the line ("淡水信義線高架平面路段"): where is not said. */
const ZH_LINE_PART = /^[^、，,。;；]{0,2}(?:高架|平面|地面|地下|路段|区段|區段|部分|部份)/u;
/** Between the two ends of a section ("圓山站至淡水站", "霍营—西直门"). */
const ZH_SECTION_GAP = /^站?\s*(?:至|到|—|－|–|-|~|～)\s*(?:[A-Z]{1,2}\d{1,3}\s*)?$/u;

/** The notice says every line runs again ("…线路均已全部恢复运营"): its resume words stop nothing. */
export function everyLineResumed(message: string): boolean {
  return ZH_ALL_RESUMED.test(message);
}

const ZH_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A line's number in Chinese numerals ("五号线", "十三號線") as digits; 綫 as 線 (Hong Kong's "松山新店綫"). */
function zhNormal(text: string): string {
  return text
    .replace(/綫/gu, "線")
    .replace(/([一二两兩三四五六七八九十]{1,3})(?=\s*(?:号线|號線))/gu, (n) => {
      const [tens, ones] = n.includes("十") ? n.split("十") : ["", n];
      const value = (n.includes("十") ? (tens ? (ZH_DIGITS[tens] ?? 0) : 1) * 10 : 0) + (ones ? (ZH_DIGITS[ones] ?? 0) : 0);
      return value > 0 ? String(value) : n;
    });
}

/** Lines a Chinese notice names, by number ("13号线", "五号线") or by name ("亦庄线"). */
export function chineseLinesNamed(system: SystemData, words: string): string[] {
  const message = zhNormal(words);
  return [...new Set([...numberedLines(system, message), ...lexiconFor(system).chineseLines(message).map((n) => n.id)])].filter((id) => system.lineById(id));
}

/** The system's lines a Chinese text names by number ("1、2号线"), in order. */
function numberedLines(system: SystemData, text: string): string[] {
  return [...text.matchAll(ZH_LINES)].flatMap((m) => (m[1] ?? m[2] ?? "").split(/\s*[、和及与與]\s*/u)).map((id) => system.aliasLine(id.toLowerCase())).filter((id) => system.lineById(id));
}

/**
 * A Chinese service notice read into the lines, sections and stations it stops and the clauses it
 * could not read, or undefined when it says nothing stops. Line numbers ("1、2号线") are the
 * system's line ids, line names ("亦庄线") the operator's local names; stations are read by the one
 * station reader.
 */
export function readChineseNotice(system: SystemData, words: string): ClauseNoticeReading | undefined {
  if (!/\p{Script=Han}/u.test(words)) return undefined;
  const message = zhNormal(words);
  const reading: ClauseNoticeReading = { systemWide: false, linesClosed: [], linesResumed: [], sections: [], stationsClosed: [], passThrough: PASS_THROUGH_ZH.test(message), unread: [], unreadLines: [] };
  const lexicon = lexiconFor(system);
  const allResumed = ZH_ALL_RESUMED.test(message);
  const linesIn = (clause: string): string[] => numberedLines(system, clause);
  // A station's name inside the operator's, the city's or a line's ("北京地铁13号线": Beijing the
  // city, not 北京站; "淡水信義線": the line, not Tamsui station).
  const namedStations = (clause: string) =>
    lexicon
      .find(clause)
      .filter((m) => !/^(?:地铁|地鐵|捷运|捷運|轨道交通|軌道交通|市|公司|[^、，,。;；站]{0,4}[線线])/u.test(clause.slice(m.end)))
      .filter((m) => m.kind === "local" || m.kind === "name");
  const stationsIn = (clause: string) => namedStations(clause).filter((m) => m.candidates.length === 1);
  /**
   * Every station a clause that stops stations names, a name two stations share included (上地:
   * Shangdi and Shangdi Software Park) — on the lines it names, where it names any: closing both is
   * the safe reading.
   */
  const stationsStopped = (clause: string, lines: readonly string[]): string[] => {
    const onLines = new Set(system.lines.filter((l) => lines.includes(l.id)).flatMap((l) => l.stations));
    return namedStations(clause).flatMap((m) => {
      const narrowed = m.candidates.filter((id) => onLines.has(id));
      return narrowed.length > 0 ? narrowed : m.candidates;
    });
  };
  const readClause = (clause: string): void => {
    // "各路線將視運量及風速調整班距或平面高架路段暫停營運": a clause's measure taken depending on ridership
    // and wind stops nothing now (a clause, not its sentence: "…暫停營運,…並視實際狀況彈性調整班距" stops).
    if (ZH_DEPENDING.test(clause)) return;
    // "往淡水及往新北投的尾班車已開出": the last trains towards those ends have left; no train reaches them.
    if (ZH_LAST_TRAIN_GONE.test(clause)) {
      const ends = stationsIn(clause).filter((m) => /(?:往|开往|開往)\s*$/u.test(clause.slice(Math.max(0, m.start - 2), m.start)));
      if (ends.length > 0) reading.stationsClosed.push(...ends.flatMap((m) => m.candidates));
      else reading.unread.push(clause);
      return;
    }
    const numbered = linesIn(clause);
    const named = lexicon.chineseLines(clause);
    // "淡水信義綫及中和新蘆綫一期的首班列車將延至約早上7時30分開出": the lines named run from that hour
    // only (when.ts reads the hour; the notice is in force before it).
    if (firstTrainsLeaveAt(clause) !== undefined && numbered.length + named.length > 0) {
      reading.linesClosed.push(...numbered, ...named.map((n) => n.id));
      return;
    }
    // A line named with a part of it ("高架平面路段") is stopped somewhere on it, not where.
    const partly = new Set(named.filter((n) => ZH_LINE_PART.test(clause.slice(n.end))).map((n) => n.id));
    const lines = [...new Set([...numbered, ...named.map((n) => n.id)])].filter((id) => !partly.has(id));
    const matches = stationsIn(clause);
    const suspends = ZH_SUSPEND.test(clause);
    const stops = suspends || ZH_CLOSE_STATION.test(clause) || ZH_SYSTEM.test(clause);
    // "过街通道封闭", "前门站停止2号线和8号线换乘": a part of a station shuts; trains and the station's other ways stay.
    // "知春路站临时封站、停止换乘": the station itself is shut (封站), its transfer with it.
    if (stops && !suspends && ZH_STATION_PART.test(clause) && !/封站/u.test(clause)) return;
    // Sections: two stations joined by 至 / 到 / — ("圓山站至淡水站"), on a line that has both.
    const inSection = new Set<number>();
    if (stops) {
      for (let i = 0; i + 1 < matches.length; i++) {
        const a = matches[i]!;
        const b = matches[i + 1]!;
        if (!ZH_SECTION_GAP.test(clause.slice(a.end, b.start))) continue;
        const from = a.candidates[0]!;
        const to = b.candidates[0]!;
        const common = system.lines.filter((l) => l.stations.includes(from) && l.stations.includes(to)).map((l) => l.id);
        const on = common.filter((id) => lines.includes(id) || partly.has(id));
        for (const line of on.length > 0 ? on : common) reading.sections.push({ line, from, to });
        if (common.length > 0) inSection.add(i).add(i + 1);
      }
    }
    const sectioned = new Set(reading.sections.map((x) => x.line));
    const stations = matches.filter((_, i) => !inSection.has(i)).flatMap((m) => m.candidates);
    // "对和平门站、长椿街站采取跳站措施", "列车在前门站不停站通过": trains pass the stations named.
    const stopped = stationsStopped(clause, lines);
    if (ZH_SKIPS.test(clause) && stopped.length > 0 && !stops) {
      reading.stationsClosed.push(...stopped);
      reading.passThrough = true;
      return;
    }
    // "暂停…上地站、龙泽站…郭庄子站运营服务": the stations named stop serving passengers, not their
    // lines — trains pass them, as a station's suspension of service means on a running line.
    if (/暂停|暫停|停止/u.test(clause) && stopped.length > 0 && ZH_STATION_SERVICE.test(clause) && inSection.size === 0) {
      reading.stationsClosed.push(...stopped);
      reading.passThrough = true;
      return;
    }
    // A line named by a name the kiosk does not know is not read: what the clause stops is not known
    // — unless the clause only closes stations it names ("1号线八通线天安门东站、天安门西站封站": their line).
    const closesNamedStations = ZH_CLOSE_STATION.test(clause) && !suspends && stations.length > 0;
    let rest = clause.replace(ZH_LINES, "");
    for (const n of named) rest = rest.replace(clause.slice(n.start, n.end), "");
    // ("全线停止运营服务": the whole of the lines named, no line of its own)
    const unknownLine = /\p{Script=Han}[線线]/u.test(rest.replace(/(?:全|各|本|该|該|此|沿|路)[线線]/gu, ""));
    if (stops && !closesNamedStations && (unknownLine || partly.size > 0) && inSection.size === 0) {
      reading.unread.push(clause);
      reading.unreadLines.push(...partly);
    }
    if (ZH_RESUME.test(clause)) {
      if (!allResumed) reading.linesResumed.push(...lines);
    } else if (ZH_SYSTEM.test(clause) && suspends) reading.systemWide = true;
    else if (suspends && (lines.length > 0 || inSection.size > 0) && !ZH_CLOSE_STATION.test(clause)) {
      reading.linesClosed.push(...lines.filter((id) => !sectioned.has(id)));
      // Stations listed beside a section ("圓山站至淡水站、新北投站、小碧潭站"): branch ends, stopped too.
      if (inSection.size > 0) reading.stationsClosed.push(...stations);
    } else if ((ZH_CLOSE_STATION.test(clause) || suspends) && stations.length > 0) reading.stationsClosed.push(...stations);
    // "封站期间各次列车在上述两站通过不停车": how trains pass the stations closed before (passThrough), no stop of its own.
    else if (stops && !PASS_THROUGH_ZH.test(clause) && !reading.unread.includes(clause)) reading.unread.push(clause);
  };
  /** The stretches of a line outside the sections a sentence says still run, as sections stopped. */
  const stoppedBetween = (words: string): { line: string; from: string; to: string }[] => {
    // The running sections, not a section the same sentence stops ("金台路站至常营站区段暂停运营服务,…小交路运行").
    const sentence = words
      .split(ZH_CLAUSE)
      .filter((clause) => !stopsIn(clause))
      .join("，");
    const matches = stationsIn(sentence);
    const named = [...new Set([...linesIn(sentence), ...lexicon.chineseLines(sentence).map((n) => n.id)])];
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < matches.length; i++) {
      if (ZH_SECTION_GAP.test(sentence.slice(matches[i]!.end, matches[i + 1]!.start).replace(/[“”"「」]/gu, ""))) pairs.push([matches[i]!.candidates[0]!, matches[i + 1]!.candidates[0]!]);
    }
    const line = system.lines.find((l) => (named.length === 0 || named.includes(l.id)) && pairs.length > 0 && pairs.every(([a, b]) => l.stations.includes(a) && l.stations.includes(b)));
    if (!line) return [];
    const running = new Set<number>();
    for (const [a, b] of pairs) {
      const [i, j] = [line.stations.indexOf(a), line.stations.indexOf(b)].sort((x, y) => x - y) as [number, number];
      for (let k = i; k <= j; k++) running.add(k);
    }
    // Each stretch between two running sections, or beyond the outermost, is stopped: from the last
    // running station to the next (the track between them), or to the line's end.
    const out: { line: string; from: string; to: string }[] = [];
    const last = line.stations.length - 1;
    let k = 0;
    while (k <= last) {
      if (running.has(k)) {
        k++;
        continue;
      }
      let end = k;
      while (end <= last && !running.has(end)) end++;
      const from = Math.max(0, k - 1);
      const to = Math.min(last, end);
      if (to > from) out.push({ line: line.id, from: line.stations[from]!, to: line.stations[to]! });
      k = end;
    }
    return out;
  };
  const stopsIn = (clause: string): boolean => ZH_SUSPEND.test(clause) || ZH_CLOSE_STATION.test(clause) || ZH_SYSTEM.test(clause);
  const namesIn = (clause: string): boolean => linesIn(clause).length + lexicon.chineseLines(clause).length + stationsIn(clause).length > 0;
  // Sentence by sentence: a contingent measure ("遇极端情况,将…封闭车站") stops nothing now. A clause that
  // stops but names nothing is the predicate of what the sentence named before ("圓山站到淡水站…及文湖線,
  // 因風速達停駛標準,目前暫停營運"): read with it, or nothing more where that clause stopped it already.
  for (const sentence of noticeSentences(message).filter((s) => !contingentMeasure(s))) {
    // "除首都機場線外,其他鐵路線…今日全日暫停": every line but those named stops.
    const except = ZH_ALL_BUT.exec(sentence);
    if (except) {
      const running = new Set([...linesIn(except[1]!), ...lexicon.chineseLines(except[1]!).map((n) => n.id)]);
      if (running.size > 0) {
        for (const line of system.lines) if (!running.has(line.id) && !reading.linesClosed.includes(line.id)) reading.linesClosed.push(line.id);
        continue;
      }
    }
    // "五号线维持“天通苑北—立水桥站”和“惠新西街南口—宋家庄站”两个区段小交路运营": only the sections named
    // run; the rest of the line is stopped.
    const onlyRun = ZH_ONLY_SECTIONS_RUN.exec(sentence);
    if (onlyRun) {
      // (up to those words: "天通苑北至惠新西街南口站已启动公交接驳" after them is the stretch that stops)
      reading.sections.push(...stoppedBetween(sentence.slice(0, onlyRun.index + onlyRun[0].length)));
    }
    let subject: string | undefined;
    let stopped = false;
    for (const clause of sentence.split(ZH_CLAUSE)) {
      const stops = stopsIn(clause);
      const names = namesIn(clause);
      if (stops && !names && subject !== undefined) {
        readClause(`${subject}，${clause}`);
        subject = undefined;
        stopped = true;
        continue;
      }
      if (stops && !names && stopped) continue;
      // "…組織淡水信義線淡水站、紅樹林站、…奇岩站,文湖線動物園站暫停運營": a list of stations before a comma
      // stops with the stations of the clause that says they stop.
      if (stops && subject !== undefined && /站\s*$/u.test(subject) && stationsIn(clause).length > 0) {
        readClause(`${subject}、${clause}`);
        subject = undefined;
        stopped = true;
        continue;
      }
      readClause(clause);
      if (names) {
        stopped ||= stops;
        subject = stops ? undefined : clause;
      }
    }
  }

  // Lines said to run again: the others stay stopped — unless it says every line runs again.
  if (reading.linesResumed.length > 0) for (const line of system.lines) if (!reading.linesResumed.includes(line.id) && !reading.linesClosed.includes(line.id)) reading.linesClosed.push(line.id);
  reading.unreadLines = [...new Set(reading.unreadLines)];
  reading.stationsClosed = [...new Set(reading.stationsClosed)];
  const read = reading.systemWide || reading.linesClosed.length + reading.linesResumed.length + reading.sections.length + reading.stationsClosed.length + reading.unread.length > 0;
  return read ? reading : undefined;
}

/** Arabic words that stop trains or a station (stop, halt, suspend, close, disrupt). */
// (A word of its own, with a joined preposition or article: not "موقف", a parking place or a bus stop.)
const AR_STOP = /(?<!\p{L})(?:[وفبلك]|ال|بال|وال|لل)?(?:توقف|إيقاف|ايقاف|وقف|تعليق|إغلاق|اغلاق|غلق|تعطيل|تعطل|مغلق|متوقف|معطل)/u;
/** Trains pass a station without stopping ("بتجاوز محطة", "لن تتوقف", "دون توقف"). */
/** The whole network ("الشبكة الحديدية", "خطوط المترو", "جميع الخطوط"; not "الشبكة الكهربائية", the power network). */
const AR_NETWORK = /الشبكة الحديدية|شبكة المترو|خطوط المترو|جميع الخطوط|كافة الخطوط|جميع خطوط|كافة خطوط/u;
/** Service that resumed ("استؤنف", "استأنف", "عادت الحركة"). */
const AR_RESUMED = /استؤنف|استأنف|استئناف|عادت|عاد/u;
const AR_SKIP = /تجاوز|لن تتوقف|لن يتوقف|دون توقف|بدون توقف/u;
/** The clause says trains run on, or will run again ("مع استمرار تشغيله", "الحركة تتواصل", "إعادة تشغيل"). */
// (Running that goes on, not a closure that does: "تستمر أعمال … وإغلاق المحطة" still closes.)
const AR_RUNS = /(?:استمرار|تتواصل|يتواصل|تستمر|يستمر|إعادة|اعادة|عودة|استئناف)[^،.؛]{0,12}?(?:تشغيل|التشغيل|الحركة|حركة|العمل)|(?:الحركة|حركة)[^،.؛]{0,6}?(?:تتواصل|مستمرة|تستمر)/u;
/** A line's two ends in quotes ("الخط الأخضر "المنصورة- الرفاع""): which line, not a section. */
const AR_LINE_ENDS = /["«“][^"»”]{0,40}[-–][^"»”]{0,40}["»”]/gu;

/**
 * An Arabic service notice read into the sections and stations it stops and the clauses it could not
 * place, or undefined when it says nothing stops. Stations are read by the one station reader
 * (the operator's Arabic names), lines by their Arabic names. A stop it cannot place counts as unread
 * only where the notice places none: elsewhere it is the same stop told again ("الحركة توقفت").
 */
export function readArabicNotice(system: SystemData, words: string): ClauseNoticeReading | undefined {
  if (!/\p{Script=Arabic}/u.test(words)) return undefined;
  const reading: ClauseNoticeReading = { systemWide: false, linesClosed: [], linesResumed: [], sections: [], stationsClosed: [], passThrough: false, unread: [], unreadLines: [] };
  const lexicon = lexiconFor(system);
  const unplaced: { clause: string; lines: string[] }[] = [];
  let networkStopped = false;
  const resumed: string[] = [];
  for (const clause of words.replace(AR_LINE_ENDS, " ").split(/[.،؛;\n]+/u)) {
    // "الجولان على الخط الأخضر استؤنف": the lines named run again.
    if (AR_RESUMED.test(clause) && !AR_STOP.test(clause)) {
      resumed.push(...lexicon.arabicLines(clause));
      continue;
    }
    if (!AR_STOP.test(clause) && !AR_SKIP.test(clause)) continue;
    if (AR_RUNS.test(clause) || contingentMeasure(clause)) continue;
    const lines = lexicon.arabicLines(clause);
    // "توقف الجولان على الشبكة الحديدية (خطوط المترو …)": the whole network, whatever place it names (a depot).
    if (lines.length === 0 && AR_NETWORK.test(clause) && !AR_SKIP.test(clause)) {
      networkStopped = true;
      continue;
    }
    const stations = [...new Set(lexicon.find(clause).filter((m) => (m.kind === "local" || m.kind === "name" || m.kind === "alias") && m.candidates.length === 1).map((m) => m.candidates[0]!))];
    if (AR_SKIP.test(clause) && stations.length > 0) {
      reading.stationsClosed.push(...stations);
      reading.passThrough = true;
      continue;
    }
    // Two stations in a stopping clause ("من محطة لوسيل حتى محطة البدع", "بين لوسيل والبدع"): the section between them.
    if (stations.length === 2) {
      const [from, to] = stations as [string, string];
      const common = system.lines.filter((l) => l.stations.includes(from) && l.stations.includes(to)).map((l) => l.id);
      const on = common.filter((id) => lines.includes(id));
      for (const line of on.length > 0 ? on : common) reading.sections.push({ line, from, to });
      if (common.length > 0) continue;
    }
    if (stations.length > 0) reading.stationsClosed.push(...stations);
    else unplaced.push({ clause, lines });
  }
  // The network stopped: every line, but those it says run again.
  if (networkStopped) {
    if (resumed.length === 0) reading.systemWide = true;
    else for (const line of system.lines) if (!resumed.includes(line.id)) reading.linesClosed.push(line.id);
    reading.linesResumed.push(...new Set(resumed));
  }
  const placed = reading.systemWide || reading.linesClosed.length + reading.sections.length + reading.stationsClosed.length > 0;
  if (!placed) for (const u of unplaced) {
    reading.unread.push(u.clause);
    reading.unreadLines.push(...u.lines);
  }
  reading.unreadLines = [...new Set(reading.unreadLines)];
  reading.stationsClosed = [...new Set(reading.stationsClosed)];
  const read = reading.systemWide || reading.linesClosed.length + reading.sections.length + reading.stationsClosed.length + reading.unread.length > 0;
  return read ? reading : undefined;
}
