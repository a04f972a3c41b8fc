// End-to-end, the imported Busan Metro's Korean names on the passenger screen: the real feed
// (../shared/gtfs/busan, English names only, read at test time) imported into a temp systems folder,
// `kiosk serve` over the pack and it with the repository's framebooks as the operator folder (where
// framebooks/busan/local-names.yaml gives the Hangul names). The station picker on the English
// screen lists every station with its Korean name beside the English one, drawn with the shipped
// Noto Sans KR: Chromium reports every Hangul glyph of the list drawn from that font and none from a
// machine font (this Chromium has no CJK fonts, so a missing face would show boxes). A Korean
// spelling finds its station, and the chosen stations show their Korean names. On the 1080×1920
// portrait kiosk in Debian's Chromium. Screenshots in test-results/screenshots/ (busan-ko-*.png).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { importNetwork } from "../host/network/import.ts";
import { loadOperatorLocalNames } from "../runtime/kiosk/node/pack-extras.ts";
import { TEST_NOW } from "../runtime/kiosk/testing.ts";
import { DataPack } from "../tools/data/datapack.ts";
import type { SystemData } from "../tools/data/system.ts";
import { buildRenderer, fontsSettled, launchChromium, SCREENSHOTS } from "./e2e.ts";
import { REPO_ROOT, SHARED_DATA_DIR, SHARED_DIR } from "./paths.ts";

const VIEWPORT = { width: 1080, height: 1920 };
const FEED = path.join(SHARED_DIR, "gtfs", "busan");
const FRAMEBOOKS = path.join(REPO_ROOT, "framebooks");
const KOREAN_FONT = "Noto Sans KR";
/** The family Chromium reports for a glyph of the shipped Korean files: their name table says "Noto Sans KR Thin" (a quirk of Google Fonts' slices; fontconfig reads the weight as regular). */
const KOREAN_FACE = /^Noto Sans KR\b/;
const HANGUL = /\p{Script=Hangul}/gu;

const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-busan-ko-"));
const systemsDir = path.join(temp, "systems");
let serve: RunningServe;
let context: BrowserContext;
let busan: SystemData;
/** Every Korean name the operator file gives each station, the first being the one the screen must show. */
let koreanNames: Map<string, string[]>;
/** The Korean name the screen must show beside each station's English name: the operator file's first. */
let expected: Map<string, string>;

beforeAll(async () => {
  importNetwork({ feed: FEED, id: "busan", systemsDir, pack: new DataPack(SHARED_DATA_DIR), faresFile: path.join(FRAMEBOOKS, "busan", "fares.json") });
  const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
  busan = pack.system("busan");
  koreanNames = loadOperatorLocalNames(FRAMEBOOKS, busan)?.byStation ?? new Map();
  expected = new Map([...koreanNames].map(([id, names]) => [id, names[0] ?? ""]));
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({ pack, port: 0, ledger: path.join(temp, "ledger.sqlite"), rendererDir, operatorDir: FRAMEBOOKS, clock: () => new Date(TEST_NOW), log: () => undefined });
  context = await launchChromium(path.join(temp, "profile"), { ...VIEWPORT, scale: 0.5 });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});


/** The picker's options as shown: station id (from the option's description) → its name and the other names beside it. */
async function shownOptions(page: Page): Promise<Map<string, { name: string; others: string[] }>> {
  const rows = await page.locator(".station-option").evaluateAll((buttons) =>
    buttons.map((b) => {
      const describedBy = b.getAttribute("aria-describedby") ?? "";
      const others = document.getElementById(describedBy)?.querySelector(".station-local")?.textContent ?? "";
      return [describedBy, b.querySelector(".station-name")?.textContent ?? "", others] as const;
    }),
  );
  const shown = new Map<string, { name: string; others: string[] }>();
  for (const [describedBy, name, others] of rows) {
    const id = busan.stations.map((s) => s.id).find((sid) => describedBy.endsWith(`-${sid}-details`));
    if (id) shown.set(id, { name, others: others ? others.split(" · ") : [] });
  }
  return shown;
}

/**
 * How Chromium drew the Hangul of every element matching `selector` (CDP CSS.getPlatformFontsForNode):
 * how many held Hangul, and those whose Hangul glyphs are not all from the shipped Korean face.
 */
async function hangulNotFromKoreanFont(cdp: CDPSession, selector: string): Promise<{ checked: number; wrong: string[] }> {
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeIds } = await cdp.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector });
  const wrong: string[] = [];
  let checked = 0;
  for (const nodeId of nodeIds) {
    const { outerHTML } = await cdp.send("DOM.getOuterHTML", { nodeId });
    const text = outerHTML.replace(/<[^>]*>/g, "");
    const hangul = text.match(HANGUL)?.length ?? 0;
    if (hangul === 0) continue;
    checked++;
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    // Each syllable is one glyph of the Korean face; the rest (Latin, "·") comes from Noto Sans.
    const korean = fonts.filter((f) => f.isCustomFont && KOREAN_FACE.test(f.familyName)).reduce((n, f) => n + f.glyphCount, 0);
    const machine = fonts.filter((f) => !f.isCustomFont);
    if (korean !== hangul || machine.length > 0) {
      wrong.push(`«${text}»: ${hangul} Hangul, drawn with ${fonts.map((f) => `${f.familyName}${f.isCustomFont ? "" : " (system font)"} ×${f.glyphCount}`).join(", ")}`);
    }
  }
  return { checked, wrong };
}

describe("Busan (imported) with the operator's Korean names, Chromium 1080×1920", () => {
  it("the station picker lists every station with its Korean name beside the English one, in the shipped Korean font; a Korean spelling finds its station", async () => {
    expect(expected.size).toBe(busan.stations.length);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto(`${serve.server.url}?system=busan`);
    await page.locator(".attract-start").click();
    await page.locator(".station-field-origin").click();
    await page.getByRole("searchbox").waitFor();

    const cdp = await context.newCDPSession(page);
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");

    // The empty search lists the first stations alphabetically (the picker shows 50 at most): the
    // English name on the button, the Korean one beside it, all in the Korean font.
    const listed = Math.min(busan.stations.length, 50);
    await expect.poll(() => page.locator(".station-option").count()).toBe(listed);
    const shown = await shownOptions(page);
    expect(shown.size).toBe(listed);
    await fontsSettled(page);
    const koreanFaces = await page.evaluate((family) => [...document.fonts].filter((f) => f.family.replace(/["']/g, "") === family && f.status === "loaded").length, KOREAN_FONT);
    expect(koreanFaces).toBeGreaterThan(0);
    const drawn = await hangulNotFromKoreanFont(cdp, ".station-option-details .station-local");
    expect(drawn.checked).toBe(listed);
    expect(drawn.wrong).toEqual([]);
    // Pages of the list, top to bottom, for a person to look at.
    const options = page.locator(".station-option");
    for (let first = 0, shot = 1; first < listed; first += 9, shot++) {
      await options.nth(first).evaluate((el) => el.scrollIntoView({ block: "start" }));
      await fontsSettled(page);
      await page.screenshot({ path: path.join(SCREENSHOTS, `busan-ko-picker-${shot}.png`) });
    }

    // Every station, found by its Korean name: the English name on its button, the Korean one
    // beside it, every Hangul glyph from the Korean font.
    const wrong: string[] = [];
    const badFont: string[] = [];
    for (const station of busan.stations) {
      const korean = expected.get(station.id) ?? "";
      await page.getByRole("searchbox").fill(korean);
      const option = page.locator(`.station-option[aria-describedby$="-${station.id}-details"]`);
      try {
        await option.first().waitFor({ timeout: 5_000 });
      } catch {
        wrong.push(`${station.id} ${station.name}: not found by «${korean}»`);
        continue;
      }
      const row = (await shownOptions(page)).get(station.id);
      if (row?.name !== station.name || !row.others.includes(korean)) wrong.push(`${station.id} ${station.name}: shows «${row?.name ?? "nothing"}» with «${row?.others.join(" · ") ?? ""}», expected «${korean}» beside it`);
      await fontsSettled(page);
      const details = await option.first().getAttribute("aria-describedby");
      const font = await hangulNotFromKoreanFont(cdp, `[id="${details}"] .station-local`);
      if (font.checked !== 1) badFont.push(`${station.id}: no Hangul beside it`);
      badFont.push(...font.wrong);
    }
    expect(wrong).toEqual([]);
    expect(badFont).toEqual([]);
    expect(await page.evaluate(({ family, names }) => names.filter((n) => !document.fonts.check(`16px "${family}"`, n)), { family: KOREAN_FONT, names: [...expected.values()] })).toEqual([]);

    // A word common to several names lists every station whose Korean name has it, for a person to look at.
    await page.getByRole("searchbox").fill("부산");
    const withBusan = busan.stations.filter((s) => (koreanNames.get(s.id) ?? []).some((n) => n.includes("부산")));
    expect(withBusan.length).toBeGreaterThan(1);
    await expect.poll(async () => (await page.locator(".station-option .station-name").allTextContents()).sort()).toEqual(withBusan.map((s) => s.name).sort());
    await fontsSettled(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, "busan-ko-typeahead-busan.png") });

    // The type-ahead over the Korean names: a Hangul spelling finds its station, and a name of two
    // joined by a middle dot is found typed run together, as some sources write it.
    const seomyeon = busan.stations.find((s) => expected.get(s.id) === "서면");
    expect(seomyeon).toBeDefined();
    await page.getByRole("searchbox").fill("서면");
    await expect.poll(() => page.locator(".station-option .station-name").allTextContents()).toEqual([seomyeon?.name]);
    await fontsSettled(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, "busan-ko-typeahead.png") });
    await page.locator(".station-option").first().click();

    const kyungsung = busan.stations.find((s) => expected.get(s.id) === "경성대·부경대");
    expect(kyungsung).toBeDefined();
    await page.locator(".station-field-destination").click();
    await page.getByRole("searchbox").fill("경성대부경대");
    await expect.poll(() => page.locator(".station-option .station-name").allTextContents()).toEqual([kyungsung?.name]);
    await page.locator(".station-option").first().click();

    // The chosen stations show their Korean names beside the English ones, in the Korean font too.
    await expect.poll(() => page.locator(".station-field-origin .station-local").textContent()).toContain("서면");
    await expect.poll(() => page.locator(".station-field-destination .station-local").textContent()).toContain("경성대·부경대");
    await fontsSettled(page);
    const fields = await hangulNotFromKoreanFont(cdp, ".station-field .station-local");
    expect(fields.checked).toBe(2);
    expect(fields.wrong).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "busan-ko-journey.png") });
    await page.locator(".station-fields").screenshot({ path: path.join(SCREENSHOTS, "busan-ko-fields.png") });
    await cdp.detach();
    expect(errors).toEqual([]);
  });
});
