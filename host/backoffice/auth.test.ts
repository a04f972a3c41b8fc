// Who may act as a kiosk at the back office: a kiosk with its own token is bound to it, revocation
// always wins, the shared fleet token (deprecated) only serves kiosks that never had a token of their
// own; and a kiosk's token reads only its own publication results.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { hashKioskToken, kioskAuthorizer, newKioskToken } from "./auth.ts";
import { publicationRoute, type PublicationReport } from "./publications.ts";

const FLEET = "shared-fleet-token-0123456789abcdef";

function tokens(entries: Record<string, { token: string; revoked?: boolean }>) {
  return {
    kioskToken: async (kioskId: string) => {
      const entry = entries[kioskId];
      return entry ? { hash: hashKioskToken(entry.token), revoked: entry.revoked ?? false } : null;
    },
  };
}

describe("kiosk tokens", () => {
  const a = newKioskToken();
  const b = newKioskToken();
  const c = newKioskToken();
  const store = tokens({ "kiosk-a": { token: a }, "kiosk-b": { token: b }, "kiosk-c": { token: c, revoked: true } });

  it("a kiosk with its own token is bound to it: the shared token, another kiosk's or a wrong one is refused", async () => {
    const shared: string[] = [];
    const authorized = kioskAuthorizer(store, FLEET, (id) => shared.push(id));
    expect(await authorized("kiosk-a", a)).toBe(true);
    expect(await authorized("kiosk-a", FLEET)).toBe(false);
    expect(await authorized("kiosk-a", b)).toBe(false);
    expect(await authorized("kiosk-b", a)).toBe(false);
    expect(await authorized("kiosk-a", "")).toBe(false);
    expect(shared).toEqual([]);
  });

  it("revocation always wins: neither the revoked token nor the shared one is accepted for that kiosk", async () => {
    const authorized = kioskAuthorizer(store, FLEET);
    expect(await authorized("kiosk-c", c)).toBe(false);
    expect(await authorized("kiosk-c", FLEET)).toBe(false);
  });

  it("the shared token serves only kiosk ids without a token of their own, each use reported as deprecated", async () => {
    const shared: string[] = [];
    const authorized = kioskAuthorizer(store, FLEET, (id) => shared.push(id));
    expect(await authorized("kiosk-new", FLEET)).toBe(true);
    expect(await authorized("kiosk-new", a)).toBe(false);
    expect(shared).toEqual(["kiosk-new"]);
    // Without a fleet token configured, only kiosks with their own token may send.
    expect(await kioskAuthorizer(store, null)("kiosk-new", FLEET)).toBe(false);
    expect(await kioskAuthorizer(store, null)("kiosk-a", a)).toBe(true);
  });
});

describe("publication results", () => {
  const result = (kioskId: string) => ({ kioskId, outcome: "applied" as const, reasons: [], issues: [], activeVersion: 1, at: "2026-12-06T10:00:00.000Z", receivedAt: "2026-12-06T10:00:01.000Z" });
  const report: PublicationReport[] = [
    { id: 2, kind: "alerts", system: "bart", version: 2, sha256: "b".repeat(64), publishedAt: "2026-12-06T09:00:00.000Z", publisher: "Ops", results: [result("kiosk-a"), result("kiosk-b")] },
    { id: 1, kind: "framebook", system: "marta", version: 1, sha256: "a".repeat(64), publishedAt: "2026-12-05T09:00:00.000Z", publisher: "Ops", results: [result("kiosk-b")] },
  ];
  const request = (token: string): IncomingMessage => ({ method: "GET", headers: { authorization: `Bearer ${token}` } }) as unknown as IncomingMessage;
  const route = (kioskId: string, token: string) =>
    publicationRoute(request(token), new URL(`http://backoffice/v1/publications/report?kiosk=${kioskId}`), {
      store: { pending: async () => [], recordResult: async () => true, report: async () => report },
      authorized: async (id, given) => (id === "kiosk-a" && given === "token-a") || (id === "kiosk-b" && given === "token-b"),
      readBody: async () => ({}),
      fail: (status, message) => Object.assign(new Error(message), { status }),
    });

  it("a kiosk's token reads its own results only, never the rest of the fleet's", async () => {
    const answer = (await route("kiosk-a", "token-a"))!;
    const publications = (answer.body as { publications: PublicationReport[] }).publications;
    expect(publications.map((p) => [p.id, p.results.map((r) => r.kioskId)])).toEqual([
      [2, ["kiosk-a"]],
      [1, []],
    ]);
    await expect(route("kiosk-b", "token-a")).rejects.toMatchObject({ status: 403 });
  });
});
