import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIOSK_CSP } from "../runtime/kiosk/csp.ts";
import { rendererFileFor, rendererResponse } from "./app-protocol.ts";
import { chromiumSwitches, kioskRuntimeConfig, shellConfig } from "./config.ts";
import { metricsPortOf, shellFleet } from "./fleet.ts";
import { testApp, testPack } from "../runtime/kiosk/testing.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-shell-"));
const dist = path.join(dir, "dist");
mkdirSync(path.join(dist, "assets"), { recursive: true });
writeFileSync(path.join(dist, "index.html"), "<!doctype html>");
writeFileSync(path.join(dist, "assets", "a.js"), "1");
writeFileSync(path.join(dir, "secret.txt"), "secret");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("shell configuration", () => {
  const defaults = { appRoot: "/opt/kiosk", userData: "/home/k/.config/kiosk" };
  it("defaults to kiosk mode without devtools, ledger in userData", () => {
    expect(shellConfig([], {}, defaults)).toEqual({
      kiosk: true,
      devTools: false,
      dataDir: undefined,
      systemsDir: "/home/k/.config/kiosk/systems",
      ledger: "/home/k/.config/kiosk/ledger.sqlite",
      rendererDir: "/opt/kiosk/renderer/dist",
      operatorDir: "/opt/kiosk/framebooks",
      framebookStore: "/opt/kiosk/framebooks",
      operatorConfig: "/home/k/.config/kiosk/operator.json",
      benchDb: "/home/k/.config/kiosk/bench.sqlite",
      alertsDb: "/home/k/.config/kiosk/alerts.sqlite",
      auditDb: "/home/k/.config/kiosk/audit.sqlite",
      benchModel: undefined,
      model: undefined,
      assistant: "hybrid",
      warmState: undefined,
    });
  });
  it("takes the passenger assistant's model and mode from switches or the environment", () => {
    expect(shellConfig(["--model", "4b", "--assistant", "model"], {}, defaults)).toMatchObject({ model: "4b", assistant: "model" });
    // One word for who answers: `llm` (the mode's old name) means the model too; an unknown mode keeps hybrid.
    expect(shellConfig(["--model", "4b"], { KIOSK_ASSISTANT: "llm" }, defaults)).toMatchObject({ assistant: "model" });
    expect(shellConfig(["--model", "4b", "--assistant", "sentient"], {}, defaults)).toMatchObject({ assistant: "hybrid" });
    expect(shellConfig([], { KIOSK_MODEL: "/m/student.gguf" }, defaults)).toMatchObject({ model: "/m/student.gguf", assistant: "hybrid", warmState: "/home/k/.config/kiosk/model-warm.state" });
  });
  it("makes the kiosk runtime's config: the same host as kiosk serve, with the shell's files", () => {
    const shell = shellConfig(["--model", "4b", "--assistant", "model"], {}, defaults);
    const config = kioskRuntimeConfig(shell, testPack(), () => undefined);
    expect(config).toMatchObject({
      ledger: shell.ledger,
      operatorDir: "/opt/kiosk/framebooks",
      framebookStore: "/opt/kiosk/framebooks",
      pin: { file: "/home/k/.config/kiosk/operator.json" },
      benchDb: "/home/k/.config/kiosk/bench.sqlite",
      // The operator screen's service alerts and session audit work in the shell as under kiosk serve.
      alertsDb: "/home/k/.config/kiosk/alerts.sqlite",
      auditDb: "/home/k/.config/kiosk/audit.sqlite",
      assistant: { mode: "model", model: "4b", warmStateFile: "/home/k/.config/kiosk/model-warm.state" },
    });
    expect(kioskRuntimeConfig(shellConfig([], {}, defaults), testPack()).assistant).toBeNull();
  });
  it("headset mode's output: a label pattern from --headset-pattern or KIOSK_HEADSET_PATTERN, on to the screen's status", () => {
    expect(shellConfig([], {}, defaults).headsetPattern).toBeUndefined();
    const shell = shellConfig(["--headset-pattern", "front jack"], { KIOSK_HEADSET_PATTERN: "usb" }, defaults);
    expect(shell.headsetPattern).toBe("front jack");
    expect(shellConfig([], { KIOSK_HEADSET_PATTERN: "usb" }, defaults).headsetPattern).toBe("usb");
    expect(kioskRuntimeConfig(shell, testPack(), () => undefined).headsetPattern).toBe("front jack");
    expect(testApp({ headsetPattern: "front jack" }).app.status().headsetPattern).toBe("front jack");
    expect(testApp().app.status().headsetPattern).toBeUndefined();
  });
  it("headset speech: the engine from --speech-engine or KIOSK_SPEECH_ENGINE (auto by default; a mistyped one is logged, auto used)", () => {
    expect(kioskRuntimeConfig(shellConfig([], {}, defaults), testPack(), () => undefined).speechEngine).toBe("auto");
    expect(kioskRuntimeConfig(shellConfig(["--speech-engine", "espeak-ng"], { KIOSK_SPEECH_ENGINE: "none" }, defaults), testPack(), () => undefined).speechEngine).toBe("espeak-ng");
    expect(kioskRuntimeConfig(shellConfig([], { KIOSK_SPEECH_ENGINE: "none" }, defaults), testPack(), () => undefined).speechEngine).toBe("none");
    const logs: string[] = [];
    expect(kioskRuntimeConfig(shellConfig(["--speech-engine", "espeak"], {}, defaults), testPack(), (m) => logs.push(m)).speechEngine).toBe("auto");
    expect(logs).toEqual(["--speech-engine espeak: not one of auto, none, say, sapi, espeak-ng, spd-say; using auto"]);
  });
  it("the loudspeaker's voice on Linux: Chromium is told to use Speech Dispatcher; nothing is switched elsewhere (main.cjs applies them: bundle.test.ts)", () => {
    expect(chromiumSwitches("linux")).toEqual(["enable-speech-dispatcher"]);
    expect(chromiumSwitches("darwin")).toEqual([]);
    expect(chromiumSwitches("win32")).toEqual([]);
  });
  it("a fleet kiosk: back office, kiosk id and token from switches or the environment, as under kiosk serve", () => {
    const tokenFile = path.join(dir, "kiosk.token");
    writeFileSync(tokenFile, "0123456789abcdef0123456789abcdef\n");
    expect(shellFleet(shellConfig([], {}, defaults), {})).toEqual({ replication: null, distribution: null });
    const shell = shellConfig(["--backoffice", "http://office.example:8790", "--fleet-token-file", tokenFile], { KIOSK_ID: "station-12-a", KIOSK_METRICS_PORT: "9464" }, defaults);
    expect(shellFleet(shell, {})).toEqual({ replication: { url: "http://office.example:8790/", kioskId: "station-12-a", token: "0123456789abcdef0123456789abcdef" }, distribution: null });
    expect(metricsPortOf(shell)).toBe(9464);
    // Served by default on its own loopback port; "off" turns it off.
    expect(metricsPortOf(shellConfig([], {}, defaults))).toBe(9464);
    expect(metricsPortOf(shellConfig(["--metrics-port", "off"], {}, defaults))).toBeUndefined();
    // Half a fleet setting, a token too short, a public key without a back office, a bad port: named errors.
    expect(() => shellFleet(shellConfig(["--kiosk-id", "k1"], {}, defaults), {})).toThrow(/--backoffice and --kiosk-id go together/);
    expect(() => shellFleet(shellConfig(["--backoffice", "http://o", "--kiosk-id", "k1"], {}, defaults), { KIOSK_FLEET_TOKEN: "short" })).toThrow(/too short/);
    expect(() => shellFleet(shellConfig(["--publications-key", tokenFile], {}, defaults), {})).toThrow(/--publications-key needs --backoffice/);
    expect(() => metricsPortOf(shellConfig(["--metrics-port", "http"], {}, defaults))).toThrow(/--metrics-port: not a port number/);
  });
  it("packaged: the data pack from resources, applied framebooks in userData", () => {
    const packaged = shellConfig([], {}, { ...defaults, resourcesDir: "/opt/kiosk/resources" });
    expect(packaged).toMatchObject({ dataDir: "/opt/kiosk/resources/metrollm-bench", framebookStore: "/home/k/.config/kiosk/framebooks", operatorDir: "/opt/kiosk/framebooks" });
    expect(shellConfig(["--alerts-db", "/a.sqlite"], { METRO_AUDIT_DB: "/audit.sqlite" }, defaults)).toMatchObject({ alertsDb: "/a.sqlite", auditDb: "/audit.sqlite" });
    expect(shellConfig(["--bench-db", "/b.sqlite", "--operator-config=/op.json", "--framebook-store", "/fb"], { KIOSK_BENCH_MODEL: "4b" }, defaults)).toMatchObject({
      benchDb: "/b.sqlite",
      operatorConfig: "/op.json",
      framebookStore: "/fb",
      benchModel: "4b",
    });
  });
  it("takes switches over the environment; devtools only outside kiosk mode", () => {
    expect(shellConfig(["--devtools"], {}, defaults).devTools).toBe(false);
    expect(shellConfig(["--no-kiosk", "--devtools"], {}, defaults)).toMatchObject({ kiosk: false, devTools: true });
    expect(shellConfig([], { KIOSK_MODE: "0", KIOSK_DEVTOOLS: "1" }, defaults)).toMatchObject({ kiosk: false, devTools: true });
    expect(shellConfig(["--kiosk"], { KIOSK_MODE: "0" }, defaults).kiosk).toBe(true);
    const c = shellConfig(["--ledger", "/data/l.sqlite", "--data=/pack", "--renderer", "/r"], { METRO_LEDGER: "/env.sqlite" }, defaults);
    expect(c).toMatchObject({ ledger: "/data/l.sqlite", dataDir: "/pack", rendererDir: "/r" });
    expect(shellConfig([], { METRO_LEDGER: "/env.sqlite", METRO_DATA_DIR: "/p2" }, defaults)).toMatchObject({ ledger: "/env.sqlite", dataDir: "/p2" });
  });
  it("finds imported systems at --systems-dir, else $METRO_SYSTEMS_DIR, else in userData (writable, kept across updates)", () => {
    expect(shellConfig(["--systems-dir", "/s"], { METRO_SYSTEMS_DIR: "/env" }, defaults).systemsDir).toBe("/s");
    expect(shellConfig([], { METRO_SYSTEMS_DIR: "/env" }, defaults).systemsDir).toBe("/env");
    expect(shellConfig([], {}, defaults).systemsDir).toBe(path.join(defaults.userData, "systems"));
  });
});

describe("kiosk:// protocol", () => {
  it("maps app URLs to renderer files, client routes to index.html, and nothing outside", () => {
    expect(rendererFileFor(dist, "kiosk://app/index.html")).toBe(path.join(dist, "index.html"));
    expect(rendererFileFor(dist, "kiosk://app/")).toBe(path.join(dist, "index.html"));
    expect(rendererFileFor(dist, "kiosk://app/assets/a.js")).toBe(path.join(dist, "assets", "a.js"));
    expect(rendererFileFor(dist, "kiosk://app/screen/buy")).toBe(path.join(dist, "index.html"));
    expect(rendererFileFor(dist, "kiosk://app/assets/missing.js")).toBeNull();
    for (const url of ["kiosk://app/../secret.txt", "kiosk://app/%2e%2e/secret.txt", "kiosk://app/..%2fsecret.txt", "kiosk://other/index.html", "file:///etc/passwd", "kiosk://app/%00"]) {
      const file = rendererFileFor(dist, url);
      expect(file === null || file.startsWith(dist), url).toBe(true);
      expect(file?.endsWith("secret.txt") ?? false, url).toBe(false);
    }
  });

  it("answers with the content type and the kiosk's security headers", async () => {
    const ok = rendererResponse(dist, "kiosk://app/assets/a.js");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(ok.headers.get("content-security-policy")).toBe(KIOSK_CSP);
    expect(await ok.text()).toBe("1");
    const missing = rendererResponse(dist, "kiosk://app/nope.png");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
