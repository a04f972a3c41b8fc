// The short version of `npm run reliability` (what CI runs): every section with fewer sessions,
// cases, sales and mutants, and every target figure asserted. The full run is the script.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { CasesFileSchema } from "../../tools/data/schemas.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { ADVERSARIAL_CASES_FILE, adversarialCasesText, SCENARIO_TYPES } from "./adversarial-cases.ts";
import { formatTable, runReliability, SECTIONS } from "./run.ts";

const pack = new DataPack(SHARED_DATA_DIR);

describe("adversarial passenger suite (cases/adversarial-passengers.json)", () => {
  it("is a valid case file of at least 100 cases covering every attack type, and exactly what the generator writes", () => {
    const text = readFileSync(ADVERSARIAL_CASES_FILE, "utf8");
    const cases = CasesFileSchema.parse(JSON.parse(text));
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const types = new Set(cases.map((c) => (c as { scenario_type?: string }).scenario_type));
    for (const t of SCENARIO_TYPES) expect(types.has(t), t).toBe(true);
    // No answer key: the bench runs it as an operator's own case file.
    expect(cases.every((c) => c.ground_truth === undefined && c.scoring === undefined)).toBe(true);
    expect(text).toBe(adversarialCasesText(pack));
  });
});

describe("reliability figures (quick run)", () => {
  it("meets every target", { timeout: 900_000 }, async () => {
    const results = await runReliability(pack, { quick: true, seed: "ci", log: () => undefined });
    expect(results.sections.map((s) => s.id)).toEqual([...SECTIONS]);
    const figures = results.sections.flatMap((s) => s.figures);
    const targets = figures.filter((f) => f.target !== null);
    // Every target figure is present…
    expect(targets.map((f) => f.id).sort()).toEqual(
      [
        "fuzz.crashes",
        "fuzz.invalid_states",
        "fuzz.p99_ms",
        "interlock.wrong_shown",
        "interlock.wrong_sales_allowed",
        "interlock.errors",
        "adversarial.gate_opened_wrongly",
        "adversarial.free_or_discounted",
        "adversarial.errors",
        "ledger.lost_committed",
        "ledger.corruption",
        "ledger.tickets_without_sale",
        "ledger.unexpected_exits",
        "model.fallbacks_correct",
        "electron.checklist_failures",
        "electron.open_findings",
        "framebook.accepted_invalid",
        "framebook.crashes",
        "framebook.changed_by_rejected",
        "failclosed.no_sale_purchasable",
        "failclosed.rider_words_sold",
        "failclosed.policy_ignored_sold",
        "http.crashes",
        "http.internal_errors",
        "farepolicy.accepted_out_of_bounds",
        "farepolicy.sales_out_of_bounds",
        "farepolicy.crashes",
        "growth.rss_mb",
        "growth.p99_ms",
        "growth.errors",
        "restart.extra_pin_guesses",
        "restart.sales_on_corrupt",
        "trust.alert_collisions",
        "trust.implausible_records_accepted",
        "trust.kiosks_frozen",
        "trust.tokens_misused",
        "trust.passwords_checked",
        "trust.fleet_page_kb",
        "trust.memory_growth_mb",
        "trust.heartbeat_p99_ms",
        "trust.passengers_turned_away",
        "trust.operator_locked_out",
        "trust.implausible_fares_accepted",
      ].sort(),
    );
    // …and met (the message names every miss, with the table for context).
    expect(results.missed, formatTable(results)).toEqual([]);
    for (const f of targets) expect(f.ok, `${f.id} = ${f.value}`).toBe(true);
    // The quick run still exercises each item.
    const value = (id: string): number => figures.find((f) => f.id === id)?.value ?? -1;
    expect(value("fuzz.sessions")).toBeGreaterThanOrEqual(300);
    expect(value("ledger.sales")).toBeGreaterThanOrEqual(60);
    expect(value("framebook.mutants")).toBeGreaterThanOrEqual(60);
    expect(value("model.fallbacks_correct")).toBeGreaterThan(0);
    // Issue 13's figures, short: every no-sale case group, ≥1,000 raw requests, ≥60 hostile policies.
    expect(value("http.requests")).toBeGreaterThanOrEqual(1000);
    expect(value("farepolicy.policies")).toBeGreaterThanOrEqual(60);
    expect(value("growth.followups")).toBeGreaterThanOrEqual(300);
  });
});
