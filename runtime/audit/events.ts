// What the kiosk app tells the session audit (KioskApp's `onSession` option): each answered turn as
// the answer pipeline has it, each purchase attempt as the ledger keeps it, the session's end. The
// host (host/session-audit.ts) turns these into SessionAuditStore records.
import type { SystemId } from "../../tools/data/schemas.ts";
import type { AuditPurchase, AuditTurnInput } from "./model.ts";

export interface AuditedSession {
  sessionId: string;
  system: SystemId;
  /** The language chosen on screen (absent: the kiosk's default). */
  language?: string | undefined;
  accessibilityMode?: boolean | undefined;
}

export type KioskSessionEvent =
  | { type: "turn"; session: AuditedSession; turn: AuditTurnInput }
  | { type: "purchase"; sessionId: string; purchase: AuditPurchase }
  | { type: "end"; sessionId: string; at: Date };
