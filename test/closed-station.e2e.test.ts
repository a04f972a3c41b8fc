// End to end (kiosk serve, Debian's Chromium, the 1080×1920 portrait kiosk): an operator's station
// closure (MARTA Five Points, with the shuttle the notice names and an end time; BART Embarcadero).
// A trip to the closed station shows no fare and no buy button, says what is closed in plain words
// and offers the open stations as buttons; tapping one replans the trip, which is then sold. A trip
// through it with no way around is not a dead end either. Screenshots: test-results/screenshots/closed-*.png.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AlertStore } from "../runtime/alerts/store.ts";
import { validateAlert, type AlertInput } from "../runtime/alerts/model.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { startServe, type RunningServe } from "../cli/serve.ts";
import { buildRenderer, launchChromium, SCREENSHOTS } from "./e2e.ts";

const temp = mkdtempSync(path.join(tmpdir(), "kiosk-closed-e2e-"));
let serve: RunningServe;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

function addAlert(store: AlertStore, input: AlertInput): void {
  const v = validateAlert(input, { system: (id) => testPack().system(id), requireEnglish: true });
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  store.add(v.alert, "e2e operator");
}

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  const alertsDb = path.join(temp, "alerts.sqlite");
  const store = AlertStore.open(alertsDb);
  addAlert(store, {
    system: "marta",
    type: "station_closure",
    stations: ["Five Points"],
    text: { en: "Five Points station is closed for police activity." },
    alternative: "Shuttle buses between Garnett and Peachtree Center",
    valid_until: "2026-03-09T20:00",
  });
  addAlert(store, { system: "bart", type: "station_closure", stations: ["Embarcadero"], text: { en: "Embarcadero station is closed for police activity.", es: "La estación Embarcadero está cerrada por actividad policial." } });
  store.close();
  serve = await startServe({ pack: testPack(), port: 0, ledger: path.join(temp, "ledger.sqlite"), rendererDir, alertsDb, clock: () => new Date(TEST_NOW), log: () => undefined });
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
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

async function pick(field: "origin" | "destination", query: string, option: string): Promise<void> {
  await page.locator(`.station-field-${field}`).click();
  await page.getByRole("searchbox").fill(query);
  await page.locator(".station-option", { hasText: option }).first().click();
}

async function ask(system: string, from: [string, string], to: [string, string], language?: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${serve.server.url}?system=${system}`);
  if (language) await page.locator(`.language-switcher [lang="${language}"]`).click();
  await page.locator(".attract-start").click();
  await pick("origin", ...from);
  await pick("destination", ...to);
  await page.locator(".primary-action .button-hero").click();
  await page.locator(".screen.result").waitFor({ timeout: 30_000 });
}

describe("a trip to, from or through a closed station (kiosk serve, Chromium, 1080×1920)", () => {
  it("to Five Points: no fare, the closure in plain words, open stations as buttons; a tap replans and sells", async () => {
    await ask("marta", ["Airport", "Airport"], ["Five Points", "Five Points"]);
    const result = page.locator(".screen.result");
    expect(await result.getAttribute("data-closed")).toBe("end");
    await page.getByRole("heading", { level: 1, name: "This station is closed" }).waitFor();
    expect(await page.locator(".assistant-message blockquote").textContent()).toBe(
      "Five Points station is closed until 20:00. No ticket is sold to or from it now. Notice: Five Points station is closed for police activity. Suggested instead: Shuttle buses between Garnett and Peachtree Center.",
    );
    expect(await page.locator(".fare-card").count()).toBe(0);
    expect(await page.locator(".action-purchase").count()).toBe(0);
    expect(await page.getByText(/\$2\.50/).count()).toBe(0);
    expect(await page.getByText("This service is suspended").count()).toBe(0);
    expect(await page.locator(".clarify-choice").allTextContents()).toEqual(["Go to Garnett instead (suggested in the notice)", "Go to West End instead", "Go to Oakland City instead"]);
    await shot("closed-01-to-five-points");

    await page.getByRole("button", { name: "Go to Garnett instead (suggested in the notice)" }).click();
    await expect.poll(() => page.locator(".route-destination").textContent(), { timeout: 30_000 }).toBe("Garnett");
    expect(await page.locator(".screen.result").getAttribute("data-closed")).toBeNull();
    const buy = page.locator(".action-purchase .button-hero");
    await expect.poll(() => buy.isEnabled()).toBe(true);
    expect(await buy.textContent()).toContain("$2.50");
    await shot("closed-02-replanned-to-garnett");
    await buy.click();
    await page.locator(".screen.payment").waitFor();
    await page.locator(".payment-methods [role='radio']").first().click();
    await page.locator(".payment .action-buttons .button-primary").click();
    await page.locator(".ticket-screen").waitFor({ timeout: 15_000 });
    await shot("closed-03-ticket-to-garnett");
  });

  it("through Five Points with no way around: not a route that claims to avoid it — no fare, the station before it offered", async () => {
    await ask("marta", ["Airport", "Airport"], ["Arts Center", "Arts Center"]);
    expect(await page.locator(".screen.result").getAttribute("data-closed")).toBe("through");
    await page.getByRole("heading", { level: 1, name: "This route is closed" }).waitFor();
    expect(await page.locator(".assistant-message blockquote").textContent()).toMatch(/^This route passes through Five Points station, which is closed until 20:00/);
    expect(await page.getByText(/avoids the affected section/).count()).toBe(0);
    expect(await page.locator(".fare-card").count()).toBe(0);
    expect(await page.locator(".action-purchase").count()).toBe(0);
    expect(await page.locator(".clarify-choice").allTextContents()).toEqual(["Go to Garnett instead (suggested in the notice)"]);
    await shot("closed-04-through-five-points");
  });

  it("from Embarcadero on the Spanish screen (BART): the Spanish words and open stations; a tap sells", async () => {
    await ask("bart", ["Embarcadero", "Embarcadero"], ["16th St", "16th St Mission"], "es");
    expect(await page.locator(".screen.result").getAttribute("data-closed")).toBe("end");
    expect(await page.locator(".assistant-message blockquote").textContent()).toBe(
      "La estación Embarcadero está cerrada. Ahora no se venden billetes desde ni hacia ella. Aviso: La estación Embarcadero está cerrada por actividad policial.",
    );
    expect(await page.locator(".fare-card").count()).toBe(0);
    expect(await page.locator(".clarify-choice").allTextContents()).toEqual(["Salir desde Montgomery St", "Salir desde Powell St"]);
    await shot("closed-05-from-embarcadero-es");
    await page.locator(".clarify-choice").first().click();
    await expect.poll(() => page.locator(".route-origin").textContent(), { timeout: 30_000 }).toBe("Montgomery St");
    await expect.poll(() => page.locator(".action-purchase .button-hero").isEnabled()).toBe(true);
    await shot("closed-06-replanned-from-montgomery-es");
    expect(problems).toEqual([]);
  });
});
