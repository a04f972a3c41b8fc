import type { SystemData } from "../../tools/data/system.ts";
import { lexiconFor } from "./lexicon.ts";

// What a service notice's words say of a closed station: whether trains still run through it
// ("trains skip it", "will not stop there", "Blue and Brown trains go straight through it") or the
// line is cut there ("trains cannot pass through"). One reading for the policies and the purchase
// interlock alike: a weaker copy in one of them re-plans or blocks what the other sells.

const SKIPS = /\b(?:skip|skips|skipping|bypass|bypasses|pass(?:es)? through without stopping|(?:will not|won'?t|do not|don'?t|does not|doesn'?t|not) stop (?:there|here|at)|(?:not|no longer) stopping (?:there|here|at))\b/i;
const PASS_THROUGH = /\b(?:trains?|services?) (?:\w+ )?(?:pass|run|go)(?:es)? (?:straight |right |directly )?through\b/i;
const NO_PASSING = /\b(?:cannot|can'?t|not|unable to|won'?t|will not) (?:pass|run|go) through\b/i;

/** The notice says trains still run through the closed station (without stopping). */
export function trainsRunThrough(message: string): boolean {
  return SKIPS.test(message) || (PASS_THROUGH.test(message) && !NO_PASSING.test(message)) || PASS_THROUGH_ZH.test(message);
}

/** "列车在北京站通过不停车", "不停站通过", "甩站": trains pass without stopping. */
const PASS_THROUGH_ZH = /通过不停车|通過不停車|不停车通过|不停車通過|不停站|甩站/u;

const LIFT_OUT =
  /\bno step[- ]free access\b|\bstep[- ]free access is (?:not|no longer) available\b|\b(?:elevators?|lifts?)\b[^.]{0,60}\b(?:out of service|out-of-service|not working|broken|unavailable|not available|closed|faulty|out of order)\b|\bfaulty (?:lift|elevator)\b|(?:电梯|電梯|升降机|升降機)[^。]{0,20}(?:停用|故障|暂停|暫停|维修|維修)|المصعد[^.]{0,30}(?:معطل|متوقف)/iu;

/**
 * The notice says a station's lift or step-free access is out ("No Step Free Access", "the
 * elevator … is temporarily out-of-service", "a faulty lift"): the station still serves riders who
 * can use stairs, so it is no closure — whether the trip suits a rider is the rider's question.
 */
export function saysLiftOut(message: string): boolean {
  return LIFT_OUT.test(message);
}

const SKIP_VERB = /\b(?:skip|skips|skipping|bypass|bypasses|bypassing)\b/giu;
/** What may stand between the names of a list: commas, "and", a line in brackets ("Kedzie (Pink)"). */
const LIST_GAP = /^\)?(?:\s|,|&|\band\b|\([^)]*\))*$/iu;

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
      if (!LIST_GAP.test(clause.slice(from, m.start).replace(/^\s*the\s+/iu, ""))) break;
      const onIt = onLine ? m.candidates.filter((id) => onLine.has(id)) : [];
      for (const id of onIt.length > 0 ? onIt : m.candidates) out.add(id);
      from = m.end;
    }
  }
  return [...out];
}

/**
 * A measure the notice says will be taken only if something happens ("遇极端情况,将立即采取封闭车站…
 * 等措施", "stations may be closed if necessary"): nothing it says stops now. Narrow on purpose —
 * "因遇大雨,13号线将暂停运营" (because of rain) is a stop in force, and "各站末班车发出后,车站将只出不进"
 * ends service at a last train the same notice moves to 19:00: a stop read as a contingency would be
 * sold through.
 */
const CONTINGENT =
  /(?:如遇|若遇|如果遇到|遇到?(?:极端|極端|特殊|紧急|緊急|突发|突發|恶劣|惡劣)[^。；;]{0,8}(?:情况|情況|天气|天氣))[^。；;]*(?:将|將|会|會|可能|采取|採取)|必要时|必要時|视情况|視情況|\bif (?:necessary|needed|required)\b|\bin the event of\b|\bmay (?:need to |have to )?(?:be )?(?:closed?|suspended?|shut)\b/iu;

export function contingentMeasure(sentence: string): boolean {
  return CONTINGENT.test(sentence);
}

/** A notice's sentences, Chinese (。；) and Western (. ; ! ?) alike. */
export function noticeSentences(message: string): string[] {
  return message.split(/(?<=[。；;！!？?])|(?<=[.])\s+|\n+/u).filter((s) => s.trim() !== "");
}

/** What a Chinese notice says, clause by clause (the lines and stations it names, and what happens to them). */
export interface ChineseNoticeReading {
  /** The whole network stops ("全网各线路所有列车和车站将停止运营服务"). */
  systemWide: boolean;
  /** Lines it stops: those it suspends ("13号线暂停运营"), and every line but those it says run again. */
  linesClosed: string[];
  /** Lines it says run again ("1、2、5…号线…恢复运行"). */
  linesResumed: string[];
  /** Stations it closes ("天安门东站、天安门西站封站"). */
  stationsClosed: string[];
  /** Trains still pass through the closed stations ("通过不停车"). */
  passThrough: boolean;
  /** Clauses that say something stops but name nothing the kiosk can map ("文湖線…暫停營運"): it cannot tell which trips they stop. */
  unread: string[];
}

const ZH_CLAUSE = /[。；;！!？?，,]/u;
const ZH_LINES = /((?:\d+|[A-Za-z]\d*)(?:\s*[、和及与與]\s*(?:\d+|[A-Za-z]\d*))*)\s*号线|((?:\d+|[A-Za-z]\d*)(?:\s*[、和及與]\s*(?:\d+|[A-Za-z]\d*))*)\s*號線/gu;
const ZH_SYSTEM = /全网|全網|全线网|全線網|所有线路|所有線路|各线路所有|各線路所有|全部线路|全部線路/u;
const ZH_SUSPEND = /暂停运营|暫停運營|暂停营运|暫停營運|停止运营|停止運營|停止营运|停止營運|停运|停運|停驶|停駛|停止服务|停止服務/u;
const ZH_CLOSE_STATION = /封站|关闭|關閉|封闭|封閉/u;
const ZH_RESUME = /恢复运行|恢復運行|恢复运营|恢復營運|恢复营运|恢復營運/u;

/**
 * A Chinese service notice read into the lines and stations it stops and the clauses it could not
 * read, or undefined when it says nothing stops. Line numbers
 * ("1、2号线") are the system's line ids; stations are read by the one station reader.
 */
export function readChineseNotice(system: SystemData, message: string): ChineseNoticeReading | undefined {
  if (!/\p{Script=Han}/u.test(message)) return undefined;
  const reading: ChineseNoticeReading = { systemWide: false, linesClosed: [], linesResumed: [], stationsClosed: [], passThrough: PASS_THROUGH_ZH.test(message), unread: [] };
  const lexicon = lexiconFor(system);
  // Sentence by sentence: a contingent measure ("遇极端情况,将…封闭车站") stops nothing now.
  const clauses = noticeSentences(message).filter((sentence) => !contingentMeasure(sentence)).flatMap((sentence) => sentence.split(ZH_CLAUSE));
  for (const clause of clauses) {
    const lines = [...clause.matchAll(ZH_LINES)].flatMap((m) => (m[1] ?? m[2] ?? "").split(/\s*[、和及与與]\s*/u)).map((id) => system.aliasLine(id.toLowerCase())).filter((id) => system.lineById(id));
    // A station's name inside the operator's, the city's or a line's ("北京地铁13号线": Beijing the
    // city, not 北京站; "淡水信義線": the line, not Tamsui station).
    const stations = lexicon
      .find(clause)
      .filter((m) => !/^(?:地铁|地鐵|捷运|捷運|市|公司|[^、，,。;；站]{0,4}[線线])/u.test(clause.slice(m.end)))
      .flatMap((m) => (m.candidates.length === 1 && (m.kind === "local" || m.kind === "name") ? m.candidates : []));
    const stops = ZH_SUSPEND.test(clause) || ZH_CLOSE_STATION.test(clause) || ZH_SYSTEM.test(clause);
    // A line named by its name ("文湖線") is not read: what the clause stops is not known — unless
    // the clause only closes stations it names ("1号线八通线天安门东站、天安门西站封站": their line).
    const closesNamedStations = ZH_CLOSE_STATION.test(clause) && !ZH_SUSPEND.test(clause) && stations.length > 0;
    if (stops && !closesNamedStations && /\p{Script=Han}[線线]/u.test(clause.replace(ZH_LINES, ""))) reading.unread.push(clause);
    if (ZH_RESUME.test(clause) && lines.length > 0) reading.linesResumed.push(...lines);
    else if (ZH_SYSTEM.test(clause) && ZH_SUSPEND.test(clause)) reading.systemWide = true;
    else if (ZH_SUSPEND.test(clause) && lines.length > 0 && !ZH_CLOSE_STATION.test(clause)) reading.linesClosed.push(...lines);
    else if ((ZH_CLOSE_STATION.test(clause) || ZH_SUSPEND.test(clause)) && stations.length > 0) reading.stationsClosed.push(...stations);
    // "封站期间各次列车在上述两站通过不停车": how trains pass the stations closed before (passThrough), no stop of its own.
    else if (stops && !PASS_THROUGH_ZH.test(clause) && !reading.unread.includes(clause)) reading.unread.push(clause);
  }
  // Lines said to run again: the others stay stopped.
  if (reading.linesResumed.length > 0) for (const line of system.lines) if (!reading.linesResumed.includes(line.id) && !reading.linesClosed.includes(line.id)) reading.linesClosed.push(line.id);
  const read = reading.systemWide || reading.linesClosed.length + reading.linesResumed.length + reading.stationsClosed.length + reading.unread.length > 0;
  return read ? reading : undefined;
}
