// Figures: `kiosk serve` between clients. One client floods 200 unpaid purchasable asks, then 20
// other passengers ask and buy; a third party types 10 wrong PINs, then the real operator logs in
// from another source. Counted: passengers turned away (refused or unable to buy), the flooder's
// unpaid sessions still held, and operator logins refused because of someone else's PINs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DataPack } from "../../tools/data/datapack.ts";
import { FramebookStore } from "../../runtime/framebook/store.ts";
import { KioskApp } from "../../runtime/kiosk/app.ts";
import { AskResultSchema, OperatorLoginResultSchema, PurchaseResultSchema } from "../../runtime/kiosk/bridge.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import { packExtras } from "../../runtime/kiosk/node/pack-extras.ts";
import { startKioskServer } from "../../runtime/kiosk/node/server.ts";
import { SimulatedPaymentTerminal } from "../../runtime/kiosk/payment.ts";
import { OperatorConsole } from "../../runtime/operator/console.ts";
import { hashPin, PinGate } from "../../runtime/operator/pin.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";

const FLOOD_ASKS = 200;
const PASSENGERS = 20;
const WRONG_PINS = 10;
const PIN = "246810";
/** MARTA Airport → Five Points, one adult: an answer that can be bought. */
const TRIP = {
  system: "marta",
  events: [
    { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
    { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
    { type: "passenger_count_changed", adults: 1 },
  ],
};

/** A page's client id (x-kiosk-client: 16-64 letters, digits, - or _). */
const clientId = (name: string): string => `${name}-${"0".repeat(16)}`;

export async function kioskServerTrustFigures(pack: DataPack = new DataPack(SHARED_DATA_DIR)): Promise<{ passengersTurnedAway: number; flooderSessionsHeld: number; operatorLockedOutByOthers: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-trust-"));
  const ledger = Ledger.open(":memory:");
  const app = new KioskApp({ pack, extras: packExtras(pack), ledger, payment: new SimulatedPaymentTerminal(), clock: () => new Date(2026, 2, 9, 14, 0, 0), log: () => undefined });
  // A cheap hash: the figure is about who is locked out, not about scrypt's cost.
  const pin = new PinGate({ hash: await hashPin(PIN, { N: 1024, r: 8, p: 1 }) });
  const operator = new OperatorConsole({ framebooks: new FramebookStore(pack, dir), pin, systems: pack.systemIds, log: () => undefined });
  const server = await startKioskServer({ backend: app, operator, staticDir: null, port: 0, log: () => undefined });
  const post = async (route: string, body: unknown, client: string): Promise<{ status: number; json: unknown }> => {
    const res = await fetch(new URL(route, server.url), { method: "POST", headers: { "content-type": "application/json", "x-kiosk-client": client }, body: JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  };
  try {
    const flooder = clientId("flooder");
    for (let i = 0; i < FLOOD_ASKS; i++) await post("api/ask", TRIP, flooder);

    let passengersTurnedAway = 0;
    for (let i = 0; i < PASSENGERS; i++) {
      const client = clientId(`passenger-${i}`);
      const asked = await post("api/ask", TRIP, client);
      const answer = AskResultSchema.safeParse(asked.json);
      if (asked.status !== 200 || !answer.success || !answer.data.purchasable) {
        passengersTurnedAway++;
        continue;
      }
      const bought = PurchaseResultSchema.safeParse((await post("api/purchase", { sessionId: answer.data.sessionId, paymentMethod: "breeze_card", ...(answer.data.confirmation ? { confirmation: answer.data.confirmation.id } : {}) }, client)).json);
      if (!bought.success || !bought.data.ok) passengersTurnedAway++;
    }
    const flooderSessionsHeld = app.unpaidSessions(`127.0.0.1 ${flooder}`);

    for (let i = 0; i < WRONG_PINS; i++) await post("api/operator/login", { operator: "Mallory", pin: String(100000 + i) }, clientId("mallory"));
    const login = OperatorLoginResultSchema.safeParse((await post("api/operator/login", { operator: "Alice", pin: PIN }, clientId("operator"))).json);
    const operatorLockedOutByOthers = login.success && login.data.ok ? 0 : 1;

    return { passengersTurnedAway, flooderSessionsHeld, operatorLockedOutByOthers };
  } finally {
    await server.close();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
