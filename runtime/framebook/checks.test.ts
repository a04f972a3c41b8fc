import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { formatIssues, validateFramebook } from "./validate.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const text = (system: string): string => readFileSync(path.join(SHARED_DATA_DIR, `data/systems/${system}/framebook.yaml`), "utf8");

describe("framebook validation against the system it is for", () => {
  it("rejects a disruption severity outside critical, warning, info — at its line", () => {
    const v = validateFramebook(text("bart").replace("major_delay: warning", "major_delay: purple"), "bart.yaml", pack.system("bart"));
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(/^error: bart\.yaml:\d+:\d+ at framebook\.advisory_severity_mapping\.major_delay: severity 'purple' for major_delay is not one of critical, warning, info$/);
  });

  it("rejects another system's framebook (its operator is not this system's)", () => {
    const v = validateFramebook(text("marta"), "marta.yaml", pack.system("bart"));
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(/error: marta\.yaml:\d+:\d+ at framebook\.org_name: org_name 'MARTA' is not bart's operator 'BART': is this the framebook of another system\?/);
  });

  it("accepts each system's own framebook, and its operator's name in other case or spacing", () => {
    for (const system of pack.systemIds) expect(validateFramebook(text(system), "fb.yaml", pack.system(system)).ok, system).toBe(true);
    expect(validateFramebook(text("bart").replace('org_name: "BART"', 'org_name: " bart "'), "fb.yaml", pack.system("bart")).ok).toBe(true);
  });
});
