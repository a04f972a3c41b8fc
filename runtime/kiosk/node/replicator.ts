// The kiosk's replicator (issue 18, store and forward): sends the ledger's outbox to the back office
// in batches, oldest first, and marks a record sent only once the back office acknowledged its key.
// A failure (network down, timeout, back office restarting, a bad answer) is retried with
// exponential backoff and jitter; nothing is dropped, so a restart simply resumes from the outbox.
// Selling never waits for it: the ledger commits offline, this catches up when it can.
import { BatchAckSchema, BatchRefusedSchema, INGEST_PATH, MAX_ACK_BYTES, describeIssues, type RecordBatch } from "../../fleet/protocol.ts";
import { readCappedText } from "../../../tools/util/capped-body.ts";
import type { ReplicationView } from "../bridge.ts";
import type { Outbox } from "./outbox.ts";

export interface ReplicatorOptions {
  outbox: Outbox;
  kioskId: string;
  /** The back office's base URL (http://host:port). */
  url: string;
  /** The fleet's shared token, sent as `Authorization: Bearer …`. */
  token: string;
  batchSize?: number;
  /** First retry delay and its ceiling (doubling in between, ±50 % jitter). */
  backoff?: { minMs: number; maxMs: number };
  /** How long to wait when the outbox is empty before looking again. */
  idleMs?: number;
  /** One request's time limit. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  clock?: () => Date;
  random?: () => number;
  log?: (message: string) => void;
}

/** What the kiosk's status shows about replication (bridge.ts: one definition for the screen and the API). */
export type ReplicationStatus = ReplicationView;

export class Replicator {
  private readonly fetch: typeof fetch;
  private readonly clock: () => Date;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: AbortController | null = null;
  private sent = 0;
  private failures = 0;
  private consecutiveFailures = 0;
  private lastSentAt: string | null = null;
  private lastError: string | null = null;
  private retryAt: string | null = null;

  constructor(private readonly options: ReplicatorOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.clock = options.clock ?? (() => new Date());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stop after the request in flight (aborted) — what it sent stays pending unless acknowledged. */
  async stop(): Promise<void> {
    this.running = false;
    this.inFlight?.abort();
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** Look at the outbox now (a sale was just committed) instead of after the idle wait. */
  poke(): void {
    if (this.retryAt === null) this.wake?.();
  }

  status(): ReplicationStatus {
    const lag = this.options.outbox.lag();
    const lagMs = lag.oldestPendingAt === null ? 0 : Math.max(0, this.clock().getTime() - Date.parse(lag.oldestPendingAt));
    return {
      kioskId: this.options.kioskId,
      backOffice: this.options.url,
      ...lag,
      lagMs,
      sent: this.sent,
      parked: this.options.outbox.parkedCount(),
      failures: this.failures,
      lastSentAt: this.lastSentAt,
      lastError: this.lastError,
      retryAt: this.retryAt,
    };
  }

  /**
   * Send one batch and mark what was acknowledged (or park what the back office refused). Returns how
   * many records were acknowledged or parked (0: nothing pending). Throws when the back office could
   * not be reached or answered badly.
   */
  async sendBatch(): Promise<number> {
    const { outbox } = this.options;
    const records = outbox.pending(this.options.batchSize ?? 100);
    if (records.length === 0) return 0;
    const batch: RecordBatch = { kioskId: this.options.kioskId, records, lag: outbox.lag() };
    const controller = new AbortController();
    this.inFlight = controller;
    const timeout = setTimeout(() => controller.abort(new Error("timed out")), this.options.timeoutMs ?? 10_000);
    let body: unknown;
    try {
      const response = await this.fetch(new URL(INGEST_PATH, this.options.url), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.options.token}` },
        body: JSON.stringify(batch),
        signal: controller.signal,
      });
      const text = await readCappedText(response, MAX_ACK_BYTES, "the back office's answer");
      if (response.status === 400) {
        const parked = this.parkRefused(text, new Set(records.map((r) => r.key)));
        if (parked > 0) return parked;
      }
      if (!response.ok) throw new Error(`the back office answered ${response.status}: ${text.slice(0, 300)}`);
      body = JSON.parse(text);
    } finally {
      clearTimeout(timeout);
      this.inFlight = null;
    }
    const ack = BatchAckSchema.safeParse(body);
    if (!ack.success) throw new Error(`the back office's answer is not an acknowledgement (${describeIssues(ack.error).join("; ")})`);
    const asked = new Set(records.map((r) => r.key));
    const acknowledged = ack.data.acknowledged.filter((k) => asked.has(k));
    outbox.markSent(acknowledged, this.clock().toISOString());
    this.sent += acknowledged.length;
    this.lastSentAt = this.clock().toISOString();
    if (acknowledged.length < records.length) throw new Error(`the back office acknowledged ${acknowledged.length} of ${records.length} records`);
    return acknowledged.length;
  }

  /**
   * A 400 naming records no kiosk could have made: park the ones of this batch (kept in the ledger
   * with the reason, not resent) so the rest flows. Returns how many were parked (0: not such an answer).
   */
  private parkRefused(text: string, asked: ReadonlySet<string>): number {
    let refused;
    try {
      refused = BatchRefusedSchema.safeParse(JSON.parse(text));
    } catch {
      return 0;
    }
    if (!refused.success) return 0;
    const mine = refused.data.refused.filter((r) => asked.has(r.key));
    const parked = this.options.outbox.park(mine, this.clock().toISOString());
    for (const r of mine) this.options.log?.(`replication: the back office refused record ${r.key} (${r.reason}); parked in the ledger, not resent`);
    return parked;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delay: number;
      try {
        const n = await this.sendBatch();
        if (this.consecutiveFailures > 0) this.options.log?.(`replication to ${this.options.url} resumed`);
        this.consecutiveFailures = 0;
        this.lastError = null;
        this.retryAt = null;
        delay = n > 0 ? 0 : (this.options.idleMs ?? 1000);
      } catch (err) {
        if (!this.running) break;
        this.failures++;
        this.consecutiveFailures++;
        this.lastError = (err as Error).message;
        delay = this.backoffMs();
        this.retryAt = new Date(this.clock().getTime() + delay).toISOString();
        if (this.consecutiveFailures === 1) this.options.log?.(`replication to ${this.options.url} failed (${this.lastError}); retrying with backoff`);
      }
      if (delay > 0 && this.running) await this.sleep(delay);
    }
  }

  private backoffMs(): number {
    const { minMs, maxMs } = this.options.backoff ?? { minMs: 500, maxMs: 30_000 };
    const base = Math.min(maxMs, minMs * 2 ** Math.min(this.consecutiveFailures - 1, 30));
    return Math.round(base * (0.5 + (this.options.random ?? Math.random)()));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        this.wake = null;
        resolve();
      };
      this.wake = done;
      this.timer = setTimeout(done, ms);
    });
  }
}
