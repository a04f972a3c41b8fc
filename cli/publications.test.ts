// `kiosk backoffice keygen` and `kiosk serve --publications-key` (issue 18, distribution).
import { generateKeyPairSync, createPrivateKey, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { runKiosk } from "../test/cli.ts";
import { publicationsConfig } from "./fleet-token.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { generatePublicationKeys, publicationReadingJson } from "./publications.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-keygen-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("kiosk backoffice keygen", () => {
  it("writes an ed25519 pair in PEM, the private key readable by its owner only, and never overwrites", () => {
    const out = path.join(dir, "keys");
    const { privateFile, publicFile } = generatePublicationKeys(out);
    expect(statSync(privateFile).mode & 0o777).toBe(0o600);
    expect(createPrivateKey(readFileSync(privateFile, "utf8")).asymmetricKeyType).toBe("ed25519");
    expect(createPublicKey(readFileSync(publicFile, "utf8")).asymmetricKeyType).toBe("ed25519");
    const before = readFileSync(privateFile, "utf8");
    expect(() => generatePublicationKeys(out)).toThrow(/already exists: keygen never overwrites/);
    expect(readFileSync(privateFile, "utf8")).toBe(before);
  });
});

describe("kiosk serve --publications-key", () => {
  it("is off without the flag, needs the fleet flags, and takes only an ed25519 public key", () => {
    expect(publicationsConfig(undefined, undefined, true)).toBeNull();
    const { publicFile } = generatePublicationKeys(path.join(dir, "k2"));
    expect(() => publicationsConfig(publicFile, undefined, false)).toThrow(/needs --backoffice and --kiosk-id/);
    const config = publicationsConfig(publicFile, "5", true);
    expect(config?.intervalMs).toBe(5000);
    expect(config?.publicKey.asymmetricKeyType).toBe("ed25519");
    const rsa = path.join(dir, "rsa.pem");
    writeFileSync(rsa, generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }));
    expect(() => publicationsConfig(rsa, undefined, true)).toThrow(/a rsa key, not ed25519/);
    expect(() => publicationsConfig(path.join(dir, "missing.pem"), undefined, true)).toThrow(/--publications-key .*missing.pem/);
    expect(() => publicationsConfig(publicFile, "0", true)).toThrow(/--publications-every/);
  });
});

describe("kiosk backoffice publish framebook", () => {
  it("prints the fare policies as the kiosks will read them before it reaches the back office", async () => {
    const { privateFile } = generatePublicationKeys(path.join(dir, "k3"));
    const framebook = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8").replace(
      "cultural_notes: []",
      'cultural_notes: []\n  fare_policies:\n    - policy_id: "weekend"\n      text: "Weekend: half price on all trips."\n      valid_until: "2026-03-15T23:59"',
    );
    const file = path.join(dir, "weekend.yaml");
    writeFileSync(file, framebook);
    // No database listens on port 1: the command stops there, after printing the reading.
    const run = await runKiosk("backoffice", "publish", "framebook", "--db", "postgres://kiosk@127.0.0.1:1/none", "--key", privateFile, "--system", "marta", "--file", file);
    expect(run.stdout).toBe("fare policies as the kiosk reads them:\n  weekend: every fare half price; until 2026-03-15 23:59\n");
    expect(run.error?.message).toMatch(/back office database/);
  });
});

describe("kiosk backoffice publish --json", () => {
  it("carries the reading as data beside the publication: fare policies, or each alert's", () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const framebook = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8").replace(
      "cultural_notes: []",
      'cultural_notes: []\n  fare_policies:\n    - policy_id: "weekend"\n      text: "Weekend: half price on all trips."',
    );
    expect(publicationReadingJson(pack, "framebook", "marta", framebook, "f.yaml")).toMatchObject([{ policy_id: "weekend" }]);
    const alerts = '- id: tube\n  system: bart\n  type: planned_maintenance\n  segment: {from_station: West Oakland, to_station: Embarcadero}\n  text: {en: "Transbay Tube closed."}\n';
    expect(publicationReadingJson(pack, "alerts", "bart", alerts, "a.yaml")).toMatchObject([{ id: "tube", reading: { unread: false, tracks: [["BART-EMBR", "BART-WOAK"]] } }]);
    expect(publicationReadingJson(pack, "alerts", "bart", "- id: [", "a.yaml")).toBeNull();
  });
});

describe("kiosk backoffice publish alerts", () => {
  it("prints each alert as the kiosks will read it, with the publisher's decision on words it cannot map", async () => {
    const { privateFile } = generatePublicationKeys(path.join(dir, "k4"));
    const file = path.join(dir, "alerts.yaml");
    writeFileSync(
      file,
      '- id: tube\n  system: bart\n  type: planned_maintenance\n  segment: {from_station: West Oakland, to_station: Embarcadero}\n  text: {en: "Transbay Tube closed."}\n' +
        '- id: police\n  system: bart\n  type: major_delay\n  lines: [yellow]\n  text: {en: "Due to police activity, trains will stop running in the affected area."}\n  if_unread: block\n',
    );
    const run = await runKiosk("backoffice", "publish", "alerts", "--db", "postgres://kiosk@127.0.0.1:1/none", "--key", privateFile, "--system", "bart", "--file", file);
    expect(run.stdout).toBe(
      "tube: the kiosk reads\n  - no trains between Embarcadero and West Oakland\n" +
        "police: the kiosk reads\n  - NOT READ: the words say service stops, but not where \u2014 the operator blocks them: trips on Yellow Line not sold while it is in force\n",
    );
    expect(run.error?.message).toMatch(/back office database/);
  });
});
