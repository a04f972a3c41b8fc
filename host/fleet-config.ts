// A kiosk's fleet settings read from their files (issue 18): the token it sends its back office,
// the back office's URL and this kiosk's id, and the back office's public key for signed
// publications. One reading for `kiosk serve` (cli/) and the Electron shell (electron/); a bad
// setting is a FleetConfigError naming the option and the file.
import { readFileSync } from "node:fs";
import type { KeyObject } from "node:crypto";
import { KioskIdSchema } from "../runtime/fleet/protocol.ts";
import { ed25519PublicKey } from "../runtime/fleet/publication.ts";

export const FLEET_TOKEN_ENV = "KIOSK_FLEET_TOKEN";
const MIN_TOKEN_LENGTH = 16;

export class FleetConfigError extends Error {}

/** The token from `file` (the first line; `flag` names the option in messages), else $KIOSK_FLEET_TOKEN. */
export function fleetToken(file: string | undefined, flag = "--token-file", env: NodeJS.ProcessEnv = process.env): string {
  let token: string | undefined;
  let where: string;
  if (file) {
    where = file;
    try {
      token = readFileSync(file, "utf8").split(/\r?\n/)[0]?.trim();
    } catch (err) {
      throw new FleetConfigError(`${flag} ${file}: ${(err as Error).message}`);
    }
  } else {
    where = `$${FLEET_TOKEN_ENV}`;
    token = env[FLEET_TOKEN_ENV]?.trim();
  }
  if (!token) throw new FleetConfigError(`no fleet token: put one in a file given with ${flag}, or in $${FLEET_TOKEN_ENV} (e.g. openssl rand -hex 24)`);
  if (token.length < MIN_TOKEN_LENGTH) throw new FleetConfigError(`the fleet token in ${where} is too short (at least ${MIN_TOKEN_LENGTH} characters)`);
  return token;
}

/** `--backoffice URL --kiosk-id ID`: both or neither; the URL http(s). */
export function replicationTarget(options: { backoffice?: string; kioskId?: string; tokenFile?: string }, env: NodeJS.ProcessEnv = process.env): { url: string; kioskId: string; token: string } | null {
  if (!options.backoffice && !options.kioskId) return null;
  if (!options.backoffice || !options.kioskId) throw new FleetConfigError("--backoffice and --kiosk-id go together (this kiosk's id in the fleet, and where its back office is)");
  let url: URL;
  try {
    url = new URL(options.backoffice);
  } catch {
    throw new FleetConfigError(`--backoffice: not a URL: '${options.backoffice}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new FleetConfigError(`--backoffice: an http:// or https:// URL, not '${options.backoffice}'`);
  const id = KioskIdSchema.safeParse(options.kioskId);
  if (!id.success) throw new FleetConfigError(`--kiosk-id '${options.kioskId}': ${id.error.issues[0]?.message ?? "invalid"}`);
  return { url: url.toString(), kioskId: id.data, token: fleetToken(options.tokenFile, "--fleet-token-file", env) };
}

/** `--publications-key FILE [--publications-every S]` → the runtime's distribution config (null: off). */
export function publicationsConfig(keyFile: string | undefined, every: string | undefined, fleet: boolean): { publicKey: KeyObject; intervalMs: number } | null {
  if (!keyFile) return null;
  if (!fleet) throw new FleetConfigError("--publications-key needs --backoffice and --kiosk-id (publications come from the back office)");
  let pem: string;
  try {
    pem = readFileSync(keyFile, "utf8");
  } catch (err) {
    throw new FleetConfigError(`--publications-key ${keyFile}: ${(err as Error).message}`);
  }
  let publicKey: KeyObject;
  try {
    publicKey = ed25519PublicKey(pem, `--publications-key ${keyFile}`);
  } catch (err) {
    throw new FleetConfigError((err as Error).message);
  }
  const seconds = Number(every ?? "30");
  if (!(seconds > 0)) throw new FleetConfigError(`--publications-every: not a positive number of seconds: '${every}'`);
  return { publicKey, intervalMs: seconds * 1000 };
}
