// The shell as a fleet kiosk (issue 18): the same replication, heartbeat and signed distribution
// as `kiosk serve --backoffice … --kiosk-id … [--publications-key …]`, read by host/fleet-config.ts
// from the shell's switches; and `/metrics`, which the shell serves on its own listener on
// 127.0.0.1:9464 (it has no HTTP server otherwise). A bad setting is a FleetConfigError naming the switch.
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

/** Where the shell serves /metrics unless told otherwise (Prometheus' usual exporter range; loopback only). */
export const DEFAULT_METRICS_PORT = 9464;

/** --metrics-port: a TCP port (default 9464), or undefined for "off". */
export function metricsPortOf(shell: ShellConfig): number | undefined {
  if (shell.metricsPort === undefined) return DEFAULT_METRICS_PORT;
  if (shell.metricsPort === "off") return undefined;
  const port = Number(shell.metricsPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new FleetConfigError(`--metrics-port: not a port number: '${shell.metricsPort}'`);
  return port;
}
