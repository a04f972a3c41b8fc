// The kiosk's heartbeat (issue 18): every N seconds, also when nothing is waiting to replicate, it
// POSTs what `collect` returns to the back office. A failure is logged once (until it recovers)
// and simply retried at the next tick; it never touches the ledger, so selling is never disturbed.
import { fitHeartbeat, HEARTBEAT_PATH, MAX_SMALL_ANSWER_BYTES, type Heartbeat } from "../../fleet/protocol.ts";
import { readCappedText } from "../../../tools/util/capped-body.ts";

export const DEFAULT_HEARTBEAT_SECONDS = 30;

export interface HeartbeatSenderOptions {
  url: string;
  token: string;
  collect: () => Heartbeat;
  intervalMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  log?: (message: string) => void;
}

export class HeartbeatSender {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private failing = false;
  sent = 0;
  failures = 0;

  constructor(private readonly options: HeartbeatSenderOptions) {}

  /** Send one now and then every interval. */
  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs ?? DEFAULT_HEARTBEAT_SECONDS * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  /** One heartbeat; resolves true when the back office accepted it (never throws). */
  async send(): Promise<boolean> {
    const fetcher = this.options.fetch ?? globalThis.fetch;
    try {
      const body = fitHeartbeat(this.options.collect());
      const response = await fetcher(new URL(HEARTBEAT_PATH, this.options.url), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.options.token}` },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      const text = await readCappedText(response, MAX_SMALL_ANSWER_BYTES, "the back office's answer");
      if (!response.ok) throw new Error(`the back office answered ${response.status}: ${text.slice(0, 300)}`);
      this.sent++;
      if (this.failing) this.options.log?.(`heartbeat to ${this.options.url} resumed`);
      this.failing = false;
      return true;
    } catch (err) {
      this.failures++;
      if (!this.failing) this.options.log?.(`heartbeat to ${this.options.url} failed (${(err as Error).message}); retrying at the next tick`);
      this.failing = true;
      return false;
    }
  }

  private async tick(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = this.send().then(() => undefined);
    await this.inFlight;
    this.inFlight = null;
  }
}
