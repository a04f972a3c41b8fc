// Shared helpers of the browser end-to-end tests (playwright-core driving Debian's Chromium against
// `kiosk serve`): the renderer built for production into a temp folder, the Chromium switches, and
// where screenshots go. Imported by *.e2e.test.ts files only.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { REPO_ROOT } from "./paths.ts";

export const CHROMIUM = process.env.KIOSK_E2E_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = path.join(REPO_ROOT, "test-results", "screenshots");
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Build the renderer in a child process (inside Vitest NODE_ENV is "test", and Vite would build a
 * development bundle that picks the fake bridge), or take $KIOSK_E2E_RENDERER_DIR.
 */
export function buildRenderer(outDir: string): string {
  const given = process.env.KIOSK_E2E_RENDERER_DIR;
  if (given) return given;
  const run = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, "node_modules", "vite", "bin", "vite.js"), "build", "--config", path.join(REPO_ROOT, "renderer", "vite.config.ts"), "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"],
    { cwd: REPO_ROOT, env: { ...process.env, NODE_ENV: "production" }, encoding: "utf8", timeout: 120_000 },
  );
  if (run.status !== 0) throw new Error(`renderer build failed:\n${run.stderr}${run.stdout}`);
  return outDir;
}

/** A headless Chromium with a persistent profile in `profileDir` (downloads allowed). */
export async function launchChromium(profileDir: string, options: { width: number; height: number; scale?: number; extraArgs?: readonly string[] }): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])],
    viewport: { width: options.width, height: options.height },
    deviceScaleFactor: options.scale ?? 1,
    locale: "en-US",
    reducedMotion: "reduce",
    acceptDownloads: true,
  });
}

/** One reading the page asked the platform's speech synthesis for. */
export interface SpokenReading {
  text: string;
  lang: string;
  volume: number;
}

/**
 * The platform's speech synthesis (Web Speech), recorded in every page of the context: what would
 * come out of the loudspeaker, in `window.__spoken` (read it with spokenReadings).
 */
export async function recordSpeech(context: BrowserContext): Promise<void> {
  // Runs in the page: it must stay self-contained (Playwright sends its source).
  await context.addInitScript(() => {
    const log: { text: string; lang: string; volume: number }[] = [];
    (window as unknown as { __spoken: typeof log }).__spoken = log;
    class Utterance {
      lang = "";
      volume = 1;
      rate = 1;
      onend: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(readonly text: string) {}
    }
    const synth = {
      speak: (u: Utterance) => log.push({ text: u.text, lang: u.lang, volume: u.volume }),
      cancel: () => undefined,
      pause: () => undefined,
      resume: () => undefined,
      getVoices: () => [],
    };
    Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
    Object.defineProperty(window, "SpeechSynthesisUtterance", { value: Utterance, configurable: true });
  });
}

/** What the page has asked speech synthesis to say so far (recordSpeech). */
export function spokenReadings(page: Page): Promise<SpokenReading[]> {
  return page.evaluate(() => (window as unknown as { __spoken: { text: string; lang: string; volume: number }[] }).__spoken);
}

/** Wait until the page's fonts are loaded, the unicode-range slices too (they start loading after layout). */
export async function fontsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    for (let i = 0; i < 50 && document.fonts.status !== "loaded"; i++) await new Promise((r) => setTimeout(r, 20));
    await document.fonts.ready;
  });
}
