// Reading a GTFS-Realtime feed into the alert store: once (a file or one download) or polled at an
// interval. A malformed, stale or unreachable feed is an error and changes nothing; an entity that
// cannot be mapped is reported and keeps whatever alert it gave before. Only a good, fresh,
// full-dataset feed ends the alerts it no longer lists.
import type { SystemData } from "../../tools/data/system.ts";
import { BodyTooLargeError, readCappedBytes } from "../../tools/util/capped-body.ts";
import { checkFresh, decodeFeed, GtfsFeedError, mapFeedAlerts, type FeedProblem } from "./gtfs-rt.ts";
import type { GtfsIdIndex } from "./gtfs-ids.ts";
import type { AlertStore, FeedSyncResult } from "./store.ts";

/** A feed older than this is refused by default (a poller that lost its source must not keep stale alerts fresh). */
export const DEFAULT_FEED_MAX_AGE_SEC = 15 * 60;

export interface IngestOptions {
  system: SystemData;
  index: GtfsIdIndex;
  /** The feed's file or URL (recorded as the alerts' source). */
  feed: string;
  /** Who imports (the audit log's "who"). */
  who: string;
  now: Date;
  maxAgeSec?: number;
}

export interface IngestResult extends FeedSyncResult {
  feed: string;
  feedTimestamp: string | null;
  alertEntities: number;
  problems: FeedProblem[];
}

/** Decode, check, map and store one feed. Throws GtfsFeedError (store untouched) for an unusable feed. */
export function ingestFeed(store: AlertStore, bytes: Uint8Array, options: IngestOptions): IngestResult {
  const feed = decodeFeed(bytes);
  checkFresh(feed, options.now, options.maxAgeSec ?? DEFAULT_FEED_MAX_AGE_SEC);
  const mapped = mapFeedAlerts(feed, { system: options.system, index: options.index, feed: options.feed, now: options.now });
  const sync = store.syncFeed(options.system.id, options.feed, mapped.alerts, {
    who: options.who,
    presentIds: mapped.presentIds,
    fullDataset: mapped.fullDataset,
    deletedIds: mapped.deletedIds,
  });
  return { ...sync, feed: options.feed, feedTimestamp: mapped.timestamp, alertEntities: mapped.alertEntities, problems: mapped.problems };
}

/** The largest GTFS-realtime feed read (large agencies' alert feeds are 1–3 MB). */
export const MAX_FEED_BYTES = 8 * 1024 * 1024;

export type FetchBytes = (url: string, signal: AbortSignal) => Promise<Uint8Array>;

/** fetch() the URL: a non-2xx answer, a network error or a timeout is "unreachable". */
export const fetchFeedBytes: FetchBytes = async (url, signal) => {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: "application/x-protobuf, application/octet-stream" } });
  } catch (err) {
    throw new GtfsFeedError("unreachable", `cannot fetch ${url}: ${(err as Error).message}`);
  }
  if (!response.ok) throw new GtfsFeedError("unreachable", `cannot fetch ${url}: HTTP ${response.status} ${response.statusText}`.trim());
  try {
    return await readCappedBytes(response, MAX_FEED_BYTES, `the feed at ${url}`);
  } catch (err) {
    throw new GtfsFeedError(err instanceof BodyTooLargeError ? "malformed" : "unreachable", (err as Error).message);
  }
};

export interface FeedPollerOptions extends Omit<IngestOptions, "now" | "feed"> {
  url: string;
  intervalMs: number;
  /** Per request. Default: the interval, at most 30 s. */
  timeoutMs?: number;
  fetchBytes?: FetchBytes;
  clock?: () => Date;
  onResult?: (result: IngestResult) => void;
  /** A poll that changed nothing because the feed was unusable (the alerts in force stay). */
  onError?: (error: GtfsFeedError | Error) => void;
}

/** Polls a feed URL every `intervalMs`, one request at a time; errors never stop it. */
export class FeedPoller {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private controller: AbortController | null = null;
  private stopped = true;

  constructor(
    private readonly store: AlertStore,
    private readonly options: FeedPollerOptions,
  ) {}

  /** One poll now (resolves after the store was updated or the error reported). */
  pollOnce(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const { options } = this;
    const controller = new AbortController();
    this.controller = controller;
    const timeout = setTimeout(() => controller.abort(new Error("timed out")), options.timeoutMs ?? Math.min(options.intervalMs, 30_000));
    this.inFlight = (async () => {
      try {
        const bytes = await (options.fetchBytes ?? fetchFeedBytes)(options.url, controller.signal);
        const result = ingestFeed(this.store, bytes, { ...options, feed: options.url, now: (options.clock ?? (() => new Date()))() });
        options.onResult?.(result);
      } catch (err) {
        options.onError?.(err instanceof Error ? err : new Error(String(err)));
      } finally {
        clearTimeout(timeout);
        this.inFlight = null;
        this.controller = null;
      }
    })();
    return this.inFlight;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = (): void => {
      void this.pollOnce().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs);
      });
    };
    tick();
  }

  /** Stop polling; a request in flight is aborted. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.controller?.abort(new Error("stopped"));
    await this.inFlight;
  }
}
