// What a purchase is about, in the kiosk's own facts: the confirmation summary the passenger taps
// before paying (from, to, riders, total — station names from the system data, riders and total
// as the interlock confirmed them, never the answer's words), and a ticket rebuilt from its
// ledger row (a retry or a lookup returns the ticket that was issued). Pure.
import type { SystemData } from "../../tools/data/system.ts";
import { sha256hex12 } from "../../tools/py/text.ts";
import type { AssistantState } from "../contract/index.ts";
import { SystemIdSchema } from "../../tools/data/schemas.ts";
import type { PurchaseConfirmation, Ticket } from "./bridge.ts";
import type { InterlockVerdict } from "./interlock.ts";
import type { SaleRow } from "./sales.ts";

/** The summary of a purchasable answer (the interlock passed, so route, riders and quote exist). */
export function confirmationOf(system: SystemData, sessionId: string, turn: number, state: AssistantState, verdict: InterlockVerdict): PurchaseConfirmation {
  const stops = state.route?.stops ?? [];
  const first = stops[0]?.station_id ?? "";
  const last = stops[stops.length - 1]?.station_id ?? "";
  const riders = verdict.riders ?? { adults: 0, children: 0, seniors: 0, disabled: 0 };
  const summary = {
    from: system.stationById(first)?.name ?? first,
    to: system.stationById(last)?.name ?? last,
    riders: { adults: riders.adults, children: riders.children, seniors: riders.seniors, disabled: riders.disabled },
    total: state.fare_quote?.total ?? 0,
    currency: state.fare_quote?.currency ?? "",
  };
  return { id: sha256hex12(JSON.stringify([sessionId, turn, stops.map((s) => s.station_id), summary])), ...summary, fromId: first, toId: last };
}

/** The ticket a ledger row records. */
export function ticketOfSale(row: SaleRow): Ticket {
  let riders: Record<string, number> = {};
  try {
    riders = JSON.parse(row.riders_json) as Record<string, number>;
  } catch {
    // (a row written by this kiosk always has valid JSON)
  }
  return {
    ticketId: row.ticket_id,
    system: SystemIdSchema.parse(row.system),
    issuedAt: row.issued_at,
    origin: row.origin_name ?? row.origin_id,
    destination: row.destination_name ?? row.destination_id,
    originId: row.origin_id,
    destinationId: row.destination_id,
    riders,
    total: row.total,
    currency: row.currency,
    paymentMethod: row.payment_method,
  };
}
