// The writer process of the ledger crash harness (ledger-crash.ts starts and SIGKILLs it): sells
// tickets through KioskApp into the SQLite ledger, one after another, until it is killed. It
// reports on stdout, synchronously, in this order for each sale:
//   BEGIN <ticket>   before purchase() (the ticket id the app will use)
//   COMMIT <ticket>  the moment the ledger's recordSale returned (the sale is committed)
//   TICKET <ticket>  after purchase() returned ok — the passenger would now see the ticket
//
//   node --import tsx scripts/reliability/ledger-child.ts <ledger.sqlite> <data dir> <generation>
import { writeSync } from "node:fs";
import { DataPack } from "../../tools/data/datapack.ts";
import type { KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import { KioskApp } from "../../runtime/kiosk/app.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import type { SaleRecord, SalesLedger, SessionLogEntry } from "../../runtime/kiosk/sales.ts";
import { SimulatedPaymentTerminal } from "../../runtime/kiosk/payment.ts";
import { packExtras } from "../../runtime/kiosk/node/pack-extras.ts";

const [file, dataDir, generation] = process.argv.slice(2);
if (!file || !dataDir || !generation) {
  console.error("usage: ledger-child.ts <ledger.sqlite> <data dir> <generation>");
  process.exit(2);
}

const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};

const pack = new DataPack(dataDir);
const ledger = Ledger.open(file);
say("OPEN");

/** The real ledger, reporting each committed sale the moment recordSale returns. */
const reporting: SalesLedger = {
  recordSale(sale: SaleRecord) {
    ledger.recordSale(sale);
    say(`COMMIT ${sale.ticketId}`);
  },
  voidSale: (ticketId, reason, at) => ledger.voidSale(ticketId, reason, at),
  logSession: (entry: SessionLogEntry) => ledger.logSession(entry),
};

let n = 0;
let nextTicket = "";
const app = new KioskApp({
  pack,
  extras: packExtras(pack),
  ledger: reporting,
  payment: new SimulatedPaymentTerminal(),
  // A Monday afternoon: inside every system's service hours, whatever the time of the run.
  clock: () => new Date(2026, 2, 9, 14, 0, 0),
  newTicketId: () => nextTicket,
  log: () => undefined,
});

/** Structured requests that the rule policy answers with a purchasable trip. */
const requests: { system: SystemId; events: KioskEvent[] }[] = pack
  .allCases()
  .filter((c) => c.category === "A" && c.events.every((e) => e.type !== "freetext_input") && c.system_context.active_disruptions.length === 0)
  .map((c) => ({ system: c.system, events: c.events }));

say("READY");
for (;;) {
  const request = requests[n % requests.length]!;
  n++;
  const answer = await app.ask(request);
  if (!answer.purchasable) continue;
  const methods = Object.keys(pack.system(request.system).fares.payment_methods ?? {});
  nextTicket = `G${generation}-${n}`;
  say(`BEGIN ${nextTicket}`);
  const result = await app.purchase({ sessionId: answer.sessionId, paymentMethod: methods[0]! });
  if (result.ok) say(`TICKET ${result.ticket.ticketId}`);
  else say(`REFUSED ${nextTicket} ${result.reason}`);
  app.endSession(answer.sessionId);
}
