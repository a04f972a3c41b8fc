// Bounds on what one ticket sale may cost, from the fare table and the framebook: nothing below
// zero, no single rider above twice the table's dearest single ride (so a fare policy may add a
// surcharge, but not a ¥500 or a 99,999,999 one), and no sale above the framebook's
// `max_sale_total` (default: the largest party one sale may cover, each at that per-rider cap);
// and what a fare policy may plausibly do to a fare (PLAUSIBLE_FARE_RATIO).
// Used by the purchase interlock and by framebook validation alike. Pure.
import type { Fares, Framebook } from "../data/schemas.ts";

/** The largest party one ticket sale may cover. */
export const MAX_RIDERS_PER_SALE = 30;
/** A fare policy may at most double the dearest single ride of the fare table. */
export const POLICY_HEADROOM = 2;
/**
 * A fare policy that leaves a paid trip at under a tenth, or over ten times, of what the fare table
 * charges for the same trip and riders is implausible (a typo such as 0.01 for 0.1): framebook
 * validation refuses it unless the operator confirms it (runtime/framebook/fare-rules.ts).
 */
export const PLAUSIBLE_FARE_RATIO = 10;

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The dearest single ride the fare table can produce (any trip, any payment method). */
export function dearestSingleRide(fares: Fares): number {
  const f = fares as Record<string, unknown>;
  const bases: number[] = [num(f.base_fare) ?? 0, num(f.gold_fare) ?? 0];
  for (const b of (Array.isArray(f.fare_brackets) ? f.fare_brackets : []) as Record<string, unknown>[]) bases.push(num(b?.fare) ?? 0);
  for (const o of Object.values((f.station_overrides ?? {}) as Record<string, Record<string, unknown>>)) bases.push(num(o?.fare) ?? 0);
  for (const row of Object.values(fares.zone_fares ?? {})) bases.push(...Object.values(row));
  let adjustment = 0;
  for (const m of Object.values((f.payment_methods ?? {}) as Record<string, Record<string, unknown>>)) {
    adjustment = Math.max(adjustment, num(m?.fare_adjustment) ?? 0);
    bases.push(num(m?.fare) ?? 0);
  }
  let added = 0;
  for (const s of Object.values((f.surcharges ?? {}) as Record<string, Record<string, unknown>>)) {
    const amount = num(s?.amount) ?? 0;
    if (s?.replaces_base) bases.push(amount);
    else added += amount;
  }
  return Math.max(...bases) + adjustment + added;
}

/** The most one rider's ticket may cost (the dearest single ride, with headroom for policies). */
export function perRiderCap(fares: Fares): number {
  return dearestSingleRide(fares) * POLICY_HEADROOM;
}

/** The framebook's `max_sale_total`, when it sets a usable one. */
export function configuredMaxSaleTotal(framebook: Framebook): number | undefined {
  const v = (framebook as Record<string, unknown>).max_sale_total;
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** The most one sale may cost: the framebook's `max_sale_total`, else a full party at the per-rider cap. */
export function maxSaleTotal(fares: Fares, framebook: Framebook): number {
  return configuredMaxSaleTotal(framebook) ?? Math.round(perRiderCap(fares) * MAX_RIDERS_PER_SALE * 100) / 100;
}

/** Why a total is out of bounds for `riders` riders (null: within bounds). */
export function totalOutOfBounds(total: number, riders: number, fares: Fares, framebook: Framebook): string | null {
  if (!Number.isFinite(total)) return `total ${total} is not a number`;
  if (total < 0) return `total ${total} is below zero`;
  const max = maxSaleTotal(fares, framebook);
  if (total > max + 1e-9) return `total ${total} is above the most one sale may cost (${max})`;
  const cap = perRiderCap(fares);
  if (riders > 0 && total / riders > cap + 1e-9) return `${total} for ${riders} rider(s) is above ${cap} per rider`;
  return null;
}

/**
 * Whether the rules a fare policy applied (tools/fares/policy-change adjustQuote's `applied`) make
 * a trip free by saying so ("seniors ride free", "first ride of the day free") — a base fare
 * "capped at 0" does not count.
 */
export function freeByRule(applied: readonly string[]): boolean {
  return applied.some((a) => /\bfree\b/.test(a)) && !applied.some((a) => /capped at 0(?:\.0+)?$/.test(a));
}

/**
 * Why `total` is an implausible price for a trip the fare table prices at `tableTotal` (null:
 * plausible). A trip the table makes free (children riding free) has nothing to compare with, and
 * a total of 0 is judged by freeByRule instead.
 */
export function implausibleFare(total: number, tableTotal: number): string | null {
  if (!(tableTotal > 0) || total === 0) return null;
  // Half a cent of slack: the fare engine rounds each line to the cent.
  if (total < tableTotal / PLAUSIBLE_FARE_RATIO - 0.005) return `${total} is less than 1/${PLAUSIBLE_FARE_RATIO} of the fare table's ${tableTotal}`;
  if (total > tableTotal * PLAUSIBLE_FARE_RATIO + 0.005) return `${total} is more than ${PLAUSIBLE_FARE_RATIO} times the fare table's ${tableTotal}`;
  return null;
}

/** Why a fare multiplier is implausible (null: within 1/PLAUSIBLE_FARE_RATIO to PLAUSIBLE_FARE_RATIO). */
export function implausibleMultiplier(multiplier: number): string | null {
  if (multiplier >= 1 / PLAUSIBLE_FARE_RATIO && multiplier <= PLAUSIBLE_FARE_RATIO) return null;
  return `multiplier ${multiplier} is outside ${1 / PLAUSIBLE_FARE_RATIO} to ${PLAUSIBLE_FARE_RATIO} (every fare times ${multiplier})`;
}
