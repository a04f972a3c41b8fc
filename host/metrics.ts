// The kiosk's health in the Prometheus text format (issue 18, part 2), for `GET /metrics`: what it
// answered and how fast, who answered, fallbacks, the interlock's blocks by code, purchases and
// sales, and — read when scraped — the model's state, the ledger and replication. Fed by the same
// session events as the session audit (KioskApp's `onSession`), so no counter is kept twice.
import { createServer } from "node:http";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { KioskSessionEvent } from "../runtime/audit/events.ts";
import { answeredByOf } from "../runtime/audit/model.ts";
import type { KioskStatus } from "../runtime/kiosk/bridge.ts";
import { problemCode } from "../runtime/kiosk/interlock.ts";

export interface KioskMetrics {
  /** Count one session event (an answered turn, a purchase attempt, a session's end). */
  record(event: KioskSessionEvent): void;
  /** The exposition text, with the status gauges read now. */
  text(): Promise<string>;
  readonly contentType: string;
}

/** Answer times: the rule policy answers in milliseconds, a model in seconds. */
const ANSWER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40];

export function createKioskMetrics(status: () => KioskStatus): KioskMetrics {
  const registry = new Registry();
  const sessions = new Counter({ name: "kiosk_sessions_total", help: "Passenger sessions started, by system.", labelNames: ["system"], registers: [registry] });
  const answers = new Counter({ name: "kiosk_answers_total", help: "Answered turns, by who answered and the outcome.", labelNames: ["answered_by", "outcome"], registers: [registry] });
  const answerSeconds = new Histogram({ name: "kiosk_answer_seconds", help: "Time to answer one turn, by who answered.", labelNames: ["answered_by"], buckets: ANSWER_BUCKETS, registers: [registry] });
  const fallbacks = new Counter({ name: "kiosk_fallbacks_total", help: "Turns answered by the safe fallback state or the deterministic policy instead of the model.", registers: [registry] });
  const blocks = new Counter({ name: "kiosk_interlock_blocks_total", help: "Offers the purchase interlock refused, by block code (one offer may count under several codes).", labelNames: ["code"], registers: [registry] });
  const purchases = new Counter({ name: "kiosk_purchases_total", help: "Purchase attempts, by result.", labelNames: ["result"], registers: [registry] });
  const sales = new Counter({ name: "kiosk_sales_amount_total", help: "Amount of the tickets sold, by currency.", labelNames: ["currency"], registers: [registry] });
  const seen = new Set<string>();

  const gauge = (name: string, help: string, read: (s: KioskStatus) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(status()));
      },
    });
  };
  gauge("kiosk_model_up", "1 when a model answers passengers, 0 when the deterministic policy does (no model, or it is unavailable).", (s) => (s.assistant === "model" ? 1 : 0));
  gauge("kiosk_sales_available", "1 when tickets can be sold (the ledger is open and healthy).", (s) => (s.salesAvailable ? 1 : 0));
  gauge("kiosk_bench_running", "1 while a technician bench run refuses passengers.", (s) => (s.benchRunning ? 1 : 0));
  // Replication is configured at start-up: its series exist only on a kiosk that is part of a fleet.
  if (status().replication) {
    gauge("kiosk_replication_pending_records", "Ledger records not yet acknowledged by the back office.", (s) => s.replication?.pending ?? 0);
    gauge("kiosk_replication_lag_seconds", "Age of the oldest record not yet acknowledged by the back office.", (s) => (s.replication?.lagMs ?? 0) / 1000);
  }

  return {
    contentType: registry.contentType,
    record(event) {
      if (event.type === "turn") {
        const { record, verdict, elapsedMs } = event.turn;
        const answeredBy = answeredByOf(event.turn);
        if (!seen.has(event.session.sessionId)) {
          // Bounded: a long-running kiosk forgets the oldest session ids.
          if (seen.size > 10_000) seen.clear();
          seen.add(event.session.sessionId);
          sessions.inc({ system: event.session.system });
        }
        answers.inc({ answered_by: answeredBy, outcome: record.kiosk.state.outcome });
        answerSeconds.observe({ answered_by: answeredBy }, elapsedMs / 1000);
        if (record.kiosk.fallback || answeredBy === "rule-fallback") fallbacks.inc();
        if (verdict.offered && !verdict.ok) for (const code of new Set(verdict.problems.map(problemCode))) blocks.inc({ code });
      } else if (event.type === "purchase") {
        purchases.inc({ result: event.purchase.result });
        if (event.purchase.result === "sold" && event.purchase.total !== null && event.purchase.currency !== null) sales.inc({ currency: event.purchase.currency }, event.purchase.total);
      } else {
        seen.delete(event.sessionId);
      }
    },
    text: () => registry.metrics(),
  };
}

/**
 * `GET /metrics` on its own listener (the Electron shell, which has no HTTP server otherwise):
 * loopback only by default, GET/HEAD only, nothing else served.
 */
export async function serveMetrics(metrics: Pick<KioskMetrics, "text" | "contentType">, port: number, host = "127.0.0.1"): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("only /metrics here\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("use GET for /metrics\n");
      return;
    }
    metrics.text().then(
      (body) => {
        res.writeHead(200, { "Content-Type": metrics.contentType, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () => res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8" }).end("metrics unavailable\n"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
