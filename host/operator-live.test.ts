// The operator's live tools through the host: alerts added, edited and ended from the operator
// console (validated field by field, audited with the operator's name) reach the next passenger
// session; the session audit lists today's sessions with filters and opens one as a timeline; an
// alert can be previewed against the stored sessions before it is added.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { OPERATOR_METHODS } from "../runtime/kiosk/bridge.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { parseOperatorRequest } from "../runtime/operator/console.ts";
import { hashPin } from "../runtime/operator/pin.ts";
import type { KioskEvent } from "../tools/data/schemas.ts";
import { createKioskRuntime, type KioskRuntime } from "./runtime.ts";

const PIN_HASH = await hashPin("246810", { N: 1024, r: 8, p: 1 });
const dir = mkdtempSync(path.join(tmpdir(), "operator-live-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = new Date(2026, 2, 9, 14, 0);
const tubeTrip: KioskEvent[] = [
  { type: "station_selected", field: "origin", value: "West Oakland", station_id: "BART-WOAK" },
  { type: "station_selected", field: "destination", value: "Embarcadero", station_id: "BART-EMBR" },
  { type: "passenger_count_changed", adults: 1 },
];
const tube = {
  id: "tube",
  system: "bart",
  type: "planned_maintenance",
  severity: "critical",
  segment: { from_station: "West Oakland", to_station: "BART-EMBR" },
  valid_until: "2026-03-10T04:00",
  text: { en: "Transbay Tube closed: no service between West Oakland and Embarcadero." },
};

let runtime: KioskRuntime;
let token: string;
let n = 0;
beforeEach(async () => {
  const sub = path.join(dir, String(++n));
  runtime = await createKioskRuntime({
    pack: testPack(),
    ledger: ":memory:",
    operatorDir: path.join(sub, "operator"),
    pin: { hash: PIN_HASH },
    benchDb: null,
    alertsDb: path.join(sub, "alerts.sqlite"),
    auditDb: path.join(sub, "audit.sqlite"),
    clock: () => NOW,
    log: () => undefined,
  });
  const login = await runtime.operator.login({ operator: "Alice Ops", pin: "246810" });
  if (!login.ok) throw new Error("login failed");
  token = login.token;
});
afterEach(() => runtime.close());

describe("service alerts from the operator console", () => {
  it("adds a closure that blocks the next sale across it, audited with the operator's name; ending it resumes sales", async () => {
    expect((await runtime.backend.ask({ system: "bart", events: tubeTrip })).purchasable).toBe(true);
    const added = runtime.operator.saveAlert({ token, alert: tube, mode: "add" });
    expect(added).toMatchObject({ ok: true, record: { status: "active", createdBy: "Alice Ops", alert: { segment: { stations: ["BART-WOAK", "BART-EMBR"] } } } });

    const during = await runtime.backend.ask({ system: "bart", events: tubeTrip });
    expect(during.purchasable).toBe(false);
    expect((during.state.advisory_banners ?? []).map((b) => b.body).join(" ")).toContain("Transbay Tube closed");

    const edited = runtime.operator.saveAlert({ token, alert: { ...tube, severity: "warning" }, mode: "edit" });
    expect(edited).toMatchObject({ ok: true, record: { alert: { severity: "warning" }, updatedBy: "Alice Ops" } });
    expect(runtime.operator.endAlert({ token, id: "tube", reason: "works finished" })).toMatchObject({ ok: true, record: { status: "ended", endedBy: "Alice Ops", endReason: "works finished" } });
    expect(runtime.operator.endAlert({ token, id: "tube" })).toEqual({ ok: false, message: expect.stringMatching(/^alert 'tube' already ended at .* \(by Alice Ops\)$/) as string });
    expect((await runtime.backend.ask({ system: "bart", events: tubeTrip })).purchasable).toBe(true);

    const list = runtime.operator.listAlerts({ token, system: "bart" });
    expect(list.now).toBe("2026-03-09T14:00:00");
    expect(list.alerts.map((a) => [a.alert.id, a.status])).toEqual([["tube", "ended"]]);
    expect(list.audit.map((a) => [a.who, a.action])).toEqual([["Alice Ops", "end"], ["Alice Ops", "edit"], ["Alice Ops", "add"]]);
  });

  it("names the field of every problem; a duplicate id is a conflict; a bad request is refused by the table's schema", () => {
    const bad = runtime.operator.saveAlert({ token, alert: { ...tube, segment: null, type: "station_closure", stations: ["BART-EMBR", "Atlantis"], valid_until: "tomorrow" }, mode: "add" });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues.map((i) => i.path)).toEqual(["valid_until"]);
    const unknown = runtime.operator.saveAlert({ token, alert: { ...tube, segment: null, type: "station_closure", stations: ["BART-EMBR", "Atlantis"] }, mode: "add" });
    expect(unknown).toEqual({ ok: false, reason: "invalid", issues: [{ path: "stations[1]", message: "unknown station 'Atlantis' for bart" }] });
    expect(runtime.operator.saveAlert({ token, alert: tube, mode: "add" }).ok).toBe(true);
    expect(runtime.operator.saveAlert({ token, alert: tube, mode: "add" })).toEqual({ ok: false, reason: "conflict", issues: [{ path: "id", message: "alert 'tube' already exists (edit it, or end it first)" }] });
    expect(parseOperatorRequest("saveAlert", { token, alert: "closed", mode: "add" }).ok).toBe(false);
    expect(parseOperatorRequest("endAlert", { token, id: "" }).ok).toBe(false);
    expect(Object.keys(OPERATOR_METHODS)).toEqual(expect.arrayContaining(["listAlerts", "saveAlert", "endAlert", "previewAlert", "auditSessions", "auditTimeline"]));
    // Without a live operator session: unauthorized.
    expect(() => runtime.operator.listAlerts({ token: "x".repeat(43) })).toThrow(/log in again/);
  });

  it("previews an alert against the stored sessions before it is added", async () => {
    const asked = await runtime.backend.ask({ system: "bart", events: tubeTrip });
    runtime.backend.endSession(asked.sessionId);
    const preview = await runtime.operator.previewAlert({ token, alert: tube });
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    expect(preview.report).toMatchObject({ sessions: 1, changedSessions: 1 });
    expect(preview.report.first[0]!.changes.map((c) => c.field)).toEqual(expect.arrayContaining(["action", "banners"]));
    // In words for the operator: whose trip, by station name, what it means, and the alert by name.
    expect(preview.report.first[0]).toMatchObject({ trip: { from: { id: "BART-WOAK", name: "West Oakland" }, to: { id: "BART-EMBR", name: "Embarcadero" }, riders: { adults: 1 } }, effect: "not_sold" });
    expect(preview.cause).toMatchObject({ type: tube.type, segment: { from: { name: "West Oakland" }, to: { name: "Embarcadero" } } });
    expect(OPERATOR_METHODS.previewAlert.result.safeParse(preview).success).toBe(true);
    // Previewing adds nothing.
    expect(runtime.operator.listAlerts({ token }).alerts).toEqual([]);
    expect(await runtime.operator.previewAlert({ token, alert: { ...tube, lines: ["purple"] } })).toMatchObject({ ok: false, reason: "invalid", issues: [{ path: "lines[0]" }] });
  });
});

describe("service alerts: text per language, editing, names", () => {
  const feedLines = (sessionId: string): string =>
    runtime.operator
      .auditTimeline({ token, sessionId })
      .entries.filter((e) => e.kind === "tool" && e.title.startsWith("disruption_feed"))
      .flatMap((e) => e.lines)
      .join(" ");

  it("shows the passenger the alert's text in the screen's language, falling back to English; the operator must give the English one", async () => {
    const spanish = { ...tube, text: { en: "Transbay Tube closed: no service between West Oakland and Embarcadero.", es: "Tubo Transbay cerrado: no hay servicio entre West Oakland y Embarcadero." } };
    expect(runtime.operator.saveAlert({ token, alert: { ...spanish, text: { es: spanish.text.es } }, mode: "add" })).toEqual({
      ok: false,
      reason: "invalid",
      issues: [{ path: "text.en", message: "the English text is required (every screen language falls back to it)" }],
    });
    expect(runtime.operator.saveAlert({ token, alert: spanish, mode: "add" })).toMatchObject({ ok: true, record: { alert: { text: spanish.text } } });
    const banners = async (language?: "es" | "ar"): Promise<string> => ((await runtime.backend.ask({ system: "bart", events: tubeTrip, ...(language ? { language } : {}) })).state.advisory_banners ?? []).map((b) => b.body).join(" ");
    expect(await banners("es")).toContain("Tubo Transbay cerrado: no hay servicio");
    expect(await banners()).toContain("Transbay Tube closed: no service");
    expect(await banners("ar")).toContain("Transbay Tube closed: no service");
    expect(await banners("ar")).not.toContain("Tubo");
  });

  it("an edit changes what the next passenger session's disruption_feed returns, audited with the operator's name", async () => {
    runtime.operator.saveAlert({ token, alert: tube, mode: "add" });
    const before = await runtime.backend.ask({ system: "bart", events: tubeTrip });
    expect(before.purchasable).toBe(false);
    expect(feedLines(before.sessionId)).toContain("tube (planned_maintenance, critical)");

    // The same alert, edited into an advisory: the tube is open again, the advisory is what the feed says.
    const advisory = { ...tube, type: "crowd_advisory", severity: "info", segment: null, text: { en: "Giants game tonight: expect crowded trains." } };
    expect(runtime.operator.saveAlert({ token, alert: advisory, mode: "edit" })).toMatchObject({ ok: true, record: { alert: { id: "tube", type: "crowd_advisory" }, createdBy: "Alice Ops", updatedBy: "Alice Ops" } });
    const after = await runtime.backend.ask({ system: "bart", events: tubeTrip });
    expect(feedLines(after.sessionId)).toContain("tube (crowd_advisory, info)");
    expect(feedLines(after.sessionId)).not.toContain("planned_maintenance");
    expect(after.purchasable).toBe(true);
    expect((after.state.advisory_banners ?? []).map((b) => b.body).join(" ")).toContain("Giants game tonight");
    expect(runtime.operator.listAlerts({ token, system: "bart" }).audit.map((a) => [a.who, a.action, a.alertId])).toEqual([["Alice Ops", "edit", "tube"], ["Alice Ops", "add", "tube"]]);
    // An id that is not running cannot be edited.
    expect(runtime.operator.saveAlert({ token, alert: { ...advisory, id: "nothing" }, mode: "edit" })).toMatchObject({ ok: false, reason: "conflict", issues: [{ path: "id", message: "there is no alert 'nothing' to edit" }] });
  });

  it("lists a system's alert languages and its station and line names for the form", () => {
    const bart = runtime.operator.listAlerts({ token, system: "bart" }).places!;
    expect(bart.languages).toEqual(["en", "es"]);
    expect(bart.stations).toContainEqual({ id: "BART-EMBR", name: "Embarcadero" });
    expect(bart.lines.map((l) => l.id)).toContain("yellow");
    expect(runtime.operator.listAlerts({ token, system: "taipei" }).places!.languages).toEqual(["en", "zh-Hant"]);
    expect(runtime.operator.listAlerts({ token, system: "beijing" }).places!.languages).toEqual(["en", "zh-Hans"]);
    expect(runtime.operator.listAlerts({ token, system: "doha" }).places!.languages).toEqual(["en", "ar"]);
    expect(runtime.operator.listAlerts({ token }).places).toBeNull();
    // The names the passenger screen shows in other languages come along (Beijing's in Chinese).
    expect(runtime.operator.listAlerts({ token, system: "beijing" }).places!.stations.some((s) => s.localized?.["zh-Hans"])).toBe(true);
    expect(OPERATOR_METHODS.listAlerts.result.safeParse(runtime.operator.listAlerts({ token, system: "bart" })).success).toBe(true);
  });
});

describe("the session audit on the operator console", () => {
  it("lists today's sessions with filters and opens one as a timeline: asked, tools, shown, why buy was off", async () => {
    const ok = await runtime.backend.ask({ system: "bart", events: tubeTrip, language: "es" });
    runtime.operator.saveAlert({ token, alert: tube, mode: "add" });
    const blocked = await runtime.backend.ask({ system: "bart", events: tubeTrip });
    const all = runtime.operator.auditSessions({ token, filter: {} });
    expect(all.day).toBe("2026-03-09");
    expect(all.sessions.map((s) => s.sessionId).sort()).toEqual([ok.sessionId, blocked.sessionId].sort());
    expect(runtime.operator.auditSessions({ token, filter: { language: "es" } }).sessions.map((s) => s.sessionId)).toEqual([ok.sessionId]);
    expect(blocked.state.outcome).not.toBe("route_and_fare_ready");
    expect(runtime.operator.auditSessions({ token, filter: { outcome: blocked.state.outcome } }).sessions.map((s) => s.sessionId)).toEqual([blocked.sessionId]);
    expect(runtime.operator.auditSessions({ token, filter: { fallback: true } }).sessions).toEqual([]);

    const timeline = runtime.operator.auditTimeline({ token, sessionId: blocked.sessionId });
    const kinds = timeline.entries.map((e) => e.kind);
    expect(kinds[0]).toBe("asked");
    expect(kinds).toEqual(expect.arrayContaining(["tool", "shown", "buy"]));
    expect(timeline.entries[0]!.lines).toContain("From: West Oakland (BART-WOAK)");
    const buy = timeline.entries.find((e) => e.kind === "buy")!;
    expect(buy).toMatchObject({ title: "Buy button off", ok: false });
    expect(timeline.entries.find((e) => e.kind === "tool" && e.title.startsWith("disruption_feed"))?.lines.join(" ")).toContain("tube");
    expect(OPERATOR_METHODS.auditTimeline.result.safeParse(timeline).success).toBe(true);
    expect(() => runtime.operator.auditTimeline({ token, sessionId: "nobody" })).toThrow(/no audited session 'nobody'/);
  });

  it("a kiosk without the stores answers unavailable", async () => {
    const bare = await createKioskRuntime({ pack: testPack(), ledger: ":memory:", operatorDir: path.join(dir, "bare"), pin: { hash: PIN_HASH }, benchDb: null, log: () => undefined });
    const login = await bare.operator.login({ operator: "Bob", pin: "246810" });
    if (!login.ok) throw new Error("login failed");
    expect(() => bare.operator.listAlerts({ token: login.token })).toThrow(expect.objectContaining({ code: "unavailable" }) as Error);
    expect(() => bare.operator.auditSessions({ token: login.token, filter: {} })).toThrow(expect.objectContaining({ code: "unavailable" }) as Error);
    await bare.close();
  });
});
