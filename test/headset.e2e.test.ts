// End-to-end, headset mode, in Debian's headless Chromium under the kiosk's real CSP and
// Permissions-Policy, against `kiosk serve` with its real speech engine (Debian's espeak-ng, run as
// a separate program). Chromium's fake audio devices (--use-fake-device-for-media-stream) give the
// page labelled outputs, and the kiosk is told the second one is the headset: the WAV the kiosk
// rendered must play on an <audio> element routed (setSinkId, for real) to that output, and
// nothing may reach speechSynthesis (the loudspeaker). Without labelled outputs the screen says
// there is no headset; a kiosk without a speech engine says that instead.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { buildRenderer, launchChromium, recordSpeech, SCREENSHOTS, spokenReadings } from "./e2e.ts";

const HEADSET_LABEL = "Fake Audio Output 2";
const FAKE_DEVICES = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"];

let serve: RunningServe;
let withDevices: BrowserContext;
let withoutDevices: BrowserContext;
let rendererDir: string;
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-headset-"));

interface Played {
  sinkId: string;
  bytes: number;
  riff: string;
  started: boolean;
}

beforeAll(async () => {
  rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({
    pack: testPack(),
    port: 0,
    ledger: path.join(temp, "ledger.sqlite"),
    rendererDir,
    clock: () => new Date(TEST_NOW),
    headsetPattern: HEADSET_LABEL,
    log: () => undefined,
  });
  withDevices = await launchChromium(path.join(temp, "profile-devices"), { width: 1080, height: 1920, scale: 0.5, extraArgs: FAKE_DEVICES });
  withoutDevices = await launchChromium(path.join(temp, "profile-bare"), { width: 1080, height: 1920, scale: 0.5 });
  // What would come out of the loudspeaker (Web Speech), recorded.
  await recordSpeech(withDevices);
  await recordSpeech(withoutDevices);
  // Every play() of an audio element, with its sink and the WAV behind its blob: URL; then the real play.
  await withDevices.addInitScript(() => {
    const played: { sinkId: string; bytes: number; riff: string; started: boolean }[] = [];
    (window as unknown as { __played: typeof played }).__played = played;
    const blobs = new Map<string, Blob>();
    const createObjectURL = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (obj: Blob | MediaSource) => {
      const url = createObjectURL(obj);
      if (obj instanceof Blob) blobs.set(url, obj);
      return url;
    };
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = async function (this: HTMLMediaElement) {
      const bytes = new Uint8Array((await blobs.get(this.src)?.arrayBuffer()) ?? new ArrayBuffer(0));
      const entry = { sinkId: this.sinkId, bytes: bytes.length, riff: String.fromCharCode(...bytes.slice(0, 4)) + String.fromCharCode(...bytes.slice(8, 12)), started: false };
      played.push(entry);
      await play.call(this);
      entry.started = true;
    };
  });
}, 300_000);

afterAll(async () => {
  await withDevices?.close();
  await withoutDevices?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

async function open(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  for (const p of context.pages()) await p.close();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy|Permissions policy/i.test(m.text())) errors.push(m.text());
  });
  page.on("requestfailed", (r) => errors.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${serve.server.url}?system=marta`);
  await page.getByRole("button", { name: "Headset" }).waitFor();
  return { page, errors };
}

const played = (page: Page): Promise<Played[]> => page.evaluate(() => (window as unknown as { __played: Played[] }).__played);

describe("headset mode in Chromium", () => {
  it("ships no speech synthesiser of its own: no WebAssembly, no eSpeak NG in the built screen", () => {
    const files = readdirSync(rendererDir, { recursive: true, encoding: "utf8" });
    expect(files.filter((f) => /\.wasm$|espeak/i.test(f))).toEqual([]);
    // (The operator screen may name the espeak-ng package to install; no synthesiser code or data ships.)
    for (const file of files.filter((f) => f.endsWith(".js"))) expect(readFileSync(path.join(rendererDir, file), "utf8"), file).not.toMatch(/WebAssembly\.(instantiate|compile)|espeak-ng-data|\.wasm\b/);
  });

  it("with the headset among the outputs: the kiosk's WAV plays on the headset's sinkId, nothing on the loudspeaker", async () => {
    const { page, errors } = await open(withDevices);
    const outputs = await page.evaluate(async () => (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "audiooutput").map((d) => ({ label: d.label, id: d.deviceId })));
    const headset = outputs.find((o) => o.label === HEADSET_LABEL);
    expect(headset, JSON.stringify(outputs)).toBeDefined();
    await page.getByRole("button", { name: "Headset" }).click();
    await page.waitForFunction(() => (window as unknown as { __played: Played[] }).__played.some((p) => p.started), undefined, { timeout: 30_000 }).catch((err: Error) => {
      throw new Error(`${err.message}\npage errors: ${errors.join("\n") || "none"}`);
    });
    const [first] = await played(page);
    expect(first).toMatchObject({ sinkId: headset!.id, riff: "RIFFWAVE", started: true });
    // "Headset mode is on. Everything on the screen is read to you." is a few seconds of 22 kHz audio.
    expect(first!.bytes).toBeGreaterThan(50_000);
    expect(await page.getByText("No headset found").count()).toBe(0);
    expect(await spokenReadings(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "headset-playing.png") });
    expect(errors).toEqual([]);
  }, 60_000);

  it("a kiosk with no speech engine: the screen says headset reading is unavailable, nothing is played or spoken", async () => {
    const silent = await startServe({
      pack: testPack(),
      port: 0,
      ledger: path.join(temp, "ledger-silent.sqlite"),
      rendererDir,
      clock: () => new Date(TEST_NOW),
      headsetPattern: HEADSET_LABEL,
      speechEngine: "none",
      log: () => undefined,
    });
    try {
      const page = await withDevices.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${silent.server.url}?system=marta`);
      await page.getByRole("button", { name: "Headset" }).click();
      await page.locator('[data-headset-problem="no_engine"]').waitFor({ timeout: 15_000 });
      expect(await page.getByRole("alert").filter({ hasText: "cannot read aloud on the headset" }).count()).toBe(1);
      expect(await played(page)).toEqual([]);
      expect(await spokenReadings(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, "headset-no-engine.png") });
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await silent.close();
    }
  }, 60_000);

  it("without a headset output: says so on screen and nothing is spoken on the loudspeaker", async () => {
    const { page, errors } = await open(withoutDevices);
    const outputs = await page.evaluate(async () => (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "audiooutput").map((d) => d.label));
    expect(outputs).not.toContain(HEADSET_LABEL);
    await page.getByRole("button", { name: "Headset" }).click();
    await page.getByRole("alert").filter({ hasText: "No headset found" }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "headset-missing.png") });
    expect(await spokenReadings(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
