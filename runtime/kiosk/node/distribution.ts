// The kiosk's side of signed distribution (issue 18, part 3): asks the back office for what is new
// (POST /v1/publications/poll with, per kind and system, the highest signed version it handled), and
// for each publication checks the signature against the back office's public key
// (`kiosk serve --publications-key`) and the content hash, refuses an older or equal version than the
// one it applied (a replay), validates the content with the kiosk's own validators and only then
// applies it — a framebook through the framebook store (atomic, audited, kept for rollback), an alert
// set through the alert store (one transaction, audited) — and reports the result. Whatever is
// rejected never becomes active: the kiosk keeps what it has and keeps selling. Its place follows
// signed content only (ids are the back office's row numbers, which a replay or a restored database
// can change), so nothing unsigned can make it skip a real publication. What it applied, the versions
// it handled and the reports not yet delivered are kept in a small SQLite file, so a restart neither
// re-applies nor goes back to an older version.
import type Database from "better-sqlite3";
import type { SystemId } from "../../../tools/data/schemas.ts";
import { AlertStoreError, type AlertStore } from "../../alerts/store.ts";
import { backofficeAlertId } from "../../alerts/model.ts";
import { FramebookRejectedError, type FramebookStore } from "../../framebook/store.ts";
import { formatPublicationIssues, publicationContentIssues, validateAlertsContent } from "../../fleet/content.ts";
import { createHash, type KeyObject } from "node:crypto";
import {
  MAX_POLL_ANSWER_BYTES,
  PUBLICATIONS_POLL_PATH,
  PublicationListSchema,
  SignedPublicationSchema,
  resultPath,
  verifyPublication,
  type PublicationEnvelope,
  type PublicationIdentity,
  type PublicationIssue,
  type PublicationKind,
  type PublicationPoll,
  type PublicationResult,
  type RejectionReason,
} from "../../fleet/publication.ts";
import { openMigrated } from "../../storage/sqlite.ts";
import { MAX_SMALL_ANSWER_BYTES } from "../../fleet/protocol.ts";
import { readCappedText } from "../../../tools/util/capped-body.ts";

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE applied (
     kind           TEXT NOT NULL,
     system         TEXT NOT NULL,
     version        INTEGER NOT NULL,
     publication_id INTEGER NOT NULL,
     sha256         TEXT NOT NULL,
     applied_at     TEXT NOT NULL,
     alert_ids      TEXT,
     PRIMARY KEY (kind, system)
   ) STRICT;
   CREATE TABLE cursor (one INTEGER PRIMARY KEY CHECK (one = 1), after_id INTEGER NOT NULL) STRICT;
   CREATE TABLE reports (
     publication_id INTEGER PRIMARY KEY,
     body           TEXT NOT NULL,
     delivered_at   TEXT
   ) STRICT;`,
  // The place in the stream is the signed version handled per kind and system (the row-id cursor
  // is gone: an id proves nothing); rejected items are remembered by their digest so they are
  // handled and reported once; a report the back office refuses is kept with its answer, not resent.
  `CREATE TABLE handled (
     kind    TEXT NOT NULL,
     system  TEXT NOT NULL,
     version INTEGER NOT NULL,
     PRIMARY KEY (kind, system)
   ) STRICT;
   INSERT INTO handled (kind, system, version) SELECT kind, system, version FROM applied;
   DROP TABLE cursor;
   CREATE TABLE rejected_items (digest TEXT PRIMARY KEY, first_seen TEXT NOT NULL) STRICT;
   ALTER TABLE reports ADD COLUMN refused TEXT;`,
];

export interface DistributionOptions {
  kioskId: string;
  /** The back office's base URL. */
  url: string;
  /** The bearer token the replicator sends. */
  token: string;
  /** The back office's ed25519 public key: only what it signed is applied. */
  publicKey: KeyObject;
  /** The systems this kiosk serves. */
  systems: readonly SystemId[];
  framebooks: FramebookStore;
  /** Null: this kiosk keeps no service alerts (an alerts publication is rejected as invalid). */
  alerts: AlertStore | null;
  /** Where what was applied is remembered (SQLite; ":memory:" only in tests). */
  stateFile: string;
  /** How often to look for new publications (default 30 s). */
  intervalMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  clock?: () => Date;
  log?: (message: string) => void;
}

export interface AppliedVersion {
  kind: PublicationKind;
  system: string;
  version: number;
  publicationId: number;
  appliedAt: string;
}

export interface DistributionStatus {
  lastPollAt: string | null;
  lastError: string | null;
  /** Reports not yet delivered to the back office. */
  undelivered: number;
  /** Reports the back office refused (about a publication it does not hold under that id): kept, not resent. */
  reportsRefused: number;
  applied: AppliedVersion[];
}

/** What the kiosk decided about one publication (and reports). */
export interface HandledPublication {
  id: number;
  result: PublicationResult;
  message: string;
}

/** What an item that failed verification claims to be (null: not even the shape of a publication). */
function claimedEnvelope(value: unknown): PublicationEnvelope | null {
  const claimed = SignedPublicationSchema.safeParse(value);
  return claimed.success ? claimed.data.envelope : null;
}

export class Distribution {
  private readonly fetch: typeof fetch;
  private readonly clock: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<HandledPublication[]> | null = null;
  private controller: AbortController | null = null;
  private stopped = true;
  private lastPollAt: string | null = null;
  private lastError: string | null = null;

  private constructor(
    private readonly options: DistributionOptions,
    private readonly db: Database.Database,
  ) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.clock = options.clock ?? (() => new Date());
  }

  static open(options: DistributionOptions): Distribution {
    let db: Database.Database;
    try {
      db = openMigrated(options.stateFile, MIGRATIONS, { synchronous: "FULL" });
    } catch (err) {
      throw new Error(`cannot open the distribution state ${options.stateFile}: ${(err as Error).message}`, { cause: err });
    }
    return new Distribution(options, db);
  }

  applied(): AppliedVersion[] {
    const rows = this.db.prepare("SELECT kind, system, version, publication_id, applied_at FROM applied ORDER BY kind, system").all() as Record<string, unknown>[];
    return rows.map((r) => ({ kind: r["kind"] as PublicationKind, system: String(r["system"]), version: Number(r["version"]), publicationId: Number(r["publication_id"]), appliedAt: String(r["applied_at"]) }));
  }

  status(): DistributionStatus {
    const count = (where: string): number => Number((this.db.prepare(`SELECT count(*) AS n FROM reports WHERE ${where}`).get() as { n: number }).n);
    return { lastPollAt: this.lastPollAt, lastError: this.lastError, undelivered: count("delivered_at IS NULL AND refused IS NULL"), reportsRefused: count("refused IS NOT NULL"), applied: this.applied() };
  }

  /** Per kind and system the highest signed version handled (what the poll says the kiosk has). */
  private have(): PublicationPoll["have"] {
    return (this.db.prepare("SELECT kind, system, version FROM handled ORDER BY kind, system LIMIT 256").all() as { kind: PublicationKind; system: string; version: number }[]).map((r) => ({ ...r }));
  }

  private appliedRow(kind: string, system: string): { version: number; alert_ids: string | null } | undefined {
    return this.db.prepare("SELECT version, alert_ids FROM applied WHERE kind = ? AND system = ?").get(kind, system) as { version: number; alert_ids: string | null } | undefined;
  }

  /**
   * Decide about one publication as received, apply it when it passes every check, and record the
   * decision (the result to report, the version applied, the cursor) in one transaction.
   */
  handle(value: unknown): HandledPublication | null {
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id !== "number" || !Number.isInteger(id) || id <= 0) {
      this.options.log?.("distribution: skipped a publication without an id");
      return null;
    }
    const outcome = this.decide(value);
    const envelope = outcome.envelope;
    // A rejected item is handled (and reported) once, however often it comes back (a replay, garbage).
    const digest = outcome.reason === null ? null : createHash("sha256").update(JSON.stringify(value)).digest("hex");
    if (digest !== null && this.db.prepare("SELECT 1 FROM rejected_items WHERE digest = ?").get(digest) !== undefined) return null;
    // Unverified, it cannot move the kiosk's place, and is reported only as the publication it claims to be.
    const identity: PublicationIdentity | null = envelope ?? claimedEnvelope(value);
    if (identity === null) {
      if (digest !== null) this.db.prepare("INSERT OR IGNORE INTO rejected_items (digest, first_seen) VALUES (?, ?)").run(digest, this.clock().toISOString());
      this.options.log?.(`distribution: rejected publication ${id}: ${outcome.reason} — ${outcome.message} (not reported: it names no publication)`);
      return null;
    }
    const active = this.appliedRow(identity.kind, identity.system)?.version ?? null;
    const result: PublicationResult = {
      kioskId: this.options.kioskId,
      outcome: outcome.reason === null ? "applied" : "rejected",
      reasons: outcome.reason === null ? [] : [outcome.reason],
      issues: outcome.issues.slice(0, 50),
      activeVersion: outcome.applied ? outcome.applied.version : active,
      publication: { kind: identity.kind, system: identity.system, version: identity.version, sha256: identity.sha256 },
      at: this.clock().toISOString(),
    };
    this.db
      .transaction(() => {
        if (outcome.applied && envelope) {
          this.db
            .prepare(
              `INSERT INTO applied (kind, system, version, publication_id, sha256, applied_at, alert_ids) VALUES (?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (kind, system) DO UPDATE SET version = excluded.version, publication_id = excluded.publication_id, sha256 = excluded.sha256, applied_at = excluded.applied_at, alert_ids = excluded.alert_ids`,
            )
            .run(envelope.kind, envelope.system, envelope.version, id, envelope.sha256, result.at, outcome.applied.alertIds ? JSON.stringify(outcome.applied.alertIds) : null);
        }
        if (digest !== null) this.db.prepare("INSERT OR IGNORE INTO rejected_items (digest, first_seen) VALUES (?, ?)").run(digest, result.at);
        if (envelope) {
          this.db
            .prepare("INSERT INTO handled (kind, system, version) VALUES (?, ?, ?) ON CONFLICT (kind, system) DO UPDATE SET version = max(version, excluded.version)")
            .run(envelope.kind, envelope.system, envelope.version);
        }
        this.db.prepare("INSERT OR REPLACE INTO reports (publication_id, body, delivered_at, refused) VALUES (?, ?, NULL, NULL)").run(id, JSON.stringify(result));
      })
      .immediate();
    const what = `${identity.kind} v${identity.version} for ${identity.system}${envelope ? "" : " (as claimed)"}`;
    const message = outcome.reason === null ? `applied ${what} (publication ${id})` : `rejected ${what} (publication ${id}): ${outcome.reason} — ${outcome.message}`;
    this.options.log?.(`distribution: ${message}`);
    return { id, result, message };
  }

  private decide(value: unknown): {
    reason: RejectionReason | null;
    message: string;
    issues: PublicationIssue[];
    envelope: PublicationEnvelope | null;
    applied?: { version: number; alertIds?: string[] };
  } {
    const verified = verifyPublication(value, this.options.publicKey);
    if (!verified.ok) return { reason: verified.reason, message: verified.message, issues: [], envelope: null };
    const { envelope } = verified;
    const system = envelope.system as SystemId;
    if (!this.options.systems.includes(system)) {
      return { reason: "unknown_system", message: `this kiosk does not serve '${envelope.system}'`, issues: [], envelope };
    }
    const previous = this.appliedRow(envelope.kind, envelope.system);
    if (previous && envelope.version <= previous.version) {
      return { reason: "stale", message: `version ${envelope.version} is not newer than version ${previous.version} in force`, issues: [], envelope };
    }
    const file = `backoffice-${envelope.kind}-${envelope.system}-v${envelope.version}.${envelope.kind === "framebook" ? "yaml" : "txt"}`;
    const who = `backoffice (${envelope.publisher})`;
    const { framebooks, alerts } = this.options;
    const systemData = framebooks.systemData(system);
    const issues = publicationContentIssues(envelope.kind, envelope.content, file, system, systemData);
    if (issues.length > 0) return { reason: "invalid", message: formatPublicationIssues(issues.slice(0, 3)), issues, envelope };

    if (envelope.kind === "framebook") {
      try {
        framebooks.apply(system, envelope.content, file, who);
      } catch (err) {
        if (!(err instanceof FramebookRejectedError)) throw err;
        const found = err.validation.issues.filter((i) => i.severity === "error").map((i) => ({ file, line: i.line ?? null, field: (i.path ?? []).join("."), message: i.message }));
        return { reason: "invalid", message: formatPublicationIssues(found.slice(0, 3)), issues: found, envelope };
      }
      return { reason: null, message: "", issues: [], envelope, applied: { version: envelope.version } };
    }

    if (!alerts) return { reason: "invalid", message: "this kiosk keeps no service alerts (start it with an alert store)", issues: [{ file, line: null, field: "(root)", message: "this kiosk keeps no service alerts" }], envelope };
    const checked = validateAlertsContent(envelope.content, file, system, systemData);
    if (!checked.ok) return { reason: "invalid", message: formatPublicationIssues(checked.issues.slice(0, 3)), issues: checked.issues, envelope };
    const withdraw = previous?.alert_ids ? (JSON.parse(previous.alert_ids) as string[]) : [];
    // Published alerts live under ids of their own (system and source in them): never a local alert's.
    const published = checked.alerts.map((alert) => ({ ...alert, id: backofficeAlertId(system, alert.id), source: { kind: "backoffice" as const, id: alert.id } }));
    try {
      alerts.applySet(system, published, { who, withdraw, detail: `published alerts v${envelope.version}` });
    } catch (err) {
      if (!(err instanceof AlertStoreError)) throw err;
      return { reason: "invalid", message: err.message, issues: [{ file, line: null, field: "(root)", message: err.message }], envelope };
    }
    return { reason: null, message: "", issues: [], envelope, applied: { version: envelope.version, alertIds: published.map((a) => a.id) } };
  }

  private async request(path: string, init: RequestInit = {}): Promise<unknown> {
    const response = await this.send(path, init);
    if (!response.ok) throw new Error(`the back office answered ${response.status}: ${response.text.slice(0, 300)}`);
    return JSON.parse(response.text) as unknown;
  }

  private async send(path: string, init: RequestInit = {}, limit = MAX_POLL_ANSWER_BYTES): Promise<{ ok: boolean; status: number; text: string }> {
    const controller = new AbortController();
    this.controller = controller;
    const timeout = setTimeout(() => controller.abort(new Error("timed out")), this.options.timeoutMs ?? 10_000);
    try {
      const response = await this.fetch(new URL(path, this.options.url), {
        ...init,
        headers: { ...(init.body ? { "content-type": "application/json" } : {}), authorization: `Bearer ${this.options.token}` },
        signal: controller.signal,
      });
      return { ok: response.ok, status: response.status, text: await readCappedText(response, limit, "the back office's answer") };
    } finally {
      clearTimeout(timeout);
      this.controller = null;
    }
  }

  /**
   * Send the reports the back office has not acknowledged yet (oldest first). A report it refuses
   * (4xx: a publication it does not hold under that id) is kept with the answer and not resent; one
   * it could not take now (network, 5xx) waits for the next poll. Polling never waits on either.
   */
  private async deliverReports(): Promise<void> {
    const rows = this.db.prepare("SELECT publication_id, body FROM reports WHERE delivered_at IS NULL AND refused IS NULL ORDER BY publication_id LIMIT 100").all() as { publication_id: number; body: string }[];
    for (const row of rows) {
      const response = await this.send(resultPath(row.publication_id), { method: "POST", body: row.body }, MAX_SMALL_ANSWER_BYTES);
      if (response.ok) {
        this.db.prepare("UPDATE reports SET delivered_at = ? WHERE publication_id = ?").run(this.clock().toISOString(), row.publication_id);
      } else if (response.status >= 400 && response.status < 500) {
        const answer = `${response.status}: ${response.text.slice(0, 300)}`;
        this.db.prepare("UPDATE reports SET refused = ? WHERE publication_id = ?").run(answer, row.publication_id);
        this.options.log?.(`distribution: the back office did not take the report on publication ${row.publication_id} (${answer}); kept, not resent`);
      } else {
        throw new Error(`the back office answered ${response.status}: ${response.text.slice(0, 300)}`);
      }
    }
  }

  /** One poll: deliver old reports, fetch what is new, handle it in order, report. Network errors are thrown (and retried by the loop). */
  pollOnce(): Promise<HandledPublication[]> {
    // One poll at a time: a call during a poll runs right after it (so it sees what is published now).
    const previous = this.inFlight?.catch(() => undefined) ?? Promise.resolve();
    const poll: Promise<HandledPublication[]> = previous.then(async () => {
      try {
        // Reports first, but a report that cannot be delivered now never keeps new publications away.
        const undelivered = await this.deliverReports().then(
          () => null,
          (err: unknown) => err as Error,
        );
        const poll: PublicationPoll = { kioskId: this.options.kioskId, have: this.have() };
        const body = PublicationListSchema.parse(await this.request(PUBLICATIONS_POLL_PATH, { method: "POST", body: JSON.stringify(poll) }));
        const handled: HandledPublication[] = [];
        for (const item of body.publications) {
          const h = this.handle(item);
          if (h) handled.push(h);
        }
        if (undelivered) throw undelivered;
        await this.deliverReports();
        this.lastPollAt = this.clock().toISOString();
        this.lastError = null;
        return handled;
      } catch (err) {
        this.lastError = (err as Error).message;
        throw err;
      } finally {
        if (this.inFlight === poll) this.inFlight = null;
      }
    });
    this.inFlight = poll;
    return poll;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    let failing = false;
    const tick = (): void => {
      void this.pollOnce()
        .then(() => {
          if (failing) this.options.log?.(`distribution: the back office ${this.options.url} is reachable again`);
          failing = false;
        })
        .catch((err: unknown) => {
          if (!failing) this.options.log?.(`distribution: cannot reach ${this.options.url} (${(err as Error).message}); the kiosk keeps what it has and retries`);
          failing = true;
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs ?? 30_000);
        });
    };
    tick();
  }

  /** Stop polling (a request in flight is aborted) and close the state file. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.controller?.abort(new Error("stopped"));
    await this.inFlight?.catch(() => undefined);
    if (this.db.open) this.db.close();
  }
}
