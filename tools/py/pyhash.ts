// Emulation of CPython's string hashing and set iteration order under a fixed PYTHONHASHSEED.
//
// Why: the reference route planner inserts each station's lines into a Python set and iterates it,
// so which of two equal-cost parallel lines gets the label depends on the hash seed. The published
// oracle was produced with PYTHONHASHSEED=13; reproducing that order lets our tie-breaks match it
// exactly instead of approximately. (CPython >= 3.11: SipHash-1-3, 8-slot sets, linear probing 9.)

const MASK64 = (1n << 64n) - 1n;

function rotl(x: bigint, b: bigint): bigint {
  return ((x << b) | (x >> (64n - b))) & MASK64;
}

/** The 24-byte hash secret CPython derives from PYTHONHASHSEED (lcg_urandom). */
function hashSecretKeys(seed: number): { k0: bigint; k1: bigint } {
  const bytes: number[] = [];
  let x = seed >>> 0;
  for (let i = 0; i < 24; i++) {
    x = (Math.imul(x, 214013) + 2531011) >>> 0;
    bytes.push((x >>> 16) & 0xff);
  }
  const le64 = (offset: number): bigint => {
    let v = 0n;
    for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[offset + i] as number);
    return v;
  };
  return { k0: le64(0), k1: le64(8) };
}

function siphash13(k0: bigint, k1: bigint, data: Uint8Array): bigint {
  let v0 = k0 ^ 0x736f6d6570736575n;
  let v1 = k1 ^ 0x646f72616e646f6dn;
  let v2 = k0 ^ 0x6c7967656e657261n;
  let v3 = k1 ^ 0x7465646279746573n;
  const round = (): void => {
    v0 = (v0 + v1) & MASK64;
    v2 = (v2 + v3) & MASK64;
    v1 = rotl(v1, 13n) ^ v0;
    v3 = rotl(v3, 16n) ^ v2;
    v0 = rotl(v0, 32n);
    v2 = (v2 + v1) & MASK64;
    v0 = (v0 + v3) & MASK64;
    v1 = rotl(v1, 17n) ^ v2;
    v3 = rotl(v3, 21n) ^ v0;
    v2 = rotl(v2, 32n);
  };
  const len = data.length;
  let offset = 0;
  while (len - offset >= 8) {
    let m = 0n;
    for (let i = 7; i >= 0; i--) m = (m << 8n) | BigInt(data[offset + i] as number);
    offset += 8;
    v3 ^= m;
    round();
    v0 ^= m;
  }
  let tail = 0n;
  for (let i = len - offset - 1; i >= 0; i--) tail = (tail << 8n) | BigInt(data[offset + i] as number);
  const b = ((BigInt(len) << 56n) & MASK64) | tail;
  v3 ^= b;
  round();
  v0 ^= b;
  v2 ^= 0xffn;
  round();
  round();
  round();
  return (v0 ^ v1 ^ v2 ^ v3) & MASK64;
}

/** The bytes CPython hashes for a str: its compact representation (latin-1, UCS-2 or UCS-4, LE). */
function unicodeData(s: string): Uint8Array {
  const codes = Array.from(s, (ch) => ch.codePointAt(0) ?? 0);
  const max = codes.reduce((m, c) => Math.max(m, c), 0);
  const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
  const out = new Uint8Array(codes.length * width);
  codes.forEach((code, i) => {
    for (let b = 0; b < width; b++) out[i * width + b] = (code >>> (8 * b)) & 0xff;
  });
  return out;
}

/** hash(s) as CPython computes it under PYTHONHASHSEED=seed, as an unsigned 64-bit value. */
export function pyStringHash(s: string, seed: number): bigint {
  if (s.length === 0) return 0n;
  if (seed === 0) throw new Error("PYTHONHASHSEED=0 (FNV/no randomisation) is not emulated");
  const { k0, k1 } = hashSecretKeys(seed);
  const h = siphash13(k0, k1, unicodeData(s));
  // -1 is reserved for errors in CPython and is replaced by -2.
  return h === MASK64 ? MASK64 - 1n : h;
}

const LINEAR_PROBES = 9n;
const PERTURB_SHIFT = 5n;

type Slot = { key: string; hash: bigint } | null;

function insertClean(table: Slot[], mask: bigint, key: string, hash: bigint): void {
  let perturb = hash;
  let i = hash & mask;
  for (;;) {
    if (table[Number(i)] === null) break;
    let placed = false;
    if (i + LINEAR_PROBES <= mask) {
      for (let j = 1n; j <= LINEAR_PROBES; j++) {
        if (table[Number(i + j)] === null) {
          i += j;
          placed = true;
          break;
        }
      }
    }
    if (placed) break;
    perturb >>= PERTURB_SHIFT;
    i = (i * 5n + 1n + perturb) & mask;
  }
  table[Number(i)] = { key, hash };
}

/**
 * The order in which a CPython set built by adding `items` in this order iterates (duplicates are
 * ignored, as set.add does). Only additions are modelled; nothing is ever removed.
 */
export function pySetOrder(items: Iterable<string>, seed: number): string[] {
  let size = 8;
  let table: Slot[] = new Array<Slot>(size).fill(null);
  let used = 0;
  const seen = new Set<string>();
  for (const key of items) {
    if (seen.has(key)) continue;
    seen.add(key);
    const hash = pyStringHash(key, seed);
    const mask = BigInt(size - 1);
    // set_add_entry probes like insertClean when nothing is ever deleted.
    insertClean(table, mask, key, hash);
    used++;
    if (used * 5 >= (size - 1) * 3) {
      const minUsed = used > 50000 ? used * 2 : used * 4;
      let newSize = 8;
      while (newSize <= minUsed) newSize <<= 1;
      const old = table;
      size = newSize;
      table = new Array<Slot>(size).fill(null);
      for (const slot of old) if (slot !== null) insertClean(table, BigInt(size - 1), slot.key, slot.hash);
    }
  }
  return table.filter((slot): slot is { key: string; hash: bigint } => slot !== null).map((s) => s.key);
}
