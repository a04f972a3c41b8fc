// Figure 7 — framebook input. Mutated framebooks (values out of their domain, values changed
// within it, and text-level damage: truncation, deleted lines, stray characters, duplicate keys,
// alias bombs, deep nesting, binary junk, tags, several documents) are applied through the
// operator path (FramebookStore.apply: validate, then atomic write). Whether a mutant is valid is
// decided independently of runtime/framebook/validate.ts, by the domain written out below; the
// figures:
//   - accepted but invalid: apply() succeeded for a mutant outside the domain;
//   - crashes: validate/apply threw anything but FramebookRejectedError, or a session on an
//     accepted framebook failed;
//   - active framebook changed by a rejected file: the active text, its version or the system
//     data the next session gets differ after a rejected apply (or a temp file was left behind).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parseDocument, stringify } from "yaml";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { AssistantStateSchema } from "../../runtime/contract/index.ts";
import { FramebookRejectedError, FramebookStore } from "../../runtime/framebook/store.ts";
import { AnswerPipeline } from "../../runtime/answer/pipeline.ts";
import { KioskService } from "../../runtime/kiosk/service.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { Examples, errorText, figure, info, ms, Rng, type RunOptions, type SectionResult } from "./common.ts";

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// The domain of a framebook, written out independently of the validator.

const REQUIRED_STRINGS = ["org_name", "full_name", "primary_language", "currency_symbol", "currency_code", "fare_display_format"] as const;
const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const HOUR_KEYS = ["default", "weekday", "weekend", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "holiday"];
/** A late-night headway is a positive number of minutes, at most a day. */
const MAX_HEADWAY_MIN = 24 * 60;

const isObj = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);
const nonEmpty = (v: unknown): boolean => typeof v === "string" && v.trim() !== "";
const stringList = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === "string");
const stringMap = (v: unknown): boolean => isObj(v) && Object.values(v).every((x) => typeof x === "string");

function validHours(v: unknown): boolean {
  if (typeof v !== "string") return false;
  const parts = v.trim().split("-");
  return parts.length === 2 && parts.every((p) => CLOCK.test(p));
}

/** Why a parsed framebook file is outside the domain for `system` (empty: inside). */
export function domainErrors(doc: unknown, system: SystemData): string[] {
  const errors: string[] = [];
  if (!isObj(doc) || !isObj(doc.framebook)) return ["no framebook mapping"];
  const fb = doc.framebook;
  for (const key of REQUIRED_STRINGS) if (!nonEmpty(fb[key])) errors.push(`${key} missing or empty`);
  if (typeof fb.currency_code === "string" && fb.currency_code !== system.fares.currency) errors.push(`currency_code ${fb.currency_code} ≠ fare table ${system.fares.currency}`);
  if (typeof fb.fare_display_format === "string" && !fb.fare_display_format.includes("X")) errors.push("fare_display_format has no X");
  if (!isObj(fb.terminology)) errors.push("terminology missing");
  else {
    if (!nonEmpty(fb.terminology.smartcard)) errors.push("terminology.smartcard missing");
    if (!nonEmpty(fb.terminology.contactless)) errors.push("terminology.contactless missing");
    const premium = fb.terminology.smartcard_premium;
    if (premium !== undefined && premium !== null && typeof premium !== "string") errors.push("terminology.smartcard_premium not text");
  }
  if (fb.secondary_languages !== undefined && !stringList(fb.secondary_languages)) errors.push("secondary_languages not a list of text");
  if (fb.ui_components_available !== undefined && !stringList(fb.ui_components_available)) errors.push("ui_components_available not a list of text");
  for (const key of ["advisory_severity_mapping", "accessibility_labels"]) if (fb[key] !== undefined && !stringMap(fb[key])) errors.push(`${key} not a map of text`);
  const fold = (v: string): string => v.trim().toLowerCase().replace(/\s+/g, " ");
  if (typeof fb.org_name === "string" && nonEmpty(fb.org_name) && fold(fb.org_name) !== fold(system.framebook.org_name)) errors.push(`org_name ${fb.org_name} is not ${system.id}'s operator`);
  if (stringMap(fb.advisory_severity_mapping) && Object.values(fb.advisory_severity_mapping as Record<string, string>).some((v) => !["critical", "warning", "info"].includes(v))) errors.push("advisory severity outside critical/warning/info");
  if (!Array.isArray(fb.cultural_notes) || !fb.cultural_notes.every((n) => typeof n === "string")) errors.push("cultural_notes not a list of text");
  const hours = fb.operating_hours;
  if (!isObj(hours)) errors.push("operating_hours missing");
  else {
    if (!validHours(hours.default)) errors.push("operating_hours.default not HH:MM-HH:MM");
    for (const key of HOUR_KEYS) if (key !== "default" && hours[key] !== undefined && !validHours(hours[key])) errors.push(`operating_hours.${key} not HH:MM-HH:MM`);
    const headway = hours.late_night_headway_min;
    if (headway !== undefined && !(typeof headway === "number" && Number.isFinite(headway) && headway > 0 && headway <= MAX_HEADWAY_MIN)) errors.push(`late_night_headway_min ${String(headway)} out of (0, ${MAX_HEADWAY_MIN}]`);
    if (hours.notes !== undefined && typeof hours.notes !== "string") errors.push("operating_hours.notes not text");
    const night = hours.twenty_four_hour_lines;
    if (night !== undefined) {
      const known = (l: unknown): boolean => typeof l === "string" && system.lines.some((x) => x.id.toLowerCase() === l.toLowerCase() || x.name.toLowerCase() === l.toLowerCase() || x.name.toLowerCase() === `${l.toLowerCase()} line`);
      if (!Array.isArray(night) || !night.every(known)) errors.push("twenty_four_hour_lines names an unknown line");
    }
  }
  const texts: string[] = Array.isArray(fb.cultural_notes) ? fb.cultural_notes.filter((n): n is string => typeof n === "string") : [];
  if (fb.fare_policies !== undefined) {
    if (!Array.isArray(fb.fare_policies)) errors.push("fare_policies not a list");
    else
      for (const p of fb.fare_policies) {
        if (!isObj(p) || !nonEmpty(p.policy_id) || !nonEmpty(p.text)) errors.push("fare policy without policy_id and text");
        else texts.push(p.text as string);
      }
  }
  const prefix = `${system.stations[0]?.id.split("-")[0] ?? ""}-`;
  for (const t of texts) for (const id of t.match(/\b[A-Z]{2,6}-[A-Z0-9]{2,6}\b/g) ?? []) if (id.startsWith(prefix) && !system.hasStationId(id)) errors.push(`unknown station ${id}`);
  return errors;
}

/** The oracle for a whole file: YAML that parses to one document within the domain. */
export function oracle(text: string, system: SystemData): string[] {
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: true });
  } catch (err) {
    return [`YAML: ${(err as Error).message}`];
  }
  if (doc.errors.length > 0) return [`YAML: ${doc.errors[0]?.message.split("\n")[0]}`];
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return [`YAML: ${(err as Error).message.split("\n")[0]}`];
  }
  return domainErrors(js, system);
}

// ---------------------------------------------------------------------------------------------
// Mutations.

interface Mutant {
  kind: string;
  text: string;
}

function setIn(obj: Json, pathKeys: string[], value: unknown): void {
  let cur: Json = obj;
  for (const k of pathKeys.slice(0, -1)) {
    if (!isObj(cur[k])) cur[k] = {};
    cur = cur[k] as Json;
  }
  const last = pathKeys[pathKeys.length - 1] as string;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

function valueMutant(rng: Rng, base: Json, system: SystemData): Mutant {
  const doc = structuredClone(base);
  const fb = doc.framebook as Json;
  const prefix = system.stations[0]?.id.split("-")[0] ?? "XX";
  const known = system.stations[rng.int(system.stations.length)]?.id ?? "";
  const mutations: [string, () => void][] = [
    ["drop required key", () => delete fb[rng.pick([...REQUIRED_STRINGS, "terminology", "operating_hours", "cultural_notes"])]],
    ["empty required text", () => (fb[rng.pick(REQUIRED_STRINGS)] = rng.pick(["", "   "]))],
    ["wrong type for required text", () => (fb[rng.pick(REQUIRED_STRINGS)] = rng.pick<unknown>([42, ["x"], { a: 1 }, null, true]))],
    ["other currency_code", () => (fb.currency_code = rng.pick(["EUR", "GBP", system.fares.currency.toLowerCase(), `${system.fares.currency} `, "XXX"]))],
    ["fare_display_format without X", () => (fb.fare_display_format = rng.pick(["$0.00", "amount", "¥", "x.xx"]))],
    ["invalid default hours", () => setIn(fb, ["operating_hours", "default"], rng.pick<unknown>(["25:00-01:00", "5:00-23:00", "05:60-23:00", "always", 500, "05:00 - 23:00", "24:00-05:00", "05:00-", "", null]))],
    ["invalid weekday hours", () => setIn(fb, ["operating_hours", rng.pick(["weekday", "saturday", "sunday", "holiday"])], rng.pick<unknown>(["9am-5pm", "23:61-01:00", 7, "05:00-23:00-01:00"]))],
    ["headway out of domain", () => setIn(fb, ["operating_hours", "late_night_headway_min"], rng.pick<unknown>([-5, 0, 1e9, "twenty", Number.NaN, Number.POSITIVE_INFINITY, -0.5]))],
    ["unknown 24-hour line", () => setIn(fb, ["operating_hours", "twenty_four_hour_lines"], rng.pick<unknown>([["Purple Unicorn Line"], "red", [42], [system.lines[0]?.id, "Nowhere Express"]]))],
    ["bad fare_policies", () => (fb.fare_policies = rng.pick<unknown>(["Seniors ride free", [{ text: "Seniors ride free today." }], [{ policy_id: "FP-1", text: "" }], [42], { policy_id: "FP", text: "x" }]))],
    ["unknown station in a note", () => (fb.cultural_notes = [...((fb.cultural_notes as string[]) ?? []), `Use ${prefix}-ZZ9 during works.`])],
    ["cultural_notes not a list of text", () => (fb.cultural_notes = rng.pick<unknown>(["one note", [1, 2], null, { a: "b" }]))],
    ["terminology without smartcard", () => delete (fb.terminology as Json).smartcard],
    ["secondary_languages not a list", () => (fb.secondary_languages = rng.pick<unknown>(["en", 5, [1]]))],
    ["no framebook key", () => {
      delete doc.framebook;
      doc.frame_book = fb;
    }],
    // Changes inside the domain: must be accepted.
    ["unknown advisory severity", () => setIn(fb, ["advisory_severity_mapping", rng.pick(["major_delay", "service_suspended", "new_kind"])], rng.pick(["purple", "CRITICAL", "severe", ""]))],
    ["org name of another operator", () => (fb.org_name = rng.pick(["Metro Test", "مترو", "北京地铁 Test", "A".repeat(300)]))],
    ["valid: org name in other case and spacing", () => (fb.org_name = rng.pick([` ${system.framebook.org_name.toLowerCase()} `, system.framebook.org_name.toUpperCase()]))],
    ["valid: extra cultural note", () => (fb.cultural_notes = [...((fb.cultural_notes as string[]) ?? []), `Please offer your seat to those who need it. ${known}`])],
    ["valid: headway in range", () => setIn(fb, ["operating_hours", "late_night_headway_min"], rng.pick([1, 15, 30.5, 120]))],
    ["valid: other default hours", () => setIn(fb, ["operating_hours", "default"], rng.pick(["06:00-23:30", "00:00-23:59", "05:00-01:00"]))],
    ["valid: fare policy", () => (fb.fare_policies = [{ policy_id: "FZ-1", text: rng.pick(["Seniors ride free today.", "Weekend: half price on all trips.", "All surcharges waived."]) }])],
    ["valid: unknown extra key", () => (fb.kiosk_theme = { accent: "#00ff00" })],
    ["valid: keys reordered", () => (doc.framebook = Object.fromEntries(rng.shuffle(Object.entries(fb))))],
  ];
  const [kind, apply] = rng.pick(mutations);
  apply();
  return { kind, text: stringify(doc) };
}

function textMutant(rng: Rng, text: string): Mutant {
  const lines = text.split("\n");
  const mutations: [string, () => string][] = [
    ["truncated", () => text.slice(0, rng.int(text.length))],
    ["line deleted", () => lines.filter((_, i) => i !== rng.int(lines.length)).join("\n")],
    ["stray character", () => {
      const at = rng.int(text.length);
      return text.slice(0, at) + rng.pick([":", "-", "\t", "{", "[", '"', "'", "#", "&", "*", "!", "|", ">", "%", "@", "`", "\u0000", "\ufeff"]) + text.slice(at);
    }],
    ["line re-indented", () => lines.map((l, i) => (i === 1 + rng.int(Math.max(1, lines.length - 1)) ? (rng.chance(0.5) ? `\t${l}` : `   ${l}`) : l)).join("\n")],
    ["duplicate key", () => text.replace(/\n {2}org_name:/, "\n  currency_code: \"USD\"\n  org_name:").replace(/\n {2}currency_code:/, "\n  currency_code:")],
    ["unclosed quote", () => text.replace(/: "/, ': "unterminated\n')],
    ["alias bomb", () => `a: &a ["x","x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n${text}`],
    ["deep nesting", () => `${text}\n  extra: ${"[".repeat(rng.range(1_000, 20_000))}${"]".repeat(rng.range(0, 10))}\n`],
    ["deep nesting, balanced", () => {
      const depth = rng.range(500, 20_000);
      return `${text}\n  extra: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
    }],
    ["binary junk", () => Array.from({ length: rng.range(10, 5_000) }, () => String.fromCharCode(rng.int(256))).join("")],
    ["huge value", () => text.replace(/org_name: .*/, `org_name: "${"Ω".repeat(rng.range(100_000, 2_000_000))}"`)],
    ["custom tags", () => text.replace(/org_name: (.*)/, `org_name: ${rng.pick(["!!js/function 'return 1'", "!!binary aGVsbG8=", "!!python/object:os.system ls", "!<tag:evil> x"])}`)],
    ["several documents", () => `${text}\n---\n${text}`],
    ["valid: comments and CRLF", () => `# operator edit\r\n${text.replace(/\n/g, "\r\n")}`],
    ["valid: byte order mark", () => `\ufeff${text}`],
    ["empty file", () => rng.pick(["", "\n", "---\n", "null", "~"])],
  ];
  const [kind, apply] = rng.pick(mutations);
  return { kind, text: apply() };
}

// ---------------------------------------------------------------------------------------------

function tempFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.includes(".tmp-"));
  } catch {
    return [];
  }
}

export async function framebookFuzz(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const count = options.quick ? 60 : 300;
  const rng = new Rng(`${options.seed}:framebook`);
  const dir = mkdtempSync(path.join(tmpdir(), "framebook-fuzz-"));
  const store = new FramebookStore(pack, dir);
  const service = new KioskService({ pack, pipeline: new AnswerPipeline({ rule: rulePolicy, profile: pack.promptProfile() }), systemData: (s) => store.systemData(s), clock: () => new Date(2026, 2, 9, 14) });
  let acceptedInvalid = 0;
  let crashes = 0;
  let changedByRejected = 0;
  let accepted = 0;
  let rejected = 0;
  let rejectedValid = 0;
  let invalidMutants = 0;
  let slowest = 0;
  const byKind: Record<string, { n: number; invalid: number; accepted: number; acceptedInvalid: number; crashes: number }> = {};
  const acceptedInvalidExamples = new Examples<Record<string, unknown>>(15);
  const crashExamples = new Examples<Record<string, unknown>>(15);
  const rejectedValidExamples = new Examples<Record<string, unknown>>(10);
  const changedExamples = new Examples<Record<string, unknown>>(10);
  const trip: Record<SystemId, [string, string]> = Object.fromEntries(pack.systemIds.map((id) => [id, [pack.system(id).stations[0]!.id, pack.system(id).stations[3]!.id]])) as Record<SystemId, [string, string]>;

  try {
    for (let i = 0; i < count; i++) {
      const systemId = pack.systemIds[i % pack.systemIds.length] as SystemId;
      const system = pack.system(systemId);
      const baseText = readFileSync(pack.file(`data/systems/${systemId}/framebook.yaml`), "utf8");
      const base = parseDocument(baseText).toJS() as Json;
      const mutant = rng.chance(0.55) ? valueMutant(rng, base, system) : textMutant(rng, baseText);
      const expected = oracle(mutant.text, system);
      const invalid = expected.length > 0;
      if (invalid) invalidMutants++;
      const k = (byKind[mutant.kind] ??= { n: 0, invalid: 0, accepted: 0, acceptedInvalid: 0, crashes: 0 });
      k.n++;
      if (invalid) k.invalid++;

      const before = store.active(systemId);
      const dataBefore = store.systemData(systemId);
      const fbBefore = structuredClone(dataBefore.framebook);
      const t = performance.now();
      let outcome: "accepted" | "rejected" | "crash";
      try {
        store.apply(systemId, mutant.text, `fuzz-${i}.yaml`, "fuzzer");
        outcome = "accepted";
      } catch (err) {
        if (err instanceof FramebookRejectedError) outcome = "rejected";
        else {
          outcome = "crash";
          crashes++;
          k.crashes++;
          crashExamples.add({ i, system: systemId, kind: mutant.kind, error: errorText(err) });
        }
      }
      slowest = Math.max(slowest, performance.now() - t);
      if (outcome === "accepted") {
        accepted++;
        k.accepted++;
        if (invalid) {
          acceptedInvalid++;
          k.acceptedInvalid++;
          acceptedInvalidExamples.add({ i, system: systemId, kind: mutant.kind, outOfDomain: expected });
        }
        // The next passenger session runs on it.
        try {
          const [a, b] = trip[systemId]!;
          const answer = await service.start({ system: systemId, events: [{ type: "station_selected", field: "origin", value: a, station_id: a }, { type: "station_selected", field: "destination", value: b, station_id: b }] });
          service.end(answer.sessionId);
          if (!AssistantStateSchema.safeParse(answer.record.kiosk.state).success || answer.record.kiosk.fallback) throw new Error(`session on the new framebook ended ${answer.record.kiosk.termination}: ${answer.record.error}`);
        } catch (err) {
          crashes++;
          k.crashes++;
          crashExamples.add({ i, system: systemId, kind: mutant.kind, error: `session: ${errorText(err)}` });
        }
        try {
          store.rollback(systemId, "fuzzer");
        } catch (err) {
          crashes++;
          crashExamples.add({ i, system: systemId, kind: mutant.kind, error: `rollback: ${errorText(err)}` });
        }
      } else {
        if (outcome === "rejected") rejected++;
        if (!invalid && outcome === "rejected") {
          rejectedValid++;
          rejectedValidExamples.add({ i, system: systemId, kind: mutant.kind });
        }
        const after = store.active(systemId);
        const dataAfter = store.systemData(systemId);
        const leftovers = tempFiles(path.join(dir, systemId));
        if (after.text !== before.text || after.version !== before.version || !isDeepStrictEqual(dataAfter.framebook, fbBefore) || leftovers.length > 0) {
          changedByRejected++;
          changedExamples.add({ i, system: systemId, kind: mutant.kind, leftovers });
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    id: "framebook",
    title: "7. Framebook input",
    figures: [
      info("framebook.mutants", "mutated framebooks applied", count, { of: `${invalidMutants} outside the domain, ${count - invalidMutants} inside; ${accepted} accepted, ${rejected} rejected` }),
      figure("framebook.accepted_invalid", "accepted but invalid", acceptedInvalid, { op: "eq", value: 0 }, { of: `${invalidMutants} invalid mutants` }),
      figure("framebook.crashes", "crashes", crashes, { op: "eq", value: 0 }, { of: `${count} mutants` }),
      figure("framebook.changed_by_rejected", "active framebook changed by a rejected file", changedByRejected, { op: "eq", value: 0 }, { of: `${rejected} rejected` }),
      info("framebook.rejected_valid", "valid mutants rejected (over-strict)", rejectedValid, { of: `${count - invalidMutants} valid mutants` }),
      info("framebook.slowest_ms", "slowest validate+apply", ms(slowest), { unit: "ms" }),
    ],
    details: { byKind, acceptedInvalidExamples: acceptedInvalidExamples.items, crashExamples: crashExamples.items, changedExamples: changedExamples.items, rejectedValidExamples: rejectedValidExamples.items },
    ms: performance.now() - t0,
  };
}
