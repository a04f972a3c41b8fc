// The user message of a list of kiosk events (CONTRACT §7.2): one line per event, in the
// profile's formats; unknown event types are skipped.
import type { KioskEvent, PromptProfile } from "../../tools/data/schemas.ts";
import { hasKey, pyTitle } from "../../tools/py/index.ts";
import { compileProfile, fillTemplate, type UserMessageFormat } from "./profile.ts";
import { pyNotZero, pyStr } from "./pystr.ts";

function field(event: object, key: string): unknown {
  return hasKey(event, key) ? (event as Record<string, unknown>)[key] : undefined;
}

function eventLine(event: object, format: UserMessageFormat, where: string): string | undefined {
  switch (field(event, "type")) {
    case "station_selected":
      return fillTemplate(format.station_selected, { Field: pyTitle(pyStr(field(event, "field"))), value: pyStr(field(event, "value")) }, where);
    case "passenger_count_changed": {
      const items: string[] = [];
      for (const riderType of format.passenger_count_order) {
        const n = field(event, riderType);
        if (n !== undefined && pyNotZero(n)) items.push(fillTemplate(format.passenger_count_item, { n: pyStr(n), rider_type: riderType }, where));
      }
      return fillTemplate(format.passenger_count_changed, { counts: items.join(format.passenger_count_separator) }, where);
    }
    case "freetext_input":
      return fillTemplate(format.freetext_input, { text: pyStr(field(event, "text")) }, where);
    case "payment_method_selected":
      return fillTemplate(format.payment_method_selected, { Method_Title_Case: pyTitle(pyStr(field(event, "method")).replace(/_/g, " ")) }, where);
    case "disruption_update": {
      // The reference crashes on `"disruption": null`; it is read as an empty disruption here.
      const disruption = field(event, "disruption");
      const message = disruption !== null && hasKey(disruption, "message") ? pyStr((disruption as Record<string, unknown>).message) : format.disruption_update_default_message;
      return fillTemplate(format.disruption_update, { message }, where);
    }
    default:
      return undefined;
  }
}

/** One user message from kiosk events (a case turn, or live kiosk UI events). */
export function eventsToUserMessage(events: readonly KioskEvent[], profile: PromptProfile): string {
  const compiled = compileProfile(profile);
  const where = `prompt profile ${compiled.name}, user_message`;
  const lines: string[] = [];
  for (const event of events as readonly unknown[]) {
    if (event === null || typeof event !== "object") continue;
    const line = eventLine(event, compiled.user, where);
    if (line !== undefined) lines.push(line);
  }
  return lines.join(compiled.user.join);
}
