// What a replicated record may say: only what a kiosk of this fleet could have written. The checks
// that need one record alone (its key, its system's currency, its amount within the system's sale
// bounds, text PostgreSQL can store) live here; the ones that need what is already stored (a void
// only of a known sale) run in the store's transaction. A refused record is answered 400 with the
// reason, so the kiosk parks it instead of retrying forever.
import type { DataPack } from "../../tools/data/datapack.ts";
import { maxSaleTotal } from "../../tools/fares/bounds.ts";
import { keyProblem, OutboxRecordSchema, describeIssues, type OutboxRecord, type RecordRefusal } from "../../runtime/fleet/protocol.ts";

/** What one system's sales may be: its currency and the largest total one sale may reach (minor units). */
export interface SaleBounds {
  currency: string;
  maxTotalMinor: number;
}

/** The sale bounds of a system of the fleet, or null when the fleet has no such system. */
export type FleetSaleBounds = (system: string) => SaleBounds | null;

/** The bounds of every system in the data pack (each system loaded once, on first use). */
export function saleBoundsFromPack(pack: DataPack): FleetSaleBounds {
  const known = new Map<string, SaleBounds | null>();
  return (system) => {
    if (!known.has(system)) {
      let bounds: SaleBounds | null = null;
      if ((pack.systemIds as readonly string[]).includes(system)) {
        const data = pack.system(system);
        // The ledger keeps hundredths of the major unit whatever the currency (ledger.ts toMinor).
        bounds = { currency: data.framebook.currency_code, maxTotalMinor: Math.round(maxSaleTotal(data.fares, data.framebook) * 100) };
      }
      known.set(system, bounds);
    }
    return known.get(system) ?? null;
  };
}

// A NUL character or half a surrogate pair: PostgreSQL's text and jsonb cannot hold either.
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorableField(value: unknown, path: string): string | null {
  if (typeof value === "string") return UNSTORABLE.test(value) ? path || "(value)" : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = unstorableField(v, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = unstorableField(k, `${path}.${k}`) ?? unstorableField(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return null;
}

/** Why this record cannot be one a kiosk wrote (null: plausible). */
export function recordProblem(record: OutboxRecord, bounds: FleetSaleBounds): string | null {
  const unstorable = unstorableField(record, "");
  if (unstorable) return `${unstorable}: contains a NUL character or a broken surrogate pair`;
  const key = keyProblem(record);
  if (key) return key;
  if (record.kind !== "sale") return null;
  const sale = record.payload;
  const system = bounds(sale.system);
  if (!system) return `payload.system: '${sale.system.slice(0, 40)}' is not a system of this fleet`;
  if (sale.currency !== system.currency) return `payload.currency: ${sale.system} sells in ${system.currency}, not '${sale.currency.slice(0, 8)}'`;
  if (sale.totalMinor < 0 || sale.totalMinor > system.maxTotalMinor) return `payload.totalMinor: ${sale.totalMinor} is outside what one ${sale.system} sale may cost (0 to ${system.maxTotalMinor})`;
  const total = (sale as { total?: unknown }).total;
  if (total !== undefined && (typeof total !== "number" || Math.abs(total * 100 - sale.totalMinor) > 0.5)) return `payload.total: ${String(total).slice(0, 20)} disagrees with totalMinor ${sale.totalMinor}`;
  return null;
}

/**
 * Read each record of a batch on its own: the ones that parse and are plausible, and a refusal
 * naming the key (where it has one) and the reason for each of the others.
 */
export function screenRecords(records: readonly unknown[], bounds: FleetSaleBounds): { records: OutboxRecord[]; refused: RecordRefusal[] } {
  const good: OutboxRecord[] = [];
  const refused: RecordRefusal[] = [];
  for (const [i, raw] of records.entries()) {
    const key = typeof (raw as { key?: unknown } | null)?.key === "string" ? String((raw as { key: string }).key).slice(0, 200) : `records[${i}]`;
    const parsed = OutboxRecordSchema.safeParse(raw);
    if (!parsed.success) {
      refused.push({ key, reason: describeIssues(parsed.error).slice(0, 3).join("; ").slice(0, 500) });
      continue;
    }
    const problem = recordProblem(parsed.data, bounds);
    if (problem) refused.push({ key, reason: problem.slice(0, 500) });
    else good.push(parsed.data);
  }
  return { records: good, refused };
}
