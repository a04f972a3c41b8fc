// Issue 13 as `kiosk serve` assembles it: the PIN lockout kept beside the operator config survives a
// restart of the server (finding 4), and `--allowed-host` reaches the Host check of a kiosk bound to
// 0.0.0.0 (DNS rebinding).
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OperatorLoginResultSchema } from "../runtime/kiosk/bridge.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { hashPin, pinStateFileFor, writeOperatorConfig } from "../runtime/operator/pin.ts";
import { buildProgram } from "./main.ts";
import { registerServeCommand, startServe, type RunningServe, type ServeOptions } from "./serve.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-serve-hardening-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serve(options: Partial<ServeOptions> = {}): Promise<RunningServe> {
  return startServe({ pack: testPack(), port: 0, ledger: ":memory:", rendererDir: null, operatorDir: path.join(dir, "framebooks"), log: () => undefined, ...options });
}

async function login(server: RunningServe, pin: string) {
  const response = await fetch(new URL("api/operator/login", server.server.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ operator: "alice", pin }),
  });
  return OperatorLoginResultSchema.parse(await response.json());
}

/** A GET with the Host header as given (fetch would set its own). */
function getWithHost(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/api/status", headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("kiosk serve: the PIN lockout survives a restart (finding 4)", () => {
  it("wrong PINs before a restart still count after it, and the lockout holds", async () => {
    const config = path.join(dir, "operator.json");
    writeOperatorConfig(config, { pinHash: await hashPin("9731", { N: 1024, r: 8, p: 1 }) });
    let server = await serve({ operatorConfig: config });
    try {
      expect(await login(server, "0000")).toMatchObject({ ok: false, reason: "wrong_pin", attemptsLeft: 2 });
      expect(await login(server, "0001")).toMatchObject({ ok: false, reason: "wrong_pin", attemptsLeft: 1 });
    } finally {
      await server.close();
    }
    server = await serve({ operatorConfig: config });
    try {
      // A fresh process would have had three guesses again; this one has one left.
      expect(await login(server, "0002")).toMatchObject({ ok: false, reason: "locked" });
      expect(await login(server, "9731")).toMatchObject({ ok: false, reason: "locked" });
    } finally {
      await server.close();
    }
    expect(pinStateFileFor(config)).toBe(path.join(dir, "operator-lockout.json"));
  });
});

describe("kiosk serve --host 0.0.0.0 --allowed-host NAME", () => {
  it("parses the flag", () => {
    // The program registers each command lazily (cli/commands.ts): register `serve` here.
    const program = buildProgram();
    registerServeCommand(program);
    const serveCommand = program.commands.find((c) => c.name() === "serve")!;
    serveCommand.parseOptions(["--host", "0.0.0.0", "--allowed-host", "kiosk-7.station.local", "kiosk-8.station.local"]);
    expect(serveCommand.opts()).toMatchObject({ host: "0.0.0.0", allowedHost: ["kiosk-7.station.local", "kiosk-8.station.local"] });
  });

  it("answers the allowed name and IP literals, and refuses any other name", async () => {
    const server = await serve({ host: "0.0.0.0", allowedHosts: ["kiosk-7.station.local"] });
    try {
      const port = server.server.port;
      expect(await getWithHost(port, `kiosk-7.station.local:${port}`)).toBe(200);
      expect(await getWithHost(port, `192.168.4.20:${port}`)).toBe(200);
      expect(await getWithHost(port, `evil.example:${port}`)).toBe(421);
    } finally {
      await server.close();
    }
  });
});
