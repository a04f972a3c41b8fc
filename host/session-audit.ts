// The session audit in the host: opens the SessionAuditStore (retention applied on open) and
// records what KioskApp reports through its `onSession` option — each answered turn (auditTurn),
// each purchase attempt, the session's end.
import type { KioskSessionEvent } from "../runtime/audit/events.ts";
import { auditTurn } from "../runtime/audit/model.ts";
import { SessionAuditStore } from "../runtime/audit/store.ts";

/** The language a session is filed under when the screen did not say (the kiosk starts in English). */
export const DEFAULT_AUDIT_LANGUAGE = "en";

export interface OpenedSessionAudit {
  store: SessionAuditStore;
  record(event: KioskSessionEvent): void;
  close(): void;
}

export function recordSessionEvent(store: SessionAuditStore, event: KioskSessionEvent): void {
  switch (event.type) {
    case "turn": {
      const { session } = event;
      store.addTurn(
        { sessionId: session.sessionId, system: session.system, language: session.language ?? DEFAULT_AUDIT_LANGUAGE, accessibilityMode: session.accessibilityMode ?? false },
        auditTurn(event.turn),
      );
      return;
    }
    case "purchase":
      if (store.get(event.sessionId)) store.addPurchase(event.sessionId, event.purchase);
      return;
    case "end":
      store.end(event.sessionId, event.at);
      return;
  }
}

/**
 * Open the audit; null (after logging why) when it cannot be opened: passengers are served and
 * tickets sold without it — the audit is a record, not a gate.
 */
export function openSessionAudit(file: string, options: { retentionDays?: number; clock?: () => Date; log: (message: string) => void }): OpenedSessionAudit | null {
  let store: SessionAuditStore;
  try {
    store = SessionAuditStore.open(file, { ...(options.retentionDays !== undefined ? { retentionDays: options.retentionDays } : {}), ...(options.clock ? { clock: options.clock } : {}) });
  } catch (err) {
    options.log(`${(err as Error).message} — passenger sessions are not audited until this is fixed`);
    return null;
  }
  return { store, record: (event) => recordSessionEvent(store, event), close: () => store.close() };
}
