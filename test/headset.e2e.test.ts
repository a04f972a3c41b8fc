// End-to-end, headset mode (issue 17, item 3), in Debian's headless Chromium under the kiosk's real
// CSP, with the passenger e2e's set-up (the built renderer served by `kiosk serve`). Headless
// Chromium has no labelled audio outputs, so turning headset mode on must show "no headset" and say
// nothing through speechSynthesis. With a headset output present (the device list and the sink are
// the only fakes: the machine has no sound card), eSpeak NG synthesises a real WAV in the page and
// the audio element is routed to the headset's sinkId before it plays.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { buildRenderer, launchChromium, recordSpeech, SCREENSHOTS, spokenReadings } from "./e2e.ts";

let serve: RunningServe;
let context: BrowserContext;
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-headset-"));

interface Played {
  sinkId: string;
  bytes: number;
  riff: string;
}

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({ pack: testPack(), port: 0, ledger: path.join(temp, "ledger.sqlite"), rendererDir, clock: () => new Date(TEST_NOW), log: () => undefined });
  context = await launchChromium(path.join(temp, "profile"), { width: 1080, height: 1920, scale: 0.5 });
  // What would come out of the loudspeaker (Web Speech), recorded.
  await recordSpeech(context);
}, 300_000);

afterAll(async () => {
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

async function open(withHeadset: boolean): Promise<{ page: Page; errors: string[] }> {
  for (const p of context.pages()) await p.close();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  page.on("requestfailed", (r) => errors.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  if (withHeadset) {
    await page.addInitScript(() => {
      const played: { sinkId: string; bytes: number; riff: string }[] = [];
      (window as unknown as { __played: typeof played }).__played = played;
      const headset = { kind: "audiooutput", label: "USB Audio Headset", deviceId: "e2e-headset", groupId: "g" };
      const real = navigator.mediaDevices.enumerateDevices.bind(navigator.mediaDevices);
      navigator.mediaDevices.enumerateDevices = async () => [...(await real()), headset as MediaDeviceInfo];
      // No sound card here: setSinkId to a device Chromium does not know would fail, so it is recorded.
      let sink = "";
      HTMLMediaElement.prototype.setSinkId = function (id: string) {
        sink = id;
        return Promise.resolve();
      };
      // The WAV behind the element's blob: URL (fetching it back is not allowed by connect-src).
      const blobs = new Map<string, Blob>();
      const createObjectURL = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (obj: Blob | MediaSource) => {
        const url = createObjectURL(obj);
        if (obj instanceof Blob) blobs.set(url, obj);
        return url;
      };
      HTMLMediaElement.prototype.play = async function (this: HTMLMediaElement) {
        const bytes = new Uint8Array((await blobs.get(this.src)?.arrayBuffer()) ?? new ArrayBuffer(0));
        played.push({ sinkId: sink, bytes: bytes.length, riff: String.fromCharCode(...bytes.slice(0, 4)) + String.fromCharCode(...bytes.slice(8, 12)) });
        this.dispatchEvent(new Event("ended"));
      };
    });
  }
  await page.goto(`${serve.server.url}?system=marta`);
  await page.getByRole("button", { name: "Headset" }).waitFor();
  return { page, errors };
}

describe("headset mode in Chromium", () => {
  it("without a headset output: says so on screen and nothing is spoken on the loudspeaker", async () => {
    const { page, errors } = await open(false);
    const outputs = await page.evaluate(async () => (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "audiooutput").map((d) => d.label));
    await page.getByRole("button", { name: "Headset" }).click();
    await page.getByRole("alert").filter({ hasText: "No headset found" }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "headset-missing.png") });
    expect(await spokenReadings(page)).toEqual([]);
    expect(outputs.every((label) => !/headset|headphone|earphone|earbud/i.test(label))).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it("with a headset output: eSpeak NG makes a WAV in the page (under the CSP) and it plays on the headset's sinkId only", async () => {
    const { page, errors } = await open(true);
    await page.getByRole("button", { name: "Headset" }).click();
    const played = await page
      .waitForFunction(() => (window as unknown as { __played: Played[] }).__played[0], undefined, { timeout: 60_000 })
      .catch((err: Error) => {
        throw new Error(`${err.message}\npage errors: ${errors.join("\n") || "none"}`);
      });
    const first = (await played.jsonValue()) as Played;
    expect(first.sinkId).toBe("e2e-headset");
    expect(first.riff).toBe("RIFFWAVE");
    // "Headset mode is on. Everything on the screen is read to you." is a few seconds of 22 kHz audio.
    expect(first.bytes).toBeGreaterThan(50_000);
    expect(await page.getByText("No headset found").count()).toBe(0);
    expect(await spokenReadings(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
