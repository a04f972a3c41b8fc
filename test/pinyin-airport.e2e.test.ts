// End-to-end, pinyin and "the airport" on the served kiosk (1080×1920 portrait, Debian's Chromium):
// "tiananmen" typed on the pinyin keyboard of the Beijing screen offers 天安门 and finds both
// Tian'anmen stations; "airport" in BART's search offers both airports; typed words that name two
// stations get a question with them as buttons. Screenshots in test-results/screenshots/ (pa-*.png).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { buildRenderer, launchChromium, SCREENSHOTS } from "./e2e.ts";

let serve: RunningServe;
let context: BrowserContext;
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-pinyin-"));

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({ pack: testPack(), port: 0, ledger: path.join(temp, "ledger.sqlite"), rendererDir, clock: () => new Date(TEST_NOW), log: () => undefined });
  context = await launchChromium(path.join(temp, "profile"), { width: 1080, height: 1920, scale: 0.5 });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  for (const p of context.pages()) await p.close();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { page, errors };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(async () => document.fonts.ready);
  await page.screenshot({ path: path.join(SCREENSHOTS, `pa-${name}.png`) });
}

/** The journey screen of `system`, in `language`, with the origin's station picker open. */
async function openPicker(page: Page, system: string, language: string): Promise<void> {
  await page.goto(`${serve.server.url}?system=${system}`);
  await page.locator(`.language-switcher [lang="${language}"]`).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
  await page.locator(".attract-start").click();
  await page.locator(".station-field-origin").click();
}

const options = (page: Page) => page.locator(".station-option .station-name").allTextContents();

describe("pinyin in the station picker", () => {
  it("Beijing, 简体中文: 'tiananmen' on the pinyin keyboard offers 天安门 and lists both stations; the name taps in", async () => {
    const { page, errors } = await newPage();
    await openPicker(page, "beijing", "zh-Hans");
    expect(await page.locator(".keyboard").getAttribute("data-layout")).toBe("pinyin");
    for (const letter of "tiananmen") await page.locator(".keyboard-row .key", { hasText: new RegExp(`^${letter}$`) }).click();
    const phrases = await page.locator(".candidate-bar .key-phrase").allTextContents();
    expect(phrases[0]).toBe("天安门");
    expect(phrases).toEqual(expect.arrayContaining(["天安门东", "天安门西"]));
    // The letters still being composed search too.
    await expect.poll(async () => (await options(page)).slice(0, 2).sort()).toEqual(["天安门东", "天安门西"]);
    await shot(page, "1-beijing-pinyin-tiananmen");
    // Whole names are touch targets like the characters (44×44 CSS px at least).
    for (const box of await page.locator(".candidate-bar .key-phrase").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    }

    await page.locator(".candidate-bar .key-phrase", { hasText: /^天安门$/ }).click();
    expect(await page.getByRole("searchbox").inputValue()).toBe("天安门");
    expect((await options(page)).sort()).toEqual(["天安门东", "天安门西"]);
    await shot(page, "2-beijing-chose-tiananmen");
    expect(errors).toEqual([]);
  });

  it("Beijing, 简体中文: the assistant's pinyin keyboard offers station names too", async () => {
    const { page, errors } = await newPage();
    await page.goto(`${serve.server.url}?system=beijing`);
    await page.locator('.language-switcher [lang="zh-Hans"]').click();
    await page.locator(".attract-start").click();
    await page.locator(".chat > .button-secondary").click();
    expect(await page.locator(".keyboard").getAttribute("data-layout")).toBe("pinyin");
    for (const letter of "tiananmen") await page.locator(".keyboard-row .key", { hasText: new RegExp(`^${letter}$`) }).click();
    await page.locator(".candidate-bar .key-phrase", { hasText: /^天安门东$/ }).click();
    expect(await page.locator(".composer-input").inputValue()).toBe("天安门东");
    await shot(page, "1c-beijing-chat-tiananmendong");
    expect(errors).toEqual([]);
  });

  it("Taipei, 繁體中文: 'taibeiche' offers 台北車站 in traditional characters (its English name is no pinyin)", async () => {
    const { page, errors } = await newPage();
    await openPicker(page, "taipei", "zh-Hant");
    for (const letter of "taibeiche") await page.locator(".keyboard-row .key", { hasText: new RegExp(`^${letter}$`) }).click();
    // The operator's 台北車站 and the pack's 臺北車站 (Taiwan writes 臺 as 台 too).
    expect((await page.locator(".candidate-bar .key-phrase").allTextContents()).sort()).toEqual(["台北車站", "臺北車站"]);
    await expect.poll(() => options(page)).toEqual(["台北車站"]);
    await shot(page, "1b-taipei-pinyin-taibeiche");
    expect(errors).toEqual([]);
  });

  it("Beijing, English: typed pinyin without apostrophe or tones finds both Tian'anmen stations", async () => {
    const { page, errors } = await newPage();
    await openPicker(page, "beijing", "en");
    for (const query of ["tiananmen", "TIANANMEN", "tiān'ānmén", "tian an men"]) {
      await page.getByRole("searchbox").fill(query);
      await expect.poll(() => options(page), { message: query }).toEqual(expect.arrayContaining(["Tian'anmendong", "Tian'anmenxi"]));
    }
    await page.getByRole("searchbox").fill("airport");
    await expect.poll(async () => (await options(page)).sort()).toEqual(["2 Hao Hangzhanlou (Terminal 2)", "3 Hao Hangzhanlou (Terminal 3)", "Daxing Jichang (Daxing Airport)"]);
    await shot(page, "3-beijing-airport");
    expect(errors).toEqual([]);
  });

  it("BART: 'airport' offers both airports", async () => {
    const { page, errors } = await newPage();
    await openPicker(page, "bart", "en");
    await page.getByRole("searchbox").fill("airport");
    await expect.poll(async () => (await options(page)).sort()).toEqual(["Oakland Intl Airport", "San Francisco Intl Airport"]);
    await shot(page, "4-bart-airport");
    expect(errors).toEqual([]);
  });
});

describe("typed words that name several stations: a question with them as buttons", () => {
  it("Beijing 'from tiananmen to the airport': which Tian'anmen, then which airport", async () => {
    const { page, errors } = await newPage();
    await page.goto(`${serve.server.url}?system=beijing`);
    await page.locator(".attract-start").click();
    await page.locator(".chat > .button-secondary").click();
    await page.locator(".composer-input").fill("from tiananmen to the airport");
    await page.locator(".key-action").click();
    await page.locator(".screen.result .clarify").waitFor({ timeout: 30_000 });
    // A button's words in the question's language (its label); on a Chinese screen the station's
    // Chinese name stands above them.
    const labels = (): Promise<string[]> => page.locator(".clarify-choice").evaluateAll((els) => els.map((el) => el.querySelector(".clarify-choice-label")?.textContent ?? el.textContent ?? ""));
    expect((await labels()).filter((l) => /Tian'anmen/.test(l)).sort()).toEqual(["Tian'anmendong", "Tian'anmenxi"]);
    if ((await page.locator("html").getAttribute("lang"))?.startsWith("zh")) {
      expect((await page.locator(".clarify-choice-local").allTextContents()).sort()).toEqual(["天安门东", "天安门西"]);
    }
    await shot(page, "5-beijing-which-tiananmen");
    await page.locator(".clarify-choice", { hasText: "Tian'anmendong" }).click();
    await expect
      .poll(async () => (await labels()).filter((l) => /Hangzhanlou|Jichang/.test(l)).sort(), { timeout: 30_000 })
      .toEqual(["2 Hao Hangzhanlou (Terminal 2)", "3 Hao Hangzhanlou (Terminal 3)", "Daxing Jichang (Daxing Airport)"]);
    await shot(page, "6-beijing-which-airport");
    expect(errors).toEqual([]);
  });
});
