// Signed distribution on a real kiosk runtime (issue 18, part 3): the kiosk polls a back office over
// HTTP (the real routes; publications kept in memory here, in PostgreSQL in distribution.pg.test.ts),
// verifies, validates, applies and reports. A tampered, unsigned, invalid or replayed publication
// never becomes active, and the kiosk keeps selling on what it had.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import type { KioskEvent } from "../tools/data/schemas.ts";
import { envelopeFor, signEnvelope, type PublicationEnvelope, type PublicationKind, type PublicationPoll, type PublicationResult, type SignedPublication } from "../runtime/fleet/publication.ts";
import { hashPin } from "../runtime/operator/pin.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { startBackOfficeServer, type RunningBackOffice } from "./backoffice/server.ts";
import { createKioskRuntime, type KioskRuntime } from "./runtime.ts";
import { validateAlert } from "../runtime/alerts/model.ts";
import { saleBoundsFromPack } from "./backoffice/plausible.ts";

const TOKEN = "fleet-test-token-0123456789";
const PIN_HASH = await hashPin("246810", { N: 1024, r: 8, p: 1 });
const NOW = new Date(2026, 2, 9, 14, 0);
const keys = generateKeyPairSync("ed25519");
const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const SENIORS_FREE = original.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."');
const martaTrip: KioskEvent[] = [
  { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
  { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
  { type: "passenger_count_changed", adults: 1, seniors: 1 },
];
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

/** A back office's publications in memory, with the results kiosks reported. */
class MemoryPublications {
  readonly list: SignedPublication[] = [];
  /** What a network attacker slips into every answer besides the back office's own publications. */
  readonly injected: unknown[] = [];
  readonly results = new Map<number, PublicationResult>();
  private versions = new Map<string, number>();

  add(kind: PublicationKind, system: string, content: string, change: (p: SignedPublication) => SignedPublication = (p) => p, version?: number): SignedPublication {
    const v = version ?? (this.versions.get(`${kind}:${system}`) ?? 0) + 1;
    this.versions.set(`${kind}:${system}`, Math.max(v, this.versions.get(`${kind}:${system}`) ?? 0));
    const envelope: PublicationEnvelope = envelopeFor({ kind, system, version: v, content, published_at: new Date().toISOString(), publisher: "Ops Desk" });
    const p = change({ id: this.list.length + 1, envelope, signature: signEnvelope(envelope, keys.privateKey) });
    this.list.push(p);
    return p;
  }
  pending = async (have: PublicationPoll["have"]): Promise<SignedPublication[]> => [
    ...this.list.filter((p) => p.envelope.version > (have.find((h) => h.kind === p.envelope.kind && h.system === p.envelope.system)?.version ?? 0)),
    ...(this.injected as SignedPublication[]),
  ];
  /** Kept only for the publication held under that id with what the kiosk says it read (as the PostgreSQL store does). */
  recordResult = async (id: number, result: PublicationResult): Promise<boolean> => {
    const held = this.list.find((p) => p.id === id);
    const read = result.publication;
    if (!held || held.envelope.kind !== read.kind || held.envelope.system !== read.system || held.envelope.version !== read.version || held.envelope.sha256 !== read.sha256) return false;
    this.results.set(id, result);
    return true;
  };
  report = async (): Promise<never[]> => [];
}


let office: RunningBackOffice;
let pubs: MemoryPublications;
let runtime: KioskRuntime;
let n = 0;

async function startKiosk(sub: string): Promise<KioskRuntime> {
  return createKioskRuntime({
    pack: testPack(),
    ledger: path.join(sub, "ledger.sqlite"),
    operatorDir: path.join(sub, "operator"),
    pin: { hash: PIN_HASH },
    benchDb: null,
    alertsDb: path.join(sub, "alerts.sqlite"),
    auditDb: path.join(sub, "audit.sqlite"),
    clock: () => NOW,
    replication: { kioskId: "kiosk-1", url: office.url, token: TOKEN, idleMs: 60_000 },
    distribution: { publicKey: keys.publicKey, intervalMs: 60_000 },
    log: () => undefined,
  });
}

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-distribution-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  pubs = new MemoryPublications();
  office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()), store: { ingest: async (b) => ({ acknowledged: b.records.map((r) => r.key), inserted: 0 }), schemaVersion: async () => 2 }, publications: pubs, token: TOKEN, port: 0, log: () => {} });
  runtime = await startKiosk(path.join(dir, String(++n)));
});
afterEach(async () => {
  await runtime.close();
  await office.close();
});

const fare = async (): Promise<number | undefined> => (await runtime.backend.ask({ system: "marta", events: martaTrip })).state.fare_quote?.total;
const poll = async (): Promise<void> => {
  await runtime.distribution!.pollOnce();
};

describe("signed framebooks on a kiosk", () => {
  it("applies a signed framebook: the next session's fare changes, audited as the back office, reported applied", async () => {
    expect(await fare()).toBe(3.75);
    pubs.add("framebook", "marta", SENIORS_FREE);
    await poll();
    expect(await fare()).toBe(2.5);
    expect(pubs.results.get(1)).toMatchObject({ kioskId: "kiosk-1", outcome: "applied", reasons: [], activeVersion: 1 });
    expect(runtime.framebooks.audit().at(-1)).toMatchObject({ who: "backoffice (Ops Desk)", system: "marta", action: "apply" });
    expect(runtime.distribution!.status().applied).toMatchObject([{ kind: "framebook", system: "marta", version: 1, publicationId: 1 }]);
  });

  it("rejects tampered content (hash_mismatch) and flipped signature bytes (bad_signature); the active framebook stays and the kiosk sells", async () => {
    pubs.add("framebook", "marta", SENIORS_FREE.replace("ride free", "ride free (tampered)"), (p) => ({ ...p, envelope: { ...p.envelope, content: p.envelope.content.replace("(65+)", "(18+)") } }));
    pubs.add("framebook", "marta", SENIORS_FREE, (p) => {
      const sig = Buffer.from(p.signature!, "base64");
      sig[0] = sig[0]! ^ 0x80;
      return { ...p, signature: sig.toString("base64") };
    });
    const before = runtime.framebooks.active("marta").version;
    await poll();
    expect(pubs.results.get(1)).toMatchObject({ outcome: "rejected", reasons: ["hash_mismatch"], activeVersion: null });
    expect(pubs.results.get(2)).toMatchObject({ outcome: "rejected", reasons: ["bad_signature"], activeVersion: null });
    expect(runtime.framebooks.active("marta").version).toBe(before);
    expect(runtime.framebooks.audit()).toEqual([]);
    const asked = await runtime.backend.ask({ system: "marta", events: martaTrip });
    expect(asked.state.fare_quote?.total).toBe(3.75);
    expect(await runtime.backend.purchase({ sessionId: asked.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: true });
  });

  it("rejects an unsigned publication and a signed but invalid framebook (with file, line and field), leaving the active one", async () => {
    pubs.add("framebook", "marta", SENIORS_FREE, (p) => ({ ...p, signature: null }));
    pubs.add("framebook", "marta", SENIORS_FREE.replace('currency_code: "USD"', 'currency_code: "EUR"'));
    await poll();
    expect(pubs.results.get(1)).toMatchObject({ outcome: "rejected", reasons: ["unsigned"] });
    const invalid = pubs.results.get(2)!;
    expect(invalid).toMatchObject({ outcome: "rejected", reasons: ["invalid"] });
    expect(invalid.issues.length).toBeGreaterThan(0);
    expect(invalid.issues[0]).toMatchObject({ file: "backoffice-framebook-marta-v2.yaml", line: expect.any(Number), field: expect.stringContaining("currency") });
    expect(await fare()).toBe(3.75);
    expect(runtime.framebooks.active("marta").source).toBe("data-pack");
  });

  it("refuses a replayed older version as stale, also after a restart, and a system it does not serve", async () => {
    const v1 = pubs.add("framebook", "marta", SENIORS_FREE);
    pubs.add("framebook", "marta", SENIORS_FREE.replace("ride free.", "ride free today."));
    await poll();
    expect(pubs.results.get(2)).toMatchObject({ outcome: "applied", activeVersion: 2 });
    const activeV2 = runtime.framebooks.active("marta").version;
    // A restart keeps what was applied: nothing is re-applied, and the old signed v1 replayed is stale.
    const sub = path.dirname(runtime.framebooks.dir);
    await runtime.close();
    runtime = await startKiosk(sub);
    await poll();
    expect(runtime.framebooks.audit().filter((e) => e.action === "apply")).toHaveLength(2);
    // The signed v1 replayed by someone between kiosk and back office, under an id of its own.
    pubs.injected.push({ ...v1, id: 1005 });
    pubs.add("framebook", "atlantis", "x: 1");
    const handled = await runtime.distribution!.pollOnce();
    expect(handled.map((h) => [h.id, h.result.outcome, h.result.reasons])).toEqual([
      [3, "rejected", ["unknown_system"]],
      [1005, "rejected", ["stale"]],
    ]);
    expect(pubs.results.get(3)).toMatchObject({ outcome: "rejected", reasons: ["unknown_system"] });
    expect(runtime.framebooks.active("marta").version).toBe(activeV2);
  });

  it("follows signed versions only: a replay under a higher id or garbage with id 1006 never makes it skip a later real publication, and their reports are neither recorded nor blocking", async () => {
    const v1 = pubs.add("framebook", "marta", SENIORS_FREE);
    await poll();
    const garbage = { id: 1006, envelope: { ...v1.envelope, version: 999, content: "x: 1" }, signature: v1.signature };
    pubs.injected.push({ ...v1, id: 1005 }, garbage, { id: 1007, nothing: "here" });
    const first = await runtime.distribution!.pollOnce();
    expect(first.map((h) => [h.id, h.result.reasons])).toEqual([
      [1005, ["stale"]],
      [1006, ["hash_mismatch"]],
    ]);
    // Their reports name publications the back office does not hold under those ids: refused, kept, not resent.
    expect([...pubs.results.keys()]).toEqual([1]);
    expect(runtime.distribution!.status()).toMatchObject({ undelivered: 0, reportsRefused: 2 });
    // The same items again are not handled or reported again; the next real publication is applied.
    pubs.add("framebook", "marta", SENIORS_FREE.replace("ride free.", "ride free today."));
    const second = await runtime.distribution!.pollOnce();
    expect(second.map((h) => [h.id, h.result.outcome, h.result.reasons])).toEqual([[2, "applied", []]]);
    expect(runtime.distribution!.status().applied).toMatchObject([{ kind: "framebook", system: "marta", version: 2, publicationId: 2 }]);
    expect(pubs.results.get(2)).toMatchObject({ outcome: "applied", publication: { kind: "framebook", system: "marta", version: 2 } });
  });

  it("keeps a report it could not deliver and delivers it on the next poll", async () => {
    pubs.add("framebook", "marta", SENIORS_FREE);
    const record = pubs.recordResult;
    pubs.recordResult = async () => {
      throw new Error("database down");
    };
    await expect(runtime.distribution!.pollOnce()).rejects.toThrow(/503/);
    expect(await fare()).toBe(2.5);
    expect(runtime.distribution!.status().undelivered).toBe(1);
    pubs.recordResult = record;
    await poll();
    expect(pubs.results.get(1)).toMatchObject({ outcome: "applied" });
    expect(runtime.distribution!.status().undelivered).toBe(0);
  });
});

describe("signed alert sets on a kiosk", () => {
  it("applies a published alert set: the next session's disruption_feed has it and the sale across the closure is refused; the next set withdraws it", async () => {
    expect((await runtime.backend.ask({ system: "bart", events: tubeTrip })).purchasable).toBe(true);
    pubs.add("alerts", "bart", JSON.stringify([tube]));
    await poll();
    expect(pubs.results.get(1)).toMatchObject({ outcome: "applied", activeVersion: 1 });
    const asked = await runtime.backend.ask({ system: "bart", events: tubeTrip });
    expect(asked.purchasable).toBe(false);
    runtime.backend.endSession(asked.sessionId);
    const login = await runtime.operator.login({ operator: "Alice Ops", pin: "246810" });
    if (!login.ok) throw new Error("login failed");
    const feed = runtime.operator
      .auditTimeline({ token: login.token, sessionId: asked.sessionId })
      .entries.filter((e) => e.kind === "tool" && e.title.startsWith("disruption_feed"))
      .flatMap((e) => e.lines)
      .join(" ");
    expect(feed).toContain("bo:bart:tube (planned_maintenance, critical)");
    expect(runtime.operator.listAlerts({ token: login.token, system: "bart" }).audit[0]).toMatchObject({ who: "backoffice (Ops Desk)", action: "add", alertId: "bo:bart:tube" });

    // An invalid set changes nothing (file, line, field named); an empty set withdraws the alert.
    pubs.add("alerts", "bart", `- id: tube\n  system: bart\n  type: planned_maintenance\n  stations: [Nowhere]\n  text: {en: closed}\n`);
    await poll();
    expect(pubs.results.get(2)).toMatchObject({ outcome: "rejected", reasons: ["invalid"], issues: [{ field: "[0].stations[0]", line: 4 }] });
    expect((await runtime.backend.ask({ system: "bart", events: tubeTrip })).purchasable).toBe(false);
    pubs.add("alerts", "bart", "[]");
    await poll();
    expect(pubs.results.get(3)).toMatchObject({ outcome: "applied", activeVersion: 3 });
    expect((await runtime.backend.ask({ system: "bart", events: tubeTrip })).purchasable).toBe(true);
  });

  it("a set for one system never touches a local alert of another that has the same id, nor a local one of its own", async () => {
    const store = runtime.alerts!;
    const local = (id: string, system: "marta" | "bart", stations: string[]) => {
      const v = validateAlert({ id, system, type: "station_closure", stations, text: { en: "closed" } }, { system: (s) => runtime.framebooks.systemData(s) });
      if (!v.ok) throw new Error("invalid");
      return v.alert;
    };
    store.add(local("tube", "marta", ["Five Points"]), "Alice Ops");
    store.add(local("embr", "bart", ["Embarcadero"]), "Alice Ops");
    pubs.add("alerts", "bart", JSON.stringify([tube, { id: "embr", system: "bart", type: "station_closure", stations: ["Montgomery St"], text: { en: "closed" } }]));
    await poll();
    expect(pubs.results.get(1)).toMatchObject({ outcome: "applied" });
    expect(store.get("tube")!.alert).toMatchObject({ system: "marta", stations: ["MARTA-FP"], source: { kind: "operator" } });
    expect(store.get("embr")!.alert).toMatchObject({ system: "bart", stations: ["BART-EMBR"], source: { kind: "operator" } });
    expect(store.get("bo:bart:tube")!.alert).toMatchObject({ system: "bart", source: { kind: "backoffice", id: "tube" } });
    expect(store.get("bo:bart:embr")!.alert).toMatchObject({ system: "bart", stations: ["BART-MONT"], source: { kind: "backoffice", id: "embr" } });
    // Withdrawn: only the back office's own alerts end; the local ones run on.
    pubs.add("alerts", "bart", "[]");
    await poll();
    expect([store.get("bo:bart:tube")!.ended_at, store.get("bo:bart:embr")!.ended_at].every((at) => at !== null)).toBe(true);
    expect([store.get("tube")!.ended_at, store.get("embr")!.ended_at]).toEqual([null, null]);
  });
});
