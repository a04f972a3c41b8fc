// What the kiosk records about its sales and passenger sessions, and what it needs from a ledger
// (node/ledger.ts keeps them in SQLite; tests can stand a fake in for it).

export interface SaleRecord {
  ticketId: string;
  issuedAt: string;
  system: string;
  sessionId: string;
  originId: string;
  originName: string;
  destinationId: string;
  destinationName: string;
  /** Station ids of the route, in order. */
  stops: string[];
  riders: Record<string, number>;
  total: number;
  currency: string;
  paymentMethod: string;
  paymentTerminal: string;
  authorizationId: string;
  /** The session's terminal state the passenger saw, as JSON. */
  stateJson: string;
  transcriptId: string;
  framebookVersion: string;
  policy: string;
  /** The screen's purchase request id: one sale per (session, request), so a retry finds it. */
  requestId?: string;
}

export type SessionLogEvent = "answer" | "purchase_refused" | "payment_declined" | "sale" | "sale_failed" | "end";

/** One audit line. Deliberately no free-text fields: nothing a passenger typed or was told. */
export interface SessionLogEntry {
  at: string;
  sessionId: string;
  system: string;
  event: SessionLogEvent;
  turn?: number | null;
  outcome?: string | null;
  action?: string | null;
  reasonCode?: string | null;
  policy?: string | null;
  fallback?: boolean | null;
  assistantUnavailable?: boolean | null;
  termination?: string | null;
  purchasable?: boolean | null;
  /** Interlock problem codes only ("fare_mismatch", …), never their details. */
  problems?: string[] | null;
  elapsedMs?: number | null;
  rounds?: number | null;
  toolCalls?: number | null;
  ticketId?: string | null;
}

/** What the kiosk needs from a ledger (a fake can stand in for it in tests). */
export interface SalesLedger {
  recordSale(sale: SaleRecord): void;
  /** Mark a committed sale void (capture failed after commit). */
  voidSale(ticketId: string, reason: string, at: string): void;
  logSession(entry: SessionLogEntry): void;
  /** Whether the ledger can record sales now (quick_check); absent: assumed healthy. */
  health?(): LedgerHealth;
  /** The sale recorded for a session's purchase request, if any. */
  saleByRequest?(sessionId: string, requestId: string): SaleRow | undefined;
  saleById?(ticketId: string): SaleRow | undefined;
}

/** Is the ledger fit to record sales (node/ledger-health.ts: SQLite's quick_check)? */
export interface LedgerHealth {
  ok: boolean;
  /** What is wrong, for the status line and the operator log (null when ok). */
  problem: string | null;
}

/** A sale as the ledger stores it (one row of its sales table). */
export interface SaleRow {
  ticket_id: string;
  issued_at: string;
  system: string;
  session_id: string;
  origin_id: string;
  destination_id: string;
  stops_json: string;
  riders_json: string;
  total: number;
  total_minor: number;
  currency: string;
  payment_method: string;
  authorization_id: string;
  state_json: string;
  transcript_id: string;
  framebook_version: string;
  policy: string;
  voided_at: string | null;
  void_reason: string | null;
  origin_name?: string;
  destination_name?: string;
  request_id?: string | null;
}

