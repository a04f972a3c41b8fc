// End-to-end, Doha's screens in Arabic: the kiosk switched to العربية lists every one of the
// system's stations in the station picker (the screen that lists them all, and its type-ahead) under
// the Arabic name the operator's local-names file gives first, never the English one; an Arabic
// spelling finds its station; the map labels the chosen ends in Arabic. On the 1080×1920 portrait
// kiosk in Debian's Chromium. Screenshots in test-results/screenshots/ (doha-ar-*.png).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { DEFAULT_OPERATOR_DIR } from "../runtime/framebook/local-names.ts";
import { loadOperatorLocalNames } from "../runtime/kiosk/node/pack-extras.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { buildRenderer, fontsSettled, launchChromium, SCREENSHOTS } from "./e2e.ts";

const VIEWPORT = { width: 1080, height: 1920 };
const ARABIC = /\p{Script=Arabic}/u;

let serve: RunningServe;
let context: BrowserContext;
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-doha-ar-"));
const doha = testPack().system("doha");
/** The name the Arabic screen must show, by station id: the operator file's first. */
const expected = new Map([...(loadOperatorLocalNames(DEFAULT_OPERATOR_DIR, doha)?.byStation ?? [])].map(([id, names]) => [id, names[0] ?? ""]));

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({ pack: testPack(), port: 0, ledger: path.join(temp, "ledger.sqlite"), rendererDir, clock: () => new Date(TEST_NOW), log: () => undefined });
  context = await launchChromium(path.join(temp, "profile"), { ...VIEWPORT, scale: 0.5 });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});


/** The picker's options as shown: station id (from the option's description) → the name on the button. */
async function shownNames(page: Page): Promise<Map<string, string>> {
  const rows = await page.locator(".station-option").evaluateAll((buttons) =>
    buttons.map((b) => [b.getAttribute("aria-describedby") ?? "", b.querySelector(".station-name")?.textContent ?? ""] as const),
  );
  const shown = new Map<string, string>();
  for (const [describedBy, name] of rows) {
    const id = doha.stations.map((s) => s.id).find((sid) => describedBy.endsWith(`-${sid}-details`));
    if (id) shown.set(id, name);
  }
  return shown;
}

describe("Doha in Arabic: every station's Arabic name on screen", () => {
  it("the station picker lists all stations under their Arabic names; an Arabic spelling finds its station; the map labels the ends in Arabic", async () => {
    expect(expected.size).toBe(doha.stations.length);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${serve.server.url}?system=doha`);
    await page.locator('.language-switcher [lang="ar"]').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("ar");
    await page.locator(".attract-start").click();
    await page.locator(".station-field-origin").click();
    await page.getByRole("searchbox").waitFor();

    // The empty search lists every station.
    await expect.poll(() => page.locator(".station-option").count()).toBe(doha.stations.length);
    const shown = await shownNames(page);
    const wrong = doha.stations
      .filter((s) => shown.get(s.id) !== expected.get(s.id) || !ARABIC.test(shown.get(s.id) ?? ""))
      .map((s) => `${s.id} ${s.name}: shows «${shown.get(s.id) ?? "nothing"}», expected «${expected.get(s.id) ?? "?"}»`);
    expect(wrong).toEqual([]);
    // Pages of the list, top to bottom, for a person to look at.
    const options = page.locator(".station-option");
    for (let first = 0, shot = 1; first < doha.stations.length; first += 9, shot++) {
      await options.nth(first).scrollIntoViewIfNeeded();
      await options.nth(first).evaluate((el) => el.scrollIntoView({ block: "start" }));
      await fontsSettled(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `doha-ar-picker-${shot}.png`) });
    }

    // The type-ahead: a spelling from the sources (not the one shown) finds its station.
    await page.getByRole("searchbox").fill("جوان");
    await expect.poll(() => page.locator(".station-option .station-name").allTextContents()).toEqual([expected.get("DOHA-JOA")]);
    await page.getByRole("searchbox").fill("القصر");
    await expect.poll(() => page.locator(".station-option .station-name").allTextContents()).toContain(expected.get("DOHA-WHP"));
    await fontsSettled(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, "doha-ar-typeahead.png") });
    await page.locator(".station-option", { hasText: expected.get("DOHA-WHP") ?? "" }).first().click();

    await page.locator(".station-field-destination").click();
    await page.getByRole("searchbox").fill("الرفاع");
    await page.locator(".station-option", { hasText: expected.get("DOHA-RIF") ?? "" }).first().click();
    // The map labels the journey's ends with the same Arabic names.
    await expect.poll(() => page.locator(".network-map .map-label").allTextContents()).toEqual(expect.arrayContaining([expected.get("DOHA-WHP"), expected.get("DOHA-RIF")]));
    await page.locator(".network-map").scrollIntoViewIfNeeded();
    await fontsSettled(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, "doha-ar-journey-map.png") });
    expect(errors).toEqual([]);
  });
});
