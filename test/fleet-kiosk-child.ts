// One fleet kiosk in its own process, so the fleet test can SIGKILL it mid-replication:
//   node --import tsx test/fleet-kiosk-child.ts KIOSK_ID LEDGER_FILE BACKOFFICE_URL TOKEN TOTAL
// Continues its sale sequence from what its ledger holds, prints READY, SOLD and DONE (everything
// acknowledged), then exits.
import { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { fleetReplicator, sellRange } from "./fleet-kiosk.ts";

const [kioskId, file, url, token, totalText] = process.argv.slice(2) as [string, string, string, string, string];
const total = Number(totalText);
const ledger = Ledger.open(file);
const replicator = fleetReplicator(ledger, kioskId, url, token);
replicator.start();
process.stdout.write("READY\n");
await sellRange(ledger, kioskId, ledger.sales().length + 1, total, Math.random);
process.stdout.write("SOLD\n");
while (ledger.outbox.lag().pending > 0) await new Promise((r) => setTimeout(r, 10));
await replicator.stop();
ledger.close();
process.stdout.write("DONE\n");
