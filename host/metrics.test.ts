// GET /metrics (issue 18, part 2): the kiosk's health in the Prometheus text format — answers by
// who answered, answer-time histogram, interlock blocks by code, purchases and sales, and the
// status gauges (model, ledger) read when scraped.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { askFromCase, caseById, TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { runCase } from "../runtime/session/case.ts";
import { createKioskMetrics, serveMetrics } from "./metrics.ts";
import { startKioskServer } from "../runtime/kiosk/node/server.ts";
import { createKioskRuntime } from "./runtime.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-metrics-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  it("counts answers, blocks, purchases and sales, and reads the model and ledger state when scraped", async () => {
    const runtime = await createKioskRuntime({
      pack: testPack(),
      ledger: path.join(dir, "ledger.sqlite"),
      operatorDir: path.join(dir, "operator"),
      pin: { hash: null },
      benchDb: null,
      clock: () => new Date(TEST_NOW),
      log: () => undefined,
    });
    const server = await startKioskServer({ backend: runtime.backend, metrics: runtime.metrics, staticDir: null, port: 0, log: () => undefined });
    try {
      const answer = await runtime.backend.ask(askFromCase("MARTA-A-001"));
      expect(await runtime.backend.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: true });
      // A second passenger, on another system (BART, the Transbay Tube closed: planned around it).
      await runtime.backend.ask(askFromCase("BART-C-006"));

      const res = await fetch(new URL("/metrics", server.url));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      expect(sample(text, 'kiosk_sessions_total{system="marta"}')).toBe(1);
      expect(sample(text, 'kiosk_sessions_total{system="bart"}')).toBe(1);
      expect(sample(text, 'kiosk_answers_total{answered_by="rule",outcome="route_and_fare_ready"}')).toBe(2);
      expect(sample(text, 'kiosk_answer_seconds_count{answered_by="rule"}')).toBe(2);
      expect(sample(text, 'kiosk_purchases_total{result="sold"}')).toBe(1);
      expect(sample(text, 'kiosk_sales_amount_total{currency="USD"}')).toBe(2.5);
      expect(sample(text, "kiosk_model_up")).toBe(0);
      expect(sample(text, "kiosk_sales_available")).toBe(1);
      expect(sample(text, "kiosk_fallbacks_total")).toBe(0);
      // Not in a fleet: no replication series.
      expect(text).not.toMatch(/^kiosk_replication_pending_records /m);
      expect((await fetch(new URL("/metrics", server.url), { method: "POST" })).status).toBe(405);
    } finally {
      await server.close();
      await runtime.close();
    }
  });

  it("counts the interlock's blocks by code, once per code per offer", async () => {
    const metrics = createKioskMetrics(() => ({ assistant: "rule", benchRunning: false, message: null, model: null, salesAvailable: false, framebookVersions: {} }));
    const record = await runCase(testPack(), caseById("MARTA-A-001"), rulePolicy);
    metrics.record({
      type: "turn",
      session: { sessionId: "s-x", system: "marta" },
      turn: {
        at: new Date(TEST_NOW),
        events: [],
        now: "2026-03-09T14:00",
        disruptions: [],
        framebookVersion: "fb-1",
        record,
        verdict: { offered: true, ok: false, problems: ["station_closed: MARTA-FP (x)", "track_closed: a-b (y)", "station_closed: MARTA-AP (z)"] },
        assistantUnavailable: true,
        elapsedMs: 12,
      },
    });
    const text = await metrics.text();
    expect(sample(text, 'kiosk_interlock_blocks_total{code="station_closed"}')).toBe(1);
    expect(sample(text, 'kiosk_interlock_blocks_total{code="track_closed"}')).toBe(1);
    expect(sample(text, "kiosk_fallbacks_total")).toBe(1);
    expect(sample(text, "kiosk_sales_available")).toBe(0);
  });
});

describe("serveMetrics: /metrics on its own loopback listener (the Electron shell)", () => {
  it("answers GET /metrics with the exposition text, and nothing else", async () => {
    const metrics = { contentType: "text/plain; version=0.0.4", text: async () => "kiosk_sessions_total 3\n" };
    const server = await serveMetrics(metrics, 0);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const ok = await fetch(`${base}/metrics`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe("text/plain; version=0.0.4");
      expect(await ok.text()).toBe("kiosk_sessions_total 3\n");
      expect((await fetch(`${base}/api/status`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
