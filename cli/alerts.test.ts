// `kiosk alerts` end to end in-process with a temporary store, and `kiosk serve` reading the same
// store: an operator's closure reaches the next passenger (advisory, no sale across it); ended, sales resume.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import GtfsRealtimeBindings from "gtfs-realtime-bindings";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { AskResultSchema, PurchaseResultSchema } from "../runtime/kiosk/bridge.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { AlertStore } from "../runtime/alerts/store.ts";
import { SessionAuditStore } from "../runtime/audit/store.ts";
import { recordSession, trip } from "../runtime/audit/testing.ts";
import { runKiosk } from "../test/cli.ts";
import { startServe } from "./serve.ts";

const rt = GtfsRealtimeBindings.transit_realtime;
const dir = mkdtempSync(path.join(tmpdir(), "alerts-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});
let n = 0;
const freshDb = (): string => path.join(dir, `alerts-${++n}.sqlite`);

const kiosk = runKiosk;

const closureFlags = ["--system", "bart", "--id", "tube", "--type", "planned_maintenance", "--severity", "critical", "--from-station", "West Oakland", "--to-station", "Embarcadero", "--from", "2026-03-09T06:00", "--until", "2026-03-10T04:00", "--text", "Transbay Tube closed: no service between West Oakland and Embarcadero.", "--translation", "es=Tubo Transbay cerrado."];

describe("kiosk alerts", () => {
  it("add requires an operator, stores the alert, lists it, ends it, and the history says who did what", async () => {
    const db = freshDb();
    const missing = await kiosk("alerts", "--alerts-db", db, "add", ...closureFlags);
    expect(missing.error?.message).toMatch(/--operator NAME is required: the audit log records who added the alert/);

    const added = await kiosk("alerts", "--alerts-db", db, "add", ...closureFlags, "--operator", "alice");
    // What the kiosk reads in it comes first: the operator sees what the kiosk will act on.
    expect(added.stdout).toBe("tube: the kiosk reads\n  - no trains between Embarcadero and West Oakland\nadded tube (bart, planned_maintenance, critical, until 2026-03-10T04:00:00) by alice\n");

    const list = await kiosk("alerts", "--alerts-db", db, "list", "--at", "2026-03-09T14:00");
    expect(list.stdout).toMatch(/tube\s+bart\s+active\s+planned_maintenance\s+critical\s+BART-WOAK–BART-EMBR\s+2026-03-09 06:00\s+2026-03-10 04:00\s+Transbay Tube closed/);
    const json = JSON.parse((await kiosk("alerts", "--alerts-db", db, "list", "--json", "--at", "2026-03-09T14:00")).stdout) as { alerts: { status: string; alert: { text: Record<string, string> } }[] };
    expect(json.alerts[0]).toMatchObject({ status: "active", alert: { text: { en: expect.stringContaining("Transbay"), es: "Tubo Transbay cerrado." } } });
    expect((await kiosk("alerts", "--alerts-db", db, "list", "--at", "2026-03-11T00:00")).stdout).toMatch(/^no current alerts/);

    const ended = await kiosk("alerts", "--alerts-db", db, "end", "tube", "--operator", "bob", "--reason", "work done");
    expect(ended.stdout).toBe("ended tube (bart) by bob\n");
    expect((await kiosk("alerts", "--alerts-db", db, "list", "--at", "2026-03-09T14:00")).stdout).toMatch(/^no current alerts/);
    expect((await kiosk("alerts", "--alerts-db", db, "list", "--all")).stdout).toMatch(/tube\s+bart\s+ended/);
    const history = await kiosk("alerts", "--alerts-db", db, "history");
    expect(history.stdout).toMatch(/alice\s+add\s+tube\s+bart/);
    expect(history.stdout).toMatch(/bob\s+end\s+tube\s+bart\s+work done/);
  });

  it("a file with a mistake adds nothing and names the entry and field; an alert needs an end time unless open-ended", async () => {
    const db = freshDb();
    const file = path.join(dir, "alerts.yaml");
    writeFileSync(
      file,
      [
        "alerts:",
        "  - { system: bart, type: crowd_advisory, valid_until: '2026-03-09T23:00', text: { en: Giants game tonight } }",
        "  - { system: bart, type: station_closure, stations: [BART-EMBR, Atlantis], valid_until: '2026-03-09T23:00', text: { en: Closed } }",
        "",
      ].join("\n"),
    );
    const bad = await kiosk("alerts", "--alerts-db", db, "add", file, "--operator", "alice");
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toBe(`${file}[1].stations[1]: unknown station 'Atlantis' for bart\nnothing was added\n`);
    const noEnd = await kiosk("alerts", "--alerts-db", db, "add", "--system", "bart", "--type", "crowd_advisory", "--text", "Crowds", "--operator", "alice");
    expect(noEnd.stderr).toMatch(/^alert\.valid_until: give the time the alert ends \(--until\)/);
    const open = await kiosk("alerts", "--alerts-db", db, "add", "--system", "bart", "--type", "crowd_advisory", "--text", "Crowds", "--open-ended", "--operator", "alice");
    expect(open.stdout).toMatch(/\nadded bart-crowd-advisory-\w+ \(bart, crowd_advisory, info, until ended\) by alice/);
    const store = AlertStore.open(db);
    expect(store.list().map((r) => r.alert.type)).toEqual(["crowd_advisory"]);
    store.close();
  });

  it("imports a GTFS-Realtime file; a stale one is refused and changes nothing", async () => {
    const db = freshDb();
    const feed = (timestamp: number): string => {
      const file = path.join(dir, `feed-${timestamp}.pb`);
      const message = rt.FeedMessage.create({
        header: { gtfsRealtimeVersion: "2.0", timestamp },
        entity: [
          {
            id: "e1",
            alert: { informedEntity: [{ stopId: "EMBR" }, { stopId: "Gotham" }], effect: rt.Alert.Effect.NO_SERVICE, headerText: { translation: [{ text: "Embarcadero closed", language: "en" }] } },
          },
        ],
      });
      writeFileSync(file, rt.FeedMessage.encode(message).finish());
      return file;
    };
    const fresh = feed(Math.floor(Date.now() / 1000) - 10);
    const ok = await kiosk("alerts", "--alerts-db", db, "import", fresh, "--system", "bart", "--operator", "ops");
    expect(ok.stdout).toMatch(/1 alert\(s\) in the feed of .* · 1 added, 0 updated, 0 unchanged, 0 ended\n {2}warning: entity e1: not lines or stations of bart, left out: stop_id 'Gotham'\n$/);
    const stale = await kiosk("alerts", "--alerts-db", db, "import", feed(Math.floor(Date.now() / 1000) - 7200), "--system", "bart", "--operator", "ops");
    expect(stale.error?.message).toMatch(/the feed is stale: .*; no alert was changed$/);
    const garbage = path.join(dir, "garbage.pb");
    writeFileSync(garbage, "this is not protobuf at all");
    expect((await kiosk("alerts", "--alerts-db", db, "import", garbage, "--system", "bart", "--operator", "ops")).error?.message).toMatch(/GTFS-Realtime FeedMessage.*no alert was changed$/);
    const store = AlertStore.open(db);
    // The alert's id carries its system and feed: gtfs:<system>:<feed hash>:<entity>.
    expect(store.current("bart").map((r) => [r.alert.id, r.alert.type, r.alert.stations])).toEqual([[expect.stringMatching(/^gtfs:bart:[0-9a-f]{8}:e1$/), "station_closure", ["BART-EMBR"]]]);
    store.close();
  });
});

describe("kiosk alerts add: what the kiosk reads, confirmed before it takes effect", () => {
  // Words an operator wrote with no line, station or section the kiosk can map (MARTA's own style,
  // "All rail service is suspended" is read; "service will stop" is not).
  const textOnly = ["--system", "marta", "--id", "vague", "--type", "major_delay", "--severity", "critical", "--from", "2026-03-09T06:00", "--until", "2026-03-10T04:00", "--text", "Due to police activity, trains will stop running in the affected area until further notice.", "--operator", "alice"];

  it("an alert whose words stop service somewhere the kiosk cannot map is not added without the operator's decision", async () => {
    const db = freshDb();
    const refused = await kiosk("alerts", "--alerts-db", db, "add", ...textOnly);
    expect(refused.stdout).toContain("vague: the kiosk reads\n  - NOT READ: the words say service stops, but not where — every trip of MARTA referred to staff while it is in force");
    expect(refused.stderr).toContain("vague.text: says service stops but not where the kiosk can map (give --line, --station or --from-station/--to-station)\nnothing was added (or decide with --if-unread refer|block|ignore");
    expect(refused.exitCode).toBe(1);
    const store = AlertStore.open(db);
    expect(store.current("marta")).toEqual([]);
    store.close();
    const wrong = await kiosk("alerts", "--alerts-db", db, "add", ...textOnly, "--if-unread", "maybe");
    expect(wrong.error?.message).toContain("--if-unread maybe: expected one of refer, block, ignore");
    const blocked = await kiosk("alerts", "--alerts-db", db, "add", ...textOnly, "--if-unread", "block");
    expect(blocked.stdout).toContain("  - NOT READ: the words say service stops, but not where — the operator blocks them: every trip of MARTA not sold while it is in force");
    expect(blocked.stdout).toMatch(/\nadded vague \(marta, major_delay, critical/);
    const stored = AlertStore.open(db);
    expect(stored.current("marta").map((r) => r.alert.if_unread)).toEqual(["block"]);
    stored.close();
  });

  it("the trips an unread alert may touch are those of its lines, and a readable alert keeps no decision", async () => {
    const db = freshDb();
    const onLine = await kiosk("alerts", "--alerts-db", db, "add", ...textOnly.map((x) => (x === "vague" ? "vague-gold" : x)), "--line", "gold", "--if-unread", "refer");
    expect(onLine.stdout).toContain("  - NOT READ: the words say service stops, but not where — trips on Gold Line referred to staff while it is in force");
    const readable = await kiosk("alerts", "--alerts-db", db, "add", "--system", "marta", "--id", "shut", "--type", "station_closure", "--station", "MARTA-AP", "--from", "2026-03-09T06:00", "--until", "2026-03-10T04:00", "--text", "Airport station closed.", "--operator", "alice", "--if-unread", "ignore");
    expect(readable.stdout).toContain("added shut (marta, station_closure");
    const store = AlertStore.open(db);
    expect(Object.fromEntries(store.current("marta").map((r) => [r.alert.id, r.alert.if_unread ?? null]))).toEqual({ "vague-gold": "refer", shut: null });
    store.close();
  });

  it("reads trains skipping stations and a lift out in the operator's words", async () => {
    const db = freshDb();
    const skip = await kiosk("alerts", "--alerts-db", db, "add", "--system", "marta", "--id", "skip", "--type", "planned_maintenance", "--severity", "warning", "--line", "blue", "--from", "2026-03-09T06:00", "--until", "2026-03-10T04:00", "--text", "TRACK REPLACEMENT [Blue] Indian Creek-bound trains skip East Lake, Decatur and Avondale", "--operator", "alice");
    expect(skip.stdout).toContain("skip: the kiosk reads\n  - trains pass without stopping: East Lake, Decatur, Avondale\n");
  });
});

describe("kiosk alerts add --preview", () => {
  it("replays the latest sessions with the alert in force (at its start) before adding it", async () => {
    const db = freshDb();
    const auditDb = path.join(dir, "audit.sqlite");
    const recent = new Date(Date.now() - 3_600_000); // within the audit's retention period
    const audit = SessionAuditStore.open(auditDb, { clock: () => recent });
    audit.put(await recordSession(testPack(), { sessionId: "across", system: "bart", turns: [trip("BART-WOAK", "BART-EMBR")], now: recent }));
    audit.close();
    const future = ["--from", "2030-03-11T14:00", "--until", "2030-03-12T04:00"];
    const flags = closureFlags.filter((_, i, all) => !["--from", "--until"].includes(all[i] ?? "") && !["--from", "--until"].includes(all[i - 1] ?? ""));
    const r = await kiosk("alerts", "--alerts-db", db, "add", ...flags, ...future, "--preview", "--audit-db", auditDb, "--operator", "alice");
    expect(r.stdout).toMatch(/^tube: the kiosk reads\n {2}- no trains between Embarcadero and West Oakland\nReplay of the last 1 passenger session\(s\) \(1 answers\) for bart with the new alert\(s\) in force at 2030-03-11T14:00:00: 1 answer\(s\) in 1 session\(s\) would change\./);
    expect(r.stdout).toContain("  action: prompt_purchase (ok)  →  display_info (ok)");
    expect(r.stdout).toMatch(/\nadded tube \(bart, planned_maintenance, critical, until 2030-03-12T04:00:00\) by alice\n$/);
  });
});

describe("kiosk serve reads the alert store for every new passenger session", () => {
  it("an operator's closure: the next passenger sees the advisory and cannot buy across it; ended, sales resume", async () => {
    const db = freshDb();
    const serve = await startServe({ pack: testPack(), port: 0, ledger: ":memory:", rendererDir: null, alertsDb: db, clock: () => new Date(TEST_NOW), log: () => undefined });
    try {
      const ask = async () => {
        const response = await fetch(new URL("api/ask", serve.server.url), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            system: "bart",
            events: [
              { type: "station_selected", field: "origin", value: "West Oakland", station_id: "BART-WOAK" },
              { type: "station_selected", field: "destination", value: "Embarcadero", station_id: "BART-EMBR" },
              { type: "passenger_count_changed", adults: 1 },
            ],
          }),
        });
        return AskResultSchema.parse(await response.json());
      };
      const buy = async (sessionId: string) => PurchaseResultSchema.parse(await (await fetch(new URL("api/purchase", serve.server.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ sessionId, paymentMethod: "contactless" }) })).json());

      expect((await ask()).purchasable).toBe(true);
      expect((await kiosk("alerts", "--alerts-db", db, "add", ...closureFlags, "--operator", "alice")).exitCode).toBeUndefined();
      const during = await ask();
      expect(during.purchasable).toBe(false);
      expect((during.state.advisory_banners ?? []).map((b) => `${b.severity} ${b.body}`).join("\n")).toMatch(/critical .*Transbay Tube closed/);
      expect((await buy(during.sessionId)).ok).toBe(false);

      await kiosk("alerts", "--alerts-db", db, "end", "tube", "--operator", "alice");
      const after = await ask();
      expect(after.purchasable).toBe(true);
      expect((await buy(after.sessionId)).ok).toBe(true);
    } finally {
      await serve.close();
    }
  });
});
