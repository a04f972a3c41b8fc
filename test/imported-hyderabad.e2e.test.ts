// End to end, an imported network on the passenger screen: the real Hyderabad Metro GTFS feed (read
// from ../shared/gtfs at test time) imported into a temp systems folder, `kiosk serve` over the pack
// and it, Debian's Chromium on the 1080×1920 portrait kiosk. The passenger picks Hyderabad, chooses
// Miyapur → Ameerpet, sees the route on a geographic map drawn from the feed's coordinates and the
// fare of the feed's fare_rules in rupees (computed here from the raw CSV), and buys the ticket.
// Screenshots: test-results/screenshots/hyderabad-*.png.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { importNetwork } from "../host/network/import.ts";
import { TEST_NOW } from "../runtime/kiosk/testing.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { buildRenderer, launchChromium, SCREENSHOTS } from "./e2e.ts";
import { SHARED_DATA_DIR, SHARED_DIR } from "./paths.ts";

const FEED = path.join(SHARED_DIR, "gtfs", "hyderabad");
const ATTRIBUTION = "Contains data provided by Hyderabad Metro Rail Ltd.";
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-e2e-hyderabad-"));
const systemsDir = path.join(temp, "systems");
let serve: RunningServe;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

type Row = Record<string, string>;
const csv = (file: string): Row[] => parse(readFileSync(path.join(FEED, file), "utf8"), { columns: true, bom: true, skip_empty_lines: true }) as Row[];
const stops = csv("stops.txt");
/** A station (location_type 1) by the feed's name. */
const station = (name: string): Row => {
  const found = stops.find((s) => s.location_type === "1" && s.stop_name?.trim() === name);
  if (!found) throw new Error(`no station '${name}' in the feed`);
  return found;
};

/** One adult's fare between two stations, as the feed's fare_rules price the zones of the station and its platforms. */
function feedFare(from: Row, to: Row): number {
  const zonesOf = (s: Row): Set<string> => new Set(stops.filter((p) => (p.stop_id === s.stop_id || p.parent_station === s.stop_id) && p.zone_id).map((p) => p.zone_id as string));
  const price = new Map(csv("fare_attributes.txt").map((f) => [f.fare_id, Number(f.price)]));
  const fares = new Set<number>();
  for (const rule of csv("fare_rules.txt")) {
    if (zonesOf(from).has(rule.origin_id as string) && zonesOf(to).has(rule.destination_id as string)) fares.add(price.get(rule.fare_id) as number);
  }
  if (fares.size !== 1) throw new Error(`the feed prices ${from.stop_name} → ${to.stop_name} ${fares.size} ways`);
  return [...fares][0] as number;
}

beforeAll(async () => {
  importNetwork({ feed: FEED, id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR), attribution: ATTRIBUTION });
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({ pack: new DataPack(SHARED_DATA_DIR, { systemsDir }), port: 0, ledger: path.join(temp, "ledger.sqlite"), rendererDir, clock: () => new Date(TEST_NOW), log: () => undefined });
  context = await launchChromium(path.join(temp, "profile"), { width: 1080, height: 1920 });
  page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(`console: ${m.text()}`);
  });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

async function shot(name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(SCREENSHOTS, `hyderabad-${name}.png`) });
}

async function pick(field: "origin" | "destination", name: string): Promise<void> {
  await page.locator(`.station-field-${field}`).click();
  await page.getByRole("searchbox").fill(name.slice(0, 5));
  await page.locator(".station-option", { hasText: name }).first().click();
}

describe("an imported GTFS network on the passenger screen (kiosk serve, Chromium, 1080×1920)", () => {
  it("Hyderabad: Miyapur → Ameerpet on the map, the feed's fare in rupees, sold", async () => {
    const miyapur = station("Miyapur");
    const ameerpet = station("Ameerpet");
    const fare = feedFare(miyapur, ameerpet);
    const rupees = `₹${fare.toFixed(2)}`;

    await page.goto(serve.server.url);
    await page.locator(".system-choice [role='radio']", { hasText: "Hyderabad Metro Rail" }).click();
    await expect.poll(() => page.locator(".attract-org").textContent()).toBe("Hyderabad Metro Rail");
    // The feed's attribution, said to be imported data: none of it is the benchmark pack's.
    const footer = await page.locator(".kiosk-footer").textContent();
    expect(footer).toContain(ATTRIBUTION);
    expect(footer).toContain("Imported data");
    expect(footer).not.toMatch(/MetroLLM|Wikipedia/);
    await shot("01-attract");
    await page.locator(".attract-start").click();
    await pick("origin", "Miyapur");
    await pick("destination", "Ameerpet");
    await shot("02-journey");
    await page.locator(".primary-action .button-hero").click();
    await page.locator(".screen.result").waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator(".route-destination").textContent()).toBe("Ameerpet");
    expect(await page.locator(".route-origin").textContent()).toBe("Miyapur");
    expect(await page.getByTestId("fare-total").textContent()).toBe(rupees);
    expect(await page.locator(".fare-card .currency-code").textContent()).toBe("INR");
    await shot("03-result");

    // The route on a geographic map: the feed's coordinates place the stations, its shapes draw the lines.
    const map = page.locator(".result-side .network-map");
    expect(await map.getAttribute("data-mode")).toBe("geographic");
    const stopsOnRoute = await page.locator(".route-stop").count();
    expect(stopsOnRoute).toBeGreaterThan(2);
    expect(await map.locator(".map-route-segment").count()).toBe(stopsOnRoute - 1);
    expect(await map.locator(`[data-station="${miyapur.stop_id}"]`).getAttribute("data-role")).toBe("origin");
    expect(await map.locator(`[data-station="${ameerpet.stop_id}"]`).getAttribute("data-role")).toBe("destination");
    expect(await map.locator(".map-label").allTextContents()).toEqual(expect.arrayContaining(["Miyapur", "Ameerpet"]));
    // Each line follows the feed's course between its stations, not a straight line from one to the next.
    const lines = new DataPack(SHARED_DATA_DIR, { systemsDir }).system("hyderabad").lines;
    expect(await map.locator(".map-line").count()).toBe(lines.length);
    for (const line of lines) {
      const points = (await map.locator(`.map-line[data-line="${line.id}"]`).getAttribute("points"))?.split(" ") ?? [];
      expect(points.length, line.id).toBeGreaterThan(line.stations.length);
    }
    expect(await map.locator(".legend-attribution").textContent()).toContain(ATTRIBUTION);
    // The page's end: the whole map above the buy button that stays in reach.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await shot("04-result-map");
    const buy = page.locator(".action-purchase .button-hero");
    await expect.poll(() => buy.isEnabled()).toBe(true);
    expect(await buy.textContent()).toContain(rupees);
    await buy.click();
    await page.locator(".screen.payment").waitFor();
    await page.locator(".payment-methods [role='radio']").first().click();
    await shot("05-payment");
    await page.locator(".payment .action-buttons .button-primary").click();
    await page.locator(".ticket-screen").waitFor({ timeout: 15_000 });
    expect(await page.locator(".ticket-details .amount").textContent()).toBe(rupees);
    expect(await page.locator(".ticket-details").textContent()).toMatch(/Miyapur →.*Ameerpet.*Smart card/);
    await shot("06-ticket");
    expect(problems).toEqual([]);
  });
});
