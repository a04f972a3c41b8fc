// The README's score table is what a fresh run of both policies gives: it fails as soon as a change
// moves a score and the README (npm run readme:facts) was not brought along.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BEGIN, END, freshReports, README, scoreTable } from "./readme-facts.ts";

describe("README facts", () => {
  it("the score table equals a fresh run of rule and rule-ref over all cases", { timeout: 300_000 }, () => {
    const readme = readFileSync(README, "utf8");
    const block = readme.slice(readme.indexOf(BEGIN), readme.indexOf(END) + END.length);
    const { rule, ruleRef } = freshReports();
    expect(block, "README.md's scores differ from a fresh run: run npm run readme:facts").toBe(scoreTable(rule, ruleRef));
    // What `npm run main` prints for the held-out and full Tier 1 is in the table.
    expect(block).toContain(`**${rule.partitions.holdout.overall.tier1.toFixed(2)}**`);
    expect(block).toContain(`| ${rule.partitions.full.overall.tier1.toFixed(2)} |`);
  });
});
