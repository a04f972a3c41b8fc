// The trace viewer in Chromium as the technician screen shows it: the report inside a sandboxed
// srcdoc iframe (no scripts) of a page served with the kiosk's CSP. The "failed only" filter and
// opening a case work without scripts, no style is blocked, and screenshots go to
// test-results/screenshots/ (trace-viewer.png, trace-viewer-case.png) for review.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, SCREENSHOTS } from "../../test/e2e.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { KIOSK_CSP } from "../../runtime/kiosk/csp.ts";
import { startRun } from "../run/execute.ts";
import { BenchStore } from "../store/store.ts";
import { buildReport } from "./build.ts";
import { renderReportHtml } from "./html.ts";
import { esc } from "./svg.ts";
import { caseTraces } from "./trace.ts";

const dir = mkdtempSync(path.join(tmpdir(), "trace-e2e-"));
let context: BrowserContext;
let server: Server;
let url: string;
let total = 0;
let failed = 0;

beforeAll(async () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const store = BenchStore.open(":memory:");
  let html: string;
  try {
    const run = await startRun({ pack, store, policy: "rule", selection: { systems: ["marta", "bart"], categories: ["C", "E", "H"] } });
    const traces = caseTraces(store, run.runId);
    total = traces.length;
    failed = traces.filter((t) => !t.passed).length;
    html = renderReportHtml(buildReport(store, run.runId), { traces });
  } finally {
    store.close();
  }
  // The technician screen: the report as the srcdoc of a sandboxed iframe, under the kiosk's CSP.
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>technician</title></head><body><iframe title="report" sandbox="" width="1180" height="860" srcdoc="${esc(html)}"></iframe></body></html>`;
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": KIOSK_CSP });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  context = await launchChromium(path.join(dir, "profile"), { width: 1200, height: 900 });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe("the trace viewer in the technician's report frame", () => {
  it("filters to the failed cases and opens one, without scripts and with no style blocked", async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    await page.goto(url, { waitUntil: "load" });
    const frame = page.frameLocator("iframe");
    const cases = frame.locator("details.case");
    expect(await cases.count()).toBe(total);
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(total);
    // The trace viewer's own style sheet applies (the summary is a grid row), so its hash is allowed.
    expect(await frame.locator("details.case > summary").first().evaluate((e) => getComputedStyle(e).display)).toBe("grid");

    const visible = () => cases.evaluateAll((els) => els.filter((e) => getComputedStyle(e).display !== "none").length);
    expect(await visible()).toBe(total);
    await frame.locator("label.filter").click();
    expect(await visible()).toBe(failed);
    expect(await frame.locator("details.case.pass").first().isVisible()).toBe(false);

    const first = frame.locator("details.case.fail").first();
    await first.locator("summary").click();
    expect(await first.getAttribute("open")).not.toBeNull();
    const text = await first.locator(".trace").innerText();
    expect(text).toMatch(/Conversation[\s\S]*USER[\s\S]*→ route_planner[\s\S]*TOOL RESULT · ROUTE_PLANNER[\s\S]*Submission[\s\S]*Scores/);
    const shortRow = first.locator("table.components tr.short").first();
    expect(await shortRow.innerText()).toMatch(/^\w+\s+1\s+[\d.]+ \/ [\d.]+\s+\S/);

    await frame.locator("#cases").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "trace-viewer.png") });
    await shortRow.evaluate((e) => e.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: path.join(SCREENSHOTS, "trace-viewer-case.png") });

    // Unchecking the filter shows every case again.
    await frame.locator("label.filter").click();
    expect(await visible()).toBe(total);
    expect(problems.filter((p) => /Content Security Policy|Refused/i.test(p))).toEqual([]);
  });
});
