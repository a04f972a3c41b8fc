// Back-office logins under attack, with stores standing in for PostgreSQL: failed logins are limited
// per address and per user, counted before the password is checked (so a burst cannot slip past),
// answered after a doubling delay, the password hash never runs on the event loop; the pages answer
// only Host names that cannot be rebound, and the session cookie is Secure behind a TLS proxy.
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { INGEST_PATH } from "../../runtime/fleet/protocol.ts";
import { hashPassword, LoginLimiter, verifyPassword } from "./auth.ts";
import { startBackOfficeServer, type RunningBackOffice } from "./server.ts";
import { saleBoundsFromPack } from "./plausible.ts";
import { testPack } from "../../runtime/kiosk/testing.ts";

const PASSWORD = "correct horse battery";
const HASH = hashPassword(PASSWORD);
let running: RunningBackOffice | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(extra: { host?: string; allowedHosts?: string[]; secureCookies?: boolean } = {}): Promise<RunningBackOffice> {
  running = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()),
    store: { ingest: async () => ({ acknowledged: [], inserted: 0 }), schemaVersion: async () => 2 },
    token: "t".repeat(32),
    pages: {
      store: { fleetOverview: async () => [], fleetCounts: async () => ({ kiosks: 0, stale: 0 }), userPasswordHash: async (user) => (user === "ops" ? HASH : null) },
      logins: { baseDelayMs: 1, maxDelayMs: 4 },
      ...(extra.secureCookies ? { secureCookies: true } : {}),
    },
    ...(extra.host ? { host: extra.host } : {}),
    ...(extra.allowedHosts ? { allowedHosts: extra.allowedHosts } : {}),
    port: 0,
    log: () => undefined,
  });
  return running;
}

/** A request with a Host header of our choosing (what a DNS-rebinding page would send). */
function requestWithHost(office: RunningBackOffice, method: string, pathname: string, host: string): Promise<{ status: number; cookie: string | undefined }> {
  return new Promise((resolve, reject) => {
    const body = method === "POST" ? new URLSearchParams({ user: "ops", password: PASSWORD }).toString() : "";
    const req = request({ host: "127.0.0.1", port: office.port, path: pathname, method, headers: { host, origin: `http://${host}`, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, cookie: res.headers["set-cookie"]?.[0] }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** POST /login from a given local address (127.0.0.0/8 is all loopback on Linux). */
function login(office: RunningBackOffice, user: string, password: string, from = "127.0.0.1"): Promise<number> {
  const body = new URLSearchParams({ user, password }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: office.port, path: "/login", method: "POST", localAddress: from, headers: { origin: `http://127.0.0.1:${office.port}`, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const tally = (statuses: number[]): Record<number, number> => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

describe("back-office logins", () => {
  it("40 wrong logins at once from one address: exactly 5 are checked, the rest refused (429)", async () => {
    const office = await start();
    const statuses = await Promise.all(Array.from({ length: 40 }, () => login(office, "ops", "guess")));
    expect(tally(statuses)).toEqual({ 401: 5, 429: 35 });
  });

  it("rotating addresses against one user: the user's limit holds", async () => {
    const office = await start();
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => login(office, "ops", `guess ${i}`, `127.0.0.${i + 2}`)));
    expect(tally(statuses)).toEqual({ 401: 5, 429: 25 });
    // Another user from a fresh address is unaffected.
    expect(await login(office, "somebody", "guess", "127.0.1.1")).toBe(401);
  });

  it("a right password gets in and takes its attempt back; wrong ones before it still count", async () => {
    const office = await start();
    for (let i = 0; i < 3; i++) expect(await login(office, "ops", "guess")).toBe(401);
    expect(await login(office, "ops", PASSWORD)).toBe(302);
    expect(await login(office, "ops", PASSWORD)).toBe(302);
    expect(await login(office, "ops", "guess")).toBe(401);
    expect(await login(office, "ops", "guess")).toBe(401);
    expect(await login(office, "ops", PASSWORD)).toBe(429);
  });
});

describe("the pages' Host allow-list and cookies", () => {
  it("a loopback-bound back office answers its pages for loopback names only; the kiosks' calls are not affected", async () => {
    const office = await start();
    expect((await requestWithHost(office, "GET", "/login", `127.0.0.1:${office.port}`)).status).toBe(200);
    expect((await requestWithHost(office, "GET", "/login", `localhost:${office.port}`)).status).toBe(200);
    for (const path of ["/login", "/", "/v1/kiosks", "/style.css"]) expect((await requestWithHost(office, "GET", path, "evil.example")).status, path).toBe(421);
    expect((await requestWithHost(office, "POST", "/login", "evil.example")).status).toBe(421);
    // A kiosk's bearer-token call is answered on its own terms (here: no token, 401).
    expect((await requestWithHost(office, "POST", INGEST_PATH, "backoffice.example")).status).toBe(401);
  });

  it("bound to the network: IP addresses and the allowed names only", async () => {
    const office = await start({ host: "0.0.0.0", allowedHosts: ["backoffice.example"] });
    expect((await requestWithHost(office, "GET", "/login", "backoffice.example")).status).toBe(200);
    expect((await requestWithHost(office, "GET", "/login", `192.0.2.7:${office.port}`)).status).toBe(200);
    expect((await requestWithHost(office, "GET", "/login", "evil.example")).status).toBe(421);
  });

  it("the session cookie is Secure when a TLS proxy serves the back office, and never without HttpOnly and SameSite", async () => {
    const plain = await start();
    const here = `127.0.0.1:${plain.port}`;
    const cookie = (await requestWithHost(plain, "POST", "/login", here)).cookie!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    await plain.close();
    running = undefined;
    const tls = await start({ secureCookies: true });
    expect((await requestWithHost(tls, "POST", "/login", `127.0.0.1:${tls.port}`)).cookie).toMatch(/HttpOnly; SameSite=Strict; Path=\/; Max-Age=1800; Secure$/);
  });
});

describe("the login limiter", () => {
  it("holds each failed answer twice as long as the one before, up to a cap, and says when to come back", () => {
    let now = 0;
    const limiter = new LoginLimiter(() => now, { limit: 5, windowMs: 60_000, baseDelayMs: 250, maxDelayMs: 1_000 });
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const gate = limiter.begin(["address a", "user ops"]);
      if (!gate.ok) throw new Error("refused too early");
      delays.push(gate.attempt.failureDelayMs());
      now += 1_000;
    }
    expect(delays).toEqual([250, 500, 1_000, 1_000, 1_000]);
    expect(limiter.begin(["address b", "user ops"])).toEqual({ ok: false, retryAfterS: 55 });
    now = 61_000;
    expect(limiter.begin(["address b", "user ops"]).ok).toBe(true);
  });
});

describe("the password check", () => {
  it("runs off the event loop: other work goes on while scrypt computes", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("event loop"));
    await verifyPassword(PASSWORD, HASH).then((ok) => order.push(`verified ${ok}`));
    expect(order).toEqual(["event loop", "verified true"]);
    expect(await verifyPassword("wrong", HASH)).toBe(false);
    expect(await verifyPassword(PASSWORD, "not a hash")).toBe(false);
  });
});
