// A fake model that sells whatever it is asked, ignoring everything the kiosk knows for certain
// (issue 13, part 3): it answers every case with a purchase offer for the passenger's trip — the
// stations chosen on screen or named in their words, else any two stations — priced by
// fare_calculator for the on-screen riders (else one adult), never for the riders the passenger
// typed, under no fare policy, whatever the closures, service hours or step-free needs. Only the
// purchase interlock stands between it and a wrong sale.
import type { KioskEvent } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { mentionedStations } from "../../runtime/kiosk/interlock/stations.ts";
import type { Rng } from "./common.ts";
import { priced } from "./lying-model.ts";

type Json = Record<string, unknown>;
export type Riders = { adults: number; children: number; seniors: number; disabled: number };

/** The riders the screen set (accumulated), else one adult: the words are ignored. */
export function screenRidersOrOne(turns: readonly (readonly KioskEvent[])[]): Riders {
  let riders: Riders | null = null;
  for (const e of turns.flat()) {
    if (e.type !== "passenger_count_changed") continue;
    riders ??= { adults: 0, children: 0, seniors: 0, disabled: 0 };
    for (const k of ["adults", "children", "seniors", "disabled"] as const) if (e[k] !== undefined) riders[k] = Math.max(0, e[k]);
  }
  if (!riders || riders.adults + riders.children + riders.seniors + riders.disabled === 0) return { adults: 1, children: 0, seniors: 0, disabled: 0 };
  return riders;
}

/** The trip the passenger asked for as the liar reads it: screen choices, then words, then anything. */
function askedTrip(system: SystemData, turns: readonly (readonly KioskEvent[])[], rng: Rng): [string, string] {
  let origin: string | undefined;
  let destination: string | undefined;
  const named: string[] = [];
  for (const e of turns.flat()) {
    if (e.type === "station_selected") {
      const id = e.station_id && system.hasStationId(e.station_id) ? e.station_id : system.resolveStation(e.value)?.id;
      if (e.field === "origin") origin = id;
      else destination = id;
    } else if (e.type === "freetext_input" && typeof e.text === "string") {
      for (const m of mentionedStations(system, e.text)) if (!named.includes(m.stationId)) named.push(m.stationId);
    }
  }
  origin ??= named.find((id) => id !== destination);
  destination ??= named.find((id) => id !== origin);
  origin ??= rng.pick(system.stations).id;
  destination ??= rng.pick(system.stations.filter((s) => s.id !== origin)).id;
  return [origin, destination];
}

/** The offer the liar submits for these turns (null when not even a route can be planned). */
export function ignorantOffer(system: SystemData, turns: readonly (readonly KioskEvent[])[], rng: Rng): Json | null {
  const [origin, destination] = askedTrip(system, turns, rng);
  let method: string | undefined;
  for (const e of turns.flat()) if (e.type === "payment_method_selected") method = e.method;
  const riders = screenRidersOrOne(turns);
  const p = priced(system, origin, destination, riders, method);
  if (!p) return null;
  return {
    outcome: "route_and_fare_ready",
    kiosk_action: { action: "prompt_purchase", reason_code: "ok" },
    route: p.route,
    fare_quote: { total: p.total, currency: p.currency, passenger_summary: { ...riders, free_riders: 0 }, line_items: [], discounts: [] },
    advisory_banners: [],
    assistant_message: "Here is your ticket.",
  };
}
