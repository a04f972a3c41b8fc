// End to end: the operator and technician screens of `kiosk serve` in Debian's Chromium. The
// operator logs in with the PIN, uploads a broken framebook (its line and column are shown), then
// one with a fare policy (the diff), applies it — and the next passenger session is quoted the new
// fare — then rolls it back. The technician runs a one-category `rule` bench: live per-category
// progress, passengers refused meanwhile, then the bench's own report in a sandboxed frame and a
// JSON export. Screenshots go to test-results/screenshots/op-*.png and tech-*.png.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registerPolicyFactory } from "../bench/policies.ts";
import { pacedRulePolicy, TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { hashPin } from "../runtime/operator/pin.ts";
import { buildRenderer, launchChromium, SCREENSHOTS } from "../test/e2e.ts";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { startServe, type RunningServe } from "./serve.ts";

const PIN = "482916";
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-operator-e2e-"));
let serve: RunningServe;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const SENIORS_FREE = original.replace(
  "cultural_notes: []",
  'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."',
);
const BROKEN = SENIORS_FREE.replace("late_night_headway_min: 20", "late_night_headway_min: twenty");
const brokenLine = BROKEN.split("\n").findIndex((l) => l.includes("twenty")) + 1;

let restorePolicy: () => void = () => undefined;

beforeAll(async () => {
  const rendererDir = buildRenderer(path.join(temp, "renderer"));
  serve = await startServe({
    pack: testPack(),
    port: 0,
    ledger: path.join(temp, "ledger.sqlite"),
    rendererDir,
    operatorDir: path.join(temp, "framebooks"),
    pinHash: await hashPin(PIN, { N: 1024, r: 8, p: 1 }),
    benchDb: path.join(temp, "bench.sqlite"),
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
  });
  restorePolicy = registerPolicyFactory({ name: "rule", description: "rule, paced for the test", deterministic: true, accepts: [], create: () => ({ policy: pacedRulePolicy(25), model: "rule" }) });
  writeFileSync(path.join(temp, "broken.yaml"), BROKEN);
  writeFileSync(path.join(temp, "seniors-free.yaml"), SENIORS_FREE);
  context = await launchChromium(path.join(temp, "profile"), { width: 1080, height: 1920 });
}, 300_000);

afterAll(async () => {
  restorePolicy();
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

function watch(p: Page): Page {
  p.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  p.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(`console: ${m.text()}`);
  });
  p.on("response", (r) => {
    // 503 from /api/ask is the passenger being refused during a bench run (checked explicitly).
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico") && !(r.status() === 503 && r.url().endsWith("/api/ask"))) problems.push(`${r.status()} ${r.url()}`);
  });
  return p;
}

beforeEach(async () => {
  for (const p of context.pages()) await p.close();
  page = watch(await context.newPage());
  problems.length = 0;
});

async function shot(name: string, target: Page = page, fullPage = false): Promise<void> {
  await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}

async function openOperator(): Promise<void> {
  await page.goto(`${serve.server.url}?system=marta#operator`);
  await page.getByRole("heading", { name: "Operator login" }).waitFor();
}

async function typePin(pin: string): Promise<void> {
  const keypad = page.getByRole("group", { name: "PIN keypad" });
  for (const digit of pin) await keypad.getByRole("button", { name: digit, exact: true }).click();
}

async function login(name: string): Promise<void> {
  await page.getByLabel("Your name").fill(name);
  await typePin(PIN);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("tab", { name: "Framebooks" }).waitFor();
}

async function passengerFare(expected: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Touch to start" }).click();
  await page.getByRole("heading", { name: "Plan your journey" }).waitFor();
  for (const [field, query, name] of [["From", "Airport", "Airport"], ["To", "Five Points", "Five Points"]] as const) {
    await page.getByRole("button", { name: new RegExp(`^${field}: `) }).click();
    await page.getByRole("searchbox").fill(query);
    await page.getByRole("button", { name: new RegExp(`^Select ${name}( \\(|$)`) }).first().click();
  }
  await page.getByRole("button", { name: "Add one: Seniors" }).click();
  await page.getByRole("button", { name: "Find route and fare" }).click();
  await page.getByRole("heading", { name: "Your route and fare" }).waitFor({ timeout: 30_000 });
  await expect.poll(() => page.getByRole("button", { name: /^Buy tickets · / }).textContent()).toMatch(expected);
}

describe("operator screen (kiosk serve, Chromium)", () => {
  it("PIN login, broken upload with line/column, diff, apply for the next passenger, rollback", async () => {
    await openOperator();
    await shot("op-01-login");
    // A wrong PIN is refused and counted.
    await page.getByLabel("Your name").fill("Ada Operator");
    await typePin("000000");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Wrong PIN. Tries left before a lockout: 2.");
    await page.getByRole("button", { name: "Clear", exact: true }).click();
    await typePin(PIN);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("tab", { name: "Framebooks" }).waitFor();
    await expect.poll(() => page.getByText("Signed in: Ada Operator").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("data pack default").isVisible()).toBe(true);

    // A broken file: rejected with its line and column, which the editor can jump to.
    await page.getByTestId("framebook-file").setInputFiles(path.join(temp, "broken.yaml"));
    await expect.poll(() => page.getByText("File: broken.yaml").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Check framebook" }).click();
    const issue = page.locator(".op-issue").first();
    await issue.waitFor();
    expect(await issue.textContent()).toMatch(new RegExp(`Line ${brokenLine}, column \\d+.*framebook\\.operating_hours\\.late_night_headway_min.*expected number`));
    expect(await page.getByRole("button", { name: "Apply for new passenger sessions" }).isDisabled()).toBe(true);
    await issue.getByRole("button", { name: "Show" }).click();
    const caretLine = await page.getByLabel("Framebook YAML").evaluate((el) => {
      const area = el as HTMLTextAreaElement;
      return area.value.slice(0, area.selectionStart).split("\n").length;
    });
    expect(caretLine).toBe(brokenLine);
    await shot("op-02-framebook-invalid");

    // The fixed file: valid, and the diff shows the new fare policy.
    await page.getByTestId("framebook-file").setInputFiles(path.join(temp, "seniors-free.yaml"));
    await page.getByRole("button", { name: "Check framebook" }).click();
    await page.getByText("Valid. You can apply it.").waitFor();
    const diffRow = page.locator(".op-diff tbody tr");
    expect(await diffRow.count()).toBe(1);
    expect(await diffRow.first().textContent()).toMatch(/fare_policies\(absent\)[^]*Senior citizens \(65\+\) ride free/);
    // What the kiosk will price, in words, before it is applied.
    expect(await page.getByRole("status", { name: "What the kiosk reads in the fare policies (it prices this while each is in force)" }).innerText()).toContain("seniors_free: seniors travel free; always in force");
    await page.locator(".op-check").scrollIntoViewIfNeeded();
    await shot("op-03-framebook-diff");

    await page.getByRole("button", { name: "Apply for new passenger sessions" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Yes, continue" }).click();
    await page.getByText(/^Applied version [0-9a-f]{12}\. New passenger sessions use it\.$/).waitFor();
    await expect.poll(() => page.getByText("operator framebook").isVisible()).toBe(true);
    const audit = page.locator(".op-audit tbody tr");
    expect(await audit.count()).toBe(1);
    expect(await audit.first().textContent()).toMatch(/Ada Operator.*applied/);
    await page.locator(".op-audit").scrollIntoViewIfNeeded();
    await shot("op-04-framebook-applied");
    expect(serve.framebooks.audit()).toEqual([expect.objectContaining({ who: "Ada Operator", action: "apply", system: "marta" })]);

    // Back to the passenger screen: the next session is quoted under the new fare rule.
    await page.getByRole("button", { name: "Close operator tools" }).click();
    await passengerFare(/\$2\.50/);
    await expect.poll(() => page.getByText(/Senior citizens \(65\+\) ride free/).first().isVisible()).toBe(true);
    await shot("op-05-passenger-new-fare");

    // Roll back: the next passenger pays the data pack's fare again.
    await page.getByRole("button", { name: "Start over" }).click();
    await page.getByRole("button", { name: "Touch to start" }).waitFor();
    await openOperator();
    await login("Ben Supervisor");
    await page.getByRole("button", { name: "Roll back" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Yes, continue" }).click();
    await page.getByText(/^Rolled back to version [0-9a-f]{12}\.$/).waitFor();
    await expect.poll(() => page.locator(".op-audit tbody tr").count()).toBe(2);
    expect(await page.locator(".op-audit tbody tr").first().textContent()).toMatch(/Ben Supervisor.*rolled back/);
    await shot("op-06-framebook-rolled-back");
    await page.getByRole("button", { name: "Close operator tools" }).click();
    await passengerFare(/\$3\.75/);
    expect(problems).toEqual([]);
  });
});

describe("technician screen (kiosk serve, Chromium)", () => {
  it("runs a one-category rule bench with live scores while refusing passengers, then shows and exports the report", async () => {
    await openOperator();
    await login("Tess Technician");
    await page.getByRole("tab", { name: "Technician" }).click();
    await page.getByRole("heading", { name: "On-device bench" }).waitFor();
    // Headset speech: the engines this kiosk found (Debian's espeak-ng here) and every screen language's voice.
    const speech = page.locator(".op-speech");
    await speech.getByRole("heading", { name: "Headset speech" }).waitFor();
    expect(await speech.textContent()).toMatch(/Speech engines: eSpeak NG/);
    expect(await speech.locator("tr[data-language]").count()).toBe(5);
    await speech.scrollIntoViewIfNeeded();
    await shot("tech-00-speech");
    // llm/hybrid need a model; none is configured here.
    expect(await page.getByRole("radio", { name: /llm — local model/ }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByText(/No model configured\. The latency probe needs a local model/).isVisible()).toBe(true);
    await page.getByRole("radio", { name: "One category" }).click();
    await page.getByRole("radio", { name: /^A · Routing · \d+$/ }).click();
    await page.getByRole("button", { name: "Start test" }).click();

    // Live progress with per-category running scores.
    const bar = page.getByRole("progressbar");
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThan(15);
    const row = page.locator('tr[data-category="A"]');
    expect(await row.textContent()).toMatch(/A · Routing\d+\/\d+\d+\.\d/);
    expect(await page.getByRole("button", { name: "Stop test" }).isVisible()).toBe(true);
    await shot("tech-01-category-progress");

    // Meanwhile a passenger is refused, and the screen says so.
    const passenger = watch(await context.newPage());
    await passenger.goto(`${serve.server.url}?system=marta`);
    await passenger.getByText("This machine is temporarily out of service").waitFor();
    expect(await passenger.getByRole("button", { name: "Touch to start" }).count()).toBe(0);
    await shot("tech-02-passenger-refused", passenger);
    const refused = await passenger.evaluate(async () => (await fetch("api/ask", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ system: "marta", events: [{ type: "freetext_input", text: "hello" }] }) })).status);
    expect(refused).toBe(503);
    await passenger.close();

    // The run ends: the bench's own report in a sandboxed frame, styled, without scripts.
    await page.locator(".op-badge-finished").waitFor({ timeout: 60_000 });
    const frame = page.frameLocator("iframe.op-report-frame");
    await frame.getByRole("heading", { name: /MetroLLM-Bench · run \d+/ }).waitFor();
    const runId = Number((await page.locator(".op-progress h3").textContent())?.match(/\d+/)?.[0]);
    expect(await page.locator("iframe.op-report-frame").getAttribute("sandbox")).toBe("");
    // The report's one style sheet applies (the kiosk CSP allows it by hash): cards are laid out as a grid.
    expect(await frame.locator(".cards").evaluate((el) => getComputedStyle(el).display)).toBe("grid");
    expect(await frame.locator("svg.chart").count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('tr[data-category="A"]').textContent()).toMatch(/A · Routing(\d+)\/\1/);
    await page.locator(".op-report").scrollIntoViewIfNeeded();
    await shot("tech-03-report");

    // Export: the run's results as JSON, from the same database the CLI uses.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download results (JSON)" }).click()]);
    expect(download.suggestedFilename()).toBe(`bench-run-${runId}-summary.json`);
    const exported = JSON.parse(readFileSync((await download.path())!, "utf8")) as { run_id: number; policy: string; cases: unknown[] };
    expect(exported).toMatchObject({ run_id: runId, policy: "rule" });
    expect(exported.cases.length).toBe(testPack().allCases().filter((c) => c.category === "A").length);
    expect(serve.app.status().benchRunning).toBe(false);
    expect(problems).toEqual([]);
  });

  it("wrong PINs at one page lock out that page only; the technician clears the lockout from another", async () => {
    const other = watch(await context.newPage());
    await other.goto(`${serve.server.url}?system=marta#operator`);
    await other.getByRole("heading", { name: "Operator login" }).waitFor();
    await other.getByLabel("Your name").fill("Mallory");
    for (const pin of ["000000", "111111", "222222"]) {
      const keypad = other.getByRole("group", { name: "PIN keypad" });
      for (const digit of pin) await keypad.getByRole("button", { name: digit, exact: true }).click();
      await other.getByRole("button", { name: "Log in" }).click();
    }
    await other.getByText(/^Too many wrong PINs\. Try again in \d+ seconds\.$/).waitFor();
    // The real operator's page is not locked out by them.
    await openOperator();
    await login("Tess Technician");
    await page.getByRole("tab", { name: "Technician" }).click();
    await page.getByRole("button", { name: "Clear every PIN lockout" }).click();
    await page.getByText(/^Cleared the lockout of 127\.0\.0\.1 [A-Za-z0-9_-]{16,64}\.$/).waitFor();
    await page.locator(".op-pin-lockout").scrollIntoViewIfNeeded();
    await shot("tech-06-pin-lockout-cleared");
    await other.close();
    expect(problems).toEqual([]);
  });

  it("follows a held-out run category by category, then reopens it from the stored runs", async () => {
    await openOperator();
    await login("Tess Technician");
    await page.getByRole("tab", { name: "Technician" }).click();
    await page.getByRole("radio", { name: /^Held-out · \d+$/ }).click();
    await page.getByRole("button", { name: "Start test" }).click();
    // The screen shows the new run (eleven categories) before its progress counts: the finished
    // one-category run's full bar must not pass for this run's (it did once, under load).
    await expect.poll(() => page.locator(".op-categories-table tbody tr").count(), { timeout: 60_000 }).toBe(11);
    const bar = page.getByRole("progressbar");
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 60_000 }).toBeGreaterThan(90);
    await page.locator(".op-progress").scrollIntoViewIfNeeded();
    await shot("tech-04-holdout-progress");
    await page.locator(".op-badge-finished").waitFor({ timeout: 120_000 });
    await page.frameLocator("iframe.op-report-frame").getByRole("heading", { name: /MetroLLM-Bench · run \d+/ }).waitFor();
    await page.locator(".op-report").screenshot({ path: path.join(SCREENSHOTS, "tech-05-holdout-report.png") });
    // Both runs are stored (the CLI's `kiosk bench list` sees them too); the first one's report reopens.
    const runs = page.locator(".op-runs li");
    expect(await runs.count()).toBe(2);
    expect(serve.technician!.status().runs.map((r) => r.status)).toEqual(["finished", "finished"]);
    await runs.last().getByRole("button", { name: "Show report" }).click();
    await expect.poll(() => page.locator(".op-report h3").textContent()).toMatch(/run 1$/);
    expect(problems).toEqual([]);
  });
});
