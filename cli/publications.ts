// Signed distribution on the command line (issue 18, part 3): `kiosk backoffice keygen`, `kiosk
// backoffice publish framebook|alerts`, `kiosk backoffice publications`, and the kiosk's
// `--publications-key` (the back office's public key; distribution is off without it).
import { generateKeyPairSync, createPrivateKey, type KeyObject } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { PublicationKind } from "../runtime/fleet/publication.ts";
import { formatPublicationIssues, validateAlertsContent } from "../runtime/fleet/content.ts";
import { localIso } from "../runtime/alerts/model.ts";
import { alertReading } from "../runtime/kiosk/notice-reading.ts";
import { alertReadingText } from "./alerts.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import { SystemIdSchema } from "../tools/data/schemas.ts";
import { farePolicyReadingJson, farePolicyReadingText } from "../runtime/framebook/policy-reading.ts";
import { DataFileError } from "../tools/data/errors.ts";
import { parseFramebookText } from "../tools/data/datapack.ts";
import { PublicationRejectedError, PublicationStore } from "../host/backoffice/publications.ts";
import { BackOfficeStore } from "../host/backoffice/store.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";

export const PRIVATE_KEY_FILE = "publications-key.pem";
export const PUBLIC_KEY_FILE = "publications-key.pub.pem";

/** Write a new ed25519 key pair into `dir` (private key mode 0600); refuses to overwrite either file. */
export function generatePublicationKeys(dir: string): { privateFile: string; publicFile: string } {
  const privateFile = path.join(dir, PRIVATE_KEY_FILE);
  const publicFile = path.join(dir, PUBLIC_KEY_FILE);
  for (const f of [privateFile, publicFile]) if (existsSync(f)) throw new UsageError(`${f} already exists: keygen never overwrites a key (move it away first)`);
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  mkdirSync(dir, { recursive: true });
  // "wx": fail rather than overwrite a file that appeared meanwhile.
  writeFileSync(privateFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
  writeFileSync(publicFile, publicKey.export({ type: "spki", format: "pem" }), { mode: 0o644, flag: "wx" });
  return { privateFile, publicFile };
}

function readPrivateKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`--key ${file}: not a PEM private key (${(err as Error).message})`);
  }
  if (key.asymmetricKeyType !== "ed25519") throw new UsageError(`--key ${file}: a ${key.asymmetricKeyType ?? "unknown"} key, not ed25519 (make one with kiosk backoffice keygen)`);
  return key;
}

/**
 * What the kiosks will act on, in words: a framebook's fare policies, or each alert of a set ("" for
 * content that does not parse or validate: the publication says why).
 */
export function publicationReadingText(pack: DataPack, kind: PublicationKind, systemId: string, content: string, file: string): string {
  if (kind === "alerts") {
    const parsed = SystemIdSchema.safeParse(systemId);
    if (!parsed.success) return "";
    const system = pack.system(parsed.data);
    const checked = validateAlertsContent(content, file, parsed.data, system);
    if (!checked.ok) return "";
    const now = localIso(new Date());
    return checked.alerts.map((alert) => alertReadingText(alert.id, system, alertReading(alert, system, now))).join("");
  }
  try {
    return farePolicyReadingText(parseFramebookText(content, file).framebook);
  } catch (err) {
    if (err instanceof DataFileError) return "";
    throw err;
  }
}

/** The same reading as data, for `--json`: each fare policy's reading, or each alert's (null where the content does not validate). */
export function publicationReadingJson(pack: DataPack, kind: PublicationKind, systemId: string, content: string, file: string): unknown[] | null {
  if (kind === "alerts") {
    const parsed = SystemIdSchema.safeParse(systemId);
    if (!parsed.success) return null;
    const system = pack.system(parsed.data);
    const checked = validateAlertsContent(content, file, parsed.data, system);
    if (!checked.ok) return null;
    const now = localIso(new Date());
    return checked.alerts.map((alert) => ({ id: alert.id, reading: alertReading(alert, system, now) }));
  }
  try {
    return farePolicyReadingJson(parseFramebookText(content, file).framebook);
  } catch (err) {
    if (err instanceof DataFileError) return null;
    throw err;
  }
}

interface PublishOptions extends GlobalOptions {
  db?: string;
  key: string;
  system: string;
  file: string;
  publisher?: string;
  json?: boolean;
}

export function registerPublicationCommands(backoffice: Command, dbOf: (flag: string | undefined) => string): void {
  backoffice
    .command("keygen")
    .description("make the ed25519 key pair publications are signed with (the .pub.pem goes to every kiosk: kiosk serve --publications-key)")
    .requiredOption("--out <dir>", "folder for publications-key.pem (private, mode 0600) and publications-key.pub.pem")
    .action((opts: { out: string }) => {
      const { privateFile, publicFile } = generatePublicationKeys(opts.out);
      process.stdout.write(`private key: ${privateFile} (keep it on the back office only)\npublic key:  ${publicFile} (give it to every kiosk: --publications-key)\n`);
    });

  const publish = backoffice.command("publish").description("validate, sign and publish a framebook or a system's alert set to the fleet");
  for (const kind of ["framebook", "alerts"] as const satisfies readonly PublicationKind[]) {
    publish
      .command(kind)
      .description(kind === "framebook" ? "publish a framebook (YAML) for one system" : "publish the complete set of alerts for one system (JSON/YAML list; alerts of the previous set not listed are ended)")
      .option("--db <url>", "PostgreSQL connection string (else $KIOSK_BACKOFFICE_DB)")
      .requiredOption("--key <file>", "the private key from kiosk backoffice keygen")
      .requiredOption("--system <id>", "the metro system")
      .requiredOption("--file <file>", kind === "framebook" ? "the framebook YAML" : "the alerts JSON/YAML")
      .option("--publisher <name>", "who publishes (the kiosks' audit log)", process.env["USER"] ?? "backoffice")
      .option("--json", "print the publication as JSON")
      .action(async (_o: unknown, cmd: Command) => {
        const opts = cmd.optsWithGlobals<PublishOptions>();
        const pack = dataPack(opts);
        const key = readPrivateKey(opts.key);
        let content: string;
        try {
          content = readFileSync(opts.file, "utf8");
        } catch (err) {
          throw new UsageError(`--file ${opts.file}: ${(err as Error).message}`);
        }
        // What the kiosks will price, in words, before it reaches them.
        if (!opts.json) process.stdout.write(publicationReadingText(pack, kind, opts.system, content, opts.file));
        const store = await BackOfficeStore.open(dbOf(opts.db));
        try {
          const published = await new PublicationStore(store.pool).publish({ pack, kind, system: opts.system, content, file: opts.file, publisher: opts.publisher ?? "backoffice", key });
          if (opts.json) printJson({ ...published, reading: publicationReadingJson(pack, kind, opts.system, content, opts.file) });
          else process.stdout.write(`published ${kind} v${published.envelope.version} for ${published.envelope.system} (publication ${published.id}, sha256 ${published.envelope.sha256.slice(0, 12)}…)\n`);
        } catch (err) {
          if (err instanceof PublicationRejectedError) {
            process.stderr.write(`${err.issues.length > 0 ? `${formatPublicationIssues(err.issues)}\n` : ""}${err.message}\n`);
            process.exitCode = 1;
            return;
          }
          throw err;
        } finally {
          await store.close();
        }
      });
  }

  backoffice
    .command("publications")
    .description("every publication with each kiosk's result (applied, or rejected and why)")
    .option("--db <url>", "PostgreSQL connection string (else $KIOSK_BACKOFFICE_DB)")
    .action(async (opts: { db?: string }) => {
      const store = await BackOfficeStore.open(dbOf(opts.db));
      try {
        printJson({ publications: await new PublicationStore(store.pool).report() });
      } finally {
        await store.close();
      }
    });
}
