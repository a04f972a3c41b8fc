// GTFS-Realtime Service Alerts ingestion, with feeds built by the same library the kiosk decodes
// them with: good, partial, unknown, malformed, stale, differential — and a poller whose source fails.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import GtfsRealtimeBindings from "gtfs-realtime-bindings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { SHARED_DATA_DIR, SHARED_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { alertReading } from "../kiosk/notice-reading.ts";
import { activeDisruptions } from "./active.ts";
import { buildGtfsIdIndex, loadGtfsIdIndex } from "./gtfs-ids.ts";
import { readFeedSource, readGtfsFeed } from "../../tools/gtfs/index.ts";
import { systemFromFeed } from "../../tools/gtfs/to-system.ts";
import { SystemData } from "../../tools/data/system.ts";
import { decodeFeed, feedAlertId, GtfsFeedError, mapFeedAlerts } from "./gtfs-rt.ts";
import { FeedPoller, ingestFeed, type IngestResult } from "./ingest.ts";
import { localIso } from "./model.ts";
import { AlertStore } from "./store.ts";

const rt = GtfsRealtimeBindings.transit_realtime;
type IAlert = GtfsRealtimeBindings.transit_realtime.IAlert;

const pack = new DataPack(SHARED_DATA_DIR);
const bart = pack.system("bart");
const beijing = pack.system("beijing");
const bartIndex = loadGtfsIdIndex(pack.root, bart);
const NOW = new Date(2026, 2, 9, 14, 0, 0);
const nowSec = Math.floor(NOW.getTime() / 1000);

const text = (en: string, es?: string) => ({ translation: [{ text: en, language: "en" }, ...(es ? [{ text: es, language: "es" }] : [])] });

function feed(entities: { id: string; alert?: IAlert; isDeleted?: boolean }[], header: { timestamp?: number | null; incrementality?: number } = {}): Uint8Array {
  const message = rt.FeedMessage.create({
    header: {
      gtfsRealtimeVersion: "2.0",
      incrementality: header.incrementality ?? rt.FeedHeader.Incrementality.FULL_DATASET,
      ...(header.timestamp === null ? {} : { timestamp: header.timestamp ?? nowSec - 30 }),
    },
    entity: entities.map((e) => rt.FeedEntity.create(e)),
  });
  return rt.FeedMessage.encode(message).finish();
}

const closureAlert: IAlert = {
  informedEntity: [{ stopId: "Embarcadero" }],
  effect: rt.Alert.Effect.NO_SERVICE,
  cause: rt.Alert.Cause.POLICE_ACTIVITY,
  severityLevel: rt.Alert.SeverityLevel.SEVERE,
  activePeriod: [{ start: nowSec - 3600, end: nowSec + 3 * 3600 }],
  headerText: text("Embarcadero closed", "Embarcadero cerrada"),
  descriptionText: text("Police activity. Use Montgomery St.", "Actividad policial."),
};
const yellowWorks: IAlert = {
  informedEntity: [{ routeId: "yellow", stopId: "Concord" }, { routeId: "yellow", stopId: "ANTC" }, { routeId: "yellow", stopId: "BART-PITT" }],
  effect: rt.Alert.Effect.NO_SERVICE,
  cause: rt.Alert.Cause.MAINTENANCE,
  activePeriod: [{ start: nowSec - 600, end: nowSec + 86_400 }],
  headerText: text("Yellow Line: no service between Concord and Antioch"),
};
const delay: IAlert = {
  informedEntity: [{ routeId: "Red Line" }],
  effect: rt.Alert.Effect.SIGNIFICANT_DELAYS,
  cause: rt.Alert.Cause.TECHNICAL_PROBLEM,
  headerText: text("Red Line delays of 15 minutes"),
};

describe("GTFS ids from the pack's data/gtfs files", () => {
  it("maps GTFS route ids, line names, stop names, agency codes and the pack's ids", () => {
    expect(bartIndex.route("yellow")).toBe("yellow");
    expect(bartIndex.route("Yellow Line")).toBe("yellow");
    expect(bartIndex.stop("Embarcadero")).toBe("BART-EMBR");
    expect(bartIndex.stop("EMBR")).toBe("BART-EMBR");
    expect(bartIndex.stop("BART-EMBR")).toBe("BART-EMBR");
    expect(bartIndex.stop("Narnia")).toBeUndefined();
    const bj = loadGtfsIdIndex(pack.root, beijing);
    expect(bj.route("1")).toBe("1");
    expect(bj.stop("Guomao")).toMatch(/^BJM-/);
  });
});

describe("mapping a feed to alerts", () => {
  it("a good feed: a station closure, a section of a line under works, a delay — with times, severity and both languages", () => {
    const mapped = mapFeedAlerts(decodeFeed(feed([{ id: "a1", alert: closureAlert }, { id: "a2", alert: yellowWorks }, { id: "a3", alert: delay }])), { system: bart, index: bartIndex, feed: "test.pb", now: NOW });
    expect(mapped.problems).toEqual([]);
    expect(mapped.fullDataset).toBe(true);
    const [closure, works, late] = mapped.alerts;
    expect(closure).toMatchObject({
      id: feedAlertId("bart", "test.pb", "a1"),
      type: "station_closure",
      severity: "critical",
      stations: ["BART-EMBR"],
      valid_from: localIso(new Date((nowSec - 3600) * 1000)),
      valid_until: localIso(new Date((nowSec + 3 * 3600) * 1000)),
      text: { en: "Embarcadero closed. Police activity. Use Montgomery St.", es: "Embarcadero cerrada. Actividad policial." },
      source: { kind: "gtfs-rt", feed: "test.pb", entity: "a1" },
    });
    expect(works).toMatchObject({ type: "planned_maintenance", lines: ["yellow"], segment: { from_station: "BART-ANTC", to_station: "BART-CONC" }, stations: [] });
    // In the line's own order (the pack lists the Yellow Line from Antioch).
    expect(works!.segment!.stations).toEqual(["BART-ANTC", "BART-PCTR", "BART-PITT", "BART-NOC", "BART-CONC"]);
    // No severity in the feed: the framebook's mapping for major_delay (warning).
    expect(late).toMatchObject({ type: "major_delay", severity: "warning", lines: ["red"], valid_from: null, valid_until: null });
  });

  it("the informed entities come first; the words only refine them (a section of the route), and unread words touch only its trips", () => {
    const routeOnly: IAlert = {
      informedEntity: [{ routeId: "yellow" }],
      effect: rt.Alert.Effect.NO_SERVICE,
      cause: rt.Alert.Cause.MAINTENANCE,
      activePeriod: [{ start: nowSec - 600, end: nowSec + 86_400 }],
      headerText: text("Yellow Line: no trains between Concord and Pittsburg/Bay Point"),
    };
    const vague: IAlert = { ...routeOnly, effect: rt.Alert.Effect.UNKNOWN_EFFECT, headerText: text("Trains will stop running in the affected area because of police activity.") };
    const [section, unread] = mapFeedAlerts(decodeFeed(feed([{ id: "s1", alert: routeOnly }, { id: "s2", alert: vague }])), { system: bart, index: bartIndex, feed: "test.pb", now: NOW }).alerts;
    const sectionReading = alertReading(section!, bart, localIso(NOW));
    // The route is the scope; the words narrow it to the section between the stations they name.
    expect(sectionReading).toMatchObject({ lines: [], unread: false });
    expect(sectionReading.tracks.map((pair) => [...pair].sort().join("|")).sort()).toEqual(["BART-CONC|BART-NOC", "BART-NOC|BART-PITT"]);
    // Words it cannot map, unconfirmed (nobody read the feed): only the route's trips are referred.
    expect(alertReading(unread!, bart, localIso(NOW))).toMatchObject({ unread: true, unreadLines: ["yellow"], decision: null });
  });

  it("an imported system's alerts name its own feed's ids: a platform's stop_id is its station, a route_id its line", () => {
    const reading = readGtfsFeed(readFeedSource(path.join(SHARED_DIR, "gtfs", "hyderabad")));
    const imported = systemFromFeed(reading.feed!, { id: "hyderabad" }).system!;
    const hyderabad = new SystemData({ id: "hyderabad", stations: imported.stations, lines: imported.lines, edges: imported.edges, directed: true, fares: imported.fares!, faresPy: imported.fares, policies: [], framebook: imported.framebook, framebookPy: imported.framebook });
    const index = buildGtfsIdIndex(hyderabad, []);
    const alert: IAlert = { ...closureAlert, informedEntity: [{ stopId: "AME3" }, { routeId: "BLUE" }], headerText: text("Ameerpet: lifts under maintenance") };
    const mapped = mapFeedAlerts(decodeFeed(feed([{ id: "h1", alert }])), { system: hyderabad, index, feed: "hmrl.pb", now: NOW });
    expect(mapped.problems).toEqual([]);
    expect(mapped.alerts[0]).toMatchObject({ stations: ["AME"], lines: ["BLUE"] });
  });

  it("a partial entity keeps what it can map and says what it left out", () => {
    const alert = { ...closureAlert, informedEntity: [{ stopId: "Embarcadero" }, { stopId: "Atlantis" }, { routeId: "purple" }] };
    const mapped = mapFeedAlerts(decodeFeed(feed([{ id: "p", alert }])), { system: bart, index: bartIndex, feed: "f", now: NOW });
    expect(mapped.alerts.map((a) => a.stations)).toEqual([["BART-EMBR"]]);
    expect(mapped.problems).toEqual([{ entity: "p", kind: "partial", message: "not lines or stations of bart, left out: stop_id 'Atlantis', route_id 'purple'" }]);
  });

  it("an entity of unknown lines and stations is skipped with a clear error, still counted as present", () => {
    const alert = { ...closureAlert, informedEntity: [{ stopId: "Times Sq-42 St" }, { routeId: "A" }] };
    const mapped = mapFeedAlerts(decodeFeed(feed([{ id: "u", alert }, { id: "a1", alert: closureAlert }])), { system: bart, index: bartIndex, feed: "f", now: NOW });
    expect(mapped.alerts.map((a) => a.id)).toEqual([feedAlertId("bart", "f", "a1")]);
    expect(mapped.presentIds).toEqual(new Set([feedAlertId("bart", "f", "u"), feedAlertId("bart", "f", "a1")]));
    expect(mapped.problems).toEqual([{ entity: "u", kind: "unknown_entity", message: "no informed entity is a line or station of bart: stop_id 'Times Sq-42 St', route_id 'A'" }]);
  });

  it("skips alerts whose periods are over, and reports one without any text", () => {
    const over = { ...closureAlert, activePeriod: [{ start: nowSec - 7200, end: nowSec - 3600 }] };
    const mute = { ...closureAlert, headerText: null, descriptionText: null };
    const mapped = mapFeedAlerts(decodeFeed(feed([{ id: "o", alert: over }, { id: "m", alert: mute }])), { system: bart, index: bartIndex, feed: "f", now: NOW });
    expect(mapped.alerts).toEqual([]);
    expect(mapped.problems).toEqual([{ entity: "m", kind: "invalid", message: "the alert has no header_text or description_text" }]);
  });

  it("malformed bytes are refused as such", () => {
    expect(() => decodeFeed(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]))).toThrow(GtfsFeedError);
    expect(() => decodeFeed(new TextEncoder().encode("<html>502 Bad Gateway</html>"))).toThrow(/not a (valid )?GTFS-Realtime FeedMessage/);
    expect(() => decodeFeed(new Uint8Array())).toThrow("the feed is empty");
  });
});

describe("ingesting feeds never removes active alerts on a bad feed", () => {
  const gid = (entity: string): string => feedAlertId("bart", "https://example.invalid/alerts.pb", entity);
  const ingest = (store: AlertStore, bytes: Uint8Array, now = NOW): IngestResult => ingestFeed(store, bytes, { system: bart, index: bartIndex, feed: "https://example.invalid/alerts.pb", who: "feed-bot", now, maxAgeSec: 600 });
  const activeIds = (store: AlertStore): string[] => activeDisruptions(store.current("bart"), { system: "bart", now: localIso(NOW), primaryLanguage: "en" }).map((d) => d.id);

  it("adds, updates, keeps and ends alerts as the feed says; bad feeds change nothing", () => {
    const store = AlertStore.open(":memory:");
    const first = ingest(store, feed([{ id: "a1", alert: closureAlert }, { id: "a2", alert: yellowWorks }]));
    expect(first).toMatchObject({ added: [gid("a1"), gid("a2")], updated: [], ended: [], alertEntities: 2, problems: [] });
    expect(activeIds(store)).toEqual([gid("a1"), gid("a2")]);

    // Malformed, stale, undated: an error, and the alerts in force stay.
    const before = JSON.stringify(store.list());
    expect(() => ingest(store, new TextEncoder().encode("garbage that is not protobuf"))).toThrow(expect.objectContaining({ kind: "malformed" }));
    expect(() => ingest(store, feed([], { timestamp: nowSec - 3600 }))).toThrow(/the feed is stale: its timestamp .* is 3600 s old \(at most 600 s accepted\)/);
    expect(() => ingest(store, feed([], { timestamp: null }))).toThrow(/no timestamp/);
    expect(() => ingest(store, feed([], { timestamp: nowSec + 3600 }))).toThrow(/ahead of this kiosk's clock/);
    expect(JSON.stringify(store.list())).toBe(before);

    // a1 now names only unknown stops: reported, and its earlier alert stays. a2 changed; a3 is new.
    const unknownA1 = { ...closureAlert, informedEntity: [{ stopId: "Atlantis" }] };
    const changedA2 = { ...yellowWorks, severityLevel: rt.Alert.SeverityLevel.INFO };
    const second = ingest(store, feed([{ id: "a1", alert: unknownA1 }, { id: "a2", alert: changedA2 }, { id: "a3", alert: delay }]));
    expect(second).toMatchObject({ added: [gid("a3")], updated: [gid("a2")], unchanged: [], ended: [] });
    expect(second.problems.map((p) => p.kind)).toEqual(["unknown_entity"]);
    expect(store.get(gid("a1"))!.ended_at).toBeNull();

    // A full-dataset feed without a2: it ended. Unchanged a3 is left alone.
    const third = ingest(store, feed([{ id: "a1", alert: closureAlert }, { id: "a3", alert: delay }]));
    expect(third).toMatchObject({ added: [], updated: [], unchanged: [gid("a1"), gid("a3")], ended: [gid("a2")] });
    expect(store.get(gid("a2"))).toMatchObject({ ended_by: "feed-bot", end_reason: "no longer in the feed" });

    // A differential feed only ends what it deletes.
    const fourth = ingest(store, feed([{ id: "a3", isDeleted: true }], { incrementality: rt.FeedHeader.Incrementality.DIFFERENTIAL }));
    expect(fourth.ended).toEqual([gid("a3")]);
    expect(activeIds(store)).toEqual([gid("a1")]);
    expect(store.auditLog("bart").map((a) => `${a.action} ${a.alert_id}`)).toEqual([
      `import ${gid("a1")}`,
      `import ${gid("a2")}`,
      `import ${gid("a2")}`,
      `import ${gid("a3")}`,
      `end ${gid("a2")}`,
      `end ${gid("a3")}`,
    ]);
    store.close();
  });

  it("an operator's own alerts are never ended by a feed", () => {
    const store = AlertStore.open(":memory:");
    ingest(store, feed([{ id: "a1", alert: closureAlert }]));
    const own = { ...store.get(gid("a1"))!.alert, id: "mine", source: { kind: "operator" as const } };
    store.add(own, "alice");
    ingest(store, feed([]));
    expect(store.current("bart").map((r) => r.alert.id)).toEqual(["mine"]);
    store.close();
  });
});

describe("alerts of different systems and feeds never meet", () => {
  const marta = pack.system("marta");
  const martaIndex = loadGtfsIdIndex(pack.root, marta);
  const martaDelay: IAlert = {
    informedEntity: [{ routeId: "red" }],
    effect: rt.Alert.Effect.SIGNIFICANT_DELAYS,
    headerText: text("Red Line delays"),
  };

  it("BART's entity 1 (Embarcadero closed) stays when MARTA's feed brings its own entity 1 (delays)", () => {
    const store = AlertStore.open(":memory:");
    const bartFeed = "https://bart.example.invalid/alerts.pb";
    const martaFeed = "https://marta.example.invalid/alerts.pb";
    ingestFeed(store, feed([{ id: "1", alert: closureAlert }]), { system: bart, index: bartIndex, feed: bartFeed, who: "feed-bot", now: NOW });
    const martaResult = ingestFeed(store, feed([{ id: "1", alert: martaDelay }]), { system: marta, index: martaIndex, feed: martaFeed, who: "feed-bot", now: NOW });
    expect(martaResult).toMatchObject({ added: [feedAlertId("marta", martaFeed, "1")], updated: [], ended: [], problems: [] });
    expect(store.current("bart").map((r) => [r.alert.id, r.alert.type, r.alert.stations])).toEqual([[feedAlertId("bart", bartFeed, "1"), "station_closure", ["BART-EMBR"]]]);
    expect(feedAlertId("bart", bartFeed, "1")).toMatch(/^gtfs:bart:[0-9a-f]{8}:1$/);
    // The closure still blocks a trip into Embarcadero.
    expect(activeDisruptions(store.current("bart"), { system: "bart", now: localIso(NOW), primaryLanguage: "en" }).map((d) => d.station_id)).toEqual(["BART-EMBR"]);
    // A second feed of one system with the same entity id is its own alert too, and a full-dataset import of one ends nothing of the other.
    const other = "file:///var/feeds/bart-elevators.pb";
    ingestFeed(store, feed([{ id: "1", alert: delay }]), { system: bart, index: bartIndex, feed: other, who: "feed-bot", now: NOW });
    ingestFeed(store, feed([]), { system: bart, index: bartIndex, feed: other, who: "feed-bot", now: NOW });
    expect(store.current("bart").map((r) => r.alert.id)).toEqual([feedAlertId("bart", bartFeed, "1")]);
  });

  it("an entity id the alert id cannot hold is hashed, still per system and feed", () => {
    const long = "x".repeat(200);
    expect(feedAlertId("bart", "f", long)).toMatch(/^gtfs:bart:[0-9a-f]{8}:[0-9a-f]{16}$/);
    expect(feedAlertId("bart", "f", "a b/ü")).not.toBe(feedAlertId("marta", "f", "a b/ü"));
    expect(feedAlertId("bart", "f", "1")).not.toBe(feedAlertId("bart", "g", "1"));
  });
});

describe("polling a feed URL", () => {
  let server: Server;
  let url: string;
  let answer: { status: number; body: Uint8Array } = { status: 200, body: feed([{ id: "a1", alert: closureAlert }]) };
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(answer.status, { "content-type": "application/x-protobuf" });
      res.end(Buffer.from(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts.pb`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("stores what a good poll brings, and keeps it through a 503, a malformed body and a stale feed", async () => {
    const store = AlertStore.open(":memory:");
    const results: IngestResult[] = [];
    const errors: string[] = [];
    const poller = new FeedPoller(store, { url, intervalMs: 60_000, system: bart, index: bartIndex, who: "poller", clock: () => NOW, maxAgeSec: 600, onResult: (r) => results.push(r), onError: (e) => errors.push(e.message) });
    await poller.pollOnce();
    expect(results.map((r) => r.added)).toEqual([[feedAlertId("bart", url, "a1")]]);
    for (const bad of [
      { status: 503, body: new TextEncoder().encode("busy") },
      { status: 200, body: new TextEncoder().encode("<html>oops</html>") },
      { status: 200, body: feed([], { timestamp: nowSec - 86_400 }) },
    ]) {
      answer = bad;
      await poller.pollOnce();
    }
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/cannot fetch http:\/\/127\.0\.0\.1:\d+\/alerts\.pb: HTTP 503/);
    expect(errors[1]).toMatch(/GTFS-Realtime FeedMessage/);
    expect(errors[2]).toMatch(/stale/);
    expect(store.current("bart").map((r) => r.alert.id)).toEqual([feedAlertId("bart", url, "a1")]);
    await poller.stop();
    store.close();
  });

  it("polls at its interval until stopped", async () => {
    answer = { status: 200, body: feed([{ id: "a1", alert: closureAlert }]) };
    const store = AlertStore.open(":memory:");
    let polls = 0;
    const poller = new FeedPoller(store, { url, intervalMs: 20, system: bart, index: bartIndex, who: "poller", clock: () => NOW, maxAgeSec: 600, onResult: () => polls++ });
    poller.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await poller.stop();
    const seen = polls;
    expect(seen).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(polls).toBe(seen);
    store.close();
  });
});
