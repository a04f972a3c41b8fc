// The kiosk's side of signed distribution (issue 18, part 3): polls the back office for new
// publications (GET /v1/publications?after=<last id seen>), and for each one checks the signature
// against the back office's public key (`kiosk serve --publications-key`) and the content hash,
// refuses an older or equal version than the one it applied (a replay), validates the content with
// the kiosk's own validators and only then applies it — a framebook through the framebook store
// (atomic, audited, kept for rollback), an alert set through the alert store (one transaction,
// audited) — and reports the result. Whatever is rejected never becomes active: the kiosk keeps
// what it has and keeps selling. What it applied, how far it read and the reports not yet delivered
// are kept in a small SQLite file, so a restart neither re-applies nor goes back to an older version.
import type { KeyObject } from "node:crypto";
import type Database from "better-sqlite3";
import { SYSTEM_IDS, type SystemId } from "../../../tools/data/schemas.ts";
import { AlertStoreError, type AlertStore } from "../../alerts/store.ts";
import { backofficeAlertId } from "../../alerts/model.ts";
import { FramebookRejectedError, type FramebookStore } from "../../framebook/store.ts";
import { formatPublicationIssues, publicationContentIssues, validateAlertsContent } from "../../fleet/content.ts";
import {
  PUBLICATIONS_PATH,
  PublicationListSchema,
  resultPath,
  verifyPublication,
  type PublicationEnvelope,
  type PublicationIssue,
  type PublicationKind,
  type PublicationResult,
  type RejectionReason,
} from "../../fleet/publication.ts";
import { openMigrated } from "../../storage/sqlite.ts";

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
  applied: AppliedVersion[];
}

/** What the kiosk decided about one publication (and reports). */
export interface HandledPublication {
  id: number;
  result: PublicationResult;
  message: string;
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
    const undelivered = Number((this.db.prepare("SELECT count(*) AS n FROM reports WHERE delivered_at IS NULL").get() as { n: number }).n);
    return { lastPollAt: this.lastPollAt, lastError: this.lastError, undelivered, applied: this.applied() };
  }

  private cursor(): number {
    return Number((this.db.prepare("SELECT after_id FROM cursor WHERE one = 1").get() as { after_id?: number } | undefined)?.after_id ?? 0);
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
    const active = envelope ? (this.appliedRow(envelope.kind, envelope.system)?.version ?? null) : null;
    const result: PublicationResult = {
      kioskId: this.options.kioskId,
      outcome: outcome.reason === null ? "applied" : "rejected",
      reasons: outcome.reason === null ? [] : [outcome.reason],
      issues: outcome.issues.slice(0, 50),
      activeVersion: outcome.applied ? outcome.applied.version : active,
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
        this.db.prepare("INSERT OR REPLACE INTO reports (publication_id, body, delivered_at) VALUES (?, ?, NULL)").run(id, JSON.stringify(result));
        this.db.prepare("INSERT INTO cursor (one, after_id) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET after_id = max(after_id, excluded.after_id)").run(id);
      })
      .immediate();
    const what = envelope ? `${envelope.kind} v${envelope.version} for ${envelope.system}` : `publication ${id}`;
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
    if (!(SYSTEM_IDS as readonly string[]).includes(envelope.system) || !this.options.systems.includes(system)) {
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
    const controller = new AbortController();
    this.controller = controller;
    const timeout = setTimeout(() => controller.abort(new Error("timed out")), this.options.timeoutMs ?? 10_000);
    try {
      const response = await this.fetch(new URL(path, this.options.url), {
        ...init,
        headers: { ...(init.body ? { "content-type": "application/json" } : {}), authorization: `Bearer ${this.options.token}` },
        signal: controller.signal,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`the back office answered ${response.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as unknown;
    } finally {
      clearTimeout(timeout);
      this.controller = null;
    }
  }

  /** Send the reports the back office has not acknowledged yet (oldest first). */
  private async deliverReports(): Promise<void> {
    const rows = this.db.prepare("SELECT publication_id, body FROM reports WHERE delivered_at IS NULL ORDER BY publication_id LIMIT 100").all() as { publication_id: number; body: string }[];
    for (const row of rows) {
      await this.request(resultPath(row.publication_id), { method: "POST", body: row.body });
      this.db.prepare("UPDATE reports SET delivered_at = ? WHERE publication_id = ?").run(this.clock().toISOString(), row.publication_id);
    }
  }

  /** One poll: deliver old reports, fetch what is new, handle it in order, report. Network errors are thrown (and retried by the loop). */
  pollOnce(): Promise<HandledPublication[]> {
    // One poll at a time: a call during a poll runs right after it (so it sees what is published now).
    const previous = this.inFlight?.catch(() => undefined) ?? Promise.resolve();
    const poll: Promise<HandledPublication[]> = previous.then(async () => {
      try {
        await this.deliverReports();
        const query = new URLSearchParams({ after: String(this.cursor()), kiosk: this.options.kioskId });
        const body = PublicationListSchema.parse(await this.request(`${PUBLICATIONS_PATH}?${query.toString()}`));
        const items = body.publications
          .filter((p): p is { id: number } => typeof (p as { id?: unknown } | null)?.id === "number")
          .sort((a, b) => a.id - b.id);
        const handled: HandledPublication[] = [];
        for (const item of items) {
          if (item.id <= this.cursor()) continue;
          const h = this.handle(item);
          if (h) handled.push(h);
        }
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
