// Python-compatible number handling. The benchmark's reference is Python: its rounding, its float
// printing and its int/float distinction are observable in prompts, tool results and scores.

/** A Python float whose value happens to be integral (2.0 prints as "2.0", not "2"). */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

/** The exact binary value of a finite double as a fraction num / 2^shift (shift >= 0). */
function exactFraction(x: number): { num: bigint; shift: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074; // subnormal
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  const signed = negative ? -mantissa : mantissa;
  if (exponent >= 0) return { num: signed << BigInt(exponent), shift: 0n };
  return { num: signed, shift: BigInt(-exponent) };
}

/**
 * Python's round(x, ndigits): rounds the exact binary value, exact ties to even.
 * round(2.675, 2) == 2.67 because 2.675 is stored as 2.67499999…
 */
export function pyRound(x: number, ndigits = 0): number {
  if (!Number.isFinite(x)) return x;
  return roundAwayFromTies(x, ndigits) ?? pyRoundExact(x, ndigits);
}

/** pyRound by the exact method alone: big-integer arithmetic on the binary value. */
export function pyRoundExact(x: number, ndigits = 0): number {
  if (!Number.isFinite(x)) return x;
  const { num, shift } = exactFraction(x);
  const scale = 10n ** BigInt(Math.abs(ndigits));
  // value * 10^ndigits = num * scale / 2^shift   (ndigits >= 0)
  // value / 10^-ndigits = num / (2^shift * scale)  (ndigits < 0)
  const numerator = ndigits >= 0 ? num * scale : num;
  const denominator = ndigits >= 0 ? 1n << shift : (1n << shift) * scale;
  const negative = numerator < 0n;
  const absNum = negative ? -numerator : numerator;
  let quotient = absNum / denominator;
  const twiceRemainder = 2n * (absNum - quotient * denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) {
    quotient += 1n;
  }
  const signedQuotient = negative ? -quotient : quotient;
  const result =
    ndigits >= 0 ? decimalToNumber(signedQuotient, ndigits) : Number(signedQuotient * scale);
  // Python keeps the sign of zero: round(-0.4) == -0.0
  return result === 0 && (negative || Object.is(x, -0)) ? -0 : result;
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * pyRound without big integers for the usual case: x·10^n (n ≤ 15) far from a tie and small
 * enough that the float product's error (< 1 ulp ≤ 2.3e-7 below 1e9) cannot move it across one.
 * Then the nearest integer q is Python's, and q / 10^n — both exact doubles — is correctly
 * rounded, as Python's result is. Undefined where the exact method must decide.
 */
function roundAwayFromTies(x: number, ndigits: number): number | undefined {
  const scale = POWERS_OF_TEN[ndigits];
  if (scale === undefined) return undefined;
  const scaled = x * scale;
  if (!(Math.abs(scaled) < 1e9)) return undefined;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  if (Math.abs(fraction - 0.5) < 1e-6) return undefined;
  const q = fraction > 0.5 ? floor + 1 : floor;
  const result = q / scale;
  // Python keeps the sign of zero: round(-0.4) == -0.0
  return result === 0 && (x < 0 || Object.is(x, -0)) ? -0 : result;
}

/** The double nearest to q / 10^digits (correctly rounded through the decimal string). */
function decimalToNumber(q: bigint, digits: number): number {
  if (digits === 0) return Number(q);
  const negative = q < 0n;
  const text = (negative ? -q : q).toString().padStart(digits + 1, "0");
  const point = text.length - digits;
  return Number(`${negative ? "-" : ""}${text.slice(0, point)}.${text.slice(point)}`);
}

/** Python repr(float): shortest round-trip digits, fixed notation for 1e-4 <= |x| < 1e16. */
export function pyFloatRepr(x: number): string {
  // Where both print fixed notation, JS's shortest round-trip digits are Python's: only an
  // integral value needs its ".0".
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    const text = String(x);
    return text.includes(".") ? text : `${text}.0`;
  }
  return pyFloatReprFromDigits(x);
}

/** pyFloatRepr from the shortest digits and exponent alone (every finite value, NaN, infinities). */
export function pyFloatReprFromDigits(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exponent = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const expSign = exponent < 0 ? "-" : "+";
    return `${sign}${digits[0]}${frac}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const intLen = exponent + 1;
  if (digits.length <= intLen) return `${sign}${digits.padEnd(intLen, "0")}.0`;
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

/** Python str() of a number that is known to be a float (2 → "2.0"). */
export function pyStrFloat(x: number): string {
  return pyFloatRepr(x);
}

/** Python str() of an int or float value as the reference would hold it. */
export function pyStrNumber(x: number | PyFloat, isFloat = false): string {
  if (x instanceof PyFloat) return pyFloatRepr(x.value);
  if (isFloat || !Number.isInteger(x)) return pyFloatRepr(x);
  return String(x);
}
