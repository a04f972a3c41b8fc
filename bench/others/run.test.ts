import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { corpusDir, idIn } from "../../test/others-corpus.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { runKiosk } from "../../test/cli.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { loadCorpus } from "./corpus.ts";
import { loadOperators } from "./operators.ts";
import { operatorCase, passengerCase, runOthers } from "./run.ts";
import { OFFER_APPLIES_KEY } from "../robustness/run.ts";
import { renderOthersTable, summarizeOthers } from "./summary.ts";

const pack = new DataPack(SHARED_DATA_DIR);

/** Ids of `system` of `kind` (p or o) whose hash puts them in the tune half. */
function tuneIds(system: string, kind: "p" | "o", n: number): string[] {
  const out: string[] = [];
  while (out.length < n) out.push(idIn(system, "tune", kind, out.length === 0 ? 1 : Number(out.at(-1)!.slice(-3)) + 1));
  return out;
}

const source = `{name: test, url: "https://example.org/x", licence: CC BY 4.0, original: "as written"}`;
const passenger = (id: string, text: string, expectYaml: string): string => `- id: ${id}\n  source: ${source}\n  text: "${text}"\n  language: en\n  expect: ${expectYaml}\n`;

describe("texts others wrote, through the kiosk", () => {
  const [sold, wrongKey, noSale] = tuneIds("marta", "p", 3);
  const passengers = corpusDir({
    "tune/marta.yaml": [
      passenger(sold!, "One ticket from Five Points to the Airport please", "{sale: {origin: MARTA-FP, destination: MARTA-AP, riders: {adults: 1}}}"),
      // The key says three ride; the words one: the kiosk's offer of one is purchasable and wrong by this key.
      passenger(wrongKey!, "One ticket from Five Points to the Airport please", "{sale: {origin: MARTA-FP, destination: MARTA-AP, riders: {adults: 3}}}"),
      passenger(noSale!, "What is the weather like tomorrow?", "{no_sale: out of scope}"),
    ].join(""),
  });
  const [closure] = tuneIds("marta", "o", 1);
  const operators = corpusDir({
    "tune/marta.yaml": `- id: ${closure}
  source: ${source}
  kind: service_alert
  language: en
  notice:
    disruption: {type: station_closure, severity: critical, message: "Five Points station is closed until further notice.", station_id: MARTA-FP}
  reading: {effect: closed, stations: [MARTA-FP]}
  probes:
    - {origin: MARTA-FP, destination: MARTA-AP, riders: {adults: 1}, at: "2026-03-10T14:00", expect: no_sale}
    - {origin: MARTA-WE, destination: MARTA-AP, riders: {adults: 2}, at: "2026-03-10T14:00", expect: sale}
`,
  });

  it("a passenger's words are one typed turn at a weekday afternoon; an operator's notice is in force beside a trip tapped in", () => {
    const [p] = loadCorpus(pack, passengers, ["tune"]);
    const kase = passengerCase(p!);
    expect(kase.events).toEqual([{ type: "freetext_input", text: "One ticket from Five Points to the Airport please" }]);
    expect(kase.system_context.active_disruptions).toEqual([]);
    expect((kase.ground_truth as { fare: { total: number } }).fare.total).toBe(p!.sale!.total);
    const [o] = loadOperators(pack, operators, ["tune"]);
    const probe = operatorCase(pack, o!, 1);
    expect(probe.id).toBe(`${closure}#2`);
    expect(probe.system_context.current_time).toBe("2026-03-10T14:00:00");
    expect(probe.system_context.active_disruptions).toMatchObject([{ id: closure, station_id: "MARTA-FP", message: "Five Points station is closed until further notice." }]);
    expect(probe.events).toContainEqual({ type: "passenger_count_changed", adults: 2, children: 0, seniors: 0, disabled: 0 });
  });

  it("counts a sale sold right, a wrong purchasable offer, a no-sale kept, and a closed station's trip not sold", async () => {
    const outcomes = await runOthers(pack, loadCorpus(pack, passengers, ["tune"]), loadOperators(pack, operators, ["tune"]), rulePolicy);
    const result = Object.fromEntries(outcomes.map((o) => [o.id, o.result]));
    expect(result[sold!]).toMatch(/^(sold|asked_sold)$/);
    expect(result[wrongKey!]).toBe("wrong_offer");
    expect(result[noSale!]).toBe("right");
    expect(result[`${closure}#1`]).toBe("right");
    const s = summarizeOthers("tune", outcomes);
    expect(s.rows[0]).toMatchObject({ key: "passenger requests", due: 2, wrongOffers: 1, noSale: 1, noSaleRight: 1 });
    expect(s.rows[1]).toMatchObject({ key: "operator notices", due: 1, noSale: 1, noSaleRight: 1 });
    expect(s.wrong.map((w) => w.id)).toEqual([wrongKey]);
    expect(renderOthersTable(s)).toContain(`${wrongKey} "One ticket from Five Points to the Airport please": total:`);
  });

  it("a passenger asked whether a fare offer applies answers as the key says: not eligible, the plain fare; eligible, the offer's price", async () => {
    const [offer] = tuneIds("doha", "o", 1);
    const dir = corpusDir({
      "tune/doha.yaml": `- id: ${offer}
  source: ${source}
  kind: fare_notice
  language: en
  notice:
    policy_change: {text: "The use of the Doha Metro will be offered free of charge for travel card holders on Friday, 1 November 2013."}
  reading: {effect: fare_free, fare: {eligible: holding a travel card}, applies: {from: "2013-11-01T00:00", until: "2013-11-02T00:00"}}
  probes:
    - {origin: DOHA-MSH, destination: DOHA-LUS, riders: {adults: 1}, at: "2013-11-01T16:00", expect: sale}
    - {origin: DOHA-MSH, destination: DOHA-LUS, riders: {adults: 1}, at: "2013-11-01T16:05", expect: sale, eligible: true}
`,
    });
    const [o] = loadOperators(pack, dir, ["tune"]);
    expect(operatorCase(pack, o!, 0).ground_truth).toMatchObject({ [OFFER_APPLIES_KEY]: false });
    const outcomes = await runOthers(pack, [], loadOperators(pack, dir, ["tune"]), rulePolicy);
    const result = Object.fromEntries(outcomes.map((x) => [x.id, x]));
    // asked, tapped "it does not apply to me", sold at the plain fare
    expect(result[`${offer}#1`]).toMatchObject({ result: "asked_sold" });
    // asked, tapped "it applies": sold at the offer's own price (free)
    expect(result[`${offer}#2`]).toMatchObject({ result: "asked_sold" });
    expect(result[`${offer}#2`]!.outcome.record.kiosk.state.fare_quote?.total).toBe(0);
  });

  it("`kiosk bench robustness --suite others` runs the corpus beside our suite; a wrong --suite is a usage error", async () => {
    const run = await runKiosk("bench", "robustness", "--suite", "others", "--half", "tune", "--json");
    expect(run.error).toBeUndefined();
    const json = JSON.parse(run.stdout) as { halves?: unknown; others: { half: string; rows: { key: string; due: number }[] }[] };
    expect(json.halves).toBeUndefined();
    expect(json.others.map((s) => s.half)).toEqual(["tune"]);
    expect(json.others[0]!.rows.map((r) => r.key)).toEqual(["passenger requests", "operator notices"]);
    expect(json.others[0]!.rows.every((r) => r.due > 100)).toBe(true);
    const bad = await runKiosk("bench", "robustness", "--suite", "theirs");
    expect(bad.error?.message).toContain("--suite must be ours, others or all, got 'theirs'");
  }, 120_000);
});
