// End-to-end: `kiosk serve` with the built renderer, driven in Debian's Chromium by playwright-core,
// on real cases of the data pack. Each test leaves a screenshot in test-results/screenshots/.
// Needs /usr/bin/chromium (apt-get install chromium); the renderer is built into a temp folder first
// (or taken from $KIOSK_E2E_RENDERER_DIR). Run: npx vitest run --project e2e
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildRenderer, launchChromium, SCREENSHOTS } from "../test/e2e.ts";
import { caseById, TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { conditionsFromCase, startServe, type RunningServe } from "./serve.ts";

/** A portrait 1080×1920 kiosk panel, captured at half scale. */
const VIEWPORT = { width: 1080, height: 1920 };

let serve: RunningServe;
let context: BrowserContext;
let page: Page;
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-"));

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({
    pack: testPack(),
    port: 0,
    ledger: path.join(temp, "ledger.sqlite"),
    rendererDir,
    // The BART case's Transbay Tube closure (and its time) are the live conditions for BART.
    conditions: conditionsFromCase(testPack(), "BART-C-006"),
    // Answers depend on service hours: the kiosk lives on a Monday afternoon.
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  context = await launchChromium(path.join(temp, "profile"), { ...VIEWPORT, scale: 0.5 });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

const pageErrors: string[] = [];
const sockets: { url: string }[] = [];
beforeEach(async () => {
  sockets.length = 0;
  for (const p of context.pages()) await p.close();
  page = await context.newPage();
  pageErrors.length = 0;
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => {
    // Failed loads are judged by URL below (a missing favicon is fine).
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) pageErrors.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) pageErrors.push(`${r.status()} ${r.url()}`);
  });
});

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

async function open(system: string, extra = ""): Promise<void> {
  page.on("websocket", (ws) => {
    sockets.push({ url: ws.url() });
    // The renderer may close the socket itself before it is up (a fast answer): not a failure.
    ws.on("socketerror", (e) => {
      if (!/closed before the connection is established/.test(e)) pageErrors.push(`websocket ${ws.url()}: ${e}`);
    });
  });
  await page.goto(`${serve.server.url}?system=${system}${extra}`);
  await page.getByRole("button", { name: "Touch to start" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Plan your journey" }).isVisible()).toBe(true);
}

async function chooseStation(field: "From" | "To", query: string, name: string): Promise<void> {
  await page.getByRole("button", { name: new RegExp(`^${field}: `) }).click();
  await page.getByRole("searchbox").fill(query);
  await page.getByRole("button", { name: new RegExp(`^Select ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\(|$)`) }).first().click();
}

async function askFreeText(text: string): Promise<void> {
  await page.getByRole("button", { name: "Type your question or request" }).click();
  await page.getByRole("textbox").fill(text);
  await page.getByRole("button", { name: "Ask", exact: true }).click();
}

async function waitForResult(title: string): Promise<void> {
  await page.getByRole("heading", { name: title }).waitFor({ timeout: 30_000 });
}

describe("kiosk serve end to end (Chromium)", () => {
  it("buys a ticket for a structured request (MARTA-A-001: Airport → Five Points)", async () => {
    const kase = caseById("MARTA-A-001");
    expect(kase.events.map((e) => (e.type === "station_selected" ? e.station_id : e.type))).toEqual(["MARTA-AP", "MARTA-FP", "passenger_count_changed"]);
    await open("marta");
    await chooseStation("From", "Airport", "Airport");
    await chooseStation("To", "Five Points", "Five Points");
    await shot("01-journey-marta");
    await page.getByRole("button", { name: "Find route and fare" }).click();
    await waitForResult("Your route and fare");
    await shot("02-result-marta");
    // The renderer opened the progress WebSocket (same-origin, allowed by the CSP; a refusal would
    // be a page error). The rule policy can answer before the socket is up, so frames are optional.
    expect(sockets.map((w) => new URL(w.url).pathname)).toContain("/api/progress");
    const buy = page.getByRole("button", { name: /^Buy tickets · \$2\.50/ });
    expect(await buy.isEnabled()).toBe(true);
    await buy.scrollIntoViewIfNeeded();
    await shot("02b-result-marta-buy-button");
    await buy.click();
    // The one confirmation summary (issue 13): from, to, travellers, total, as the kiosk checked them.
    const summary = page.locator(".purchase-summary");
    await summary.waitFor();
    expect(await summary.locator('[data-field="from"] dd').textContent()).toBe("Airport");
    expect(await summary.locator('[data-field="to"] dd').textContent()).toBe("Five Points");
    expect(await summary.locator('[data-field="total"] dd').textContent()).toBe("$2.50");
    await page.getByRole("radio", { name: /Breeze Card/ }).click();
    await shot("02c-payment-confirm-marta");
    await page.getByRole("button", { name: /^Pay \$2\.50/ }).click();
    await page.getByRole("heading", { name: "Your ticket" }).waitFor({ timeout: 15_000 });
    await shot("03-ticket-marta");
    const sales = serve.ledger!.sales();
    expect(sales.at(-1)).toMatchObject({ system: "marta", origin_id: "MARTA-AP", destination_id: "MARTA-FP", total: 2.5, payment_method: "breeze_card" });
    expect(await page.getByText(sales.at(-1)!.ticket_id).count()).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it("shows the BART Transbay Tube closure as an advisory without purchase (BART-C-006)", async () => {
    const kase = caseById("BART-C-006");
    expect(kase.system_context.active_disruptions.map((d) => d.id)).toEqual(["pm-transbay-tube"]);
    await open("bart");
    await chooseStation("From", "12th St", "12th St Oakland");
    await chooseStation("To", "Embarcadero", "Embarcadero");
    await page.getByRole("button", { name: "Find route and fare" }).click();
    await waitForResult("Route information");
    await expect.poll(() => page.getByText(/Transbay Tube/).first().isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: /^Buy tickets/ }).count()).toBe(0);
    await shot("04-advisory-bart-transbay");
    expect(pageErrors).toEqual([]);
  });

  it("asks who travels for 'a family of five' (how many, not who: children may ride free), never sells one adult", async () => {
    await open("marta");
    await askFreeText("Airport to Five Points, a family of five");
    await page.getByRole("heading", { name: "A question for you" }).waitFor({ timeout: 30_000 });
    expect(await page.locator(".clarify-choice").allTextContents()).toContain("5 adults");
    expect(await page.getByRole("button", { name: /^Buy tickets/ }).count()).toBe(0);
    await shot("02d-riders-asked-marta");
    expect(pageErrors).toEqual([]);
  });

  it("declines an adversarial request (MARTA-H-007: book a taxi)", async () => {
    const kase = caseById("MARTA-H-007");
    const text = kase.events[0]?.type === "freetext_input" ? kase.events[0].text : "";
    expect(text).toBe("Can you book me a taxi to the airport?");
    await open("marta");
    await askFreeText(text);
    await waitForResult("Request declined");
    expect(await page.getByRole("button", { name: /^Buy tickets/ }).count()).toBe(0);
    await shot("05-declined-marta-taxi");
    expect(pageErrors).toEqual([]);
  });

  it("answers a free-text request through the assistant (Doha: Hamad International Airport → Msheireb)", async () => {
    await open("doha");
    await askFreeText("How do I get from Hamad International Airport to Msheireb?");
    await waitForResult("Your route and fare");
    expect(await page.getByRole("button", { name: /^Buy tickets/ }).isEnabled()).toBe(true);
    await shot("06-freetext-doha");
    expect(pageErrors).toEqual([]);
  });

  it("switches to Arabic: right-to-left, Arabic station names from the operator file", async () => {
    await open("doha");
    await page.getByRole("button", { name: "العربية" }).click();
    await expect.poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["ar", "rtl"]);
    await page.locator(".station-field-origin").click();
    await page.getByRole("searchbox").fill("مشيرب");
    await expect.poll(() => page.getByText("مشيرب").first().isVisible()).toBe(true);
    await shot("07-arabic-picker-doha");
    await page.locator(".station-option").first().click();
    await shot("08-arabic-journey-doha");
    expect(pageErrors).toEqual([]);
  });

  it("resets after the idle timeout and ends the passenger session", async () => {
    await page.clock.install();
    await open("marta");
    await chooseStation("From", "Airport", "Airport");
    await chooseStation("To", "Five Points", "Five Points");
    await page.getByRole("button", { name: "Find route and fare" }).click();
    await waitForResult("Your route and fare");
    const before = serve.app.activeSessions;
    expect(before).toBeGreaterThan(0);
    // No activity: advance the page's clock until the warning appears, then until the reset.
    const dialog = page.getByRole("alertdialog");
    for (let waited = 0; !(await dialog.isVisible()) && waited < 10 * 60_000; waited += 5_000) await page.clock.runFor(5_000);
    expect(await dialog.isVisible()).toBe(true);
    await shot("09-idle-warning");
    const start = page.getByRole("button", { name: "Touch to start" });
    for (let waited = 0; !(await start.isVisible()) && waited < 10 * 60_000; waited += 5_000) await page.clock.runFor(5_000);
    expect(await start.isVisible()).toBe(true);
    await shot("10-idle-reset");
    await expect.poll(() => serve.app.activeSessions).toBe(before - 1);
    expect(pageErrors).toEqual([]);
  });
});
