// Signed distribution (issue 18, part 3): what the back office publishes to the fleet — a framebook
// or a system's set of service alerts — as an envelope signed with the back office's ed25519 key,
// and how a kiosk checks one. The one definition of the signed bytes, for the signer and the verifier:
//
//   signed bytes = UTF-8 of  "metro-kiosk-publication/v1\n" + canonicalJson(envelope)
//
// where canonicalJson writes objects with their keys sorted by code point, no whitespace, strings and
// numbers as JSON.stringify writes them (the envelope holds only strings and integers). The signature
// is crypto.sign(null, bytes, privateKey) — ed25519 signs the message itself, no separate digest —
// carried base64-encoded beside the envelope, never inside it.
import { createHash, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { z } from "zod";

export const PUBLICATIONS_PATH = "/v1/publications";
/** Keeps a signature over a publication from being valid as any other kind of signed message. */
export const SIGNING_DOMAIN = "metro-kiosk-publication/v1\n";
/** The largest content a publication carries (a framebook is a few tens of kB). */
export const MAX_CONTENT_BYTES = 512 * 1024;

export const PUBLICATION_KINDS = ["framebook", "alerts"] as const;
export const PublicationKindSchema = z.enum(PUBLICATION_KINDS);
export type PublicationKind = z.infer<typeof PublicationKindSchema>;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 as 64 lowercase hex digits");

/** What is signed. `version` counts up per kind and system from 1; `sha256` is the content's (UTF-8). */
export const PublicationEnvelopeSchema = z.strictObject({
  kind: PublicationKindSchema,
  /** A system id as the back office wrote it (a kiosk that does not serve it answers unknown_system). */
  system: z.string().min(1).max(40),
  version: z.number().int().positive(),
  sha256: Sha256Hex,
  content: z.string().max(MAX_CONTENT_BYTES),
  published_at: z.iso.datetime({ offset: true }),
  /** Who published it on the back office (the kiosk's audit records "backoffice (<publisher>)"). */
  publisher: z.string().min(1).max(100),
});
export type PublicationEnvelope = z.infer<typeof PublicationEnvelopeSchema>;

/** One publication as the back office serves it: its row id, the envelope and the signature (base64; null: unsigned). */
export const SignedPublicationSchema = z.object({
  id: z.number().int().positive(),
  envelope: PublicationEnvelopeSchema,
  signature: z.string().nullable(),
});
export type SignedPublication = z.infer<typeof SignedPublicationSchema>;

/** Where a kiosk asks for what is new (POST, a PublicationPoll; answered with a PublicationList). */
export const PUBLICATIONS_POLL_PATH = `${PUBLICATIONS_PATH}/poll`;
/**
 * The most content one poll's answer carries (the back office stops adding publications there,
 * always sending at least one), and the most a kiosk reads of that answer (JSON escaping included).
 */
export const MAX_POLL_CONTENT_BYTES = 4 * MAX_CONTENT_BYTES;
export const MAX_POLL_ANSWER_BYTES = 4 * MAX_POLL_CONTENT_BYTES;
/** The highest version a kiosk may claim to hold (versions count up by one per publication). */
export const MAX_PUBLICATION_VERSION = 1_000_000;

/** Which publication this is by its signed content: ids are the back office's row numbers and prove nothing. */
export const PublicationIdentitySchema = z.object({
  kind: PublicationKindSchema,
  system: z.string().min(1).max(40),
  version: z.number().int().positive().max(MAX_PUBLICATION_VERSION),
  sha256: Sha256Hex,
});
export type PublicationIdentity = z.infer<typeof PublicationIdentitySchema>;

/**
 * A kiosk's poll: per kind and system, the highest signed version it has handled (applied or
 * refused after verifying the signature). The back office answers with the versions above it, so
 * a kiosk's place follows signed content only, never the row ids.
 */
export const PublicationPollSchema = z.object({
  kioskId: z.string().min(1).max(64),
  have: z.array(PublicationIdentitySchema.omit({ sha256: true })).max(256),
});
export type PublicationPoll = z.infer<typeof PublicationPollSchema>;

export const PublicationListSchema = z.object({ publications: z.array(z.unknown()).max(200) });

export const REJECTION_REASONS = ["unsigned", "bad_signature", "hash_mismatch", "invalid", "stale", "unknown_system"] as const;
export const RejectionReasonSchema = z.enum(REJECTION_REASONS);
export type RejectionReason = z.infer<typeof RejectionReasonSchema>;

export const PublicationIssueSchema = z.object({ file: z.string(), line: z.number().int().positive().nullable(), field: z.string(), message: z.string() });
export type PublicationIssue = z.infer<typeof PublicationIssueSchema>;

/** What a kiosk reports after handling a publication (POST /v1/publications/<id>/result). */
export const PublicationResultSchema = z.object({
  kioskId: z.string().min(1).max(64),
  outcome: z.enum(["applied", "rejected"]),
  /** Empty when applied; the first is the deciding one. */
  reasons: z.array(RejectionReasonSchema).max(REJECTION_REASONS.length),
  issues: z.array(PublicationIssueSchema).max(50).default([]),
  /** The version now in force on the kiosk for this kind and system (null: none from the back office yet). */
  activeVersion: z.number().int().positive().nullable(),
  /** What the kiosk read (as claimed where the signature failed): the back office keeps the result only for the publication it holds under that id. */
  publication: PublicationIdentitySchema,
  at: z.iso.datetime({ offset: true }),
});
export type PublicationResult = z.infer<typeof PublicationResultSchema>;

export function resultPath(id: number): string {
  return `${PUBLICATIONS_PATH}/${id}/result`;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** JSON with object keys sorted by code point and no whitespace (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error("canonical JSON has no NaN or Infinity");
    const text = JSON.stringify(value);
    if (text === undefined) throw new Error(`canonical JSON cannot hold a ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** Exactly the bytes that are signed and verified. */
export function signedBytes(envelope: PublicationEnvelope): Buffer {
  return Buffer.from(SIGNING_DOMAIN + canonicalJson(envelope), "utf8");
}

/** The envelope for new content (its hash computed here). */
export function envelopeFor(input: Omit<PublicationEnvelope, "sha256">): PublicationEnvelope {
  return PublicationEnvelopeSchema.parse({ ...input, sha256: sha256Hex(input.content) });
}

/** Sign with the back office's ed25519 private key; base64. */
export function signEnvelope(envelope: PublicationEnvelope, privateKey: KeyObject): string {
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error(`the signing key is ${privateKey.asymmetricKeyType ?? "not asymmetric"}, not ed25519`);
  return sign(null, signedBytes(envelope), privateKey).toString("base64");
}

/** A PEM public key (the back office's, `kiosk backoffice keygen`), checked to be ed25519. */
export function ed25519PublicKey(pem: string, where = "public key"): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (err) {
    throw new Error(`${where}: not a PEM public key (${(err as Error).message})`, { cause: err });
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`${where}: a ${key.asymmetricKeyType ?? "unknown"} key, not ed25519`);
  return key;
}

export type VerifyOutcome = { ok: true; envelope: PublicationEnvelope } | { ok: false; reason: "unsigned" | "bad_signature" | "hash_mismatch" | "invalid"; message: string };

/**
 * Check a publication as the kiosk received it (unknown JSON): its shape, that it is signed, that
 * the content is the one the envelope names (hash), and that the back office's key signed the envelope.
 * The hash is checked first so content changed in transit reads as hash_mismatch; a signature that
 * does not match (flipped bytes, another key, an envelope edited with its hash) is bad_signature.
 */
export function verifyPublication(value: unknown, publicKey: KeyObject): VerifyOutcome {
  const parsed = SignedPublicationSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: "invalid", message: `not a publication (${issue ? `${issue.path.join(".") || "(body)"}: ${issue.message}` : "invalid"})` };
  }
  const { envelope, signature } = parsed.data;
  if (signature === null || signature.trim() === "") return { ok: false, reason: "unsigned", message: "the publication carries no signature" };
  if (sha256Hex(envelope.content) !== envelope.sha256) return { ok: false, reason: "hash_mismatch", message: `the content's sha256 is not the envelope's ${envelope.sha256.slice(0, 12)}…` };
  const bytes = Buffer.from(signature, "base64");
  // An ed25519 signature is 64 bytes; anything else (or text that is not base64) cannot verify.
  let good: boolean;
  try {
    good = bytes.length === 64 && verify(null, signedBytes(envelope), publicKey, bytes);
  } catch {
    good = false;
  }
  if (!good) return { ok: false, reason: "bad_signature", message: "the signature does not verify with this kiosk's publications key" };
  return { ok: true, envelope };
}
