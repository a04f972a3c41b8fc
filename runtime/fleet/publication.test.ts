// The signed bytes of a publication and their verification (issue 18, distribution), with keys made here.
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, ed25519PublicKey, envelopeFor, sha256Hex, signedBytes, signEnvelope, verifyPublication, SIGNING_DOMAIN } from "./publication.ts";

const keys = generateKeyPairSync("ed25519");
const other = generateKeyPairSync("ed25519");
const envelope = envelopeFor({ kind: "framebook", system: "marta", version: 3, content: "framebook:\n  name: MARTA — ünïcode\n", published_at: "2026-03-09T14:00:00.000Z", publisher: "Ops Desk" });
const signed = { id: 7, envelope, signature: signEnvelope(envelope, keys.privateKey) };

describe("canonical JSON and the signed bytes", () => {
  it("sorts keys at every depth, keeps array order, writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: "x", y: null }], c: "é" } })).toBe('{"a":{"c":"é","d":[3,1,{"y":null,"z":"x"}]},"b":1}');
    expect(canonicalJson({ a: 1 })).toBe(canonicalJson(JSON.parse('{ "a" : 1 }')));
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/NaN/);
  });

  it("are the domain prefix and the envelope's canonical JSON in UTF-8, whatever the key order it was built in", () => {
    const reordered = Object.fromEntries(Object.entries(envelope).reverse()) as typeof envelope;
    const bytes = signedBytes(reordered);
    expect(bytes.equals(signedBytes(envelope))).toBe(true);
    const text = bytes.toString("utf8");
    expect(text.startsWith(SIGNING_DOMAIN)).toBe(true);
    expect(JSON.parse(text.slice(SIGNING_DOMAIN.length))).toEqual(envelope);
    expect(text.slice(SIGNING_DOMAIN.length)).toMatch(/^\{"content":.*"kind":"framebook","published_at":.*"publisher":"Ops Desk","sha256":"[0-9a-f]{64}","system":"marta","version":3\}$/s);
    expect(envelope.sha256).toBe(sha256Hex(envelope.content));
    // The signature is plain ed25519 over those bytes: anyone with the public key can check it.
    expect(sign(null, bytes, keys.privateKey).toString("base64")).toBe(signed.signature);
  });
});

describe("verifyPublication", () => {
  const key = ed25519PublicKey(keys.publicKey.export({ type: "spki", format: "pem" }).toString());

  it("accepts what the back office's key signed", () => {
    expect(verifyPublication(JSON.parse(JSON.stringify(signed)), key)).toEqual({ ok: true, envelope });
  });

  it("refuses an unsigned one, changed content, an edited envelope, flipped signature bytes and another key's signature", () => {
    expect(verifyPublication({ ...signed, signature: null }, key)).toMatchObject({ ok: false, reason: "unsigned" });
    expect(verifyPublication({ ...signed, signature: "" }, key)).toMatchObject({ ok: false, reason: "unsigned" });
    const tampered = { ...signed, envelope: { ...envelope, content: envelope.content.replace("MARTA", "MALLORY") } };
    expect(verifyPublication(tampered, key)).toMatchObject({ ok: false, reason: "hash_mismatch" });
    // Content and hash changed together: the hash matches, the signature does not.
    const rehashed = { ...tampered, envelope: { ...tampered.envelope, sha256: sha256Hex(tampered.envelope.content) } };
    expect(verifyPublication(rehashed, key)).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verifyPublication({ ...signed, envelope: { ...envelope, version: 4 } }, key)).toMatchObject({ ok: false, reason: "bad_signature" });
    const flipped = Buffer.from(signed.signature, "base64");
    flipped[10] = flipped[10]! ^ 0x01;
    expect(verifyPublication({ ...signed, signature: flipped.toString("base64") }, key)).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verifyPublication({ ...signed, signature: "not base64 at all" }, key)).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verifyPublication({ ...signed, signature: signEnvelope(envelope, other.privateKey) }, key)).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verifyPublication({ id: 1, envelope: { kind: "framebook" }, signature: "x" }, key)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("takes only an ed25519 public key", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    expect(() => ed25519PublicKey(rsa.publicKey.export({ type: "spki", format: "pem" }).toString(), "k.pem")).toThrow(/k.pem: a rsa key, not ed25519/);
    expect(() => ed25519PublicKey("hello", "k.pem")).toThrow(/not a PEM public key/);
    expect(() => signEnvelope(envelope, rsa.privateKey)).toThrow(/not ed25519/);
  });
});
