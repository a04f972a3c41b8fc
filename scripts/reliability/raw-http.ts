// Figure: malformed raw HTTP and WebSocket requests against a running `kiosk serve` (issue 13,
// finding 1 and part 3): seeded request lines, targets (unparsable URLs, bad percent-encoding,
// traversal, huge paths), headers (Host, Origin, lengths, encodings), upgrades (bad keys, versions,
// client ids) and bodies (invalid, huge, truncated JSON), sent over raw TCP, 16 at a time. Counted:
// crashes (uncaught errors, the server no longer answering), internal errors (HTTP 500), and
// whether every request got an answer or a clean close.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DataPack } from "../../tools/data/datapack.ts";
import { KioskApp } from "../../runtime/kiosk/app.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import { packExtras } from "../../runtime/kiosk/node/pack-extras.ts";
import { SimulatedPaymentTerminal } from "../../runtime/kiosk/payment.ts";
import { startKioskServer } from "../../runtime/kiosk/node/server.ts";
import { Examples, figure, info, type Rng, Rng as RngClass, type RunOptions, type SectionResult } from "./common.ts";

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "CONNECT", "G\u00c9T", "", "GET GET", "POST\t"];
const VERSIONS = ["HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/9.9", "HTTP/1.1x", "HTTP/", ""];

function target(rng: Rng): string {
  const junk = (): string => Array.from({ length: rng.range(1, 12) }, () => `%${rng.int(256).toString(16).padStart(rng.chance(0.2) ? 1 : 2, "0").toUpperCase()}`).join("");
  return rng.pick([
    () => "http://[",
    () => "http://[::1",
    () => "//%",
    () => "%",
    () => "/api/systems/%E0%A4%A",
    () => `/api/systems/${junk()}`,
    () => `/api/sessions/${junk()}/end`,
    () => `/api/tickets/${junk()}`,
    () => `/${junk()}`,
    () => "/api/../../../etc/passwd",
    () => "/..%2f..%2f..%2fetc%2fpasswd",
    () => "/assets/app.js.map",
    () => `/${"a/".repeat(rng.range(100, 3000))}`,
    () => "/api/progress?client=%",
    () => `/api/progress?client=${"x".repeat(rng.range(0, 80))}`,
    () => "*",
    () => "http://evil.example/api/status",
    () => "/api/status",
    () => "/api/ask",
    () => "/api/purchase",
    () => "/api/operator/login",
    () => "/\u0000",
    () => "/api/systems/marta?x=%",
    () => `/${"é".repeat(rng.range(1, 50))}`,
  ])();
}

function headers(rng: Rng, port: number, body: string): string[] {
  const out: string[] = [];
  const host = rng.weighted<string | null>([
    [6, `127.0.0.1:${port}`],
    [1, "evil.example"],
    [1, ""],
    [1, "["],
    [1, null],
    [1, `localhost:${port}`],
    [1, "127.0.0.1:99999"],
  ]);
  if (host !== null) out.push(`Host: ${host}`);
  if (rng.chance(0.3)) out.push(`Origin: ${rng.pick(["http://evil.example", "null", "%%%", `http://127.0.0.1:${port}`, "http://["])}`);
  if (rng.chance(0.5)) out.push(`Content-Type: ${rng.pick(["application/json", "text/plain", "application/json; charset=utf-8", "", "application/x-www-form-urlencoded"])}`);
  const length = rng.weighted<string | null>([
    [5, String(Buffer.byteLength(body))],
    [1, "-1"],
    [1, "abc"],
    [1, "999999999"],
    [1, String(Buffer.byteLength(body) + 10)],
    [2, null],
  ]);
  if (length !== null) out.push(`Content-Length: ${length}`);
  if (rng.chance(0.1)) out.push("Transfer-Encoding: chunked");
  if (rng.chance(0.25)) {
    out.push(`Upgrade: ${rng.pick(["websocket", "WebSocket", "h2c", ""])}`, `Connection: ${rng.pick(["Upgrade", "upgrade, keep-alive", "close"])}`);
    out.push(`Sec-WebSocket-Version: ${rng.pick(["13", "8", "99", ""])}`);
    if (rng.chance(0.7)) out.push(`Sec-WebSocket-Key: ${rng.pick(["dGhlIHNhbXBsZSBub25jZQ==", "", "not base64", "x".repeat(200)])}`);
  }
  if (rng.chance(0.1)) out.push(`X-Kiosk-Client: ${rng.pick(["client-aaaaaaaaaaaaaaaa", "%", "x".repeat(300)])}`);
  if (rng.chance(0.05)) out.push(`X-Long: ${"y".repeat(rng.range(1000, 20_000))}`);
  if (rng.chance(0.05)) out.push("Bad Header Without Colon");
  return out;
}

function body(rng: Rng): string {
  return rng.pick([
    () => "",
    () => "{",
    () => "not json",
    () => JSON.stringify({ system: "marta", events: [{ type: "freetext_input", text: "x" }] }),
    () => JSON.stringify({ system: "atlantis", events: [] }),
    () => JSON.stringify({ sessionId: "%", paymentMethod: "x" }),
    () => `{"a":${"[".repeat(2000)}${"]".repeat(2000)}}`,
    () => JSON.stringify({ system: "marta", events: [{ type: "freetext_input", text: "z".repeat(rng.range(1000, 90_000)) }] }),
    () => "\u0000\u0001\u0002",
    () => JSON.stringify({ operator: "x", pin: "1" }),
  ])();
}

/** One raw request: send it (whole, or cut short), read until close or 2 s. Returns the status or null. */
function send(port: number, bytes: Buffer, cutAt: number | null): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      resolve(m ? Number(m[1]) : null);
    };
    socket.on("data", (d) => {
      answer += d.toString("latin1");
      if (answer.length > 256) finish();
    });
    socket.on("end", finish);
    socket.on("error", finish);
    socket.setTimeout(2000, finish);
    socket.write(cutAt === null ? bytes : bytes.subarray(0, cutAt), () => {
      if (cutAt !== null) socket.end();
    });
  });
}

async function alive(port: number): Promise<boolean> {
  const status = await send(port, Buffer.from(`GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`), null);
  return status === 200;
}

export async function rawHttp(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const rng = new RngClass(`${options.seed}:raw-http`);
  const total = options.quick ? 1_500 : 10_000;
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-raw-http-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>kiosk</title>");
  writeFileSync(path.join(dir, "assets", "app.js.map"), "{}");
  const ledger = Ledger.open(":memory:");
  const logs: string[] = [];
  const app = new KioskApp({ pack, extras: packExtras(pack), ledger, payment: new SimulatedPaymentTerminal(), clock: () => new Date(2026, 2, 9, 14, 0, 0), log: (m) => logs.push(m) });
  const server = await startKioskServer({ backend: app, staticDir: dir, port: 0, log: (m) => logs.push(m) });
  let uncaught = 0;
  const onUncaught = (): void => {
    uncaught++;
  };
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  const statuses: Record<string, number> = {};
  const internal = new Examples<Record<string, unknown>>(10);
  let deadChecks = 0;
  let sent = 0;
  try {
    const next = async (): Promise<void> => {
      while (sent < total) {
        const i = sent++;
        const r = rng.fork(`req:${i}`);
        const b = body(r);
        const lines = [`${r.pick(METHODS)} ${target(r)} ${r.pick(VERSIONS)}`, ...headers(r, server.port, b)];
        const bytes = Buffer.from(`${lines.join("\r\n")}\r\n\r\n${b}`, r.chance(0.1) ? "latin1" : "utf8");
        const cut = r.chance(0.1) ? r.int(bytes.length) : null;
        const status = await send(server.port, bytes, cut);
        const key = status === null ? "no answer (closed)" : `${Math.floor(status / 100)}xx`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (status === 500) internal.add({ request: lines[0]?.slice(0, 120), headers: lines.slice(1, 4) });
        if (i % 500 === 499 && !(await alive(server.port))) deadChecks++;
      }
    };
    await Promise.all(Array.from({ length: 16 }, next));
    if (!(await alive(server.port))) deadChecks++;
  } finally {
    process.off("uncaughtException", onUncaught);
    process.off("unhandledRejection", onUncaught);
    await server.close();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
  options.log(`raw http: ${sent} requests`);
  return {
    id: "http",
    title: "Malformed raw HTTP / WebSocket requests",
    figures: [
      info("http.requests", "malformed raw requests sent", sent),
      figure("http.crashes", "crashes (uncaught errors, server stopped answering)", uncaught + deadChecks, { op: "eq", value: 0 }, { of: `${sent} requests` }),
      figure("http.internal_errors", "internal errors (HTTP 500)", internal.count, { op: "eq", value: 0 }),
    ],
    details: { statuses, internalExamples: internal.items, logLines: logs.slice(0, 10) },
    ms: performance.now() - t0,
  };
}
