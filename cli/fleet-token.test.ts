import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fleetToken, replicationTarget } from "./fleet-token.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-fleet-token-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("fleet configuration", () => {
  it("reads the fleet token from its file (first line), else $KIOSK_FLEET_TOKEN", () => {
    const file = path.join(dir, "token");
    writeFileSync(file, "0123456789abcdef0123\nignored\n");
    expect(fleetToken(file, "--token-file", {})).toBe("0123456789abcdef0123");
    expect(fleetToken(undefined, "--token-file", { KIOSK_FLEET_TOKEN: " from-the-environment-1 " })).toBe("from-the-environment-1");
  });

  it("refuses no token, a short one and an unreadable file, naming the option", () => {
    expect(() => fleetToken(undefined, "--token-file", {})).toThrow(/no fleet token.*--token-file.*KIOSK_FLEET_TOKEN/);
    expect(() => fleetToken(undefined, "--token-file", { KIOSK_FLEET_TOKEN: "short" })).toThrow(/too short/);
    expect(() => fleetToken(path.join(dir, "missing"), "--fleet-token-file", {})).toThrow(/--fleet-token-file .*missing/);
  });

  it("kiosk serve: no fleet unless asked; --backoffice and --kiosk-id together, a valid URL and id", () => {
    process.env.KIOSK_FLEET_TOKEN = "token-for-this-test-0001";
    try {
      expect(replicationTarget({})).toBeNull();
      expect(replicationTarget({ backoffice: "http://bo.example:8790", kioskId: "station-12-a" })).toEqual({ url: "http://bo.example:8790/", kioskId: "station-12-a", token: "token-for-this-test-0001" });
      expect(() => replicationTarget({ backoffice: "http://bo.example" })).toThrow(/go together/);
      expect(() => replicationTarget({ backoffice: "ftp://bo.example", kioskId: "k" })).toThrow(/http:\/\/ or https:\/\//);
      expect(() => replicationTarget({ backoffice: "not a url", kioskId: "k" })).toThrow(/not a URL/);
      expect(() => replicationTarget({ backoffice: "http://bo.example", kioskId: "../k" })).toThrow(/--kiosk-id '\.\.\/k'/);
    } finally {
      delete process.env.KIOSK_FLEET_TOKEN;
    }
  });
});
