// End to end, in Debian's Chromium against `kiosk serve`: the kiosk's state is pushed to the
// passenger screen. A technician starts a bench run from the operator API while the passenger
// screen is open — on the attract screen, and again during a journey — and the screen shows "out of
// service" without a tap and without its 30-second status poll; when the run ends the start
// button is back. An operator applies a framebook and the attract screen reloads the system.
// Screenshots: test-results/screenshots/state-*.png.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerPolicyFactory } from "../bench/policies.ts";
import { pacedRulePolicy, TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { hashPin } from "../runtime/operator/pin.ts";
import { buildRenderer, launchChromium, SCREENSHOTS } from "../test/e2e.ts";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { startServe, type RunningServe } from "./serve.ts";

const PIN = "482916";
const OUT_OF_SERVICE = "This machine is temporarily out of service";
const temp = mkdtempSync(path.join(tmpdir(), "kiosk-state-e2e-"));
let serve: RunningServe;
let context: BrowserContext;
let page: Page;
let token: string;
/** Requests the page made to /api/status (the poll), with when. */
const statusPolls: number[] = [];

let restorePolicy: () => void = () => undefined;

async function operator(method: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(new URL(`api/operator/${method}`, serve.server.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status, `${method}`).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

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
  restorePolicy = registerPolicyFactory({ name: "rule", description: "rule, paced for the test", deterministic: true, accepts: [], create: () => ({ policy: pacedRulePolicy(150), model: "rule" }) });
  token = String((await operator("login", { operator: "Tess Technician", pin: PIN }))["token"]);
  context = await launchChromium(path.join(temp, "profile"), { width: 1080, height: 1920, scale: 0.5 });
  page = await context.newPage();
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/status") statusPolls.push(Date.now());
  });
}, 300_000);

afterAll(async () => {
  restorePolicy();
  await context?.close();
  await serve?.close();
  rmSync(temp, { recursive: true, force: true });
});

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

async function benchRunning(running: boolean): Promise<void> {
  await expect.poll(() => serve.app.status().benchRunning, { timeout: 10_000 }).toBe(running);
}

describe("the kiosk's state, pushed to the passenger screen", () => {
  it("a bench run started from the operator API takes the open attract screen out of service at once; its end brings it back", async () => {
    await page.goto(`${serve.server.url}?system=marta`);
    await page.getByRole("button", { name: "Touch to start" }).waitFor();
    const pollsBefore = statusPolls.length;
    const started = Date.now();
    await operator("startBench", { token, policy: "rule", selection: { kind: "category", category: "A" } });
    await page.getByRole("alert").filter({ hasText: OUT_OF_SERVICE }).waitFor({ timeout: 5_000 });
    const shownAfterMs = Date.now() - started;
    expect(shownAfterMs).toBeLessThan(5_000);
    expect(await page.getByRole("button", { name: "Touch to start" }).count()).toBe(0);
    // No tap, and not the poll: the page asked for no status meanwhile.
    expect(statusPolls.length).toBe(pollsBefore);
    await shot("state-attract-out-of-service");

    await operator("stopBench", { token });
    await benchRunning(false);
    await page.getByRole("button", { name: "Touch to start" }).waitFor({ timeout: 5_000 });
    expect(statusPolls.length).toBe(pollsBefore);
  });

  it("a bench run started during a journey shows the notice on the journey screen, without a tap", async () => {
    await page.getByRole("button", { name: "Touch to start" }).click();
    await page.getByRole("heading", { name: "Plan your journey" }).waitFor();
    const pollsBefore = statusPolls.length;
    await operator("startBench", { token, policy: "rule", selection: { kind: "category", category: "A" } });
    await page.getByRole("alert").filter({ hasText: OUT_OF_SERVICE }).waitFor({ timeout: 5_000 });
    expect(await page.getByRole("heading", { name: "Plan your journey" }).isVisible()).toBe(true);
    expect(statusPolls.length).toBe(pollsBefore);
    await shot("state-journey-out-of-service");
    await operator("stopBench", { token });
    await benchRunning(false);
    await expect.poll(() => page.getByRole("alert").filter({ hasText: OUT_OF_SERVICE }).count(), { timeout: 5_000 }).toBe(0);
    await page.getByRole("button", { name: "Start over" }).click();
    await page.getByRole("button", { name: "Touch to start" }).waitFor();
  });

  it("a framebook applied by the operator reloads the system on the open attract screen", async () => {
    const reloaded = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/systems/marta", { timeout: 5_000 });
    const text = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8").replace("cultural_notes: []", 'cultural_notes: ["Operator note for the e2e test"]');
    const applied = await operator("applyFramebook", { token, system: "marta", text, fileName: "note.yaml" });
    expect(applied["ok"]).toBe(true);
    await reloaded;
    const view = (await (await fetch(new URL("api/systems/marta", serve.server.url))).json()) as { framebookVersion: string };
    expect(view.framebookVersion).toBe(serve.app.status().framebookVersions["marta"]);
  });
});
