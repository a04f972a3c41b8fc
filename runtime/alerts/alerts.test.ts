import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import YAML from "yaml";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { KioskService } from "../kiosk/service.ts";
import { activeDisruptions, alertStatus } from "./active.ts";
import { conditionsWithAlerts } from "./conditions.ts";
import { alertLanguages } from "./languages.ts";
import { alertText, backofficeAlertId, formatAlertIssues, normaliseTime, OperatorAlertTextSchema, validateAlert, type Alert, type AlertInput } from "./model.ts";
import { AlertStore, AlertStoreError } from "./store.ts";
import { DISRUPTION_TYPES, DISRUPTION_SEVERITIES } from "./vocabulary.ts";
import { AnswerPipeline } from "../answer/pipeline.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const systems = (id: SystemId) => (pack.systemIds.includes(id) ? pack.system(id) : undefined);
let counter = 0;
const options = { system: systems, newId: () => `a-${++counter}` };

function valid(input: AlertInput): Alert {
  const v = validateAlert(input, options);
  if (!v.ok) throw new Error(formatAlertIssues(v.issues));
  return v.alert;
}

const tube: AlertInput = {
  id: "tube",
  system: "bart",
  type: "planned_maintenance",
  severity: "critical",
  segment: { from_station: "West Oakland", to_station: "BART-EMBR" },
  valid_from: "2026-03-09T06:00",
  valid_until: "2026-03-10T04:00",
  text: { en: "Transbay Tube closed: no service between West Oakland and Embarcadero.", es: "Tubo Transbay cerrado." },
  alternative: "Free bus bridge",
};

describe("the alert vocabulary is the data pack's", () => {
  it("lists every disruption type of the pack's events, cases and framebook severity mappings, and their severities", () => {
    const types = new Set<string>();
    const severities = new Set<string>();
    for (const system of pack.systemIds) {
      const events = YAML.parse(readFileSync(path.join(SHARED_DATA_DIR, `data/systems/${system}/events.yaml`), "utf8")) as unknown;
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === "object") {
          const o = v as Record<string, unknown>;
          if (typeof o.type === "string" && typeof o.severity === "string") {
            types.add(o.type);
            severities.add(o.severity);
          }
          Object.values(o).forEach(walk);
        }
      };
      walk(events);
      for (const c of pack.cases(system)) {
        for (const d of c.system_context.active_disruptions) {
          types.add(d.type);
          severities.add(d.severity);
        }
      }
      for (const [key, value] of Object.entries(pack.system(system).framebook.advisory_severity_mapping ?? {})) {
        types.add(key);
        severities.add(value);
      }
    }
    expect([...types].filter((t) => !(DISRUPTION_TYPES as readonly string[]).includes(t))).toEqual([]);
    expect([...severities].sort()).toEqual([...DISRUPTION_SEVERITIES].sort());
  });
});

describe("alert validation names the field that is wrong", () => {
  const bad: [string, unknown, RegExp][] = [
    ["unknown type", { ...tube, type: "alien_invasion" }, /^alert\.type: Invalid option/],
    ["unknown severity", { ...tube, severity: "purple" }, /^alert\.severity: Invalid option/],
    ["unknown station", { ...tube, type: "station_closure", segment: null, stations: ["BART-EMBR", "Atlantis"] }, /^alert\.stations\[1\]: unknown station 'Atlantis' for bart$/],
    ["unknown line", { ...tube, lines: ["purple"] }, /^alert\.lines\[0\]: unknown line 'purple' for bart \(known: /],
    ["closure without stations", { ...tube, type: "station_closure", segment: null }, /^alert\.stations: a station_closure names the station\(s\) it concerns$/],
    ["segment off the line", { ...tube, lines: ["yellow"], segment: { from_station: "BART-RICH", to_station: "BART-MONT" } }, /^alert\.segment: BART-RICH and BART-MONT are not two stations of line yellow$/],
    ["segment end unknown", { ...tube, segment: { from_station: "BART-WOAK", to_station: "Nowhere" } }, /^alert\.segment\.to_station: unknown station 'Nowhere'/],
    ["end before start", { ...tube, valid_until: "2026-03-09T05:00" }, /^alert\.valid_until: valid_until 2026-03-09T05:00:00 is not after valid_from 2026-03-09T06:00:00$/],
    ["impossible time", { ...tube, valid_from: "2026-02-30T06:00" }, /^alert\.valid_from: expected a local time/],
    ["no text", { ...tube, text: {} }, /^alert\.text: at least one language's text is needed$/],
    ["blank text", { ...tube, text: { en: "   " } }, /^alert\.text\.en: must not be empty$/],
    ["bad language tag", { ...tube, text: { English: "x" } }, /^alert\.text\.English: 'English' is not a language tag/],
    ["unknown field", { ...tube, colour: "red" }, /^alert: unknown field\(s\): colour$/],
    ["unknown system", { ...tube, system: "london" }, /^alert\.system: this kiosk does not serve 'london'/],
    ["not a system id", { ...tube, system: "London Underground" }, /^alert\.system: a system id is/],
    ["advisory with a segment", { ...tube, type: "earthquake_warning" }, /^alert\.segment: a earthquake_warning is an area-wide advisory/],
  ];
  it.each(bad)("%s", (_name, input, expected) => {
    const v = validateAlert(input, options);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(formatAlertIssues(v.issues)).toMatch(expected);
  });

  it("resolves names to ids, lists the segment's stations along the line and normalises the times", () => {
    const alert = valid(tube);
    expect(alert).toMatchObject({
      id: "tube",
      segment: { from_station: "BART-WOAK", to_station: "BART-EMBR", stations: ["BART-WOAK", "BART-EMBR"] },
      valid_from: "2026-03-09T06:00:00",
      valid_until: "2026-03-10T04:00:00",
      source: { kind: "operator" },
    });
    const yellow = valid({ system: "bart", type: "line_suspension", lines: ["Yellow Line"], segment: { from_station: "Antioch", to_station: "Concord" }, text: { en: "x" } });
    expect(yellow.lines).toEqual(["yellow"]);
    expect(yellow.segment?.stations).toEqual(["BART-ANTC", "BART-PCTR", "BART-PITT", "BART-NOC", "BART-CONC"]);
    expect(yellow.id).toMatch(/^a-\d+$/);
  });

  it("takes the severity from the framebook's advisory_severity_mapping when none is given", () => {
    expect(valid({ system: "bart", type: "earthquake_warning", text: { en: "x" } }).severity).toBe("critical");
    expect(valid({ system: "beijing", type: "crowd_advisory", text: { en: "x" } }).severity).toBe("warning");
    expect(valid({ system: "bart", type: "crowd_advisory", text: { en: "x" } }).severity).toBe("info");
  });

  it("converts a time with a zone to local time and refuses what is not a time", () => {
    const utc = new Date(Date.UTC(2026, 2, 9, 14, 30));
    const pad = (n: number): string => String(n).padStart(2, "0");
    expect(normaliseTime("2026-03-09T14:30:00Z")).toBe(`${utc.getFullYear()}-${pad(utc.getMonth() + 1)}-${pad(utc.getDate())}T${pad(utc.getHours())}:${pad(utc.getMinutes())}:00`);
    expect(normaliseTime("tomorrow")).toBeNull();
    expect(normaliseTime("2026-03-09T25:00")).toBeNull();
  });

  it("picks the passenger's language, then the system's, then English", () => {
    const text = { en: "Closed", es: "Cerrado", "zh-TW": "關閉" };
    expect(alertText({ text }, "es-MX", "en")).toBe("Cerrado");
    expect(alertText({ text }, "zh-Hant", "zh-TW")).toBe("關閉");
    expect(alertText({ text }, "ar", "en")).toBe("Closed");
    expect(alertText({ text: { fr: "Fermé" } }, "ar", "en")).toBe("Fermé");
  });
});

describe("active disruptions for a system at a time", () => {
  const rec = (alert: Alert, ended_at: string | null = null) => ({ alert, ended_at });
  const closure = valid({ id: "embr", system: "bart", type: "station_closure", stations: ["Embarcadero", "Montgomery St"], valid_until: "2026-03-09T18:00", text: { en: "Closed (police activity).", es: "Cerrada." } });
  const tubeAlert = valid(tube);
  const marta = valid({ id: "m", system: "marta", type: "crowd_advisory", text: { en: "Crowds" } });

  it("gives the pack's disruption records: one per station of a closure, the segment as the pack writes it", () => {
    const list = activeDisruptions([rec(closure), rec(tubeAlert), rec(marta)], { system: "bart", now: "2026-03-09T14:00:00", primaryLanguage: "en", language: "es" });
    expect(list).toEqual([
      { id: "embr#1", line: null, segment: null, type: "station_closure", severity: "critical", message: "Cerrada.", alternative: null, eta_resolution: null, valid_from: null, valid_until: "2026-03-09T18:00:00", station_id: "BART-EMBR" },
      { id: "embr#2", line: null, segment: null, type: "station_closure", severity: "critical", message: "Cerrada.", alternative: null, eta_resolution: null, valid_from: null, valid_until: "2026-03-09T18:00:00", station_id: "BART-MONT" },
      {
        id: "tube",
        line: null,
        segment: { from_station: "BART-WOAK", to_station: "BART-EMBR", stations: ["BART-WOAK", "BART-EMBR"] },
        type: "planned_maintenance",
        severity: "critical",
        message: "Tubo Transbay cerrado.",
        alternative: "Free bus bridge",
        eta_resolution: null,
        valid_from: "2026-03-09T06:00:00",
        valid_until: "2026-03-10T04:00:00",
      },
    ]);
  });

  it("expires by itself, announces what starts within a day, and drops what an operator ended", () => {
    const at = (now: string, records = [rec(closure), rec(tubeAlert)]) => activeDisruptions(records, { system: "bart", now, primaryLanguage: "en" }).map((d) => d.id);
    expect(at("2026-03-09T18:00:00")).toEqual(["tube"]);
    expect(at("2026-03-10T04:00:00")).toEqual([]);
    expect(at("2026-03-08T07:00:00")).toEqual(["embr#1", "embr#2", "tube"]); // the tube closure is announced
    expect(at("2026-03-07T05:00:00")).toEqual(["embr#1", "embr#2"]);
    expect(at("2026-03-09T14:00:00", [rec(closure, "2026-03-09T12:00:00.000Z"), rec(tubeAlert)])).toEqual(["tube"]);
    expect(alertStatus(rec(tubeAlert), "2026-03-08T07:00:00")).toBe("upcoming");
    expect(alertStatus(rec(tubeAlert), "2026-03-09T07:00:00")).toBe("active");
    expect(alertStatus(rec(tubeAlert), "2026-03-11T07:00:00")).toBe("expired");
  });
});

describe("the alert store: atomic, audited, the operator's name required", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "alerts-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("adds, edits and ends alerts, recording who did what", () => {
    const file = path.join(dir, "alerts.sqlite");
    const store = AlertStore.open(file);
    store.add(valid(tube), "alice");
    expect(() => store.add(valid(tube), "bob")).toThrow(/alert 'tube' already exists/);
    store.replace(valid({ ...tube, valid_until: "2026-03-10T06:00" }), "bob");
    store.end("tube", "carol", "work finished early");
    expect(() => store.end("tube", "carol")).toThrow(/already ended/);
    store.close();

    // Another process opening the same file sees everything.
    const again = AlertStore.open(file);
    const record = again.get("tube")!;
    expect(record).toMatchObject({ created_by: "alice", updated_by: "bob", ended_by: "carol", end_reason: "work finished early" });
    expect(record.alert.valid_until).toBe("2026-03-10T06:00:00");
    expect(again.auditLog("bart").map((a) => [a.action, a.who, a.alert_id])).toEqual([
      ["add", "alice", "tube"],
      ["edit", "bob", "tube"],
      ["end", "carol", "tube"],
    ]);
    expect(again.current("bart")).toEqual([]);
    // An ended id can be used again.
    again.add(valid(tube), "dave");
    expect(again.current("bart").map((r) => r.alert.id)).toEqual(["tube"]);
    again.close();
  });

  it("an alert of one system never replaces, edits or ends another's: one id space, checked", () => {
    const store = AlertStore.open(":memory:");
    const martaAlert = valid({ id: "closure-1", system: "marta", type: "station_closure", stations: ["Five Points"], text: { en: "Five Points closed" } });
    const bartAlert = valid({ id: "closure-1", system: "bart", type: "station_closure", stations: ["Embarcadero"], text: { en: "Embarcadero closed" } });
    store.add(martaAlert, "alice");
    expect(() => store.add(bartAlert, "bob")).toThrow(/alert id 'closure-1' is already used by marta's alert; choose another id for bart/);
    expect(() => store.replace(bartAlert, "bob")).toThrow(/belongs to marta, not bart/);
    // Even once MARTA's has ended, its history is not overwritten by BART's.
    store.end("closure-1", "alice");
    expect(() => store.add(bartAlert, "bob")).toThrow(/already used by marta's alert/);
    expect(store.get("closure-1")!.alert.system).toBe("marta");
    store.close();
  });

  it("ids of feeds (gtfs:) and of the back office (bo:) are not an operator's to take", () => {
    for (const id of ["gtfs:1", "GTFS:bart:1", "bo:marta:closure-1"]) {
      const v = validateAlert({ ...tube, id }, options);
      expect(v.ok, id).toBe(false);
      if (!v.ok) expect(v.issues[0], id).toMatchObject({ path: "id", message: expect.stringMatching(/^ids starting with '(gtfs|bo):' are kept for/) });
    }
    expect(validateAlert({ ...tube, id: "gtfs:bart:1234abcd:1" }, { ...options, source: { kind: "gtfs-rt", feed: "f", entity: "1" } }).ok).toBe(true);
    expect(validateAlert({ ...tube, id: "bo:bart:tube" }, { ...options, source: { kind: "backoffice", id: "tube" } }).ok).toBe(true);
    expect(backofficeAlertId("bart", "tube")).toBe("bo:bart:tube");
    expect(backofficeAlertId("bart", "t".repeat(80))).toMatch(/^bo:bart:[0-9a-f]{16}$/);
  });

  it("a published set applies to its own system and withdraws only the back office's alerts there", () => {
    const store = AlertStore.open(":memory:");
    const local = valid({ id: "closure-1", system: "marta", type: "station_closure", stations: ["Five Points"], text: { en: "Five Points closed" } });
    store.add(local, "alice");
    // Published before alerts were keyed by source: a plain id, created by the back office.
    const legacy = valid({ id: "legacy-1", system: "bart", type: "station_closure", stations: ["Embarcadero"], text: { en: "Embarcadero closed" } });
    store.add(legacy, "backoffice (Ops Desk)");
    const published = { ...valid({ ...tube }), id: backofficeAlertId("bart", "tube"), source: { kind: "backoffice" as const, id: "tube" } };
    expect(() => store.applySet("marta", [published], { who: "backoffice (Ops Desk)", withdraw: [], detail: "v1" })).toThrow(/not a back-office alert of marta/);
    expect(() => store.applySet("bart", [{ ...published, source: { kind: "operator" } }], { who: "backoffice (Ops Desk)", withdraw: [], detail: "v1" })).toThrow(/not a back-office alert of bart/);
    const applied = store.applySet("bart", [published], { who: "backoffice (Ops Desk)", withdraw: ["closure-1", "legacy-1"], detail: "v2" });
    expect(applied).toEqual({ added: ["bo:bart:tube"], updated: [], unchanged: [], ended: ["legacy-1"] });
    expect(store.get("closure-1")!.ended_at).toBeNull();
    store.close();
  });

  it("refuses a change without an operator name and leaves no trace of it", () => {
    const store = AlertStore.open(":memory:");
    expect(() => store.add(valid(tube), "  ")).toThrow(AlertStoreError);
    expect(() => store.add(valid(tube), "")).toThrow(/operator's name is required/);
    expect(store.list()).toEqual([]);
    expect(store.auditLog()).toEqual([]);
    store.close();
  });

  it("a failing change in a transaction leaves the store as it was", () => {
    const store = AlertStore.open(":memory:");
    store.add(valid(tube), "alice");
    const broken = { ...valid(tube), severity: "purple" } as unknown as Alert;
    expect(() => store.replace(broken, "bob")).toThrow();
    expect(store.get("tube")!.alert.severity).toBe("critical");
    expect(store.auditLog().map((a) => a.action)).toEqual(["add"]);
    store.close();
  });

  it("an alert in the store reaches the next passenger session: advisory and no sale across the closed tube; ended, sales resume", async () => {
    const store = AlertStore.open(":memory:");
    const now = new Date(2026, 2, 9, 14, 0);
    const service = new KioskService({
      pack,
      pipeline: new AnswerPipeline({ rule: rulePolicy, profile: pack.promptProfile() }),
      clock: () => now,
      conditions: (system) => ({
        now,
        disruptions: activeDisruptions(store.current(system), { system, now: "2026-03-09T14:00:00", primaryLanguage: pack.system(system).framebook.primary_language }),
      }),
    });
    const events = [
      { type: "station_selected" as const, field: "origin" as const, value: "West Oakland", station_id: "BART-WOAK" },
      { type: "station_selected" as const, field: "destination" as const, value: "Embarcadero", station_id: "BART-EMBR" },
      { type: "passenger_count_changed" as const, adults: 1 },
    ];
    const before = await service.start({ system: "bart", events });
    expect(before.record.kiosk.state.kiosk_action.action).toBe("prompt_purchase");

    store.add(valid(tube), "alice");
    const during = await service.start({ system: "bart", events });
    expect(during.record.kiosk.state.kiosk_action.action).not.toBe("prompt_purchase");
    expect((during.record.kiosk.state.advisory_banners ?? []).map((b) => b.body).join(" ")).toContain("Transbay Tube closed");
    expect(during.record.tool_calls_made.some((t) => t.name === "disruption_feed" && JSON.stringify(t.result).includes("tube"))).toBe(true);

    store.end("tube", "alice");
    const after = await service.start({ system: "bart", events });
    expect(after.record.kiosk.state.kiosk_action.action).toBe("prompt_purchase");
    store.close();
  });
});

describe("passenger text per language", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "alerts-text-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("the operator screen's text schema: English required, the screen's other languages optional, tags checked", () => {
    expect(OperatorAlertTextSchema.safeParse({ en: "Closed" }).success).toBe(true);
    expect(OperatorAlertTextSchema.safeParse({ en: "Closed", es: "Cerrada", "zh-Hans": "关闭", "zh-Hant": "關閉", ar: "مغلقة" }).success).toBe(true);
    const issues = (text: unknown) => OperatorAlertTextSchema.safeParse(text).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ es: "Cerrada" })).toEqual([["en", "the English text is required (every screen language falls back to it)"]]);
    expect(issues({ en: "Closed", es: "  " })).toEqual([["es", "must not be empty"]]);
    expect(issues({ en: "Closed", Spanish: "Cerrada" })).toEqual([["Spanish", "'Spanish' is not a language tag such as en, es, zh-TW"]]);
    // Only the operator screen requires English: a file or a feed may carry the local language alone.
    const local = { id: "zh", system: "beijing" as const, type: "crowd_advisory" as const, text: { zh: "客流较大" } };
    expect(validateAlert(local, options).ok).toBe(true);
    expect(validateAlert(local, { ...options, requireEnglish: true })).toEqual({ ok: false, issues: [{ path: "text.en", message: "the English text is required (every screen language falls back to it)" }] });
  });

  it("the languages offered per system: English and the local one", () => {
    expect(pack.systemIds.map((id) => [id, alertLanguages(id)])).toEqual(
      expect.arrayContaining([["beijing", ["en", "zh-Hans"]], ["taipei", ["en", "zh-Hant"]], ["doha", ["en", "ar"]], ["bart", ["en", "es"]], ["cta", ["en", "es"]], ["marta", ["en", "es"]]]),
    );
  });

  it("an imported system's local language comes from its framebook, where the screen has it", () => {
    expect(alertLanguages("santiago", { primary_language: "es-CL" })).toEqual(["en", "es"]);
    expect(alertLanguages("taichung", { primary_language: "en", secondary_languages: ["zh-TW"] })).toEqual(["en", "zh-Hant"]);
    expect(alertLanguages("busan", { primary_language: "ko" })).toEqual(["en"]);
    expect(alertLanguages("hyderabad")).toEqual(["en"]);
  });

  it("keeps every language's text through the store (add, edit, reopen) and gives each passenger theirs", () => {
    const file = path.join(dir, "alerts.sqlite");
    const text = { en: "Transbay Tube closed.", es: "Tubo Transbay cerrado.", "zh-Hans": "跨湾隧道关闭。" };
    const store = AlertStore.open(file);
    store.add(valid({ ...tube, text }), "alice");
    store.replace(valid({ ...tube, text: { ...text, es: "Tubo Transbay cerrado: tome el autobús." } }), "bob");
    store.close();
    const again = AlertStore.open(file);
    expect(again.get("tube")!.alert.text).toEqual({ ...text, es: "Tubo Transbay cerrado: tome el autobús." });
    const now = new Date(2026, 2, 9, 14, 0);
    const conditions = conditionsWithAlerts({ store: again, system: (id) => pack.system(id), clock: () => now });
    expect(conditions("bart", "es").disruptions.map((d) => d.message)).toEqual(["Tubo Transbay cerrado: tome el autobús."]);
    expect(conditions("bart", "zh-Hans").disruptions.map((d) => d.message)).toEqual(["跨湾隧道关闭。"]);
    expect(conditions("bart", "ar").disruptions.map((d) => d.message)).toEqual(["Transbay Tube closed."]);
    expect(conditions("bart").disruptions.map((d) => d.message)).toEqual(["Transbay Tube closed."]);
    again.close();
  });
});
