// End to end (kiosk serve, Debian's Chromium): an operator adds a closure of BART's Transbay Tube on
// the operator screen — previewed first against the stored passenger sessions — and the next
// passenger sees the advisory and cannot buy across it; the operator edits it (a Spanish text, a
// later end) and a passenger on the Spanish screen reads the Spanish text; the alert is ended and
// sales resume. The session audit then opens the blocked session as a timeline. Screenshots:
// test-results/screenshots/alerts-*.png.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { AlertStore } from "../runtime/alerts/store.ts";
import { hashPin } from "../runtime/operator/pin.ts";
import { buildRenderer, launchChromium, SCREENSHOTS } from "../test/e2e.ts";
import { startServe, type RunningServe } from "./serve.ts";

const PIN = "482916";
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-alerts-e2e-"));
let serve: RunningServe;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({
    pack: testPack(),
    port: 0,
    ledger: path.join(temp, "ledger.sqlite"),
    rendererDir,
    operatorDir: path.join(temp, "framebooks"),
    pinHash: await hashPin(PIN, { N: 1024, r: 8, p: 1 }),
    alertsDb: path.join(temp, "alerts.sqlite"),
    auditDb: path.join(temp, "audit.sqlite"),
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  context = await launchChromium(path.join(temp, "profile"), { width: 1080, height: 1920 });
  page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(`console: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) problems.push(`${r.status()} ${r.url()}`);
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

/** The passenger screen's words the trip below uses, on the English and the Spanish screen (renderer/i18n). */
const SCREEN = {
  en: { start: "Touch to start", plan: "Plan your journey", from: "From", to: "To", select: "Select", find: "Find route and fare", result: /^(Your route and fare|Route information)$/ },
  es: { start: "Toque para empezar", plan: "Planifique su viaje", from: "Desde", to: "Hasta", select: "Elegir", find: "Buscar ruta y tarifa", result: /^(Su ruta y tarifa|Información de la ruta)$/ },
} as const;

async function chooseStation(words: (typeof SCREEN)[keyof typeof SCREEN], field: "from" | "to", query: string, name: string): Promise<void> {
  await page.getByRole("button", { name: new RegExp(`^${words[field]}: `) }).click();
  await page.getByRole("searchbox").fill(query);
  await page.getByRole("button", { name: new RegExp(`^${words.select} ${name}( \\(|$)`) }).first().click();
}

/** A passenger asks West Oakland → Embarcadero (through the Transbay Tube), on the English or the Spanish screen. */
async function passengerTubeTrip(language: keyof typeof SCREEN = "en"): Promise<void> {
  const words = SCREEN[language];
  await page.goto("about:blank");
  await page.goto(`${serve.server.url}?system=bart`);
  if (language === "es") await page.getByRole("button", { name: "Español", exact: true }).click();
  await page.getByRole("button", { name: words.start }).click();
  await page.getByRole("heading", { name: words.plan }).waitFor();
  await chooseStation(words, "from", "West Oakland", "West Oakland");
  await chooseStation(words, "to", "Embarcadero", "Embarcadero");
  await page.getByRole("button", { name: words.find }).click();
  await page.getByRole("heading", { name: words.result }).waitFor({ timeout: 30_000 });
}

async function openOperator(tab: "Service alerts" | "Session audit"): Promise<void> {
  // A fresh load (from the passenger screen, only the hash would change).
  await page.goto("about:blank");
  await page.goto(`${serve.server.url}?system=bart#operator`);
  await page.getByRole("heading", { name: "Operator login" }).waitFor();
  await page.getByLabel("Your name", { exact: true }).fill("Ada Operator");
  const keypad = page.getByRole("group", { name: "PIN keypad" });
  for (const digit of PIN) await keypad.getByRole("button", { name: digit, exact: true }).click();
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("tab", { name: tab }).click();
}

describe("service alerts and the session audit (kiosk serve, Chromium)", () => {
  it("an operator's closure blocks the next sale across it; ended, sales resume; the audit shows why", async () => {
    // Before: the trip is sold.
    await passengerTubeTrip();
    expect(await page.getByRole("button", { name: /^Buy tickets/ }).isEnabled()).toBe(true);

    // The operator adds the closure: a mistake first (a station that does not exist), named by its field.
    await openOperator("Service alerts");
    await page.getByText("No service alerts for this system.").waitFor();
    await page.getByLabel("Type", { exact: true }).selectOption("planned_maintenance");
    await page.getByLabel("Severity", { exact: true }).selectOption("critical");
    await page.getByLabel("Closed segment: from station", { exact: true }).fill("West Oakland");
    await page.getByLabel("Closed segment: to station", { exact: true }).fill("Embarcadoro");
    await page.getByLabel("Valid until", { exact: true }).fill("2026-03-10T04:00");
    await page.getByLabel("What passengers are told (English)", { exact: true }).fill("Transbay Tube closed for repairs: no trains between West Oakland and Embarcadero. Take the free bus bridge.");
    await page.getByRole("button", { name: "Add alert" }).click();
    await expect.poll(() => page.getByRole("alert", { name: "Problems with this alert" }).textContent()).toContain("segment.to_station: unknown station 'Embarcadoro' for bart");
    await shot("alerts-01-field-error");
    await page.getByLabel("Closed segment: to station", { exact: true }).fill("Embarcadero");
    await page.getByRole("button", { name: "Preview against stored sessions" }).click();
    await expect.poll(() => page.getByRole("status", { name: "Preview" }).textContent()).toMatch(/With this alert, 1 of 1 stored answers would change \(sessions replayed: 1\)\./);
    // The changed answer in words: the passenger's trip by station name, who travelled, what changes and why.
    expect(await page.getByRole("status", { name: "Preview" }).getByRole("listitem").first().innerText()).toMatch(
      /^\u2068West Oakland\u2069 → \u2068Embarcadero\u2069, 1 adult: would no longer be sold — Planned maintenance: West Oakland – Embarcadero\n/,
    );
    // What the kiosk reads in the alert: what the interlock will act on.
    await expect.poll(() => page.getByRole("status", { name: "What the kiosk reads in this alert" }).innerText()).toMatch(/No trains between \u2068(?:Embarcadero|West Oakland)\u2069 and \u2068(?:West Oakland|Embarcadero)\u2069\./);
    await shot("alerts-02-preview");
    await page.getByRole("button", { name: "Add alert" }).click();
    await page.getByText(/^Alert bart-planned-maintenance-\w+ added/).waitFor();
    const row = page.locator("tr[data-alert]");
    // The table names the stations, not their ids.
    expect(await row.textContent()).toMatch(/Planned maintenance · critical.*West Oakland – Embarcadero.*2026-03-10 04:00.*In force.*Ada Operator/);
    expect(await row.textContent()).not.toContain("BART-WOAK");
    await shot("alerts-03-added");

    // The next passenger: the advisory, and no sale across the closed tube.
    await page.getByRole("button", { name: "Close operator tools" }).click();
    await passengerTubeTrip();
    await expect.poll(() => page.getByText(/Transbay Tube closed for repairs/).first().isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: /^Buy tickets/ }).count()).toBe(0);
    await shot("alerts-04-passenger-advisory");

    // The operator edits it: the form opens filled with the alert; a Spanish text and a later end are added.
    await openOperator("Service alerts");
    await page.getByRole("button", { name: /^Edit alert / }).click();
    await page.getByRole("heading", { name: /^Edit alert bart-planned-maintenance-\w+$/ }).waitFor();
    expect(await page.getByLabel("Closed segment: from station", { exact: true }).inputValue()).toBe("West Oakland");
    expect(await page.getByLabel("Closed segment: to station", { exact: true }).inputValue()).toBe("Embarcadero");
    expect(await page.getByLabel("What passengers are told (English)", { exact: true }).inputValue()).toMatch(/^Transbay Tube closed for repairs/);
    await page.getByLabel("What passengers are told (Español, optional)", { exact: true }).fill("Túnel Transbay cerrado por obras: no hay trenes entre West Oakland y Embarcadero. Tome el autobús gratuito.");
    await page.getByLabel("Valid until", { exact: true }).fill("2026-03-10T06:00");
    await page.getByRole("button", { name: "Preview against stored sessions" }).click();
    await page.getByRole("status", { name: "Preview" }).waitFor();
    await shot("alerts-07-edit-form");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText(/^Alert bart-planned-maintenance-\w+ saved/).waitFor();
    await expect.poll(() => row.textContent()).toMatch(/West Oakland – Embarcadero.*2026-03-10 06:00.*In force/);
    expect(await row.count()).toBe(1);
    expect(await page.locator(".op-log").textContent()).toMatch(/Ada Operator · edited bart-planned-maintenance-\w+/);
    await shot("alerts-08-edited");

    // A passenger on the Spanish screen reads the Spanish text; still no sale across the tube.
    await page.getByRole("button", { name: "Close operator tools" }).click();
    await passengerTubeTrip("es");
    await expect.poll(() => page.getByText(/Túnel Transbay cerrado por obras/).first().isVisible()).toBe(true);
    expect(await page.getByText(/Transbay Tube closed for repairs/).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Comprar boletos/ }).count()).toBe(0);
    await shot("alerts-09-passenger-spanish");

    // The operator ends it: sales resume.
    await openOperator("Service alerts");
    // Ending asks first, naming what ends.
    await page.getByRole("button", { name: /^End alert / }).click();
    const confirm = page.getByRole("alertdialog", { name: /^End alert bart-planned-maintenance-\w+$/ });
    expect(await confirm.textContent()).toContain("End “Planned maintenance: West Oakland – Embarcadero”?");
    expect(await confirm.isVisible()).toBe(true);
    await shot("alerts-10-end-confirm");
    await confirm.getByRole("button", { name: "Yes, continue" }).click();
    await page.getByText(/^Alert bart-planned-maintenance-\w+ ended/).waitFor();
    await expect.poll(() => row.textContent()).toMatch(/Ended.*ended by Ada Operator/);
    await page.getByRole("button", { name: "Close operator tools" }).click();
    await passengerTubeTrip();
    expect(await page.getByRole("button", { name: /^Buy tickets/ }).isEnabled()).toBe(true);

    // The session audit: four sessions today; a blocked one, opened, says why buy was off.
    await openOperator("Session audit");
    const sessions = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
    await expect.poll(() => sessions.count()).toBe(4);
    await shot("alerts-05-audit-list");
    await page.getByLabel("Outcome", { exact: true }).selectOption("route_and_fare_ready");
    await expect.poll(() => sessions.count()).toBe(2);
    await page.getByLabel("Outcome", { exact: true }).selectOption("");
    await expect.poll(() => sessions.count()).toBe(4);
    // The kiosk's clock stands still in this test, so the sessions share a start time: find the blocked ones (English, Spanish) by their outcome.
    const blocked = sessions.filter({ hasNotText: "route_and_fare_ready" });
    await expect.poll(() => blocked.count()).toBe(2);
    await blocked.first().getByRole("button", { name: /^Open session / }).click();
    const timeline = page.locator(".op-timeline");
    await timeline.waitFor();
    // It is scrolled into view, its heading focused.
    await expect.poll(() => timeline.getByRole("heading").evaluate((h) => h === document.activeElement && h.getBoundingClientRect().top >= 0 && h.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
    await shot("alerts-11-audit-opened");
    const kinds = await timeline.locator("[data-kind]").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.kind));
    expect(kinds[0]).toBe("asked");
    expect(kinds).toEqual(expect.arrayContaining(["tool", "shown", "buy"]));
    expect(await timeline.textContent()).toContain("From: West Oakland (BART-WOAK)");
    expect(await timeline.locator('[data-kind="buy"]').textContent()).toMatch(/Buy button off.*does not offer a ticket/);
    expect(await timeline.locator('[data-kind="tool"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^Tooldisruption_feed.*bart-planned-maintenance-\w+ \(planned_maintenance, critical\)/)]));
    await timeline.screenshot({ path: path.join(SCREENSHOTS, "alerts-06-audit-timeline.png") });
    expect(problems).toEqual([]);
  }, 240_000);

  it("an alert whose words stop service where the kiosk cannot map it needs the operator's decision", async () => {
    await openOperator("Service alerts");
    await page.getByLabel("Type", { exact: true }).selectOption("major_delay");
    await page.getByLabel("Severity", { exact: true }).selectOption("critical");
    await page.getByLabel("Valid until", { exact: true }).fill("2026-03-10T04:00");
    await page.getByLabel("What passengers are told (English)", { exact: true }).fill("Due to police activity, trains will stop running in the affected area until further notice.");
    await page.getByRole("button", { name: "Preview against stored sessions" }).click();
    await expect.poll(() => page.getByRole("status", { name: "What the kiosk reads in this alert" }).innerText()).toContain("Not read: the words say service stops, but not where. Until you decide, the kiosk refers every trip of this system to staff while it is in force.");
    await page.getByRole("button", { name: "Add alert" }).click();
    const warning = page.getByRole("alert").filter({ hasText: "cannot tell where this alert's words stop service" });
    await warning.waitFor();
    await shot("alerts-12-unread");
    expect(await page.locator("tr[data-alert]").filter({ hasText: "Major delays" }).count()).toBe(0);
    expect(await warning.innerText()).toContain("decide what happens to the trips it may touch (every trip of this system)");
    expect(await warning.getByRole("button").allInnerTexts()).toEqual(["Refer them to staff", "Do not sell them", "Sell them as usual"]);
    await warning.getByRole("button", { name: "Do not sell them" }).click();
    await page.getByText(/^Alert bart-major-delay-\w+ added/).waitFor();
    // The decision is kept with the alert: the interlock blocks the trips it may touch. (The list
    // reloads after the confirmation is shown.)
    await expect.poll(() => page.locator("tr[data-alert]").filter({ hasText: "Major delays" }).count()).toBe(1);
    const store = AlertStore.open(path.join(temp, "alerts.sqlite"));
    expect(store.current("bart").filter((r) => r.alert.type === "major_delay").map((r) => r.alert.if_unread)).toEqual(["block"]);
    store.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
