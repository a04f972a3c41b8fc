// The back office's PostgreSQL store (issue 18): the fleet's replicated records, one row per
// (kiosk, key) — a record delivered twice is stored once (INSERT … ON CONFLICT DO NOTHING) — and
// one row per kiosk with what it last reported (replication lag now; a heartbeat later adds its
// own columns or table by one more migration). Sales totals are a view over the records, so a void
// that arrives before or after its sale gives the same answer.
import pg from "pg";
import type { Heartbeat, RecordBatch, RecordRefusal } from "../../runtime/fleet/protocol.ts";

/** Numbered migrations: index i takes the schema from version i to i + 1 (kept in backoffice_schema). */
export const BACKOFFICE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE kiosks (
     kiosk_id           text PRIMARY KEY,
     first_seen         timestamptz NOT NULL DEFAULT now(),
     last_seen          timestamptz NOT NULL DEFAULT now(),
     pending            integer NOT NULL DEFAULT 0,
     oldest_pending_at  timestamptz
   );
   CREATE TABLE records (
     kiosk_id     text NOT NULL REFERENCES kiosks(kiosk_id),
     key          text NOT NULL,
     seq          bigint NOT NULL,
     kind         text NOT NULL CHECK (kind IN ('sale', 'void', 'session')),
     at           timestamptz NOT NULL,
     ticket_id    text,
     total_minor  bigint,
     currency     text,
     payload      jsonb NOT NULL,
     received_at  timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (kiosk_id, key)
   );
   CREATE INDEX records_ticket ON records (kiosk_id, ticket_id) WHERE ticket_id IS NOT NULL;
   CREATE VIEW fleet_sales AS
     SELECT s.kiosk_id, s.ticket_id, s.at AS issued_at, s.total_minor, s.currency, v.at AS voided_at
       FROM records s
       LEFT JOIN records v ON v.kiosk_id = s.kiosk_id AND v.kind = 'void' AND v.ticket_id = s.ticket_id
      WHERE s.kind = 'sale';`,
  // Issue 18 s18b: the latest heartbeat per kiosk, per-kiosk tokens (sha256 of a 32-byte random
  // token) and the back-office page's users (scrypt hash with salt).
  `CREATE TABLE kiosk_heartbeats (
     kiosk_id     text PRIMARY KEY,
     received_at  timestamptz NOT NULL,
     sent_at      timestamptz NOT NULL,
     heartbeat    jsonb NOT NULL
   );
   CREATE TABLE kiosk_tokens (
     kiosk_id    text PRIMARY KEY,
     token_hash  text NOT NULL,
     created_at  timestamptz NOT NULL DEFAULT now(),
     revoked_at  timestamptz
   );
   CREATE TABLE backoffice_users (
     name        text PRIMARY KEY,
     password    text NOT NULL,
     created_at  timestamptz NOT NULL DEFAULT now()
   );`,
  // Signed distribution (host/backoffice/publications.ts): what was published, and each kiosk's result.
  `CREATE TABLE publications (
     id            bigserial PRIMARY KEY,
     kind          text NOT NULL CHECK (kind IN ('framebook', 'alerts')),
     system        text NOT NULL,
     version       integer NOT NULL CHECK (version > 0),
     sha256        text NOT NULL,
     content       text NOT NULL,
     published_at  timestamptz NOT NULL,
     published_at_text text NOT NULL,
     publisher     text NOT NULL,
     signature     text NOT NULL,
     UNIQUE (kind, system, version)
   );
   CREATE TABLE publication_results (
     publication_id  bigint NOT NULL REFERENCES publications(id),
     kiosk_id        text NOT NULL,
     outcome         text NOT NULL CHECK (outcome IN ('applied', 'rejected')),
     reasons         text[] NOT NULL,
     issues          jsonb NOT NULL,
     active_version  integer,
     reported_at     timestamptz NOT NULL,
     received_at     timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (publication_id, kiosk_id)
   );`,
  // Each ticket counted once even where records stored before the plausibility checks hold a ticket
  // under two keys or two voids: its first sale, voided at its first void.
  `CREATE OR REPLACE VIEW fleet_sales AS
     SELECT DISTINCT ON (s.kiosk_id, s.ticket_id) s.kiosk_id, s.ticket_id, s.at AS issued_at, s.total_minor, s.currency, v.at AS voided_at
       FROM records s
       LEFT JOIN LATERAL (SELECT min(at) AS at FROM records WHERE kiosk_id = s.kiosk_id AND kind = 'void' AND ticket_id = s.ticket_id) v ON true
      WHERE s.kind = 'sale'
      ORDER BY s.kiosk_id, s.ticket_id, s.at, s.key;`,
  // Per kind and system the highest version any kiosk said it holds: the next version is above it.
  `CREATE TABLE publication_floor (
     kind     text NOT NULL,
     system   text NOT NULL,
     version  integer NOT NULL CHECK (version > 0),
     PRIMARY KEY (kind, system)
   );`,
];

/** Records of a batch that contradict what is stored (nothing of the batch was stored). */
export class RecordsRefusedError extends Error {
  constructor(readonly refused: RecordRefusal[]) {
    super(`${refused.length} record(s) refused`);
    this.name = "RecordsRefusedError";
  }
}

/** Per kiosk and currency: sales, voids and the takings of the sales not voided. */
export interface KioskTotals {
  kioskId: string;
  currency: string;
  sales: number;
  voided: number;
  totalMinor: number;
}

/** One kiosk as the back-office page shows it (stale is computed from these at read time). */
export interface KioskOverview {
  kioskId: string;
  lastBatchAt: Date;
  lastHeartbeatAt: Date | null;
  pending: number;
  oldestPendingAt: Date | null;
  heartbeat: Heartbeat | null;
  salesToday: { currency: string; sales: number; voided: number; totalMinor: number }[];
}

export class BackOfficeStore {
  private constructor(readonly pool: pg.Pool) {}

  /** Connect and bring the schema up to date (several back offices may start at once: an advisory lock serialises them). */
  static async open(connectionString: string, options: { max?: number } = {}): Promise<BackOfficeStore> {
    const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
    // An idle client losing its server (a restart) must not crash the process.
    pool.on("error", () => {});
    const store = new BackOfficeStore(pool);
    try {
      await store.migrate();
    } catch (err) {
      await pool.end();
      throw new Error(`back office database ${redact(connectionString)}: ${(err as Error).message}`, { cause: err });
    }
    return store;
  }

  async schemaVersion(): Promise<number> {
    const r = await this.pool.query<{ version: number }>("SELECT version FROM backoffice_schema");
    return r.rows[0]?.version ?? 0;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(18180018)");
      await client.query("CREATE TABLE IF NOT EXISTS backoffice_schema (version integer NOT NULL)");
      const r = await client.query<{ version: number }>("SELECT version FROM backoffice_schema");
      let version = r.rows[0]?.version ?? 0;
      if (r.rows.length === 0) await client.query("INSERT INTO backoffice_schema (version) VALUES (0)");
      if (version > BACKOFFICE_MIGRATIONS.length) {
        throw new Error(`schema version ${version} is newer than this back office understands (${BACKOFFICE_MIGRATIONS.length}); update it`);
      }
      for (; version < BACKOFFICE_MIGRATIONS.length; version++) await client.query(BACKOFFICE_MIGRATIONS[version]!);
      await client.query("UPDATE backoffice_schema SET version = $1", [version]);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Store one batch in one transaction. Returns the keys now held (all of the batch's: the ones
   * inserted and the ones already there) and how many were new.
   */
  async ingest(batch: RecordBatch): Promise<{ acknowledged: string[]; inserted: number }> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO kiosks (kiosk_id, pending, oldest_pending_at) VALUES ($1, $2, $3)
         ON CONFLICT (kiosk_id) DO UPDATE SET last_seen = now(), pending = EXCLUDED.pending, oldest_pending_at = EXCLUDED.oldest_pending_at`,
        [batch.kioskId, batch.lag.pending, batch.lag.oldestPendingAt],
      );
      const refused = await this.voidsOfUnknownSales(client, batch);
      if (refused.length > 0) throw new RecordsRefusedError(refused);
      let inserted = 0;
      for (const record of batch.records) {
        const sale = record.kind === "sale" ? record.payload : null;
        const ticketId = record.kind === "session" ? null : record.payload.ticketId;
        const r = await client.query(
          `INSERT INTO records (kiosk_id, key, seq, kind, at, ticket_id, total_minor, currency, payload)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (kiosk_id, key) DO NOTHING`,
          [batch.kioskId, record.key, record.seq, record.kind, record.at, ticketId, sale?.totalMinor ?? null, sale?.currency ?? null, JSON.stringify(record.payload)],
        );
        inserted += r.rowCount ?? 0;
      }
      await client.query("COMMIT");
      return { acknowledged: batch.records.map((r) => r.key), inserted };
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * The voids of a batch whose sale is neither stored nor earlier in the batch. Run inside the
   * ingest transaction after the kiosk's row was written, which locks it: two batches of one kiosk
   * cannot interleave here.
   */
  private async voidsOfUnknownSales(client: pg.PoolClient, batch: RecordBatch): Promise<RecordRefusal[]> {
    const voids = batch.records.flatMap((r, i) => (r.kind === "void" ? [{ key: r.key, ticketId: r.payload.ticketId, index: i }] : []));
    if (voids.length === 0) return [];
    const stored = await client.query<{ ticket_id: string }>("SELECT ticket_id FROM records WHERE kiosk_id = $1 AND kind = 'sale' AND ticket_id = ANY($2::text[])", [batch.kioskId, voids.map((v) => v.ticketId)]);
    const known = new Set(stored.rows.map((r) => r.ticket_id));
    return voids
      .filter((v) => !known.has(v.ticketId) && !batch.records.slice(0, v.index).some((r) => r.kind === "sale" && r.payload.ticketId === v.ticketId))
      .map((v) => ({ key: v.key, reason: `a void of ticket ${v.ticketId.slice(0, 60)}, which this kiosk never sold` }));
  }

  async totals(): Promise<KioskTotals[]> {
    const r = await this.pool.query<{ kiosk_id: string; currency: string; sales: string; voided: string; total_minor: string | null }>(
      `SELECT kiosk_id, currency, count(*) AS sales, count(voided_at) AS voided,
              coalesce(sum(total_minor) FILTER (WHERE voided_at IS NULL), 0) AS total_minor
         FROM fleet_sales GROUP BY kiosk_id, currency ORDER BY kiosk_id, currency`,
    );
    return r.rows.map((row) => ({ kioskId: row.kiosk_id, currency: row.currency, sales: Number(row.sales), voided: Number(row.voided), totalMinor: Number(row.total_minor ?? 0) }));
  }

  /** Each kiosk's replication lag as it last reported it. */
  async kiosks(): Promise<{ kioskId: string; lastSeen: Date; pending: number; oldestPendingAt: Date | null }[]> {
    const r = await this.pool.query<{ kiosk_id: string; last_seen: Date; pending: number; oldest_pending_at: Date | null }>(
      "SELECT kiosk_id, last_seen, pending, oldest_pending_at FROM kiosks ORDER BY kiosk_id",
    );
    return r.rows.map((row) => ({ kioskId: row.kiosk_id, lastSeen: row.last_seen, pending: row.pending, oldestPendingAt: row.oldest_pending_at }));
  }

  /** Keep a kiosk's heartbeat (only the latest per kiosk; the kiosk row's lag is updated too). */
  async recordHeartbeat(heartbeat: Heartbeat, receivedAt: Date): Promise<void> {
    await this.pool.query(
      `WITH k AS (INSERT INTO kiosks (kiosk_id, pending, oldest_pending_at) VALUES ($1, $4, $5)
                  ON CONFLICT (kiosk_id) DO UPDATE SET pending = EXCLUDED.pending, oldest_pending_at = EXCLUDED.oldest_pending_at)
       INSERT INTO kiosk_heartbeats (kiosk_id, received_at, sent_at, heartbeat) VALUES ($1, $2, $3, $6)
       ON CONFLICT (kiosk_id) DO UPDATE SET received_at = EXCLUDED.received_at, sent_at = EXCLUDED.sent_at, heartbeat = EXCLUDED.heartbeat`,
      [heartbeat.kioskId, receivedAt, heartbeat.sentAt, heartbeat.replication.pending, heartbeat.replication.oldestPendingAt, JSON.stringify(heartbeat)],
    );
  }

  /** Store a kiosk's token hash (replacing an earlier or revoked one). */
  async setKioskToken(kioskId: string, tokenHash: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO kiosk_tokens (kiosk_id, token_hash) VALUES ($1, $2)
       ON CONFLICT (kiosk_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now(), revoked_at = NULL`,
      [kioskId, tokenHash],
    );
  }

  /** Revoke a kiosk's token; false when it had none. */
  async revokeKioskToken(kioskId: string): Promise<boolean> {
    const r = await this.pool.query("UPDATE kiosk_tokens SET revoked_at = now() WHERE kiosk_id = $1 AND revoked_at IS NULL", [kioskId]);
    return (r.rowCount ?? 0) > 0;
  }

  /** The kiosk's own token (its hash, and whether it is revoked), or null when it was never given one. */
  async kioskToken(kioskId: string): Promise<{ hash: string; revoked: boolean } | null> {
    const r = await this.pool.query<{ token_hash: string; revoked: boolean }>("SELECT token_hash, revoked_at IS NOT NULL AS revoked FROM kiosk_tokens WHERE kiosk_id = $1", [kioskId]);
    const row = r.rows[0];
    return row ? { hash: row.token_hash, revoked: row.revoked } : null;
  }

  async setUser(name: string, passwordHash: string): Promise<void> {
    await this.pool.query("INSERT INTO backoffice_users (name, password) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET password = EXCLUDED.password", [name, passwordHash]);
  }

  async userPasswordHash(name: string): Promise<string | null> {
    const r = await this.pool.query<{ password: string }>("SELECT password FROM backoffice_users WHERE name = $1", [name]);
    return r.rows[0]?.password ?? null;
  }

  /**
   * Every kiosk with its latest heartbeat, last batch and sales today ("today" is the calendar day of
   * `now` in `timeZone`; voided sales are counted apart and not in the takings).
   */
  async fleetOverview(now: Date, timeZone: string, page: { offset: number; limit: number } = { offset: 0, limit: 10_000 }): Promise<KioskOverview[]> {
    const kiosks = await this.pool.query<{ kiosk_id: string; last_seen: Date; pending: number; oldest_pending_at: Date | null; received_at: Date | null; heartbeat: Heartbeat | null }>(
      `SELECT k.kiosk_id, k.last_seen, k.pending, k.oldest_pending_at, h.received_at, h.heartbeat
         FROM kiosks k LEFT JOIN kiosk_heartbeats h ON h.kiosk_id = k.kiosk_id ORDER BY k.kiosk_id OFFSET $1 LIMIT $2`,
      [page.offset, page.limit],
    );
    const sales = await this.pool.query<{ kiosk_id: string; currency: string; sales: string; voided: string; total_minor: string }>(
      `SELECT kiosk_id, currency, count(*) FILTER (WHERE voided_at IS NULL) AS sales, count(voided_at) AS voided,
              coalesce(sum(total_minor) FILTER (WHERE voided_at IS NULL), 0) AS total_minor
         FROM fleet_sales
        WHERE (issued_at AT TIME ZONE $2)::date = ($1::timestamptz AT TIME ZONE $2)::date AND kiosk_id = ANY($3::text[])
        GROUP BY kiosk_id, currency ORDER BY kiosk_id, currency`,
      [now, timeZone, kiosks.rows.map((k) => k.kiosk_id)],
    );
    return kiosks.rows.map((k) => ({
      kioskId: k.kiosk_id,
      lastBatchAt: k.last_seen,
      lastHeartbeatAt: k.received_at,
      pending: k.pending,
      oldestPendingAt: k.oldest_pending_at,
      heartbeat: k.heartbeat,
      salesToday: sales.rows
        .filter((s) => s.kiosk_id === k.kiosk_id)
        .map((s) => ({ currency: s.currency, sales: Number(s.sales), voided: Number(s.voided), totalMinor: Number(s.total_minor) })),
    }));
  }

  /** How many kiosks the fleet has and how many are stale (silent over `staleAfterS` at `now`): the page's summary over every page. */
  async fleetCounts(now: Date, staleAfterS: number): Promise<{ kiosks: number; stale: number }> {
    const r = await this.pool.query<{ kiosks: number; stale: number }>(
      `SELECT count(*)::int AS kiosks,
              count(*) FILTER (WHERE greatest(k.last_seen, coalesce(h.received_at, k.last_seen)) < $1::timestamptz - make_interval(secs => $2))::int AS stale
         FROM kiosks k LEFT JOIN kiosk_heartbeats h ON h.kiosk_id = k.kiosk_id`,
      [now, staleAfterS],
    );
    return r.rows[0] ?? { kiosks: 0, stale: 0 };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** A connection string without its password, for messages. */
export function redact(connectionString: string): string {
  return connectionString.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");
}
