// End to end, the technician benches an imported network: the real Hyderabad Metro GTFS feed (read
// from ../shared/gtfs at test time) imported into a temp systems folder, `kiosk serve` over the pack
// and it with a bench database, Debian's Chromium on the 1080×1920 portrait kiosk. The technician
// logs in, opens the Technician tab, is told a count out of range is wrong, then generates and runs
// Hyderabad's cases (10 per category, seed 1) with the rule policy: what was generated per category
// (E and K skipped, with the reason) beside the live progress, then the bench's report of the run.
// Screenshots: test-results/screenshots/tech-generated-*.png.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { registerPolicyFactory } from "../bench/policies.ts";
import { importNetwork } from "../host/network/import.ts";
import { pacedRulePolicy, TEST_NOW } from "../runtime/kiosk/testing.ts";
import { hashPin } from "../runtime/operator/pin.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { buildRenderer, fontsSettled, launchChromium, SCREENSHOTS } from "./e2e.ts";
import { SHARED_DATA_DIR, SHARED_DIR } from "./paths.ts";

const PIN = "482916";
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-tech-generated-"));
const systemsDir = path.join(temp, "systems");
const benchDb = path.join(temp, "bench", "bench.sqlite");
let serve: RunningServe;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
const reportRequests: string[] = [];

let restorePolicy: () => void = () => undefined;

beforeAll(async () => {
  importNetwork({ feed: path.join(SHARED_DIR, "gtfs", "hyderabad"), id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR), attribution: "Contains data provided by Hyderabad Metro Rail Ltd." });
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({
    pack: new DataPack(SHARED_DATA_DIR, { systemsDir }),
    port: 0,
    ledger: path.join(temp, "ledger.sqlite"),
    rendererDir,
    operatorDir: path.join(temp, "operator"),
    pinHash: await hashPin(PIN, { N: 1024, r: 8, p: 1 }),
    benchDb,
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  restorePolicy = registerPolicyFactory({ name: "rule", description: "rule, paced for the test", deterministic: true, accepts: [], create: () => ({ policy: pacedRulePolicy(15), model: "rule" }) });
  context = await launchChromium(path.join(temp, "profile"), { width: 1080, height: 1920 });
  page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(`console: ${m.text()}`);
  });
  page.on("request", (r) => {
    if (r.url().endsWith("/api/operator/benchReport")) reportRequests.push(r.url());
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) problems.push(`${r.status()} ${r.url()}`);
  });
}, 300_000);

afterAll(async () => {
  restorePolicy();
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

async function shot(name: string, fullPage = false): Promise<void> {
  await fontsSettled(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `tech-generated-${name}.png`), fullPage });
}

describe("the technician benches an imported network (kiosk serve, Chromium, 1080×1920)", () => {
  it("Hyderabad: generate 10 cases per category with seed 1, run them with rule, read the report", async () => {
    await page.goto(`${serve.server.url}?system=hyderabad#operator`);
    await page.getByRole("heading", { name: "Operator login" }).waitFor();
    await page.getByLabel("Your name").fill("Tess Technician");
    const keypad = page.getByRole("group", { name: "PIN keypad" });
    for (const digit of PIN) await keypad.getByRole("button", { name: digit, exact: true }).click();
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("tab", { name: "Technician" }).click();
    await page.getByRole("heading", { name: "On-device bench" }).waitFor();

    // The imported systems' card: Hyderabad only (the pack's six keep their own selections).
    const card = page.getByRole("region", { name: "Imported networks" });
    await card.waitFor();
    expect(await card.locator("[data-system]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-system")))).toEqual(["hyderabad"]);
    const count = card.getByRole("textbox", { name: "Cases per category" });
    const seed = card.getByRole("textbox", { name: "Seed", exact: true });
    expect(await count.inputValue()).toBe("10");
    expect(await seed.inputValue()).toBe("1");
    expect(await card.textContent()).toContain(`Case files: ${path.join(path.dirname(benchDb), "generated-cases")}`);
    const generate = card.getByRole("button", { name: /^Generate and run cases · / });
    await expect.poll(() => generate.isEnabled()).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await shot("01-imported-card");

    // A count out of range is refused on the screen, naming the field; nothing starts.
    await count.fill("60");
    await generate.click();
    await expect.poll(() => card.getByRole("alert").textContent()).toBe("Cases per category: a whole number from 1 to 50.");
    expect(await count.getAttribute("aria-invalid")).toBe("true");
    await shot("02-count-out-of-range");
    expect(serve.technician!.status().job).toBeNull();
    // Back to the default with the stepper.
    await count.fill("11");
    await card.getByRole("button", { name: "Less · Cases per category" }).click();
    expect(await count.inputValue()).toBe("10");
    expect(await card.getByRole("alert").count()).toBe(0);

    await generate.click();
    const progress = page.locator(".op-progress");
    await progress.waitFor();
    await expect.poll(() => progress.locator("p.op-muted").first().textContent()).toMatch(/^rule — the kiosk's rules · Generated for .+ · 10 per category · seed 1$/);
    // What was generated, per category: E and K cannot come from network data, and say why.
    const generated = page.locator("tr[data-generated-category]");
    expect(await generated.count()).toBe(11);
    expect(await page.locator('tr[data-generated-category="A"]').textContent()).toBe("A · Routing10 of 10");
    expect(await page.locator('tr[data-generated-category="E"]').textContent()).toMatch(/^E · Cultural0 of 10Skipped: cultural questions .*network data has neither/);
    expect(await page.locator('tr[data-generated-category="K"]').textContent()).toMatch(/^K · Compound Stress0 of 10Skipped: /);
    const job = serve.technician!.status().job!;
    const total = job.generation!.cases;
    expect(await progress.textContent()).toContain(`Cases generated: ${total}`);
    // Live progress of the generated cases, per category.
    const bar = page.getByRole("progressbar");
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 60_000 }).toBeGreaterThan(10);
    expect(await page.locator('.op-categories-table tr[data-category="A"]').textContent()).toMatch(/^A · Routing10\/10\d+\.\d/);
    await progress.scrollIntoViewIfNeeded();
    await shot("03-generated-progress");

    // The run ends: the bench's own report of Hyderabad's cases, per category.
    await page.locator(".op-badge-finished").waitFor({ timeout: 120_000 });
    const frame = page.frameLocator("iframe.op-report-frame");
    await frame.getByRole("heading", { name: /MetroLLM-Bench · run \d+/ }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole("progressbar").getAttribute("aria-valuenow")).toBe(String(total));
    const scored = page.locator(".op-categories-table tbody tr");
    expect(await scored.count()).toBe(9);
    const reportRows = await frame.locator("table.data tbody tr th[scope='row']").allTextContents();
    expect(reportRows).toEqual(expect.arrayContaining(["A · Routing", "J · Tool-Hallucination"]));
    expect(reportRows).not.toContain("E · Cultural");
    await progress.scrollIntoViewIfNeeded();
    await shot("04-finished");
    await page.locator(".op-report").scrollIntoViewIfNeeded();
    // The frame paints once it is in view: let two frames pass before the picture.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await shot("05-report");
    // The finished run's report is fetched once (the screen does not reload it while it is read).
    expect(reportRequests).toHaveLength(1);
    // The report names the case file the run came from (as for `kiosk bench run --cases-file`).
    const details = frame.locator("dl.details").first();
    expect(await details.textContent()).toContain(`case file ${job.generation!.casesFile}`);
    await details.scrollIntoViewIfNeeded();
    await page.locator(".op-report").screenshot({ path: path.join(SCREENSHOTS, "tech-generated-06-report-details.png") });
    // Stored like `kiosk bench run --cases-file`: the file beside the database, the run in the list.
    const run = serve.bench!.requireRun(serve.technician!.status().job!.runId!);
    expect(run.selection.casesFile).toBe(job.generation!.casesFile);
    expect(existsSync(run.selection.casesFile!)).toBe(true);
    expect(await page.locator(".op-runs li").first().textContent()).toContain("hyderabad · A–D, F–J");
    expect(serve.app.status().benchRunning).toBe(false);
    expect(problems).toEqual([]);
  });
});
