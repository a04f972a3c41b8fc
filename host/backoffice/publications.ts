// The back office's side of signed distribution (issue 18, part 3): publishing a framebook or a
// system's alert set — validated first with the kiosk's own validators, then given the next version
// for its kind and system, signed with the back office's ed25519 key (runtime/fleet/publication.ts
// defines the signed bytes) and stored — and the kiosks' results. Kiosks ask for what is new with
// POST /v1/publications/poll (the signed versions they hold; the answer is the versions above) and
// report with POST /v1/publications/<id>/result; GET /v1/publications/report lists every
// publication with the asking kiosk's own result.
import type { KeyObject } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type pg from "pg";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import { localIso } from "../../runtime/alerts/model.ts";
import { publicationContentIssues } from "../../runtime/fleet/content.ts";
import {
  envelopeFor,
  MAX_POLL_CONTENT_BYTES,
  PUBLICATIONS_PATH,
  PUBLICATIONS_POLL_PATH,
  PublicationPollSchema,
  PublicationResultSchema,
  signEnvelope,
  type PublicationIssue,
  type PublicationKind,
  type PublicationPoll,
  type PublicationResult,
  type SignedPublication,
} from "../../runtime/fleet/publication.ts";
import { describeIssues } from "../../runtime/fleet/protocol.ts";

export class PublicationRejectedError extends Error {
  constructor(
    message: string,
    readonly issues: PublicationIssue[],
  ) {
    super(message);
    this.name = "PublicationRejectedError";
  }
}

/** A kiosk's result under its publication (which is the publication it read: recordResult checks that). */
export interface KioskPublicationResult extends Omit<PublicationResult, "publication"> {
  receivedAt: string;
}

export interface PublicationReport {
  id: number;
  kind: PublicationKind;
  system: string;
  version: number;
  sha256: string;
  publishedAt: string;
  publisher: string;
  results: KioskPublicationResult[];
}

interface PublicationRow {
  id: string;
  kind: PublicationKind;
  system: string;
  version: number;
  sha256: string;
  content: string;
  published_at_text: string;
  publisher: string;
  signature: string;
}

function signedOf(row: PublicationRow): SignedPublication {
  return {
    id: Number(row.id),
    envelope: { kind: row.kind, system: row.system, version: row.version, sha256: row.sha256, content: row.content, published_at: row.published_at_text, publisher: row.publisher },
    signature: row.signature,
  };
}

export class PublicationStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Validate `content` for `system` (refused with file/line/field issues when it would not apply on a
   * kiosk), sign it as the next version of its kind and system, and store it. One transaction; two
   * publishers at once get consecutive versions.
   */
  async publish(input: { pack: DataPack; kind: PublicationKind; system: string; content: string; file: string; publisher: string; key: KeyObject; now?: Date }): Promise<SignedPublication> {
    if (!input.pack.systemIds.includes(input.system)) throw new PublicationRejectedError(`unknown system '${input.system}' (one of ${input.pack.systemIds.join(", ")})`, []);
    const system: SystemId = input.system;
    const issues = publicationContentIssues(input.kind, input.content, input.file, system, input.pack.system(system), { requireDecisions: { now: localIso(input.now ?? new Date()) } });
    if (issues.length > 0) throw new PublicationRejectedError(`${input.file}: the ${input.kind} for ${system} is not valid; nothing was published`, issues);
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`publication:${input.kind}:${system}`]);
      // Above every version a kiosk said it holds, too: after a restore of an older backup, a new
      // publication must still be newer than what the kiosks applied, or they would refuse it as stale.
      const r = await client.query<{ version: number }>(
        `SELECT greatest((SELECT coalesce(max(version), 0) FROM publications WHERE kind = $1 AND system = $2),
                         (SELECT coalesce(max(version), 0) FROM publication_floor WHERE kind = $1 AND system = $2)) AS version`,
        [input.kind, system],
      );
      const envelope = envelopeFor({
        kind: input.kind,
        system,
        version: (r.rows[0]?.version ?? 0) + 1,
        content: input.content,
        published_at: (input.now ?? new Date()).toISOString(),
        publisher: input.publisher,
      });
      const signature = signEnvelope(envelope, input.key);
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO publications (kind, system, version, sha256, content, published_at, published_at_text, publisher, signature)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        // published_at twice: as a time to sort and query by, and exactly as signed (text).
        [envelope.kind, envelope.system, envelope.version, envelope.sha256, envelope.content, envelope.published_at, envelope.published_at, envelope.publisher, signature],
      );
      await client.query("COMMIT");
      return { id: Number(inserted.rows[0]!.id), envelope, signature };
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * What a kiosk holding `have` has not handled yet: per kind and system the versions above its
   * own, in version order. What it holds is remembered as a floor for the next version.
   */
  async pending(have: PublicationPoll["have"], limit = 50): Promise<SignedPublication[]> {
    const sent = await this.pendingRows(have, limit);
    // Bounded by content too: the rest comes with the next poll (the kiosk's place has moved on).
    let bytes = 0;
    return sent.filter((p, i) => {
      bytes += Buffer.byteLength(p.envelope.content);
      return i === 0 || bytes <= MAX_POLL_CONTENT_BYTES;
    });
  }

  private async pendingRows(have: PublicationPoll["have"], limit: number): Promise<SignedPublication[]> {
    const kinds = have.map((h) => h.kind);
    const systems = have.map((h) => h.system);
    const versions = have.map((h) => h.version);
    if (have.length > 0) {
      await this.pool.query(
        `INSERT INTO publication_floor (kind, system, version)
         SELECT kind, system, max(version) FROM unnest($1::text[], $2::text[], $3::integer[]) AS h(kind, system, version) GROUP BY kind, system
         ON CONFLICT (kind, system) DO UPDATE SET version = greatest(publication_floor.version, EXCLUDED.version)`,
        [kinds, systems, versions],
      );
    }
    const r = await this.pool.query<PublicationRow>(
      `SELECT p.* FROM publications p
         LEFT JOIN (SELECT kind, system, max(version) AS version FROM unnest($1::text[], $2::text[], $3::integer[]) AS h(kind, system, version) GROUP BY kind, system) h
           ON h.kind = p.kind AND h.system = p.system
        WHERE p.version > coalesce(h.version, 0)
        ORDER BY p.kind, p.system, p.version LIMIT $4`,
      [kinds, systems, versions, limit],
    );
    return r.rows.map(signedOf);
  }

  /**
   * Keep a kiosk's result (a repeated report replaces the earlier one) — only for the publication
   * this back office holds under that id with the very kind, system, version and hash the kiosk
   * read. False: no such publication (a replay under another id, or something the back office never sent).
   */
  async recordResult(publicationId: number, result: PublicationResult): Promise<boolean> {
    const { kind, system, version, sha256 } = result.publication;
    const r = await this.pool.query(
      `INSERT INTO publication_results (publication_id, kiosk_id, outcome, reasons, issues, active_version, reported_at)
       SELECT id, $2, $3, $4, $5, $6, $7 FROM publications WHERE id = $1 AND kind = $8 AND system = $9 AND version = $10 AND sha256 = $11
       ON CONFLICT (publication_id, kiosk_id) DO UPDATE SET outcome = EXCLUDED.outcome, reasons = EXCLUDED.reasons, issues = EXCLUDED.issues,
         active_version = EXCLUDED.active_version, reported_at = EXCLUDED.reported_at, received_at = now()`,
      [publicationId, result.kioskId, result.outcome, result.reasons, JSON.stringify(result.issues), result.activeVersion, result.at, kind, system, version, sha256],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** Every publication (newest first) with each kiosk's result. */
  async report(limit = 100): Promise<PublicationReport[]> {
    const pubs = await this.pool.query<PublicationRow>("SELECT * FROM publications ORDER BY id DESC LIMIT $1", [limit]);
    const ids = pubs.rows.map((p) => p.id);
    const results = await this.pool.query<{ publication_id: string; kiosk_id: string; outcome: "applied" | "rejected"; reasons: string[]; issues: PublicationIssue[]; active_version: number | null; reported_at: Date; received_at: Date }>(
      "SELECT * FROM publication_results WHERE publication_id = ANY($1::bigint[]) ORDER BY kiosk_id",
      [ids],
    );
    return pubs.rows.map((p) => ({
      id: Number(p.id),
      kind: p.kind,
      system: p.system,
      version: p.version,
      sha256: p.sha256,
      publishedAt: p.published_at_text,
      publisher: p.publisher,
      results: results.rows
        .filter((r) => r.publication_id === p.id)
        .map((r) => ({
          kioskId: r.kiosk_id,
          outcome: r.outcome,
          reasons: r.reasons as PublicationResult["reasons"],
          issues: r.issues,
          activeVersion: r.active_version,
          at: r.reported_at.toISOString(),
          receivedAt: r.received_at.toISOString(),
        })),
    }));
  }
}

/** An HTTP failure the server answers with its status and message. */
export interface PublicationHttpFailure {
  status: number;
  message: string;
  fields?: string[];
}

export interface PublicationRoutesOptions {
  store: Pick<PublicationStore, "pending" | "recordResult" | "report">;
  /** Whether this bearer token may act as this kiosk (the server's own rule). */
  authorized: (kioskId: string, token: string) => boolean | Promise<boolean>;
  readBody: (req: IncomingMessage) => Promise<unknown>;
  fail: (status: number, message: string, fields?: string[]) => Error;
}

/**
 * The distribution routes, for the back office server's dispatch: the answer (status, body) for a
 * request it handles, null for one it does not.
 */
export async function publicationRoute(req: IncomingMessage, url: URL, options: PublicationRoutesOptions): Promise<{ status: number; body: unknown } | null> {
  if (!url.pathname.startsWith(PUBLICATIONS_PATH)) return null;
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
  if (bearer === null) throw options.fail(401, "missing Authorization: Bearer <token>");
  const kioskOf = async (kioskId: string | null): Promise<string> => {
    if (!kioskId) throw options.fail(400, "name the kiosk: ?kiosk=<kiosk id>", ["kiosk"]);
    if (!(await options.authorized(kioskId, bearer))) throw options.fail(403, `kiosk ${kioskId}: wrong token`);
    return kioskId;
  };
  if (url.pathname === PUBLICATIONS_POLL_PATH && req.method === "POST") {
    const parsed = PublicationPollSchema.safeParse(await options.readBody(req));
    if (!parsed.success) throw options.fail(400, `invalid poll: ${describeIssues(parsed.error).slice(0, 20).join("; ")}`, parsed.error.issues.slice(0, 20).map((i) => i.path.join(".") || "(body)"));
    await kioskOf(parsed.data.kioskId);
    return { status: 200, body: { publications: await options.store.pending(parsed.data.have) } };
  }
  if (url.pathname === `${PUBLICATIONS_PATH}/report` && req.method === "GET") {
    // A kiosk's token reads its own results only, never the rest of the fleet's.
    const kioskId = await kioskOf(url.searchParams.get("kiosk"));
    const publications = await options.store.report();
    return { status: 200, body: { publications: publications.map((p) => ({ ...p, results: p.results.filter((r) => r.kioskId === kioskId) })) } };
  }
  const result = /^\/v1\/publications\/(\d+)\/result$/.exec(url.pathname);
  if (result && req.method === "POST") {
    const parsed = PublicationResultSchema.safeParse(await options.readBody(req));
    if (!parsed.success) throw options.fail(400, `invalid result: ${describeIssues(parsed.error).slice(0, 20).join("; ")}`, parsed.error.issues.slice(0, 20).map((i) => i.path.join(".") || "(body)"));
    await kioskOf(parsed.data.kioskId);
    const id = Number(result[1]);
    if (!(await options.store.recordResult(id, parsed.data))) {
      const { kind, system, version } = parsed.data.publication;
      throw options.fail(404, `publication ${id} is not ${kind} v${version} for ${system} here; the result is not recorded`);
    }
    return { status: 200, body: { ok: true } };
  }
  throw options.fail(404, `no ${req.method ?? ""} ${url.pathname} here`);
}
