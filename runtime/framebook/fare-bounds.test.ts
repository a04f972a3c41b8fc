// Issue 13, finding 5: `framebook validate` rejects fare policies with absurd results, through the
// same fare path the kiosk sells with (and the interlock bounds catch them too: interlock-facts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { formatIssues, validateFramebook } from "./validate.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const text = (system: string): string => readFileSync(path.join(SHARED_DATA_DIR, `data/systems/${system}/framebook.yaml`), "utf8");
const withPolicies = (system: string, ...policies: string[]): string =>
  text(system).replace(/cultural_notes:( \[\])?/, (m) => `fare_policies:\n${policies.map((p, i) => `    - policy_id: "p${i}"\n      text: ${JSON.stringify(p)}`).join("\n")}\n  ${m}`);

describe("fare_policies with absurd results are rejected (finding 5)", () => {
  const absurd: [string, string, string, RegExp][] = [
    ["150% off", "marta", "Groups of 3 or more adults get 150% off.", /more than the whole fare|below zero/],
    ["a ¥500 surcharge in a USD system", "marta", "A ¥500 surcharge applies to all trips.", /not in USD/],
    ["a 99,999,999 surcharge", "marta", "A $99,999,999 surcharge applies to all trips.", /thousands separators/],
    ["a 99999999 surcharge", "bart", "A $99999999 surcharge applies to each paying passenger.", /out of bounds: total .* above/],
    ["capped at 0", "cta", "EFFECTIVE TODAY: base fare capped at $0.", /base fare cap 0 is not above 0/],
    ["a surcharge above twice the dearest ride", "beijing", "A ¥80 surcharge applies to all trips.", /per rider/],
  ];
  it.each(absurd)("%s", (_name, system, policy, expected) => {
    const v = validateFramebook(withPolicies(system, policy), "candidate.yaml", pack.system(system as "marta"));
    expect(v.ok, formatIssues(v)).toBe(false);
    expect(formatIssues(v)).toMatch(expected);
    expect(formatIssues(v)).toMatch(/candidate\.yaml:\d+:\d+ at framebook\.fare_policies\[0\]\.text/);
  });

  it("accepts ordinary fare policies", () => {
    for (const [system, policy] of [
      ["marta", "EFFECTIVE TODAY: Senior citizens (65+) ride free."],
      ["marta", "Children ride free today."],
      ["bart", "Weekend: half price on all trips."],
      ["cta", "A $1.00 surcharge applies to all trips during the marathon."],
      ["taipei", "Groups of 4 or more adults get 20% off."],
      ["doha", "All surcharges waived."],
    ] as const) {
      const v = validateFramebook(withPolicies(system, policy), "candidate.yaml", pack.system(system));
      expect(v.ok, `${system}: ${policy}\n${formatIssues(v)}`).toBe(true);
    }
  });

  it("checks policies together and the framebook's max_sale_total", () => {
    const together = validateFramebook(withPolicies("marta", "A $60 surcharge applies to all trips.", "A $60 surcharge applies to each paying passenger."), "c.yaml", pack.system("marta"));
    expect(together.ok).toBe(false);
    const max = (v: string): ReturnType<typeof validateFramebook> => validateFramebook(text("marta").replace("cultural_notes: []", `max_sale_total: ${v}\n  cultural_notes: []`), "c.yaml", pack.system("marta"));
    expect(max("50").ok).toBe(true);
    expect(formatIssues(max("-1"))).toMatch(/max_sale_total -1 is not an amount/);
    expect(formatIssues(max("99999999"))).toMatch(/max_sale_total 99999999 is not an amount/);
    // A max below what a normal sale costs rejects nothing here, but the interlock then refuses those sales.
    expect(max("2").ok).toBe(true);
  });
});
