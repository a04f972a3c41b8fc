// Everything one case's components read, computed once: the case's answer key, the record, and
// memoised derived text (the ASCII-escaped JSON dump of the response, the judge text).
import type { Case } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { pyJsonDumps, pyTruthy } from "../../tools/py/index.ts";
import { dget, dictAt, isDict, pyStr, type Dict } from "./pyvalues.ts";
import type { ScorableRecord } from "./record.ts";
import { JUDGE_FILL } from "./judge-fill.ts";

const FULL_SUSPENSION_TYPES: ReadonlySet<string> = new Set(["hurricane_warning", "sandstorm_warning", "typhoon_warning", "polar_vortex"]);

export type { Scored } from "./reasons.ts";

export class CaseContext {
  readonly id: string;
  /** The case's `category` field (tool_calls_correct reads it). */
  readonly category: string;
  /** The middle segment of the case id (re_planning_efficiency reads it). */
  readonly idCategory: string;
  readonly caseDict: Dict;
  readonly gt: Dict;
  readonly scoring: Dict;
  readonly tolerances: Dict;
  readonly systemContext: Dict;
  private readonly flagSet = new Set<string>();

  constructor(
    readonly kase: Case,
    readonly rec: ScorableRecord,
    readonly system: SystemData,
  ) {
    this.caseDict = kase as unknown as Dict;
    this.id = typeof kase.id === "string" ? kase.id : "";
    this.category = pyStr(dget(this.caseDict, "category", ""));
    this.idCategory = this.id.includes("-") ? (this.id.split("-")[1] as string) : "";
    this.gt = this.dictField(this.caseDict, "ground_truth", "case");
    this.scoring = this.dictField(this.caseDict, "scoring", "case");
    this.tolerances = this.dictField(this.caseDict, "tolerances", "case");
    this.systemContext = this.dictField(this.caseDict, "system_context", "case");
    for (const f of rec.flags) this.flagSet.add(f);
    if (!Object.prototype.hasOwnProperty.call(this.caseDict, "ground_truth")) this.flag("case has no ground_truth (scored against an empty answer key)");
    if (rec.caseId !== undefined && rec.caseId !== this.id) this.flag(`record case_id ${rec.caseId} is not the case's id ${this.id}`);
  }

  /** `parent.get(key, {})` read leniently: a present non-object is flagged and read as {}. */
  dictField(parent: Dict, key: string, where: string): Dict {
    const v = dget(parent, key, {});
    if (isDict(v)) return v;
    this.flag(`${where}.${key} is not an object (read as {})`);
    return {};
  }

  /** A ground-truth sub-object (`gt.get(key, {})`). */
  gtDict(key: string): Dict {
    return this.dictField(this.gt, key, "ground_truth");
  }

  flag(message: string): void {
    this.flagSet.add(message);
  }

  get flags(): string[] {
    return [...this.flagSet];
  }

  get response(): Dict | null {
    return this.rec.response;
  }

  get ui(): Dict {
    return this.rec.ui;
  }

  /** A ui_updates member that the reference reads with `.get(k) or {}` then `.get(...)`. */
  uiDict(key: string): Dict {
    const v = dget(this.ui, key, null);
    if (!pyTruthy(v)) return {};
    if (isDict(v)) return v;
    this.flag(`ui_updates.${key} is not an object (read as {})`);
    return {};
  }

  private cachedNoService?: boolean;

  /** A full-suspension disruption (hurricane/sandstorm/typhoon/polar vortex at critical). */
  get noService(): boolean {
    if (this.cachedNoService === undefined) {
      const list = dget(this.systemContext, "active_disruptions", []);
      this.cachedNoService = Array.isArray(list)
        ? list.some((d) => isDict(d) && FULL_SUSPENSION_TYPES.has(d["type"] as string) && d["severity"] === "critical")
        : false;
    }
    return this.cachedNoService;
  }

  /** GT route None and GT temporal.service_available is False. */
  get temporalNoService(): boolean {
    const route = dget(this.gt, "route", null);
    return route === null && dictAt(this.gt, "temporal")?.["service_available"] === false;
  }

  private cachedDump?: string;
  private cachedDumpLower?: string;

  /** pyJsonDumps(response) with ASCII escaping (framebook and keyword checks search it). */
  get dump(): string {
    if (this.cachedDump === undefined) {
      try {
        this.cachedDump = this.response === null ? "null" : pyJsonDumps(this.response);
      } catch {
        this.flag("response could not be serialised");
        this.cachedDump = "";
      }
    }
    return this.cachedDump;
  }

  get dumpLower(): string {
    return (this.cachedDumpLower ??= this.dump.toLowerCase());
  }

  private cachedJudgeText?: string;

  /** The judge text (CONTRACT §9.5); also what cultural_accuracy searches. */
  get judgeText(): string {
    return (this.cachedJudgeText ??= judgeTextOf(this.rec, (m) => this.flag(m)));
  }
}

/** CONTRACT §9.5: the parts of the response a judge reads, or raw_content when there are none. */
export function judgeTextOf(rec: ScorableRecord, flag: (message: string) => void = () => {}): string {
  const response = rec.response;
  if (!rec.hasResponse || response === null) return rec.rawContent;
  const line = JUDGE_FILL.responseText;
  const parts: string[] = [];
  const reasoning = dget(response, "reasoning", "");
  if (pyTruthy(reasoning)) parts.push(line.reasoning(pyStr(reasoning)));
  const ui = rec.ui;
  const message = dget(ui, "assistant_message", "");
  if (pyTruthy(message)) parts.push(line.message(pyStr(message)));
  for (const b of bannersOf(ui, flag)) {
    parts.push(line.advisory(pyStr(dget(b, "severity", line.unknown)), pyStr(dget(b, "title", "")), pyStr(dget(b, "body", ""))));
  }
  const outcome = dget(response, "outcome", "");
  if (pyTruthy(outcome)) parts.push(line.outcome(pyStr(outcome)));
  const action = dget(response, "kiosk_action", {});
  if (pyTruthy(action)) {
    if (isDict(action)) parts.push(line.kioskAction(pyStr(dget(action, "action", line.unknown)), pyStr(dget(action, "reason_code", line.unknown))));
    else flag("response.kiosk_action is not an object");
  }
  return parts.length > 0 ? parts.join("\n") : rec.rawContent;
}

/** The advisory banners that are objects; a non-list or non-object entry is flagged and skipped. */
export function bannersOf(ui: Dict, flag: (message: string) => void): Dict[] {
  const v = dget(ui, "advisory_banners", []);
  if (!Array.isArray(v)) {
    if (v !== null) flag("ui_updates.advisory_banners is not a list (read as [])");
    else flag("ui_updates.advisory_banners is null (read as [])");
    return [];
  }
  const out: Dict[] = [];
  for (const b of v) {
    if (isDict(b)) out.push(b);
    else flag("an advisory banner is not an object (skipped)");
  }
  return out;
}
