import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import { validateAlert } from "../alerts/model.ts";
import type { SessionAudit } from "../audit/model.ts";
import { recordSession, trip } from "../audit/testing.ts";
import { FramebookStore } from "../framebook/store.ts";
import { alertDraft, framebookDraft } from "./drafts.ts";
import { replayBeforeApply, replayReportText } from "./replay.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const NOW = new Date(2026, 2, 9, 14, 0);
const martaText = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const seniorsFree = martaText.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."');

let dir: string;
let framebooks: FramebookStore;
let sessions: SessionAudit[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "replay-"));
  framebooks = new FramebookStore(pack, dir);
  const s = (id: string, passengers: Record<string, number>, system: SystemId = "marta", from = "MARTA-AP", to = "MARTA-FP") =>
    recordSession(pack, { sessionId: id, system, turns: [trip(from, to, passengers)], now: new Date(NOW.getTime() + Number(id.slice(1)) * 60_000) });
  // Newest first, as the audit store hands them out.
  sessions = (await Promise.all([s("m1", { adults: 1 }), s("m2", { adults: 1, seniors: 1 }), s("m3", { seniors: 2 }), s("m4", { adults: 2 })])).reverse();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("replay before apply", () => {
  it("a fare change: the sessions with seniors show the fares that would change, the others none", async () => {
    const v = framebooks.validate("marta", seniorsFree, "draft.yaml");
    expect(v.ok).toBe(true);
    const draft = pack.system("marta").withFramebook(v.framebook!, v.framebookPy);
    const report = await replayBeforeApply({ pack, sessions, ...framebookDraft((s) => framebooks.systemData(s), "marta", draft) });
    // Every answer announces the policy (a banner); only those with seniors change their fare.
    expect(report).toMatchObject({ sessions: 4, turns: 4, changedSessions: 4, changedTurns: 4, errors: [] });
    expect(report.byField).toEqual({ outcome: 0, action: 0, route: 0, fare: 2, banners: 4 });
    const fares = Object.fromEntries(report.first.map((d) => [d.sessionId, d.changes.find((c) => c.field === "fare") ?? null]));
    expect(fares).toEqual({
      m1: null,
      m2: { field: "fare", before: "3.75 USD", after: "2.50 USD" },
      m3: { field: "fare", before: "2.50 USD", after: "0.00 USD" },
      m4: null,
    });
    const text = replayReportText(report, "against the draft framebook");
    expect(text).toMatch(/^Replay of the last 4 passenger session\(s\) \(4 answers\) against the draft framebook: 4 answer\(s\) in 4 session\(s\) would change\.\nBy field: fare 2, banners 4\n/);
    expect(text).toContain("  fare: 3.75 USD  →  2.50 USD");
    expect(text).toContain("m2 (marta, ");
    // Each difference says whose trip it was and what it means for them, not only the changed text.
    expect(report.first.find((d) => d.sessionId === "m2")).toMatchObject({ trip: { origin: "MARTA-AP", destination: "MARTA-FP", riders: { adults: 1, children: 0, seniors: 1, disabled: 0 } }, effect: "fare" });
    expect(report.first.find((d) => d.sessionId === "m1")).toMatchObject({ effect: "notice" });
  });

  it("the same framebook changes nothing", async () => {
    const report = await replayBeforeApply({ pack, sessions, ...framebookDraft((s) => framebooks.systemData(s), "marta", pack.system("marta")) });
    expect(report).toMatchObject({ sessions: 4, changedTurns: 0, first: [] });
  });

  it("a draft closure: the answers across it lose their ticket and gain the advisory", async () => {
    const bart = await Promise.all([
      recordSession(pack, { sessionId: "b1", system: "bart", turns: [trip("BART-WOAK", "BART-EMBR")], now: NOW }),
      recordSession(pack, { sessionId: "b2", system: "bart", turns: [trip("BART-DALY", "BART-BALB")], now: NOW }),
    ]);
    const v = validateAlert(
      { id: "tube", system: "bart", type: "planned_maintenance", severity: "critical", segment: { from_station: "BART-WOAK", to_station: "BART-EMBR" }, valid_until: "2026-03-10T04:00", text: { en: "Transbay Tube closed." } },
      { system: (s) => pack.system(s) },
    );
    if (!v.ok) throw new Error("invalid");
    const report = await replayBeforeApply({ pack, sessions: bart, ...alertDraft((s) => pack.system(s), [], [{ alert: v.alert, ended_at: null }], NOW) });
    expect(report).toMatchObject({ sessions: 2, changedSessions: 2, byField: { outcome: 1, action: 1, route: 0, fare: 0, banners: 2 } });
    const [across, elsewhere] = report.first;
    expect(across).toMatchObject({ sessionId: "b1", trip: { origin: "BART-WOAK", destination: "BART-EMBR", riders: { adults: 1 } }, effect: "not_sold", changes: [{ field: "outcome", before: "route_and_fare_ready", after: "advisory_only" }, { field: "action", before: "prompt_purchase (ok)", after: "display_info (ok)" }, { field: "banners", before: "(none)" }] });
    // A trip elsewhere still sells; it only hears about the closure.
    expect(elsewhere).toMatchObject({ sessionId: "b2", effect: "notice", changes: [{ field: "banners", before: "(none)", after: "critical: Planned Maintenance" }] });
  });

  it("an empty audit says so", async () => {
    const report = await replayBeforeApply({ pack, sessions: [], ...framebookDraft((s) => pack.system(s), "marta", pack.system("marta")) });
    expect(replayReportText(report, "against the draft")).toMatch(/no stored passenger session/);
  });
});
