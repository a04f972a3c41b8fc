// Building the passenger-facing parts of the terminal state: fare quote, banners and message, in
// the framebook's terminology and currency format.
import type { Framebook } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import type { AdjustedQuote } from "../../../tools/fares/policy-change.ts";
import type { RiderCounts } from "./request.ts";

export type Severity = "critical" | "warning" | "info" | "positive";
export interface Banner {
  severity: Severity;
  title: string;
  body: string;
}

export interface RouteResult {
  route_id: string;
  stops: { station_id: string; station_name: string; line: string | null; is_transfer: boolean; transfer_to?: string | null }[];
  transfers: number;
  estimated_minutes: number;
  distance_miles: number;
  line_sequence: string[];
}

/** "$X.XX" → "$2.50"; "¥X" → "¥4"; "QRX" → "QR2"; amounts with cents keep them. */
export function formatFare(framebook: Framebook, amount: number): string {
  const format = framebook.fare_display_format;
  const twoDecimals = format.includes("X.XX") || !Number.isInteger(amount);
  const text = twoDecimals ? amount.toFixed(2) : String(amount);
  if (format.includes("X.XX")) return format.replace("X.XX", text);
  if (format.includes("X")) return format.replace("X", text);
  return `${framebook.currency_symbol}${text}`;
}

/** The route as the terminal state carries it: route_planner's stop objects, unchanged. */
export function stateRoute(route: RouteResult): Record<string, unknown> {
  const first = route.stops[0];
  const last = route.stops[route.stops.length - 1];
  return {
    origin: first?.station_name ?? "",
    destination: last?.station_name ?? "",
    stops: route.stops.map((s) => ({ station_id: s.station_id, station_name: s.station_name, line: s.line ?? "", is_transfer: s.is_transfer })),
    transfers: route.transfers,
    // The contract types minutes as an integer; the passenger sees whole minutes anyway.
    estimated_minutes: Math.round(route.estimated_minutes),
    distance_miles: route.distance_miles,
    line_sequence: route.line_sequence,
  };
}

export function stateFareQuote(quote: AdjustedQuote, riders: RiderCounts, currency: string): Record<string, unknown> {
  return {
    passenger_summary: { ...riders, free_riders: quote.freeRiders },
    line_items: quote.lines.map((l) => ({ ...l, currency })),
    discounts: quote.discounts.map((d) => ({ ...d, currency })),
    total: quote.total,
    currency,
  };
}

export function lineNames(system: SystemData, ids: readonly string[]): string {
  return ids.map((id) => system.lineById(id)?.name ?? id).join(" → ");
}

export function titleCase(type: string): string {
  return type
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join(" ");
}
