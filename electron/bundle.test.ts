// Builds the Electron bundles with electron/build.ts and runs the real dist main.cjs under Node
// with a stand-in `electron` module (no Electron binary here): the window, protocol and IPC wiring,
// the runtime inside the bundle (data pack, rule policy, ledger via the external better-sqlite3)
// and the preload bundle's shape are all exercised.
import { fork, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, SHARED_DATA_DIR } from "../test/paths.ts";
import { KIOSK_CSP } from "../runtime/kiosk/csp.ts";
import { writeTinyGguf } from "../models/testing/tiny-gguf.ts";
import { buildOptions } from "./build.ts";
import { INVOKE_CHANNELS, OPERATOR_CHANNELS } from "./channels.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-bundle-"));

/**
 * A time zone in which it is now about 14:00, so the kiosk (which runs on the real clock here) is
 * within every system's service hours whenever the test runs (Etc/GMT-N is N hours ahead of UTC).
 */
function afternoonTimeZone(now = new Date()): string {
  const ahead = 14 - now.getUTCHours();
  return ahead === 0 ? "Etc/GMT" : `Etc/GMT${ahead > 0 ? "-" : "+"}${Math.abs(ahead)}`;
}
const out = path.join(dir, "dist", "electron");

const STUB = String.raw`
const handlers = new Map();
let protocolHandler;
let headersHandler;
let resolveReady;
const ready = new Promise((r) => (resolveReady = r));
const windows = [];
let menu = "default";
const switches = [];
let permissionCheck;
const contents = () => ({ send() {}, isDestroyed: () => false, on() {}, setWindowOpenHandler() {}, closeDevTools() {} });
class BrowserWindow {
  constructor(opts) { this.opts = opts; this.webContents = contents(); this.handlers = {}; windows.push(this); }
  on(name, fn) { (this.handlers[name] ??= []).push(fn); } once() {} show() {} isMinimized() { return false; } restore() {} focus() {} removeMenu() {}
  loadURL(url) { this.url = url; return Promise.resolve(); }
  static getAllWindows() { return windows; }
}
module.exports = {
  app: {
    getPath: () => process.env.STUB_USERDATA,
    on() {},
    requestSingleInstanceLock: () => true,
    whenReady: () => ready,
    commandLine: { appendSwitch: (name) => switches.push(name) },
    quit() {},
    exit(code) { console.log("EXIT " + code); process.exit(code); },
  },
  BrowserWindow,
  Menu: { setApplicationMenu: (m) => (menu = m === null ? "none" : "set") },
  ipcMain: { handle: (c, h) => handlers.set(c, h), removeHandler() {} },
  protocol: { registerSchemesAsPrivileged() {}, handle: (s, h) => (protocolHandler = h) },
  session: { defaultSession: { webRequest: { onHeadersReceived: (h) => (headersHandler = h) }, setPermissionRequestHandler() {}, setPermissionCheckHandler: (h) => (permissionCheck = h), setDevicePermissionHandler() {} } },
};
setTimeout(async () => {
  resolveReady();
  await new Promise((r) => setTimeout(r, 20));
  const ev = { senderFrame: { url: "kiosk://app/index.html", parent: null } };
  const call = (channel, ...args) => handlers.get(channel)(ev, ...args);
  const result = {};
  result.channels = [...handlers.keys()].sort();
  result.window = { url: windows[0].url, kiosk: windows[0].opts.kiosk, webPreferences: windows[0].opts.webPreferences };
  result.menu = menu;
  const close = { prevented: false, preventDefault() { this.prevented = true; } };
  for (const fn of windows[0].handlers.close ?? []) fn(close);
  result.closeRefused = close.prevented;
  result.status = await call("kiosk:status");
  const ask = await call("kiosk:ask", { system: "marta", events: [
    { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
    { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
    { type: "passenger_count_changed", adults: 1 } ] });
  result.ask = { ok: ask.ok, purchasable: ask.value && ask.value.purchasable };
  result.purchase = await call("kiosk:purchase", { sessionId: ask.value.sessionId, paymentMethod: "breeze_card" });
  result.bad = await call("kiosk:ask", { system: "marta" });
  // Typed words go through the passenger-language layer (riders in words: words-to-numbers).
  const typed = await call("kiosk:ask", { system: "marta", events: [{ type: "freetext_input", text: "Two adults from Airport to Five Points please" }] });
  result.typed = { ok: typed.ok, error: typed.ok ? null : typed.error };
  result.login = await call("kiosk:operator:login", { operator: "Op", pin: "2580" });
  result.badLogin = await call("kiosk:operator:login", { operator: "Op", pin: "x" });
  const res = await protocolHandler({ url: "kiosk://app/index.html" });
  result.index = { status: res.status, csp: res.headers.get("content-security-policy"), body: await res.text() };
  let headers;
  headersHandler({ responseHeaders: {} }, (r) => (headers = r.responseHeaders));
  result.headerCsp = headers["Content-Security-Policy"];
  result.switches = switches;
  result.audioCheck = [permissionCheck(null, "media", "kiosk://app", { mediaType: "audio" }), permissionCheck(null, "media", "kiosk://app", { mediaType: "video" })];
  const spoken = await call("kiosk:speak", { text: "Headset mode is on.", language: "en" });
  result.speak = spoken.ok && spoken.value.spoken ? { engine: spoken.value.engine, riff: Buffer.from(spoken.value.audio, "base64").subarray(0, 4).toString("latin1") } : spoken;
  result.badSpeak = await call("kiosk:speak", { text: "", language: "en" });
  console.log("RESULT " + JSON.stringify(result));
  process.exit(0);
}, 0);
`;

beforeAll(async () => {
  for (const options of buildOptions()) await build({ ...options, outdir: out, logLevel: "silent" });
  mkdirSync(path.join(dir, "stub", "electron"), { recursive: true });
  writeFileSync(path.join(dir, "stub", "electron", "index.js"), STUB);
  mkdirSync(path.join(dir, "renderer"), { recursive: true });
  writeFileSync(path.join(dir, "renderer", "index.html"), "<!doctype html><title>kiosk</title>");
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Electron bundles", () => {
  it("main.cjs starts the kiosk: hardened window on kiosk://app, IPC answering, a sale in the ledger", () => {
    const ledger = path.join(dir, "user", "ledger.sqlite");
    const run = spawnSync(
      process.execPath,
      [path.join(out, "main.cjs"), "--ledger", ledger, "--renderer", path.join(dir, "renderer"), "--framebooks", path.join(REPO_ROOT, "framebooks")],
      {
        env: { ...process.env, TZ: afternoonTimeZone(), NODE_PATH: [path.join(dir, "stub"), path.join(REPO_ROOT, "node_modules")].join(path.delimiter), METRO_DATA_DIR: SHARED_DATA_DIR, STUB_USERDATA: path.join(dir, "user") },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    const line = run.stdout.split("\n").find((l) => l.startsWith("RESULT "));
    expect(line, run.stderr + run.stdout).toBeDefined();
    const result = JSON.parse(line!.slice("RESULT ".length));
    expect(result.channels).toEqual([...Object.values(INVOKE_CHANNELS), ...Object.values(OPERATOR_CHANNELS)].sort());
    // The operator console is wired: a PIN login answers (no PIN is set up in this user folder).
    expect(result.login).toEqual({ ok: true, value: { ok: false, reason: "not_configured", retryAfterMs: 0, attemptsLeft: 0 } });
    expect(result.badLogin).toMatchObject({ ok: false, error: { kind: "rejected", code: "rejected" } });
    expect(result.window).toMatchObject({ url: "kiosk://app/index.html", kiosk: true, webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, devTools: false } });
    expect(result.window.webPreferences.preload).toBe(path.join(out, "preload.cjs"));
    expect(result.status).toMatchObject({ ok: true, value: { assistant: "rule", benchRunning: false, message: null, model: null, salesAvailable: true } });
    expect(result.ask).toEqual({ ok: true, purchasable: true });
    expect(result.typed).toEqual({ ok: true, error: null });
    expect(result.purchase).toMatchObject({ ok: true, value: { ok: true, ticket: { origin: "Airport", destination: "Five Points", total: 2.5 } } });
    expect(result.bad).toMatchObject({ ok: false, error: { kind: "rejected" } });
    expect(result.index).toEqual({ status: 200, csp: KIOSK_CSP, body: "<!doctype html><title>kiosk</title>" });
    expect(result.headerCsp).toEqual([KIOSK_CSP]);
    // Kiosk mode: no application menu (no Ctrl+W / Ctrl+Q accelerators), window close refused (Alt+F4).
    expect(result.menu).toBe("none");
    expect(result.closeRefused).toBe(true);
    // Headset speech over IPC: a WAV rendered in the main process by the installed espeak-ng; bad input refused.
    expect(result.speak).toEqual({ engine: "espeak-ng", riff: "RIFF" });
    expect(result.badSpeak).toMatchObject({ ok: false, error: { kind: "rejected" } });
    // Audio outputs can be chosen (labels, setSinkId); the camera cannot. Linux: Speech Dispatcher for the loudspeaker.
    expect(result.audioCheck).toEqual([true, false]);
    expect(result.switches).toEqual(process.platform === "linux" ? ["enable-speech-dispatcher"] : []);
  });

  it("model-worker.cjs is the model process compiled: run as a child process, it answers the kiosk's protocol and loads a model", async () => {
    // As in the packaged app, node_modules is beside the bundle: import() has no NODE_PATH.
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    const gguf = writeTinyGguf(path.join(dir, "tiny.gguf"), { chatTemplate: "{% for m in messages %}{{ m.content }}{% endfor %}", corpus: "a kiosk sells tickets", merges: 20, seed: 3 });
    const worker = fork(path.join(out, "model-worker.cjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, NODE_PATH: path.join(REPO_ROOT, "node_modules") } });
    const replies: unknown[] = [];
    worker.on("message", (m) => replies.push(m));
    const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
    worker.send({ id: 1, type: "ping" });
    worker.send({ id: 2, type: "complete", request: { prompt: "x" } });
    await expect.poll(() => replies.length, { timeout: 20_000 }).toBe(2);
    expect(replies).toEqual([
      { id: 1, ok: true, value: "pong" },
      { id: 2, ok: false, error: { name: "Error", message: "the model is not loaded in this process" } },
    ]);
    // Loading runs node-llama-cpp in the bundle (a require() of it fails: ERR_REQUIRE_ASYNC_MODULE).
    worker.send({ id: 3, type: "load", options: { model: gguf.file, threads: 1, gpu: false, engine: { contextSize: 256 } } });
    await expect.poll(() => replies.length, { timeout: 60_000 }).toBe(3);
    expect(replies[2]).toMatchObject({ id: 3, ok: true, value: { info: { file: gguf.file } } });
    worker.send({ id: 4, type: "unload" });
    expect(await exited).toBe(0);
    // The model runtime is loaded on first use, with import(): an ES module with top-level await,
    // which require() cannot load (models/llama-cpp.ts).
    const bundle = readFileSync(path.join(out, "model-worker.cjs"), "utf8");
    expect(bundle).toContain('import("node-llama-cpp")');
    expect(bundle).not.toContain('require("node-llama-cpp")');
  });

  it("preload.cjs is self-contained: it requires nothing but electron", () => {
    const code = readFileSync(path.join(out, "preload.cjs"), "utf8");
    const required = [...code.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect([...new Set(required)]).toEqual(["electron"]);
    expect(code).toContain("exposeInMainWorld");
  });
});
