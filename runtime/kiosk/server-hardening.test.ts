// `kiosk serve` under raw, hostile requests (issue 13: findings 1 and 14, and the "Also" line):
// one bad request is a 4xx for that request and the server keeps serving; progress goes only to
// the client whose session it is; Host is checked on 0.0.0.0 too; source maps are never served.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { ProgressEventSchema, TicketLookupResultSchema, type ProgressEvent } from "./bridge.ts";
import { hostAllowed } from "./node/http-guards.ts";
import { startKioskServer, type RunningKioskServer } from "./node/server.ts";
import { askFromCase, testApp } from "./testing.ts";

const running: RunningKioskServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

function staticDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-static-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>kiosk</title>");
  writeFileSync(path.join(dir, "assets", "app.js"), "console.log(1)");
  writeFileSync(path.join(dir, "assets", "app.js.map"), '{"version":3,"sources":["secret.ts"]}');
  return dir;
}

async function serve(options: { host?: string; allowedHosts?: string[] } = {}): Promise<{ server: RunningKioskServer; app: ReturnType<typeof testApp>["app"]; logs: string[] }> {
  const { app } = testApp();
  const logs: string[] = [];
  const server = await startKioskServer({ backend: app, staticDir: staticDir(), host: options.host ?? "127.0.0.1", port: 0, log: (m) => logs.push(m), ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) });
  running.push(server);
  return { server, app, logs };
}

/** Send raw bytes, return what came back (until the server closes or 1 s passes). */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const done = (): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.on("data", (d) => (answer += d.toString("latin1")));
    socket.on("end", done);
    socket.on("error", done);
    socket.setTimeout(1000, done);
    socket.write(bytes);
  });
}

async function status(port: number, host = `127.0.0.1:${port}`): Promise<number> {
  const answer = await rawExchange(port, `GET /api/status HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
}

describe("malformed raw requests (findings 1 and 14)", () => {
  it("an upgrade with an unparsable target is a 400 on that connection; the server keeps serving", async () => {
    const { server } = await serve();
    const answer = await rawExchange(server.port, "GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(await status(server.port)).toBe(200);
    // The same target without an upgrade: 400 too, not a 500 with a stack trace.
    const plain = await rawExchange(server.port, `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
    expect(plain).toMatch(/^HTTP\/1\.1 400 /);
    expect(await status(server.port)).toBe(200);
  });

  it("bad percent-encoding is a 400, not a 500 logged with a stack trace", async () => {
    const { server, logs } = await serve();
    for (const target of ["/api/systems/%E0%A4%A", "/api/sessions/%E0%A4%A/end", "/%E0%A4%A", "/api/tickets/%ZZ"]) {
      const method = target.endsWith("/end") ? "POST" : "GET";
      const answer = await rawExchange(server.port, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(logs.filter((l) => /internal error/.test(l))).toEqual([]);
  });
});

describe("Host check bound to 0.0.0.0 (DNS rebinding)", () => {
  it("answers loopback names, IP literals and allowed names only", async () => {
    expect(hostAllowed("evil.example:8787", "0.0.0.0")).toBe(false);
    expect(hostAllowed("192.168.1.20:8787", "0.0.0.0")).toBe(true);
    expect(hostAllowed("[fe80::1]:8787", "0.0.0.0")).toBe(true);
    expect(hostAllowed("kiosk-7.station.local", "0.0.0.0", ["kiosk-7.station.local"])).toBe(true);
    expect(hostAllowed("192.168.1.20", "127.0.0.1")).toBe(false);
    expect(hostAllowed(undefined, "0.0.0.0")).toBe(false);
    const { server } = await serve({ host: "0.0.0.0", allowedHosts: ["kiosk-7.station.local"] });
    expect(await status(server.port, `evil.example:${server.port}`)).toBe(421);
    expect(await status(server.port, `127.0.0.1:${server.port}`)).toBe(200);
    expect(await status(server.port, `10.1.2.3:${server.port}`)).toBe(200);
    expect(await status(server.port, "kiosk-7.station.local")).toBe(200);
  });
});

function socket(port: number, client: string | null): Promise<{ ws: WebSocket; events: ProgressEvent[] } | "refused"> {
  const url = `ws://127.0.0.1:${port}/api/progress${client === null ? "" : `?client=${client}`}`;
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    const events: ProgressEvent[] = [];
    ws.on("message", (d: Buffer) => events.push(ProgressEventSchema.parse(JSON.parse(d.toString()))));
    ws.once("open", () => resolve({ ws, events }));
    ws.once("error", () => resolve("refused"));
  });
}

async function ask(port: number, client: string | null, body = askFromCase("MARTA-A-001")): Promise<{ sessionId: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/ask`, { method: "POST", headers: { "content-type": "application/json", ...(client ? { "x-kiosk-client": client } : {}) }, body: JSON.stringify(body) });
  return (await response.json()) as { sessionId: string };
}

describe("progress WebSocket: scoped to the client's own sessions, with a socket limit", () => {
  it("sends a client its own sessions' progress, and nothing of anyone else's", async () => {
    const { server } = await serve();
    const a = await socket(server.port, "client-aaaaaaaaaaaa");
    const b = await socket(server.port, "client-bbbbbbbbbbbb");
    if (a === "refused" || b === "refused") throw new Error("socket refused");
    const mine = await ask(server.port, "client-aaaaaaaaaaaa");
    const anonymous = await ask(server.port, null);
    await new Promise((r) => setTimeout(r, 50));
    expect(a.events.length).toBeGreaterThan(0);
    expect(new Set(a.events.map((e) => e.sessionId))).toEqual(new Set([mine.sessionId]));
    expect(b.events).toEqual([]);
    expect(a.events.some((e) => e.sessionId === anonymous.sessionId)).toBe(false);
    // A follow-up of the same session still reaches its client.
    await ask(server.port, "client-aaaaaaaaaaaa", { ...askFromCase("MARTA-A-001"), sessionId: mine.sessionId } as ReturnType<typeof askFromCase>);
    await new Promise((r) => setTimeout(r, 50));
    expect(b.events).toEqual([]);
    a.ws.close();
    b.ws.close();
  });

  it("refuses a socket without a client id, and more sockets than the limit", async () => {
    const { server } = await serve();
    expect(await socket(server.port, null)).toBe("refused");
    expect(await socket(server.port, "bad id!")).toBe("refused");
    const open: WebSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await socket(server.port, "client-cccccccccccc");
      if (s === "refused") throw new Error(`socket ${i} refused`);
      open.push(s.ws);
    }
    expect(await socket(server.port, "client-cccccccccccc")).toBe("refused");
    expect(server.pushClients("progress")).toBe(4);
    for (const ws of open) ws.close();
  });
});

describe("static files: no source maps", () => {
  it("serves the app's files but never a .map", async () => {
    const { server } = await serve();
    expect((await fetch(`http://127.0.0.1:${server.port}/assets/app.js`)).status).toBe(200);
    const map = await fetch(`http://127.0.0.1:${server.port}/assets/app.js.map`);
    expect(map.status).toBe(404);
    expect(await map.text()).not.toContain("secret.ts");
  });
});

describe("limits and tickets over HTTP", () => {
  it("a session past its limits is a 413 with the message; an issued ticket can be fetched again", async () => {
    const { server } = await serve();
    const base = `http://127.0.0.1:${server.port}/api/`;
    const post = (p: string, body: unknown): Promise<Response> => fetch(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const first = (await (await post("ask", askFromCase("MARTA-A-001"))).json()) as { sessionId: string };
    const big = { system: "marta", sessionId: first.sessionId, events: [{ type: "freetext_input", text: "x".repeat(40_000) }] };
    expect((await post("ask", big)).status).toBe(200);
    const over = await post("ask", big);
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ code: "session_bytes", error: expect.stringMatching(/start again/) });

    const answer = (await (await post("ask", askFromCase("MARTA-A-001"))).json()) as { sessionId: string };
    const bought = (await (await post("purchase", { sessionId: answer.sessionId, paymentMethod: "breeze_card", requestId: "req-http-000001" })).json()) as { ok: boolean; ticket: { ticketId: string } };
    expect(bought.ok).toBe(true);
    const lookup = TicketLookupResultSchema.parse(await (await fetch(`${base}tickets/${bought.ticket.ticketId}`)).json());
    expect(lookup).toMatchObject({ found: true, ticket: { ticketId: bought.ticket.ticketId }, voided: false });
  });
});
