// A simulated fleet kiosk for the back-office test (host/backoffice/fleet.pg.test.ts): sells
// tickets through the real ledger API (Ledger.recordSale, voidSale, logSession — as KioskApp does),
// at a passenger's pace, while its replicator sends the outbox to the back office.
import type { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { Replicator } from "../runtime/kiosk/node/replicator.ts";

/** Every 9th ticket is voided right after its sale (a capture that failed). */
export const VOID_EVERY = 9;

/** The n-th sale of a kiosk (1-based): its ticket id and price are fixed by n, so a restarted kiosk continues the same sequence. */
export function sellOne(ledger: Ledger, kioskId: string, n: number): void {
  const ticketId = `${kioskId}-T-${String(n).padStart(4, "0")}`;
  const at = new Date().toISOString();
  const sessionId = `${kioskId}-s-${n}`;
  ledger.recordSale({
    ticketId, issuedAt: at, system: "marta", sessionId, originId: "MARTA-AP", originName: "Airport", destinationId: "MARTA-FP", destinationName: "Five Points",
    stops: ["MARTA-AP", "MARTA-FP"], riders: { adults: 1 + (n % 3) }, total: 2.5 * (1 + (n % 3)) + (n % 4) * 0.25, currency: "USD", paymentMethod: "breeze_card",
    paymentTerminal: "simulated", authorizationId: `SIM-${n}`, stateJson: "{}", transcriptId: `tr-${n}`, framebookVersion: "fb-1", policy: "rule",
  });
  ledger.logSession({ at, sessionId, system: "marta", event: "sale", ticketId, outcome: "ticket", elapsedMs: 12 });
  if (n % VOID_EVERY === 0) ledger.voidSale(ticketId, "capture_failed", new Date().toISOString());
}

export function fleetReplicator(ledger: Ledger, kioskId: string, url: string, token: string): Replicator {
  // A short time limit, below the proxy's longest hold: the kiosk retries while the first try still arrives later.
  return new Replicator({ outbox: ledger.outbox, kioskId, url, token, batchSize: 8, backoff: { minMs: 10, maxMs: 200 }, idleMs: 10, timeoutMs: 300 });
}

/** Sell tickets `from..to` with a few ms between them (the replicator runs meanwhile). */
export async function sellRange(ledger: Ledger, kioskId: string, from: number, to: number, random: () => number): Promise<void> {
  for (let n = from; n <= to; n++) {
    sellOne(ledger, kioskId, n);
    await new Promise((r) => setTimeout(r, 2 + random() * 8));
  }
}
