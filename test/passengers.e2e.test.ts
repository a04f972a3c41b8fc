// End-to-end, every passenger (issue 17): each passenger screen in each language on the 1080×1920
// portrait kiosk, in Debian's Chromium with no CJK system fonts. On every screen: axe-core finds no
// serious or critical violation (AA contrast; AAA in high contrast), every touch target is at least
// 44×44 px, the next action is on screen without scrolling, and every character is drawn by a
// shipped font (Chromium's own report of the platform fonts it used). Then a purchase made with the
// keyboard alone, checking what the audio guide says at each step. Screenshots in
// test-results/screenshots/ (p-*.png); the axe summary in test-results/axe-summary.json.
import AxeBuilder from "@axe-core/playwright";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PassengerLanguage } from "../runtime/kiosk/bridge.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { buildRenderer, fontsSettled, launchChromium, recordSpeech, SCREENSHOTS, spokenReadings, type SpokenReading } from "./e2e.ts";
import { REPO_ROOT } from "./paths.ts";

const VIEWPORT = { width: 1080, height: 1920 };
/** The shipped faces (web fonts, as their files name themselves: "Noto Sans SC Thin" is the SC file). */
const SHIPPED_FONT = /^Noto Sans( Arabic| SC| TC)?\b/;
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

let serve: RunningServe;
let context: BrowserContext;
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-passengers-"));
const axeSummary: { screen: string; violations: { id: string; impact: string | null; nodes: number }[] }[] = [];

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({
    pack: testPack(),
    port: 0,
    ledger: path.join(temp, "ledger.sqlite"),
    rendererDir,
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  context = await launchChromium(path.join(temp, "profile"), { ...VIEWPORT, scale: 0.5 });
  // The platform's speech synthesis, recorded: what the kiosk would say.
  await recordSpeech(context);
}, 300_000);

afterAll(async () => {
  writeFileSync(path.join(REPO_ROOT, "test-results", "axe-summary.json"), `${JSON.stringify(axeSummary, null, 2)}\n`);
  const screens = axeSummary.length;
  const serious = axeSummary.flatMap((s) => s.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).length;
  const minor = axeSummary.flatMap((s) => s.violations.filter((v) => v.impact !== "serious" && v.impact !== "critical"));
  console.log(`axe-core: ${screens} screens checked, ${serious} serious/critical violations, ${minor.length} minor/moderate (${[...new Set(minor.map((v) => v.id))].join(", ") || "none"})`);
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

/** Fails on page errors and failed loads. */
async function newPage(): Promise<{ page: Page; errors: string[] }> {
  for (const p of context.pages()) await p.close();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) errors.push(`${r.status()} ${r.url()}`);
  });
  return { page, errors };
}


/** Fonts Chromium drew text with that are not shipped ones (CDP CSS.getPlatformFontsForNode). */
async function platformFonts(page: Page): Promise<Map<string, string>> {
  // Only elements that hold text themselves: every one with a non-ASCII character (Chinese, Arabic,
  // arrows, «», …) and the first 40 plain-ASCII ones (Latin text has one face; this keeps it quick).
  await page.evaluate(() => {
    let ascii = 0;
    for (const el of document.querySelectorAll("body *:not(script):not(style)")) {
      const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.nodeValue ?? "").join("").trim();
      if (!own) continue;
      if (/[^\s!-~]/.test(own) || ascii++ < 40) el.setAttribute("data-e2e-text", "");
    }
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeIds } = await cdp.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector: "[data-e2e-text]" });
  const used = new Map<string, string>();
  for (const nodeId of nodeIds) {
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    for (const font of fonts) {
      // A system font (not one of the page's own @font-face files) or a face we do not ship.
      const label = `${font.familyName}${font.isCustomFont ? "" : " (system font)"}`;
      if (font.isCustomFont && SHIPPED_FONT.test(font.familyName)) continue;
      if (!used.has(label)) {
        const { outerHTML } = await cdp.send("DOM.getOuterHTML", { nodeId });
        used.set(label, outerHTML.slice(0, 160));
      }
    }
  }
  await cdp.detach();
  return used;
}

async function axe(page: Page, name: string, highContrast: boolean): Promise<void> {
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  // High contrast promises AAA: axe's enhanced (7:1) contrast rule is switched on for it.
  if (highContrast) builder.options({ rules: { "color-contrast-enhanced": { enabled: true } } });
  const result = await builder.analyze();
  const violations = result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, nodes: v.nodes.length }));
  axeSummary.push({ screen: name, violations });
  const blocking = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "color-contrast-enhanced");
  expect(
    blocking.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`),
    name,
  ).toEqual([]);
}

/** Interactive elements smaller than 44×44 CSS px. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, input, textarea, select, a[href], [role='radio'], [role='switch']")]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width < 44 || r.height < 44)
      .map(({ el, r }) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`),
  );
}

/** The next action must be on screen as the page opens: no scrolling needed to find it. */
async function onScreen(page: Page, selector: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.y, selector).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${selector} ends at ${Math.round(box!.y + box!.height)} px`).toBeLessThanOrEqual(VIEWPORT.height);
}

async function check(page: Page, name: string, nextAction: string, highContrast = false): Promise<void> {
  await fontsSettled(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, `p-${name}.png`) });
  await onScreen(page, nextAction);
  await axe(page, name, highContrast);
  expect(await smallTargets(page), name).toEqual([]);
  const foreign = await platformFonts(page);
  expect([...foreign].map(([family, where]) => `${family}: ${where}`), name).toEqual([]);
}

/** From the attract screen: open the chat, type a request and send it. */
async function typeRequest(page: Page, system: string, text: string): Promise<void> {
  await page.goto(`${serve.server.url}?system=${system}`);
  await page.locator(".attract-start").click();
  await page.locator(".chat > .button-secondary").click();
  await page.locator(".composer-input").fill(text);
  await page.locator(".key-action").click();
}

interface Trip {
  system: string;
  language: PassengerLanguage;
  from: [query: string, option: string];
  to: [query: string, option: string];
  /** A word of the screen's language expected on the journey screen (it really switched). */
  title: string;
}

const TRIPS: Trip[] = [
  { system: "marta", language: "en", from: ["Airport", "Airport"], to: ["Five Points", "Five Points"], title: "Plan your journey" },
  { system: "marta", language: "es", from: ["Airport", "Airport"], to: ["Midtown", "Midtown"], title: "Planifique su viaje" },
  { system: "beijing", language: "zh-Hans", from: ["Xizhimen", "西直门"], to: ["Guomao", "国贸"], title: "规划行程" },
  { system: "taipei", language: "zh-Hant", from: ["Taipei Main", "台北車站"], to: ["Taipei 101", "台北101/世貿"], title: "規劃行程" },
  { system: "doha", language: "ar", from: ["Hamad", "مطار حمد الدولي"], to: ["Msheireb", "مشيرب"], title: "خطّط رحلتك" },
];

async function pick(page: Page, field: "origin" | "destination", [query, option]: [string, string]): Promise<void> {
  await page.locator(`.station-field-${field}`).click();
  await page.getByRole("searchbox").fill(query);
  await page.locator(".station-option", { hasText: option }).first().click();
}

describe("every screen in every language (1080×1920 portrait, no CJK system fonts)", () => {
  for (const trip of TRIPS) {
    it(`${trip.language} on ${trip.system}: attract, journey, picker, chat, result, payment, ticket`, async () => {
      const { page, errors } = await newPage();
      const name = (screen: string) => `${trip.language}-${trip.system}-${screen}`;
      await page.goto(`${serve.server.url}?system=${trip.system}`);
      await page.locator(`.language-switcher [lang="${trip.language}"]`).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(trip.language);
      await check(page, name("1-attract"), ".attract-start");
      await page.locator(".attract-start").click();
      await page.getByRole("heading", { level: 1, name: trip.title }).waitFor();
      await check(page, name("2-journey-empty"), ".primary-action .button-hero");

      await page.locator(".station-field-origin").click();
      await page.getByRole("searchbox").fill(trip.from[0]);
      await check(page, name("3-picker"), ".station-option");
      await page.locator(".station-option", { hasText: trip.from[1] }).first().click();
      await pick(page, "destination", trip.to);
      await check(page, name("4-journey"), ".primary-action .button-hero");

      await page.locator(".chat > .button-secondary").click();
      await page.locator(".composer-input").fill("?");
      await check(page, name("5-chat-keyboard"), ".key-action");
      await page.locator(".composer-input").fill("");
      await page.locator("[data-keypad-back], .chat-close").first().click();

      await page.locator(".primary-action .button-hero").click();
      await page.locator(".screen.result").waitFor({ timeout: 30_000 });
      expect(await page.locator(".screen.result").getAttribute("data-action")).toBe("prompt_purchase");
      await check(page, name("6-result"), ".action-purchase .button-hero");
      // The route's ends are in the screen's language and read in its direction: on the Arabic
      // screen the origin stands to the right of the destination.
      const origin = (await page.locator(".route-origin").boundingBox())!;
      const destination = (await page.locator(".route-destination").boundingBox())!;
      expect(await page.locator(".route-origin").textContent()).toBe(trip.from[1]);
      expect(trip.language === "ar" ? origin.x > destination.x : origin.x < destination.x).toBe(true);

      await page.locator(".action-purchase .button-hero").click();
      await page.locator(".screen.payment").waitFor();
      await check(page, name("7-payment"), ".payment .action-buttons .button-primary");
      await page.locator(".payment-methods [role='radio']").first().click();
      await page.locator(".payment .action-buttons .button-primary").click();
      await page.locator(".ticket-screen").waitFor({ timeout: 15_000 });
      await check(page, name("8-ticket"), ".ticket-screen .button-hero");
      expect(errors).toEqual([]);
    });
  }

  it("high contrast meets AAA (7:1) on the journey and the result, in Arabic and Chinese too", async () => {
    for (const trip of [TRIPS[0]!, TRIPS[2]!, TRIPS[4]!]) {
      const { page, errors } = await newPage();
      const name = (screen: string) => `hc-${trip.language}-${trip.system}-${screen}`;
      await page.goto(`${serve.server.url}?system=${trip.system}`);
      await page.locator(`.language-switcher [lang="${trip.language}"]`).click();
      await page.locator(".display-toggles button").first().click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.contrast)).toBe("high");
      await page.locator(".attract-start").click();
      await pick(page, "origin", trip.from);
      await pick(page, "destination", trip.to);
      await check(page, name("journey"), ".primary-action .button-hero", true);
      await page.locator(".primary-action .button-hero").click();
      await page.locator(".screen.result").waitFor({ timeout: 30_000 });
      await check(page, name("result"), ".action-purchase .button-hero", true);
      expect(errors).toEqual([]);
    }
  });
});

describe("a question with tappable choices (issue 12)", () => {
  it("CTA \"Howard to Kedzie\": the kiosk asks which Kedzie with buttons; the taps answer it and the ticket can be bought", async () => {
    const { page, errors } = await newPage();
    await typeRequest(page, "cta", "Howard to Kedzie");
    await page.locator(".screen.result .clarify").waitFor({ timeout: 30_000 });
    expect(await page.locator(".screen.result").getAttribute("data-action")).not.toBe("prompt_purchase");
    const labels = await page.locator(".clarify-choice").allTextContents();
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(labels.every((l) => /Kedzie/.test(l))).toBe(true);
    await check(page, "clarify-1-question", ".clarify-choice");

    await page.locator(".clarify-choice").first().click();
    // The answer continues the session: either sellable at once, or one more "is this right?" tap.
    const sellable = page.locator(".screen.result[data-action='prompt_purchase'] .action-purchase .button-hero:not([disabled])");
    const confirm = page.locator(".screen.result .clarify[data-kind='confirm'] .clarify-choice, .screen.result .action-confirm .button-hero");
    await sellable.or(confirm).first().waitFor({ timeout: 30_000 });
    if (await confirm.count()) {
      await check(page, "clarify-2-confirm", ".clarify-choice, .action-confirm .button-hero");
      await confirm.first().click();
    }
    await sellable.waitFor({ timeout: 30_000 });
    expect(await page.locator(".route-origin").textContent()).toBe("Howard");
    expect(await page.locator(".route-destination").textContent()).toBe(labels[0]);
    await check(page, "clarify-3-result", ".action-purchase .button-hero");
    expect(errors).toEqual([]);
  });
});

describe("who travels, asked when the words say it unsurely", () => {
  it("MARTA \"Airport to Five Points, me and my mum\": the kiosk asks who travels; 'Set passengers' brings back the counter, in focus, and the counted party can be bought", async () => {
    const { page, errors } = await newPage();
    await typeRequest(page, "marta", "Airport to Five Points, me and my mum");
    await page.locator(".screen.result .clarify[data-kind='riders']").waitFor({ timeout: 30_000 });
    // The counter was never touched, so its default (1 adult) is no answer to offer.
    expect(await page.locator(".clarify-choice").allTextContents()).toEqual(["Set passengers"]);
    await check(page, "riders-1-question", ".clarify-choice");

    await page.getByRole("button", { name: "Set passengers" }).click();
    await page.locator("#passengers").waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "passengers");
    await page.getByRole("button", { name: "Add one: Seniors" }).click();
    await check(page, "riders-2-counter", ".button-hero");
    await page.locator(".primary-action .button-hero").click();
    const sellable = page.locator(".screen.result[data-action='prompt_purchase'] .action-purchase .button-hero:not([disabled])");
    const confirm = page.locator(".screen.result .clarify[data-kind='confirm'] .clarify-choice, .screen.result .action-confirm .button-hero");
    await sellable.or(confirm).first().waitFor({ timeout: 30_000 });
    if (await confirm.count()) await confirm.first().click();
    await sellable.waitFor({ timeout: 30_000 });
    await check(page, "riders-3-result", ".action-purchase .button-hero");
    expect(await page.locator(".screen.result").textContent()).toMatch(/1 adult.*1 senior|1 senior.*1 adult/is);
    expect(errors).toEqual([]);
  });
});

describe("a child's fare by the fare table's own rule", () => {
  it("MARTA \"airport to five points, me my wife and our 8 year old son\": three paying riders ($7.50; children ride free only under 5), never asked about the untouched counter; the counter names the band", async () => {
    const { page, errors } = await newPage();
    await typeRequest(page, "marta", "airport to five points, me my wife and our 8 year old son");
    const sellable = page.locator(".screen.result[data-action='prompt_purchase'] .action-purchase .button-hero:not([disabled])");
    const confirm = page.locator(".screen.result .clarify[data-kind='confirm'] .clarify-choice, .screen.result .action-confirm .button-hero");
    await sellable.or(confirm).first().waitFor({ timeout: 30_000 });
    expect(await page.locator(".screen.result .clarify[data-kind='riders']").count()).toBe(0);
    if (await confirm.count()) {
      // A trip read from words is confirmed first: that step is the primary button, no greyed Buy beside it.
      expect(await page.locator(".action-purchase .button-hero[disabled]").count()).toBe(0);
      await check(page, "child-fare-0-confirm", ".clarify-choice, .action-confirm .button-hero");
      await confirm.first().click();
    }
    await sellable.waitFor({ timeout: 30_000 });
    expect(await page.locator(".fare-card").textContent()).toMatch(/3 adults/);
    expect(await sellable.textContent()).toMatch(/\$7\.50/);
    await check(page, "child-fare-1-result", ".action-purchase .button-hero");
    // Back on the journey, the counter says who is a child here.
    await page.goto(`${serve.server.url}?system=marta`);
    await page.locator(".attract-start").click();
    await page.getByRole("group", { name: "Children (under 5, free · older children pay the adult fare)" }).waitFor();
    await page.locator("#passengers").scrollIntoViewIfNeeded();
    await check(page, "child-fare-2-counter", "#passengers");
    expect(errors).toEqual([]);
  });
});

describe("a purchase with the keyboard alone (tactile keypad), with the audio guide", () => {
  it("MARTA Airport → Five Points: every focus and every result is spoken", async () => {
    const { page, errors } = await newPage();
    const breezeSales = (): number => serve.ledger!.sales().filter((s) => s.system === "marta" && s.origin_id === "MARTA-AP" && s.destination_id === "MARTA-FP" && s.payment_method === "breeze_card" && s.total === 2.5).length;
    const salesBefore = breezeSales();
    await page.goto(`${serve.server.url}?system=marta`);
    await page.locator(".attract-start").waitFor();
    const spoken = (): Promise<SpokenReading[]> => spokenReadings(page);
    const lastSaid = async (): Promise<string> => (await spoken()).at(-1)?.text ?? "";
    /** Arrow down until the audio guide says `words` (at most 80 presses). */
    async function moveTo(words: string | RegExp): Promise<string> {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press("ArrowDown");
        const said = await lastSaid();
        if (typeof words === "string" ? said.startsWith(words) : words.test(said)) return said;
      }
      throw new Error(`the keypad never reached ${words}; last said: ${await lastSaid()}`);
    }
    const saidSince = async (from: number): Promise<string> => (await spoken()).slice(from).map((s) => s.text).join(" | ");

    expect(await moveTo("Touch to start")).toBe("Touch to start, button");
    let mark = (await spoken()).length;
    await page.keyboard.press("Enter");
    await expect.poll(() => saidSince(mark), { timeout: 10_000 }).toContain("Plan your journey.");

    for (const [field, query, option] of [["From", "Airport", "Select Airport"], ["To", "Five Points", "Select Five Points"]] as const) {
      await moveTo(`${field}: `);
      await page.keyboard.press("Enter");
      // The picker puts the keyboard in its search field; a keypad user can also arrow through the list.
      await expect.poll(lastSaid, { timeout: 10_000 }).toMatch(/Search stations, text field, empty/);
      await page.keyboard.type(query);
      // The option says its lines too (they describe it).
      expect(await moveTo(option)).toMatch(new RegExp(`^${option}, button\\. .*Line`));
      await page.keyboard.press("Enter");
    }
    await moveTo("Find route and fare");
    mark = (await spoken()).length;
    await page.keyboard.press("Enter");
    await expect.poll(() => saidSince(mark), { timeout: 30_000 }).toMatch(/Your route and fare\. .*Airport to Five Points.*Total \$2\.50/);

    expect(await moveTo(/^Buy tickets · \$2\.50/)).toBe("Buy tickets · $2.50, button");
    mark = (await spoken()).length;
    await page.keyboard.press("Enter");
    await expect.poll(() => saidSince(mark), { timeout: 10_000 }).toMatch(/Payment\. Amount to pay ?\$2\.50/);
    expect(await moveTo("Breeze Card")).toBe("Breeze Card, option, not selected");
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowUp");
    expect(await moveTo("Breeze Card")).toBe("Breeze Card, option, selected");
    await moveTo("Pay $2.50");
    mark = (await spoken()).length;
    await page.keyboard.press("Enter");
    await expect.poll(() => saidSince(mark), { timeout: 15_000 }).toContain("Your ticket. Thank you. Please take your ticket.");
    expect(breezeSales()).toBe(salesBefore + 1);

    // Volume keys change what follows; Help explains the keypad.
    await page.keyboard.press("Minus");
    expect(await lastSaid()).toBe("Volume 80 percent");
    expect((await spoken()).at(-1)?.volume).toBeCloseTo(0.8);
    await page.keyboard.press("F1");
    expect(await lastSaid()).toMatch(/^Audio guide\. Arrow keys move.*Your ticket\./);
    await page.screenshot({ path: path.join(SCREENSHOTS, "p-keyboard-only-ticket.png") });
    writeFileSync(path.join(REPO_ROOT, "test-results", "keyboard-only-speech.txt"), `${(await spoken()).map((s) => `[${s.lang} ${s.volume}] ${s.text}`).join("\n")}\n`);
    expect(errors).toEqual([]);
  });
});
