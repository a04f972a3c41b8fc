// The passenger's journey as the benchmark's event vocabulary. A first ask states everything chosen
// so far; a follow-up in the same session states only what changed since the last ask.
import type { AskDraft } from "../machines/kioskMachine.ts";
import type { PassengerLanguage, RiderType, SystemView } from "../../runtime/kiosk/bridge.ts";
import type { StationView } from "./types.ts";

export interface JourneyDraft {
  origin: string | null;
  destination: string | null;
  passengers: Record<RiderType, number>;
  /** The passenger set the counter (tapped it, or chose riders from a question): it states who travels. */
  passengersSet: boolean;
  paymentMethod: string | null;
  freetext: string;
  stepFree: boolean;
}

export const RIDER_TYPES: readonly RiderType[] = ["adults", "children", "seniors", "disabled"];
export const MAX_PASSENGERS_PER_TYPE = 9;

export function emptyJourney(): JourneyDraft {
  return {
    origin: null,
    destination: null,
    passengers: { adults: 1, children: 0, seniors: 0, disabled: 0 },
    passengersSet: false,
    paymentMethod: null,
    freetext: "",
    stepFree: false,
  };
}

type Events = AskDraft["events"];

function stationEvent(field: "origin" | "destination", station: StationView | undefined, id: string): Events[number] {
  return { type: "station_selected", field, value: station?.name ?? id, station_id: id };
}

/** The events to send for this journey (empty when there is nothing to ask). */
export function journeyEvents(system: SystemView, journey: JourneyDraft, previous: JourneyDraft | null): Events {
  const events: Events = [];
  const byId = (id: string): StationView | undefined => system.stations.find((s) => s.id === id);
  for (const field of ["origin", "destination"] as const) {
    const id = journey[field];
    if (id && id !== previous?.[field]) events.push(stationEvent(field, byId(id), id));
  }
  const counts: Partial<Record<RiderType, number>> = {};
  // The counter's untouched default (1 adult) says nothing beside typed words ("me, my wife and our
  // son"): sent, it would make the kiosk ask about a counter the passenger never used.
  const text = journey.freetext.trim();
  const counterSpeaks = journey.passengersSet || !text;
  // Set for the first time after an ask that did not send it: the whole counter, not what changed.
  const firstSet = previous !== null && journey.passengersSet && !previous.passengersSet;
  for (const rider of system.riderTypes) {
    const count = journey.passengers[rider];
    const changed = previous && !firstSet ? count !== previous.passengers[rider] : firstSet || (counterSpeaks && count > 0);
    if (changed) counts[rider] = count;
  }
  if (Object.keys(counts).length > 0) events.push({ type: "passenger_count_changed", ...counts });
  if (journey.paymentMethod && journey.paymentMethod !== previous?.paymentMethod) {
    events.push({ type: "payment_method_selected", method: journey.paymentMethod });
  }
  if (text) events.push({ type: "freetext_input", text });
  return events;
}

/** Whether the passenger has said enough to ask: both stations or a question (first ask), any change (follow-up). */
export function canAsk(system: SystemView, journey: JourneyDraft, previous: JourneyDraft | null): boolean {
  if (journey.freetext.trim()) return true;
  if (previous) return journeyEvents(system, journey, previous).length > 0;
  return journey.origin !== null && journey.destination !== null;
}

/** The ask for this journey, in the language chosen on screen (the assistant answers in it). */
export function askDraft(system: SystemView, journey: JourneyDraft, previous: JourneyDraft | null, language?: PassengerLanguage): AskDraft {
  const draft: AskDraft = { system: system.id, events: journeyEvents(system, journey, previous) };
  if (language) draft.language = language;
  if (journey.stepFree) draft.accessibilityMode = true;
  return draft;
}

/**
 * The journey after the passenger tapped one of the assistant's choices: the choice's stations and
 * rider counts become the screen's own, so the fields show them and later asks build on them.
 */
export function journeyWithChoice(journey: JourneyDraft, events: Events): JourneyDraft {
  let next: JourneyDraft = { ...journey, passengers: { ...journey.passengers }, freetext: "" };
  for (const event of events) {
    if (event.type === "station_selected" && event.station_id) next = { ...next, [event.field]: event.station_id };
    if (event.type === "passenger_count_changed") {
      next.passengersSet = true;
      for (const rider of RIDER_TYPES) {
        const count = event[rider];
        if (typeof count === "number") next.passengers[rider] = Math.max(0, Math.min(MAX_PASSENGERS_PER_TYPE, count));
      }
    }
    if (event.type === "payment_method_selected") next = { ...next, paymentMethod: event.method };
  }
  return next;
}
