// The shell as a fleet kiosk (issue 18): the same replication, heartbeat and signed distribution
// as `kiosk serve --backoffice … --kiosk-id … [--publications-key …]`, read by host/fleet-config.ts
// from the shell's switches; and `/metrics`, which the shell serves on 127.0.0.1 only when asked
// (it has no HTTP server otherwise). A bad setting is a FleetConfigError naming the switch.
import type { KioskRuntimeConfig } from "../host/runtime.ts";
import { FleetConfigError, publicationsConfig, replicationTarget } from "../host/fleet-config.ts";
import type { ShellConfig } from "./config.ts";

export function shellFleet(shell: ShellConfig, env: NodeJS.ProcessEnv = process.env): Pick<KioskRuntimeConfig, "replication" | "distribution"> {
  const replication = replicationTarget(
    { ...(shell.backoffice ? { backoffice: shell.backoffice } : {}), ...(shell.kioskId ? { kioskId: shell.kioskId } : {}), ...(shell.fleetTokenFile ? { tokenFile: shell.fleetTokenFile } : {}) },
    env,
  );
  return { replication, distribution: publicationsConfig(shell.publicationsKey, undefined, replication !== null) };
}

/** --metrics-port: a TCP port, or undefined when not asked for. */
export function metricsPortOf(shell: ShellConfig): number | undefined {
  if (shell.metricsPort === undefined) return undefined;
  const port = Number(shell.metricsPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new FleetConfigError(`--metrics-port: not a port number: '${shell.metricsPort}'`);
  return port;
}
