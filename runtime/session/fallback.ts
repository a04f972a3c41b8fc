// The safe terminal state shown when a policy cannot produce a valid one (error, timeout, budget
// exhausted, invalid state): no purchase, and the passenger is sent to staff.
import type { SystemData } from "../../tools/data/system.ts";
import type { AssistantState } from "../contract/index.ts";

export const FALLBACK_REASON_CODE = "unsupported_request";

export function fallbackState(system: SystemData, error: string | null): AssistantState {
  return {
    outcome: "request_declined",
    kiosk_action: { action: "refer_to_staff", reason_code: FALLBACK_REASON_CODE },
    assistant_message:
      "Sorry, I could not complete this request. Please ask a member of staff for help, or try again.",
    advisory_banners: [
      {
        severity: "warning",
        title: "Assistant unavailable",
        body: `Ticket sales through the assistant are paused for this request at ${system.framebook.org_name}.`,
      },
    ],
    reasoning: error ? `fallback: ${error}` : "fallback",
  } as AssistantState;
}
