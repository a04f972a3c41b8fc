// What a kiosk sends the back office (issue 18, store and forward) and what it answers: one batch
// of outbox records per POST /v1/records, the keys the back office has stored (now or before) in
// the reply. The one definition both sides use: the kiosk's replicator builds it, the back office
// validates every request body against it and answers 400 naming the fields that are wrong.
import { z } from "zod";

/** The path of the ingestion endpoint on the back office. */
export const INGEST_PATH = "/v1/records";
/** The largest request body the back office reads (a full batch of sales is far below it). */
export const MAX_BATCH_BYTES = 1024 * 1024;
export const MAX_BATCH_RECORDS = 500;
/** The largest answer a kiosk reads from the back office to a batch (the keys of a full batch fit). */
export const MAX_ACK_BYTES = 256 * 1024;
/** The largest heartbeat the back office accepts (a kiosk's systems and alerts in force fit many times). */
export const MAX_HEARTBEAT_BYTES = 256 * 1024;
/** The largest answer a kiosk reads to a heartbeat or a report (a short acknowledgement). */
export const MAX_SMALL_ANSWER_BYTES = 64 * 1024;

export const KioskIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "a kiosk id is 1–64 letters, digits, '.', '_' or '-'");

const IsoTime = z.iso.datetime({ offset: true });
const Key = z.string().min(1).max(200);
const Seq = z.number().int().positive();

const SalePayload = z
  .object({
    ticketId: z.string().min(1),
    issuedAt: IsoTime,
    system: z.string().min(1),
    totalMinor: z.number().int(),
    currency: z.string().min(1).max(8),
  })
  .loose();
const VoidPayload = z.object({ ticketId: z.string().min(1), voidedAt: IsoTime, reason: z.string().nullable() }).loose();
const SessionPayload = z.object({ sessionId: z.string().min(1), event: z.string().min(1) }).loose();

export const OutboxRecordSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sale"), key: Key, seq: Seq, at: IsoTime, payload: SalePayload }),
  z.object({ kind: z.literal("void"), key: Key, seq: Seq, at: IsoTime, payload: VoidPayload }),
  z.object({ kind: z.literal("session"), key: Key, seq: Seq, at: IsoTime, payload: SessionPayload }),
]);
export type OutboxRecord = z.infer<typeof OutboxRecordSchema>;
export type OutboxKind = OutboxRecord["kind"];

export const RecordBatchSchema = z.object({
  kioskId: KioskIdSchema,
  records: z.array(OutboxRecordSchema).min(1).max(MAX_BATCH_RECORDS),
  /** The kiosk's replication lag when it sent the batch (shown by the back office). */
  lag: z.object({ pending: z.number().int().nonnegative(), oldestPendingAt: IsoTime.nullable() }),
});
export type RecordBatch = z.infer<typeof RecordBatchSchema>;
/** A batch as the back office first reads it: each record is then read on its own, so a refusal names its key. */
export const RecordBatchEnvelopeSchema = RecordBatchSchema.extend({ records: z.array(z.unknown()).min(1).max(MAX_BATCH_RECORDS) });

/**
 * The key a kiosk's outbox gives a record (runtime/kiosk/node/outbox.ts): one sale and at most one
 * void per ticket, so a second key for a ticket can only come from something that is not a kiosk.
 */
export function keyProblem(record: OutboxRecord): string | null {
  if (record.kind === "session") return record.key.startsWith("session/") ? null : `a session line's key starts with 'session/', not '${record.key.slice(0, 40)}'`;
  const expected = `${record.kind}/${record.payload.ticketId}`;
  return record.key === expected ? null : `a ${record.kind} of ticket ${record.payload.ticketId} is keyed '${expected}', not '${record.key.slice(0, 60)}'`;
}

/** One record the back office refused: it could not have come from a kiosk, so the kiosk parks it. */
export const RecordRefusalSchema = z.object({ key: z.string().max(200), reason: z.string().max(500) });
export type RecordRefusal = z.infer<typeof RecordRefusalSchema>;

/** A 400 answer naming the records refused (nothing of the batch was stored; the rest may be sent again). */
export const BatchRefusedSchema = z.object({ error: z.string(), refused: z.array(RecordRefusalSchema).min(1).max(MAX_BATCH_RECORDS) });

export const BatchAckSchema = z.object({
  /** Every key of the batch the back office now holds (stored by this request or an earlier one). */
  acknowledged: z.array(Key),
  /** How many of them this request stored for the first time. */
  inserted: z.number().int().nonnegative(),
});
export type BatchAck = z.infer<typeof BatchAckSchema>;

/** A zod failure as "field.path: message" lines (for a 400 reply and the kiosk's log). */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(body)"}: ${issue.message}`);
}

/** The path kiosks send their heartbeat to (every N seconds, also with nothing to replicate). */
export const HEARTBEAT_PATH = "/v1/heartbeat";

/**
 * A kiosk's heartbeat: what it runs and how it is, so the back office can show the fleet at a
 * glance and mark a kiosk stale when heartbeats stop.
 */
export const HeartbeatSchema = z.object({
  kioskId: KioskIdSchema,
  sentAt: IsoTime,
  softwareVersion: z.string().min(1).max(64),
  /** Per system: the framebook version passengers get and the service alerts in force. */
  systems: z
    .array(
      z.object({
        system: z.string().min(1).max(64),
        framebookVersion: z.string().max(200).nullable(),
        alerts: z.array(z.object({ id: z.string().min(1).max(200), updatedAt: z.string().max(64) })).max(500),
      }),
    )
    .max(64),
  /** Who answers passengers ("model", "rule", "unavailable") and the model process's state (null: no model). */
  model: z.object({ assistant: z.enum(["model", "rule", "unavailable"]), state: z.string().max(64).nullable() }),
  replication: z.object({ pending: z.number().int().nonnegative(), oldestPendingAt: IsoTime.nullable() }),
  /** The latest finished on-device technician bench run; null when none ran. */
  bench: z
    .object({ runId: z.number().int().nonnegative(), policy: z.string().max(64), finishedAt: z.string().max(64).nullable(), tier1Pct: z.number().nullable(), casesScored: z.number().int().nonnegative() })
    .nullable(),
});
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

/**
 * The heartbeat as JSON within MAX_HEARTBEAT_BYTES: should a kiosk have very many alerts in force,
 * each system's list is shortened (newest kept) until it fits, rather than the back office refusing it.
 */
export function fitHeartbeat(heartbeat: Heartbeat): string {
  let text = JSON.stringify(heartbeat);
  for (let keep = 256; new TextEncoder().encode(text).byteLength > MAX_HEARTBEAT_BYTES && keep >= 1; keep = Math.floor(keep / 2)) {
    text = JSON.stringify({ ...heartbeat, systems: heartbeat.systems.map((s) => ({ ...s, alerts: s.alerts.slice(-keep) })) });
  }
  return text;
}
