// What the passenger has asked for so far, from the kiosk's events (never from an answer key).
import type { KioskEvent } from "../../../tools/data/schemas.ts";

export type RiderCounts = { adults: number; children: number; seniors: number; disabled: number };
export const RIDER_KEYS = ["adults", "children", "seniors", "disabled"] as const;

export interface StationChoice {
  /** What the passenger picked or typed. */
  value: string;
  /** The station id the UI attached, when it did. */
  stationId?: string;
}

export interface PassengerRequest {
  origin?: StationChoice;
  destination?: StationChoice;
  /** Counts after applying every passenger change in order (each change sets the keys it has). */
  riders: RiderCounts;
  /** True when the passenger changed a count at all (else the kiosk assumes one adult). */
  ridersGiven: boolean;
  /** A count the kiosk cannot sell: negative or fractional. */
  invalidRiders: boolean;
  paymentMethod?: string;
  freetexts: string[];
  /**
   * The last counter change came after the last typed text (the passenger set the counter after
   * typing, e.g. answering "who is travelling?"): the counter supersedes the riders typed before.
   */
  countedAfterText: boolean;
  /** Disruption alerts shown to the passenger by the kiosk's feed. */
  alertMessages: string[];
}

export function interpretEvents(events: readonly KioskEvent[]): PassengerRequest {
  const request: PassengerRequest = {
    riders: { adults: 0, children: 0, seniors: 0, disabled: 0 },
    ridersGiven: false,
    invalidRiders: false,
    freetexts: [],
    countedAfterText: false,
    alertMessages: [],
  };
  for (const event of events) {
    switch (event.type) {
      case "station_selected": {
        const choice: StationChoice = { value: event.value, ...(event.station_id ? { stationId: event.station_id } : {}) };
        if (event.field === "origin") request.origin = choice;
        else request.destination = choice;
        break;
      }
      case "passenger_count_changed":
        request.ridersGiven = true;
        request.countedAfterText = request.freetexts.length > 0;
        for (const key of RIDER_KEYS) {
          const value = event[key];
          if (value === undefined) continue;
          request.riders[key] = value;
        }
        break;
      case "payment_method_selected":
        request.paymentMethod = event.method;
        break;
      case "freetext_input":
        if (event.text.trim() !== "") {
          request.freetexts.push(event.text.trim());
          request.countedAfterText = false;
        }
        break;
      case "disruption_update":
        if (event.disruption?.message) request.alertMessages.push(event.disruption.message);
        break;
    }
  }
  request.invalidRiders = RIDER_KEYS.some((k) => request.riders[k] < 0 || !Number.isInteger(request.riders[k]));
  if (!request.ridersGiven) request.riders.adults = 1;
  return request;
}

export function totalRiders(riders: RiderCounts): number {
  return riders.adults + riders.children + riders.seniors + riders.disabled;
}
