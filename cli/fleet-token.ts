// The fleet's shared token (issue 18): every kiosk of a fleet sends it to the back office, which
// accepts only it. One secret per fleet, kept in a file readable by the kiosk and back-office users
// only (--token-file, --fleet-token-file), or in $KIOSK_FLEET_TOKEN. Both `kiosk serve --backoffice` and
// `kiosk backoffice serve` read it the same way.
import { readFileSync } from "node:fs";
import { KioskIdSchema } from "../runtime/fleet/protocol.ts";
import { UsageError } from "./context.ts";

export const FLEET_TOKEN_ENV = "KIOSK_FLEET_TOKEN";
const MIN_TOKEN_LENGTH = 16;

/** The token from `file` (the first line; `flag` names the option in messages), else $KIOSK_FLEET_TOKEN; a UsageError when there is none or it is too short. */
export function fleetToken(file: string | undefined, flag = "--token-file", env: NodeJS.ProcessEnv = process.env): string {
  let token: string | undefined;
  let where: string;
  if (file) {
    where = file;
    try {
      token = readFileSync(file, "utf8").split(/\r?\n/)[0]?.trim();
    } catch (err) {
      throw new UsageError(`${flag} ${file}: ${(err as Error).message}`);
    }
  } else {
    where = `$${FLEET_TOKEN_ENV}`;
    token = env[FLEET_TOKEN_ENV]?.trim();
  }
  if (!token) throw new UsageError(`no fleet token: put one in a file given with ${flag}, or in $${FLEET_TOKEN_ENV} (e.g. openssl rand -hex 24)`);
  if (token.length < MIN_TOKEN_LENGTH) throw new UsageError(`the fleet token in ${where} is too short (at least ${MIN_TOKEN_LENGTH} characters)`);
  return token;
}

/** `kiosk serve --backoffice URL --kiosk-id ID`: both or neither; the URL http(s). */
export function replicationTarget(options: { backoffice?: string; kioskId?: string; tokenFile?: string }): { url: string; kioskId: string; token: string } | null {
  if (!options.backoffice && !options.kioskId) return null;
  if (!options.backoffice || !options.kioskId) throw new UsageError("--backoffice and --kiosk-id go together (this kiosk's id in the fleet, and where its back office is)");
  let url: URL;
  try {
    url = new URL(options.backoffice);
  } catch {
    throw new UsageError(`--backoffice: not a URL: '${options.backoffice}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--backoffice: an http:// or https:// URL, not '${options.backoffice}'`);
  const id = KioskIdSchema.safeParse(options.kioskId);
  if (!id.success) throw new UsageError(`--kiosk-id '${options.kioskId}': ${id.error.issues[0]?.message ?? "invalid"}`);
  return { url: url.toString(), kioskId: id.data, token: fleetToken(options.tokenFile, "--fleet-token-file") };
}
