// What a kiosk tells the back office in its heartbeat (issue 18): read from the running kiosk —
// the framebook in force per system (what passengers get), the service alerts not ended, who
// answers passengers, the replication lag and the latest finished technician bench. One small
// function over the runtime; runtime/kiosk/node/heartbeat-sender.ts sends it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Heartbeat } from "../runtime/fleet/protocol.ts";
import type { KioskRuntime } from "./runtime.ts";

/** This kiosk software's version (package.json), read once. */
export const SOFTWARE_VERSION: string = (() => {
  try {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "package.json");
    return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
})();

type HeartbeatSource = Pick<KioskRuntime, "pack" | "app" | "framebooks" | "alerts" | "ledger" | "bench">;

export function collectHeartbeat(runtime: HeartbeatSource, kioskId: string, now: Date, softwareVersion = SOFTWARE_VERSION): Heartbeat {
  const status = runtime.app.status();
  const systems = runtime.pack.systemIds.map((system) => {
    let framebookVersion: string | null = null;
    try {
      framebookVersion = runtime.framebooks.inForce(system).version;
    } catch {
      // A system whose framebook cannot be read reports none; the kiosk logs why elsewhere.
    }
    const alerts = (runtime.alerts?.current(system) ?? []).map((a) => ({ id: a.alert.id, updatedAt: a.updated_at }));
    return { system, framebookVersion, alerts };
  });
  return {
    kioskId,
    sentAt: now.toISOString(),
    softwareVersion,
    systems,
    model: { assistant: status.assistant, state: status.model?.state ?? null },
    replication: runtime.ledger ? runtime.ledger.outbox.lag() : { pending: 0, oldestPendingAt: null },
    bench: runtime.bench?.latestTier1() ?? null,
  };
}
