// Fare policies must stay plausible against the system's own fare table (a paid fare between 1/10
// and 10 times the table's for the same trip and riders, a multiplier in that range, caps above 0),
// unless the framebook's `fare_override` confirms it — and that confirmation is audited.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { implausibleFare, implausibleMultiplier } from "../../tools/fares/bounds.ts";
import { publicationContentIssues } from "../fleet/content.ts";
import { testPack } from "../kiosk/testing.ts";
import { FramebookRejectedError, FramebookStore } from "./store.ts";
import { formatIssues, validateFramebook } from "./validate.ts";

const pack = testPack();
const marta = pack.system("marta");
const text = (system: string): string => readFileSync(path.join(SHARED_DATA_DIR, `data/systems/${system}/framebook.yaml`), "utf8");
/** MARTA's framebook with these lines added under `framebook:` (YAML, indented two spaces). */
const martaWith = (yaml: string): string => text("marta").replace("cultural_notes: []", `cultural_notes: []\n${yaml}`);
const policy = (entry: string): string => `  fare_policies:\n    - policy_id: "p"\n      text: "Promotion"\n${entry}`;
const HUNDREDTH = policy("      rule: { multiplier: 0.01 }\n");
const OVERRIDE = '  fare_override:\n    allow_implausible: true\n    reason: "Staff day: every fare 99% off"\n    confirmed_by: "Dana Reyes, fares manager"\n';

describe("each system's own framebook", () => {
  it.each(pack.systemIds)("%s validates as it is, without any override", (system) => {
    const v = validateFramebook(text(system), "framebook.yaml", pack.system(system));
    expect(formatIssues(v)).toBe("");
    expect(v.ok).toBe(true);
  });
});

describe("implausible fare policies are refused, naming the file, line and field", () => {
  it("a rule multiplier of 0.01 (2 adults for $0.05)", () => {
    const v = validateFramebook(martaWith(HUNDREDTH), "candidate.yaml", marta);
    expect(v.ok).toBe(false);
    const issues = formatIssues(v);
    expect(issues).toMatch(/^error: candidate\.yaml:\d+:\d+ at framebook\.fare_policies\[0\]\.rule\.multiplier: multiplier 0\.01 is outside 0\.1 to 10/m);
    expect(issues).toMatch(/confirm it with fare_override/);
  });

  it.each([
    ["a text read as 99% off", '      text: "All fares are 99% off today."\n', /fare_policies\[0\]\.text: multiplier 0\.01 is outside/],
    ["a group discount of 95%", "      rule: { group: { min_adults: 2, percent_off: 95 } }\n", /fare_policies\[0\]\.rule: with this policy the fare for .* would be implausible: [\d.]+ is less than 1\/10 of the fare table's/],
    ["a base fare cap of 0.10", "      rule: { base_fare_cap: 0.1 }\n", /fare_policies\[0\]\.rule: with this policy the fare for .* less than 1\/10/],
  ])("%s", (_name, entry, expected) => {
    const yaml = entry.includes("text:") ? `  fare_policies:\n    - policy_id: "p"\n${entry}` : policy(entry);
    const v = validateFramebook(martaWith(yaml), "candidate.yaml", marta);
    expect(v.ok, formatIssues(v)).toBe(false);
    expect(formatIssues(v)).toMatch(expected);
    expect(formatIssues(v)).toMatch(/candidate\.yaml:\d+:\d+ at framebook\.fare_policies/);
  });

  it.each(["-$1.00", "$-1.00", "\u2212$1.00"])("a base fare cap of %s, never read as 1.00", (amount) => {
    const v = validateFramebook(martaWith(`  fare_policies:\n    - policy_id: "p"\n      text: "EFFECTIVE TODAY: Base fare capped at ${amount}."\n`), "candidate.yaml", marta);
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(/fare_policies\[0\]\.text: .*(is negative|base fare cap -1 is not above 0)/);
  });

  it("a negative surcharge in the text", () => {
    const v = validateFramebook(martaWith('  fare_policies:\n    - policy_id: "p"\n      text: "A -$1.00 surcharge applies to all trips."\n'), "candidate.yaml", marta);
    expect(formatIssues(v)).toMatch(/fare_policies\[0\]\.text: the amount '-\$1\.00' is negative/);
  });

  it("keeps riders free by a rule, and ordinary discounts", () => {
    for (const rule of ["{ applies_to: [children], free: true }", "{ applies_to: [seniors, disabled], free: true }", "{ multiplier: 0.1 }", "{ group: { min_adults: 3, percent_off: 50 } }"]) {
      const v = validateFramebook(martaWith(policy(`      rule: ${rule}\n`)), "candidate.yaml", marta);
      expect(v.ok, `${rule}\n${formatIssues(v)}`).toBe(true);
    }
  });

  it("bounds: a tenth to ten times the table's fare, a free trip compared with nothing", () => {
    expect(implausibleFare(0.25, 2.5)).toBeNull();
    expect(implausibleFare(0.24, 2.5)).toMatch(/less than 1\/10/);
    expect(implausibleFare(25, 2.5)).toBeNull();
    expect(implausibleFare(25.01, 2.5)).toMatch(/more than 10 times/);
    expect(implausibleFare(1, 0)).toBeNull();
    expect(implausibleMultiplier(10.5)).toMatch(/outside/);
    expect(implausibleMultiplier(0.1)).toBeNull();
  });
});

describe("fare_override", () => {
  it("accepts implausible fares the operator confirms, as warnings naming who confirmed them", () => {
    const v = validateFramebook(martaWith(HUNDREDTH + OVERRIDE), "candidate.yaml", marta);
    expect(v.ok, formatIssues(v)).toBe(true);
    expect(formatIssues(v)).toMatch(/^warning: candidate\.yaml:\d+:\d+ at framebook\.fare_policies\[0\]\.rule\.multiplier: .*accepted: fare_override confirmed by Dana Reyes, fares manager: Staff day/m);
  });

  it("never accepts what is out of the hard bounds", () => {
    const v = validateFramebook(martaWith(`  fare_policies:\n    - policy_id: "p"\n      text: "Base fare capped at -1.00."\n${OVERRIDE}`), "candidate.yaml", marta);
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(/^error: .*base fare cap -1 is not above 0/m);
  });

  it.each([
    ["without a reason", '  fare_override:\n    allow_implausible: true\n    confirmed_by: "Dana"\n', /framebook\.fare_override\.reason: fare_override: /],
    ["not saying allow_implausible: true", '  fare_override:\n    allow_implausible: false\n    reason: "r"\n    confirmed_by: "Dana"\n', /framebook\.fare_override\.allow_implausible: /],
    ["with a blank confirmed_by", '  fare_override:\n    allow_implausible: true\n    reason: "r"\n    confirmed_by: " "\n', /framebook\.fare_override\.confirmed_by: /],
  ])("is refused %s", (_name, override, expected) => {
    const v = validateFramebook(martaWith(HUNDREDTH + override), "candidate.yaml", marta);
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(expected);
    expect(formatIssues(v)).toMatch(/error: .*rule\.multiplier: multiplier 0\.01/);
  });

  it("is refused when it confirms nothing (so it cannot cover a later edit)", () => {
    const v = validateFramebook(martaWith(policy("      rule: { multiplier: 0.5 }\n") + OVERRIDE), "candidate.yaml", marta);
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(/framebook\.fare_override: fare_override confirms nothing/);
  });
});

describe("the entry paths", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "fare-plausibility-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a local apply refuses it; with the override it is applied and the audit records the confirmation", () => {
    const store = new FramebookStore(pack, dir);
    expect(() => store.apply("marta", martaWith(HUNDREDTH), "local.yaml", "Ada")).toThrow(FramebookRejectedError);
    expect(store.audit()).toEqual([]);
    const entry = store.apply("marta", martaWith(HUNDREDTH + OVERRIDE), "local.yaml", "Ada");
    expect(entry).toMatchObject({ who: "Ada", action: "apply", fare_override: { reason: "Staff day: every fare 99% off", confirmed_by: "Dana Reyes, fares manager" } });
    expect(store.audit()).toEqual([entry]);
    // An ordinary framebook records no override; rolling back to the confirmed one records it again.
    expect(store.apply("marta", text("marta"), "plain.yaml", "Ada").fare_override).toBeUndefined();
    expect(store.rollback("marta", "Bob")).toMatchObject({ action: "rollback", fare_override: { confirmed_by: "Dana Reyes, fares manager" } });
  });

  it("a signed publication's content is refused with file, line and field", () => {
    const issues = publicationContentIssues("framebook", martaWith(HUNDREDTH), "backoffice-framebook-marta-v2.yaml", "marta", marta);
    expect(issues).toContainEqual({ file: "backoffice-framebook-marta-v2.yaml", line: expect.any(Number), field: "framebook.fare_policies[0].rule.multiplier", message: expect.stringMatching(/^multiplier 0\.01 is outside 0\.1 to 10/) });
    expect(publicationContentIssues("framebook", martaWith(HUNDREDTH + OVERRIDE), "backoffice-framebook-marta-v2.yaml", "marta", marta)).toEqual([]);
  });
});
