// The HTML report in a real browser (Debian's headless Chromium, offline): it renders without
// errors or network requests, the partition tabs work without scripts, the charts have a size, and
// a screenshot goes to test-results/screenshots/bench-report.png for review.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { startRun } from "../run/execute.ts";
import { BenchStore } from "../store/store.ts";
import { buildReport } from "./build.ts";
import { renderReportHtml } from "./html.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SCREENSHOT = path.join(REPO_ROOT, "test-results", "screenshots", "bench-report.png");

const dir = mkdtempSync(path.join(tmpdir(), "bench-report-e2e-"));
const htmlFile = path.join(dir, "report.html");
let context: BrowserContext;
/** The full partition's overall Tier 1 as the report states it (the page must show this figure). */
let fullTier1: number;

beforeAll(async () => {
  // Two full runs (the kiosk's rule policy against the reference baseline), as an operator would.
  const pack = new DataPack(SHARED_DATA_DIR);
  const store = BenchStore.open(path.join(dir, "bench.sqlite"));
  try {
    const base = await startRun({ pack, store, policy: "rule-ref", selection: {} });
    const run = await startRun({ pack, store, policy: "rule", selection: {} });
    const report = buildReport(store, run.runId, { compareWith: base.runId });
    fullTier1 = report.partitions.full.overall.tier1;
    writeFileSync(htmlFile, renderReportHtml(report));
  } finally {
    store.close();
  }
  context = await chromium.launchPersistentContext(path.join(dir, "profile"), {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1200, height: 900 },
    deviceScaleFactor: 1,
    offline: true,
  });
}, 180_000);

afterAll(async () => {
  await context?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("bench report HTML in Chromium", () => {
  it("renders offline without errors, switches partitions without scripts, and is screenshotted", async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("request", (r) => requests.push(r.url()));
    const url = pathToFileURL(htmlFile).href;
    await page.goto(url, { waitUntil: "load" });

    expect(await page.title()).toMatch(/^MetroLLM-Bench run 2 · rule vs run 1$/);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);

    // Headline cards: Tier 1 and composite, held-out and full, each with its delta against run 1.
    const cards = page.locator(".card");
    expect(await cards.count()).toBe(4);
    expect(await cards.first().innerText()).toMatch(/TIER 1 · HELD-OUT\s+\d+\.\d\d\s+95% CI [\d.]+–[\d.]+ · n 238\s+\+\d+\.\d vs run 1/);

    // Only the held-out panel shows; its charts have a real size.
    const panel = (p: string) => page.locator(`.panel-${p}`);
    expect(await panel("holdout").isVisible()).toBe(true);
    expect(await panel("full").isVisible()).toBe(false);
    const charts = panel("holdout").locator("svg.chart");
    expect(await charts.count()).toBe(4);
    for (let i = 0; i < 4; i++) {
      const box = await charts.nth(i).boundingBox();
      expect(box?.width).toBeGreaterThan(900);
      expect(box?.height).toBeGreaterThan(200);
    }
    // Every bar of the per-system chart carries a CI whisker and a tooltip.
    expect(await charts.first().locator("g > title").count()).toBeGreaterThanOrEqual(12);

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    // Categories by letter and the benchmark's name.
    const categoryTable = panel("holdout").locator("table.data.wide").first();
    expect(await categoryTable.locator("tbody th").allInnerTexts()).toEqual(["A · Routing", "B · Fare", "C · Disruption", "D · Accessibility", "E · Cultural", "F · Policy", "G · Multi-turn", "H · Adversarial", "I · Temporal", "J · Tool-Hallucination", "K · Compound Stress"]);
    await categoryTable.screenshot({ path: SCREENSHOT.replace(/\.png$/, "-categories.png") });
    await panel("holdout").locator("svg.chart").nth(3).screenshot({ path: SCREENSHOT.replace(/\.png$/, "-category-delta.png") });

    await page.click("label[for=tab-full]");
    expect(await panel("full").isVisible()).toBe(true);
    expect(await panel("holdout").isVisible()).toBe(false);
    expect(await panel("full").locator("table.data").first().innerText()).toMatch(new RegExp(`overall\\s+955\\s+${fullTier1.toFixed(2).replace(".", "\\.")}\\s`));
    // The kiosk's rule policy stays well above the reference baseline on all 955 cases.
    expect(fullTier1).toBeGreaterThan(97);
    await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, "-full-tab.png"), fullPage: false });
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
  });
});
