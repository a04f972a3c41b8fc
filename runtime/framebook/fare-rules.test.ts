// Structured fare policies (issue 12, part 3): validated with the field's path and line, applied
// within their validity window, and priced from the rule, not from the display text.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import type { KioskEvent } from "../../tools/data/schemas.ts";
import { FramebookStore } from "./store.ts";
import { formatPath } from "../../tools/data/errors.ts";
import { formatIssues, framebookPolicyChange, validateFramebook } from "./validate.ts";
import { testApp, testPack } from "../kiosk/testing.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const marta = testPack().system("marta");
/** MARTA's framebook with these fare_policies entries (YAML lines under the list). */
const withPolicies = (yaml: string): string => original.replace("cultural_notes: []", `cultural_notes: []\n  fare_policies:\n${yaml}`);
// A display text the kiosk's reader cannot price on its own.
const GOLDEN = `    - policy_id: "golden"
      text: "Golden-years week: special fares for everyone who has reached 65."
      rule: { applies_to: [seniors], free: true }
`;

describe("structured fare_policies in framebook validate", () => {
  it("accepts a rule and turns it into the wording the fare engine reads", () => {
    const v = validateFramebook(withPolicies(GOLDEN), "golden.yaml", marta);
    expect(v.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(framebookPolicyChange(v.framebook!)).toEqual({ policy_id: "golden", text: "Seniors ride free." });
    const half = validateFramebook(withPolicies(`    - policy_id: "sale"\n      text: "Sale!"\n      rule: { multiplier: 0.8 }\n`), "sale.yaml", marta);
    expect(framebookPolicyChange(half.framebook!)?.text).toBe("All fares are 20% off.");
  });

  it.each([
    ["a multiplier that is not a discount", "rule: { multiplier: 1.5 }", /fare_policies\[0\]\.rule\.multiplier: Too big/],
    ["an unknown rider type", "rule: { applies_to: [teens], free: true }", /fare_policies\[0\]\.rule\.applies_to/],
    ["free for everyone", "rule: { free: true }", /fare_policies\[0\]\.rule\.applies_to: free for every rider/],
    ["a rule without an effect", "rule: { applies_to: all }", /fare_policies\[0\]\.rule: a fare rule needs an effect/],
    ["an unknown field", "rule: { multiplier: 0.5, discount: 3 }", /fare_policies\[0\]\.rule: Unrecognized key: "discount"/],
    ["a negative surcharge", "rule: { surcharge: { amount: -1, per: trip } }", /fare_policies\[0\]\.rule\.surcharge\.amount: Too small/],
    ["a window that ends before it starts", 'rule: { multiplier: 0.5 }\n      valid_from: "2026-03-10T00:00"\n      valid_until: "2026-03-09T00:00"', /fare_policies\[0\]\.valid_until: valid_until 2026-03-09T00:00 is before/],
    ["a window that is not a time", 'rule: { multiplier: 0.5 }\n      valid_from: "next monday"', /fare_policies\[0\]\.valid_from: must be a local time/],
  ])("rejects %s, naming the field and its line", (_name, extra, expected) => {
    const v = validateFramebook(withPolicies(`    - policy_id: "p"\n      text: "Promotion"\n      ${extra}\n`), "candidate.yaml", marta);
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(/candidate\.yaml:\d+:\d+ at framebook\./);
    expect(formatIssues(v)).toMatch(expected);
  });

  it("announces an entry only inside its validity window (the kiosk's local time)", () => {
    const v = validateFramebook(withPolicies(`${GOLDEN}      valid_from: "2026-03-09T06:00"\n      valid_until: "2026-03-15T23:59"\n`), "w.yaml", marta);
    expect(v.ok).toBe(true);
    expect(framebookPolicyChange(v.framebook!, "2026-03-09T05:59")).toBeNull();
    expect(framebookPolicyChange(v.framebook!, "2026-03-10T12:00")?.text).toBe("Seniors ride free.");
    expect(framebookPolicyChange(v.framebook!, "2026-03-16T00:00")).toBeNull();
  });
});

describe("the kiosk sells under a structured rule, and not under the same words without it", () => {
  const journey: KioskEvent[] = [
    { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
    { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
    { type: "passenger_count_changed", adults: 1, seniors: 1 },
  ];
  it("prices the senior free from the rule; the display text alone leaves the fare unpriced", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kiosk-fare-rules-"));
    try {
      const store = new FramebookStore(testPack(), dir);
      const { app } = testApp({ framebooks: store });
      store.apply("marta", withPolicies(GOLDEN), "golden.yaml", "alice");
      const priced = await app.ask({ system: "marta", events: journey });
      expect(priced.state.fare_quote?.total).toBe(2.5);
      expect(priced.purchasable).toBe(true);

      store.apply("marta", withPolicies(GOLDEN.replace("      rule: { applies_to: [seniors], free: true }\n", "      if_unread: refer\n")), "words.yaml", "alice");
      const words = await app.ask({ system: "marta", events: journey });
      expect(words.purchasable).toBe(false);
      // The policy itself sends a sale it cannot price to staff (the interlock would refuse it too).
      expect(words.state.kiosk_action.action).toBe("refer_to_staff");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with if_unread: ignore, sells at the usual fare and still shows the whole text", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kiosk-fare-rules-"));
    try {
      const store = new FramebookStore(testPack(), dir);
      const { app } = testApp({ framebooks: store });
      const usual = (await app.ask({ system: "marta", events: journey })).state.fare_quote?.total;
      store.apply("marta", withPolicies(GOLDEN.replace("      rule: { applies_to: [seniors], free: true }\n", "      if_unread: ignore\n")), "ignore.yaml", "alice");
      const sold = await app.ask({ system: "marta", events: journey });
      expect(sold.interlock?.codes ?? []).toEqual([]);
      expect(sold.purchasable).toBe(true);
      expect(usual).toBe(3.75);
      expect(sold.state.fare_quote?.total).toBe(usual);
      expect(JSON.stringify(sold.state)).toContain("Golden-years week: special fares for everyone who has reached 65.");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prices the part it reads of an ignored text and leaves out only the unread clause", () => {
    const v = validateFramebook(withPolicies(`    - policy_id: "mixed"\n      text: "Seniors ride free. Pay by card and save 10% on all fares."\n      if_unread: ignore\n`), "mixed.yaml", marta);
    expect(v.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(framebookPolicyChange(v.framebook!)).toEqual({ policy_id: "mixed", text: "Seniors ride free.", display_text: "Seniors ride free. Pay by card and save 10% on all fares." });
  });
});

describe("a fare text the kiosk cannot read needs the operator's decision", () => {
  it("refuses an entry with neither rule nor if_unread, naming file, line, field and the three ways out", () => {
    const v = validateFramebook(withPolicies(GOLDEN.replace("      rule: { applies_to: [seniors], free: true }\n", "")), "words.yaml", marta);
    expect(v.ok).toBe(false);
    const line = original.split("\n").findIndex((l) => l.includes("cultural_notes: []")) + 4;
    expect(formatIssues(v)).toMatch(
      new RegExp(`^error: words\\.yaml:${line}:\\d+ at framebook\\.fare_policies\\[0\\]\\.text: the kiosk cannot read "Golden-years week: special fares for everyone who has reached 65\\."; .*\`rule:\`.*\`if_unread: refer\`.*\`if_unread: ignore\``, "m"),
    );
  });

  it("warns, naming the field, that a decision about unread words changes nothing where the kiosk reads every word", () => {
    const v = validateFramebook(
      withPolicies(`    - policy_id: "s"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."\n      if_unread: refer\n${GOLDEN.replace("      rule:", "      if_unread: ignore\n      rule:")}`),
      "decided.yaml",
      marta,
    );
    expect(v.ok).toBe(true);
    const warnings = v.issues.filter((i) => i.severity === "warning").map((i) => `${formatPath(i.path ?? [])}: ${i.message}`);
    expect(warnings).toContain("framebook.fare_policies[0].if_unread: if_unread: refer has no effect: the kiosk reads every clause of this text");
    expect(warnings).toContain("framebook.fare_policies[1].if_unread: if_unread: ignore has no effect: the entry has a rule, which the kiosk applies exactly");
  });

  it("does not ask for a decision on a text it reads whole, or on one that is not about fares", () => {
    const readable = validateFramebook(withPolicies(`    - policy_id: "s"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."\n    - policy_id: "w"\n      text: "Free Wi-Fi at every station."\n`), "ok.yaml", marta);
    expect(readable.issues.filter((i) => i.severity === "error")).toEqual([]);
  });
});
