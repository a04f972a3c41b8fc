// Stations the operator has announced as permanently closed — in the system's knowledge base
// (policies.json: "State/Lake station is permanently closed; use Clark/Lake as an alternative.")
// or in a fare/policy announcement in force — so the kiosk never sells a trip to or from one.
import type { SystemContext } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { findStations } from "./freetext.ts";

const CLOSED = /([^.;:!?]*?)\bstation\s+is\s+(?:now\s+)?permanently\s+closed\b[^.]*\.?/gi;

/** Station id → the sentence announcing its closure. */
export function permanentClosures(system: SystemData, context: Pick<SystemContext, "policy_change">): Map<string, string> {
  const out = new Map<string, string>();
  const texts = [...system.policies.map((p) => p.content), context.policy_change?.text ?? ""];
  for (const text of texts) {
    for (const m of text.matchAll(CLOSED)) {
      // The station is the last one named right before "station is permanently closed".
      const named = findStations(system, m[1] ?? "");
      const station = named[named.length - 1]?.station;
      if (station && !out.has(station.id)) out.set(station.id, m[0].trim());
    }
  }
  return out;
}
