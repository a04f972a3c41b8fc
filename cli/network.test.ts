// `kiosk network import` from the command line: the outcome for people, a refusal as a usage error
// naming file, line and field, and the imported system run by another command at once.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SHARED_DIR } from "../test/paths.ts";
import { UsageError } from "./context.ts";
import { runKioskWithSystems } from "../test/cli.ts";

const dir = mkdtempSync(path.join(tmpdir(), "cli-network-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
});

const kiosk = (...argv: string[]): Promise<{ stdout: string; stderr: string }> => runKioskWithSystems(path.join(dir, "systems"), ...argv);

describe("kiosk network import", () => {
  const feed = path.join(SHARED_DIR, "gtfs", "hyderabad");

  it("imports a feed, says what it left out and what to review, and every command runs the new system", async () => {
    const { stdout, stderr } = await kiosk("network", "import", feed, "--id", "hyderabad", "--attribution", "Contains data provided by Hyderabad Metro Rail Ltd.");
    expect(stderr).toContain("network import: validating the feed…");
    expect(stdout).toContain(`imported 'hyderabad' into ${path.join(dir, "systems", "hyderabad")}`);
    expect(stdout).toMatch(/57 stations, 3 lines, \d+ track segments from 2810 trips .*fares: zone_table \(3080 station pairs priced\)/);
    expect(stdout).toContain("for the operator to review");
    expect(stdout).toContain("112 of 3192 station pairs have no fare in the feed, most of them at JBS (112)");
    const route = await kiosk("tool", "route_planner", "--system", "hyderabad", "--args", '{"origin":"Miyapur","destination":"Nagole"}');
    expect(JSON.parse(route.stdout)).toMatchObject({ line_sequence: ["RED", "BLUE"], transfers: 1 });
    // The framebook draft validates, and validation lists what the operator should still review.
    const draft = path.join(dir, "systems", "hyderabad", "framebook.yaml");
    const checked = await kiosk("framebook", "validate", draft, "--system", "hyderabad", "--framebooks", path.join(dir, "framebooks"));
    expect(checked.stdout).toContain(`${draft}: valid\nstill to review (from the network import, `);
    expect(checked.stdout).toContain("stops.txt wheelchair_boarding: 57 of 57 stations have no step-free information");
  });

  it("refuses a broken feed as a usage error naming file, line and field, and installs nothing", async () => {
    const broken = path.join(dir, "broken");
    cpSync(feed, broken, { recursive: true });
    const stopTimes = path.join(broken, "stop_times.txt");
    writeFileSync(stopTimes, readFileSync(stopTimes, "utf8").replace(/\nSA_101482,2,SUB1,/, "\nSA_101482,2,XYZ,"));
    const refused = kiosk("network", "import", broken, "--id", "broken");
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/the feed is not valid; nothing was installed\nerrors \(1\):\n {2}- stop_times.txt line 3: stop_id 'XYZ' is not a stop in stops.txt/);
    await expect(kiosk("tool", "station_info", "--system", "broken", "--args", '{"station_id":"MYP"}')).rejects.toThrow(/Unknown system 'broken'/);
  });
});
