// The fleet settings of the command line (issue 18): host/fleet-config.ts reads them (for `kiosk
// serve`, `kiosk backoffice serve` and the Electron shell alike); here a bad one is a usage error.
import { FLEET_TOKEN_ENV, FleetConfigError, fleetToken as readFleetToken, publicationsConfig as readPublicationsConfig, replicationTarget as readReplicationTarget } from "../host/fleet-config.ts";
import { UsageError } from "./context.ts";

export { FLEET_TOKEN_ENV };

function asUsage<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof FleetConfigError) throw new UsageError(err.message);
    throw err;
  }
}

export function fleetToken(file: string | undefined, flag = "--token-file", env: NodeJS.ProcessEnv = process.env): string {
  return asUsage(() => readFleetToken(file, flag, env));
}

export function replicationTarget(options: { backoffice?: string; kioskId?: string; tokenFile?: string }): { url: string; kioskId: string; token: string } | null {
  return asUsage(() => readReplicationTarget(options));
}

export function publicationsConfig(keyFile: string | undefined, every: string | undefined, fleet: boolean): ReturnType<typeof readPublicationsConfig> {
  return asUsage(() => readPublicationsConfig(keyFile, every, fleet));
}
