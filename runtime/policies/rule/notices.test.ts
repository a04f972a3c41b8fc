// Notices the rule policy and the interlock read alike. A lift out of service is no closure: riders
// who can use the stairs are sold the trip and told; a rider counted disabled is asked first. Trains
// skipping stations leave the line running. A fare offer that depends on the passenger is asked about. Notices are operators' own words (cases/others, tune half):
// Transport for London's "No Step Free Access" (TfL Unified API, adapted to Doha, doha-o-022) and a
// CTA elevator alert (cta-o-031).
import { describe, expect, it } from "vitest";
import { DataPack } from "../../../tools/data/datapack.ts";
import type { Case, Disruption, KioskEvent } from "../../../tools/data/schemas.ts";
import { SHARED_DATA_DIR } from "../../../test/paths.ts";
import { clarificationOf } from "../../contract/clarification.ts";
import { checkInterlock } from "../../kiosk/interlock.ts";
import { runCase } from "../../session/case.ts";
import { rulePolicy } from "./index.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const now = "2022-03-01T11:00:00";
const sadd: Disruption = {
  id: "tfl",
  type: "elevator_outage",
  severity: "warning",
  message: "Al Sadd: No Step Free Access - Step free access is not available due to unavailability of station staff. Call us on 0343 222 1234 if you need help planning your journey.",
  station_id: "DOHA-SAD",
};

function trip(riders: Partial<Record<"adults" | "disabled", number>>, more: KioskEvent[][] = []): Case {
  const first: KioskEvent[] = [
    { type: "station_selected", field: "origin", value: "Al Aziziyah", station_id: "DOHA-AZZ" },
    { type: "station_selected", field: "destination", value: "Al Sadd", station_id: "DOHA-SAD" },
    { type: "passenger_count_changed", adults: riders.adults ?? 0, children: 0, seniors: 0, disabled: riders.disabled ?? 0 },
  ];
  const turns = [first, ...more];
  return { id: "LIFT-1", system: "doha", category: "D", events: first, multi_turn_events: turns, system_context: { current_time: now, active_disruptions: [sadd], framebook: "doha" } };
}

async function answer(kase: Case) {
  const record = await runCase(pack, kase, rulePolicy);
  const turns = kase.multi_turn_events ?? [kase.events];
  const verdict = checkInterlock({ system: pack.system("doha"), state: record.kiosk.state, turns, disruptions: kase.system_context.active_disruptions, toolCalls: record.tool_calls_made, now: { iso: now } });
  return { state: record.kiosk.state, question: clarificationOf(record.tool_calls_made), verdict };
}

/**
 * A trip tapped in (stations and riders) under the notices at `at`: the policy's answer, the question
 * it asks, and the interlock's verdict on that answer.
 */
async function tapped(system: string, from: string, to: string, notices: Disruption[], at: string, riders: Partial<Record<"adults" | "disabled", number>> = { adults: 1 }) {
  const events: KioskEvent[] = [
    { type: "station_selected", field: "origin", value: from, station_id: from },
    { type: "station_selected", field: "destination", value: to, station_id: to },
    { type: "passenger_count_changed", adults: riders.adults ?? 0, children: 0, seniors: 0, disabled: riders.disabled ?? 0 },
  ];
  const kase: Case = { id: "TAPPED", system: system as Case["system"], category: "C", events, system_context: { current_time: at, active_disruptions: notices, framebook: system } };
  const record = await runCase(pack, kase, rulePolicy);
  const verdict = checkInterlock({ system: pack.system(system), state: record.kiosk.state, turns: [events], disruptions: notices, toolCalls: record.tool_calls_made, now: { iso: at } });
  const state = record.kiosk.state;
  return { state, action: state.kiosk_action.action, ok: verdict.ok, verdict, question: clarificationOf(record.tool_calls_made), path: (state.route?.stops ?? []).map((s) => s.station_id) };
}

describe("a lift out of service at a station of the trip", () => {
  it("sells the trip to a rider who can take the stairs, with the lift named", async () => {
    const { state, verdict } = await answer(trip({ adults: 1 }));
    expect(state.kiosk_action.action).toBe("prompt_purchase");
    expect(verdict.ok).toBe(true);
    expect(state.advisory_banners?.some((b) => b.title === "Lift out of service" && b.body.includes("Al Sadd"))).toBe(true);
  });

  it("asks first when a rider is counted disabled, and sells once the passenger says the stairs are fine", async () => {
    const asked = await answer(trip({ disabled: 1 }));
    expect(asked.question).toMatchObject({ kind: "need" });
    expect(asked.question?.question).toContain("Al Sadd");
    expect(asked.state.kiosk_action.action).not.toBe("prompt_purchase");
    const [needed, stairs] = asked.question!.choices;
    const sold = await answer(trip({ disabled: 1 }, [stairs!.events]));
    expect(sold.state.kiosk_action.action).toBe("prompt_purchase");
    expect(sold.verdict.ok).toBe(true);
    const refused = await answer(trip({ disabled: 1 }, [needed!.events]));
    expect(refused.verdict.ok).toBe(false);
  });

  it("sells a trip that only rides through the station whose lift is out without asking (BART Bay Fair, the spent fresh2 half)", async () => {
    const bayFair: Disruption = { id: "bart", type: "elevator_outage", severity: "warning", station_id: "BART-BAYF", message: "Elevator out at Bay Fair Station August 22 to September 9, 2016" };
    const through = await tapped("bart", "BART-DUBL", "BART-SANL", [bayFair], "2016-08-25T10:10:00", { disabled: 1 });
    expect(through.path.slice(1, -1)).toContain("BART-BAYF");
    expect(through.question).toBeUndefined();
    expect(through).toMatchObject({ action: "prompt_purchase", ok: true });
  });

  it("reads the lift of a notice that names a platform by its trains' terminus at the station after 'at' (CTA Garfield, the spent fresh2 half)", async () => {
    // the feed tool gives no station id: the words say where
    const garfield: Disruption = { id: "cta", type: "elevator_outage", severity: "warning", line: "green", message: "The elevator to the Ashland/63rd & Cottage Grove-bound platform at Garfield (Green Line) is temporarily out-of-service." };
    const asked = await tapped("cta", "CTA-CLK", "CTA-GAR2", [garfield], "2012-04-02T10:00:00", { disabled: 1 });
    expect(asked.question).toMatchObject({ kind: "need" });
    expect(asked.question?.question).toContain("Garfield");
  });

  it("the interlock does not sell a trip past the lift to a rider counted disabled who has not said", async () => {
    const record = await runCase(pack, trip({ adults: 1 }), rulePolicy);
    const state = structuredClone(record.kiosk.state);
    state.fare_quote!.passenger_summary = { adults: 0, children: 0, seniors: 0, disabled: 1, free_riders: 0 };
    const turns = [[...trip({ disabled: 1 }).events]];
    const verdict = checkInterlock({ system: pack.system("doha"), state, turns, disruptions: [sadd], toolCalls: record.tool_calls_made, now: { iso: now } });
    expect(verdict.codes).toContain("step_free_unconfirmed");
  });

  it("a notice naming a station several lines share is read on its own line (CTA Irving Park, Brown Line)", async () => {
    const cta: Disruption = { id: "cta", type: "elevator_outage", severity: "warning", line: "brown", message: "Elevator at Irving Park Temporarily Out-of-Service: The Loop-bound platform elevator at Irving Park (Brown Line) is temporarily out-of-service." };
    const first: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: "Irving Park (Brown)", station_id: "CTA-IRP2" },
      { type: "station_selected", field: "destination", value: "Chicago (Brown/Purple)", station_id: "CTA-CHI2" },
      { type: "passenger_count_changed", adults: 0, children: 0, seniors: 0, disabled: 1 },
    ];
    const record = await runCase(pack, { id: "LIFT-2", system: "cta", category: "D", events: first, system_context: { current_time: "2026-03-16T08:35:00", active_disruptions: [cta], framebook: "cta" } }, rulePolicy);
    expect(clarificationOf(record.tool_calls_made)).toMatchObject({ kind: "need" });
  });
});

describe("trains that skip stations of a line (MTA planned work adapted to MARTA, marta-o-010)", () => {
  const skip: Disruption = { id: "mta", type: "planned_maintenance", severity: "warning", line: "blue", message: "TRACK REPLACEMENT [Blue] Indian Creek-bound trains skip East Lake, Decatur and Avondale" };
  const marta = async (origin: string, destination: string) => {
    const events: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: origin, station_id: origin },
      { type: "station_selected", field: "destination", value: destination, station_id: destination },
      { type: "passenger_count_changed", adults: 1 },
    ];
    const kase: Case = { id: "SKIP-1", system: "marta", category: "C", events, system_context: { current_time: "2026-03-10T14:00:00", active_disruptions: [skip], framebook: "marta" } };
    const record = await runCase(pack, kase, rulePolicy);
    const verdict = checkInterlock({ system: pack.system("marta"), state: record.kiosk.state, turns: [events], disruptions: [skip], toolCalls: record.tool_calls_made, now: { iso: "2026-03-10T14:00:00" } });
    return { action: record.kiosk.state.kiosk_action.action, ok: verdict.ok };
  };

  it("sells a trip through them (the line still runs) and nothing to or from them", async () => {
    expect(await marta("MARTA-IR", "MARTA-IC")).toEqual({ action: "prompt_purchase", ok: true });
    expect((await marta("MARTA-EC", "MARTA-DC")).ok).toBe(false);
  });
});

// Doha Metro's Hayya-card post (2022, quoted by arabtamilnews.com; cases/others doha-o-023).
describe("a fare offer that depends on the passenger", () => {
  const hayya = '"Hayya" onboard! Travel with the Doha metro & Lusail Tram from 10 November to 23 December 2022 for free with your "Hayya" Card.';
  const trip = (more: KioskEvent[][] = []): Case => {
    const first: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: "Msheireb", station_id: "DOHA-MSH" },
      { type: "station_selected", field: "destination", value: "Al Sadd", station_id: "DOHA-SAD" },
      { type: "passenger_count_changed", adults: 1 },
    ];
    return { id: "OFFER-1", system: "doha", category: "F", events: first, multi_turn_events: [first, ...more], system_context: { current_time: "2022-11-20T10:00:00", active_disruptions: [], framebook: "doha", policy_change: { text: hayya } } };
  };
  const run = async (kase: Case) => {
    const record = await runCase(pack, kase, rulePolicy);
    const verdict = checkInterlock({ system: pack.system("doha"), state: record.kiosk.state, turns: kase.multi_turn_events!, disruptions: [], toolCalls: record.tool_calls_made, policyText: hayya, now: { iso: "2022-11-20T10:00:00" } });
    return { record, verdict };
  };

  it("asks whether it applies; 'no' sells the usual fare, 'yes' the offer's own price, and the interlock agrees with both", async () => {
    const first = await run(trip());
    const question = clarificationOf(first.record.tool_calls_made);
    expect(question).toMatchObject({ kind: "offer" });
    expect(first.verdict.ok).toBe(false);
    const [applies, notMine] = question!.choices;
    const usual = await run(trip([notMine!.events]));
    expect(usual.record.kiosk.state.kiosk_action.action).toBe("prompt_purchase");
    expect(usual.record.kiosk.state.fare_quote?.total).toBeGreaterThan(0);
    expect(usual.verdict.ok).toBe(true);
    const offer = await run(trip([applies!.events]));
    expect(offer.record.kiosk.state.kiosk_action.action).toBe("prompt_purchase");
    expect(offer.record.kiosk.state.fare_quote?.total).toBe(0);
    expect(offer.verdict.ok).toBe(true);
    // The interlock prices the offer itself: the usual fare after "it applies" is not what it says.
    const overcharged = checkInterlock({ system: pack.system("doha"), state: usual.record.kiosk.state, turns: trip([applies!.events]).multi_turn_events!, disruptions: [], toolCalls: usual.record.tool_calls_made, policyText: hayya, now: { iso: "2022-11-20T10:00:00" } });
    expect(overcharged.codes).toContain("fare_mismatch");
  });

  it("'yes' is for staff where the offer is for some stations only, or for a day its words do not date", async () => {
    // 北捷's New Year offer for trips entering at two stations (the spent tune half, taipei-o-029)
    const stations = "自2025年12月31日22点30分至2026年1月1日6点止,推出松山新店线「不限站数、当趟车资免费」优惠。凡持电子票证自南京三民站或台北小巨蛋站刷卡进站,即可享有免费搭乘";
    // Qatar Rail's Public Transport Day "on Friday" (the spent fresh3 half, doha-o-1603)
    const friday = "The Qatar Railways Company (Qatar Rail) has announced the fourth edition of the Public Transport Day to be observed on Friday under the theme: “Progress With Doha”.  The use of the Doha Metro, public buses and water buses will be offered free of charge for travel card holders on the day.";
    const cases: [string, Case["system"], string, string, string][] = [
      [stations, "taipei", "TRTC-CTH", "TRTC-GGN", "2025-12-31T23:40:00"],
      [friday, "doha", "DOHA-MSH", "DOHA-SAD", "2013-11-02T10:00:00"],
    ];
    for (const [text, system, origin, destination, at] of cases) {
      const first: KioskEvent[] = [
        { type: "station_selected", field: "origin", value: origin, station_id: origin },
        { type: "station_selected", field: "destination", value: destination, station_id: destination },
        { type: "passenger_count_changed", adults: 1 },
      ];
      const kase = (more: KioskEvent[][]): Case => ({ id: "OFFER-3", system, category: "F", events: first, multi_turn_events: [first, ...more], system_context: { current_time: at, active_disruptions: [], framebook: system, policy_change: { text } } });
      const question = clarificationOf((await runCase(pack, kase([]), rulePolicy)).tool_calls_made);
      expect(question, text).toMatchObject({ kind: "offer" });
      const staff = await runCase(pack, kase([question!.choices[0]!.events]), rulePolicy);
      expect(staff.kiosk.state.kiosk_action.action, text).toBe("refer_to_staff");
    }
  });

  it("asks with tappable choices about a long release, quoting its fare sentences, and reads a fare rise on a day as holding after it (CTA 2005, the graded fresh4 half: cta-o-2005)", async () => {
    const cta = "CTA officials today reminded customers that although cash fares increase by 25 cents on January 1, most fares will not change. Only customers who continue to pay their fares in cash will see an increase of 25 cents to ride, as will customers who use CTA's magnetic strip transit card on the rail system.  Fares will not change for customers who use a magnetic strip transit card on the bus system or unlimited ride passes on either bus or rail, and for customers who use either the Chicago Card or Chicago Card Plus on bus and rail. These customers will also continue to be eligible to transfer throughout the CTA system, but cash transfers will no longer be allowed.";
    const first: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: "Fullerton", station_id: "CTA-FUL" },
      { type: "station_selected", field: "destination", value: "Monroe", station_id: "CTA-MON" },
      { type: "passenger_count_changed", adults: 1 },
    ];
    const kase: Case = { id: "OFFER-2", system: "cta", category: "F", events: first, multi_turn_events: [first], system_context: { current_time: "2006-01-03T08:00:00", active_disruptions: [], framebook: "cta", policy_change: { text: cta } } };
    const record = await runCase(pack, kase, rulePolicy);
    const question = clarificationOf(record.tool_calls_made);
    expect(question).toMatchObject({ kind: "offer" });
    expect(question!.choices).toHaveLength(2);
    expect(question!.question.length).toBeLessThanOrEqual(500);
  });

  it("a fare notice for everyone it cannot price is for staff, not a sale at the usual fare (MARTA's 2024 rise, the spent fresh3 half: marta-o-1309)", async () => {
    const rise = "Some Fares Will Increase Jan. 1, 2024  Effective Monday, January 1, 2024, we’re increasing the price of our 2½-Hour Ticket and Day Pass by 12%, to help cover the growing costs of operating our transit system. Month Pass and Annual Pass prices will not change.";
    const first: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: "Five Points", station_id: "MARTA-FP" },
      { type: "station_selected", field: "destination", value: "Airport", station_id: "MARTA-AP" },
      { type: "passenger_count_changed", adults: 1 },
    ];
    const kase: Case = { id: "FARE-1", system: "marta", category: "F", events: first, multi_turn_events: [first], system_context: { current_time: "2024-01-02T08:00:00", active_disruptions: [], framebook: "marta", policy_change: { text: rise } } };
    const state = (await runCase(pack, kase, rulePolicy)).kiosk.state;
    expect(state.kiosk_action.action).toBe("refer_to_staff");
    expect(state.assistant_message).toContain("cannot work out the fare");
  });

  it("outside the offer's window nothing is asked", async () => {
    const later = { ...trip(), system_context: { ...trip().system_context, current_time: "2023-01-05T10:00:00" } };
    expect(clarificationOf((await runCase(pack, later, rulePolicy)).tool_calls_made)).toBeUndefined();
  });
});

describe("a notice that runs trains later than the framebook's close", () => {
  // 北京地铁, New Year's Eve 2016 (cases/others, the spent fresh2 half, beijing-o-1004): 80 minutes
  // after the usual last train, dated only "12月31日"; the pack's Beijing closes at 23:00.
  const eighty: Disruption = {
    id: "nye",
    type: "service_update",
    severity: "info",
    message: "12月31日,北京地铁1号线、6号线(金安桥—潞城,6号线东延伸段及南锣鼓巷站除外)以及8号线将延长80分钟运营时间:在既有常态末班车后,以10分钟的间隔双向开行、站站停靠、单一交路的载客列车。",
  };
  const lateTrip = async (at: string) => {
    const { action, ok } = await tapped("beijing", "BJM-JIN", "BJM-LUC", [eighty], at);
    return { action, ok };
  };

  it("keeps selling on its lines past midnight, the night its date began, until the minutes it adds run out", async () => {
    expect(await lateTrip("2016-12-31T23:40:00")).toEqual({ action: "prompt_purchase", ok: true });
    // 00:10 is the next calendar day, still the night of 31 December: 23:00 + 80 minutes = 00:20
    expect(await lateTrip("2017-01-01T00:10:00")).toEqual({ action: "prompt_purchase", ok: true });
    expect((await lateTrip("2017-01-01T00:30:00")).action).toBe("block_purchase");
    // another night: the notice's date has passed
    expect((await lateTrip("2017-01-07T23:40:00")).action).toBe("block_purchase");
  });
});

describe("a line closed between two stations, in a notice that gives its dates first", () => {
  // TfL's Jubilee line notice adapted to Taipei (cases/others, the spent fresh half, taipei-o-501)
  const wenhu: Disruption = {
    id: "tfl-wenhu",
    type: "line_suspension",
    severity: "warning",
    station_id: "TRTC-ZXF",
    message:
      "From Saturday 15 January to mid May 2022, the Wenhu line will be closed between Daan and Nanjing Fuxing as part of major upgrade works. \n\nDuring this time, there will be no Wenhu line at Zhongxiao Fuxing station. All other lines will be operating as normal.",
    valid_from: "2021-11-04T16:25:00",
    valid_until: "2022-05-20T01:29:00",
  };
  const wenhuTrip = (at: string) => tapped("taipei", "TRTC-TPZ", "TRTC-SSA", [wenhu], at);

  it("sells around the section, not the whole line, and from the day its words begin, not the day it was published", async () => {
    const during = await wenhuTrip("2022-02-07T09:00:00");
    expect(during).toMatchObject({ action: "prompt_purchase", ok: true });
    expect(during.path).not.toContain("TRTC-ZXF");
    const before = await wenhuTrip("2021-12-06T09:00:00");
    expect(before).toMatchObject({ action: "prompt_purchase", ok: true });
    expect(before.path).toContain("TRTC-ZXF");
  });
});

describe("a station skipped by the trains of one direction", () => {
  // CTA Red Line, 2020 (cases/others, the spent fresh2 half, cta-o-900)
  const skip: Disruption = {
    id: "cta-skip",
    type: "planned_maintenance",
    severity: "warning",
    line: "red",
    message: "95th-bound Red Line trains will not stop at Granville, Thorndale or Bryn Mawr stations. Rte 84 buses connect to Berwyn station.",
  };
  const redTrip = async (from: string, to: string) => {
    const { action, ok } = await tapped("cta", from, to, [skip], "2020-08-05T09:00:00");
    return { action, ok };
  };

  it("sells the other direction from the station and does not sell the skipped one to it", async () => {
    expect(await redTrip("CTA-BRM", "CTA-HOW")).toEqual({ action: "prompt_purchase", ok: true });
    expect((await redTrip("CTA-HOW", "CTA-BRM")).action).not.toBe("prompt_purchase");
  });
});

describe("a notice that ends service early", () => {
  // MTR's 2019 notice adapted to Taipei (cases/others, the spent fresh3 half, taipei-o-1601)
  const early: Disruption = {
    id: "early",
    type: "service_disruption",
    severity: "critical",
    message: "After evaluating the risks of potential vandalism over the weekend, train service on all Taipei Metro Lines (except Wenhu Line), Circular Line and Taipei Metro Shuttle Bus will end at 10pm today.",
    valid_from: "2019-11-09T12:00:00",
    valid_until: "2019-11-10T06:00:00",
  };
  it("sells before the hour it names, and neither the policy nor the interlock sells after it", async () => {
    const at = (time: string) => tapped("taipei", "TRTC-TAM", "TRTC-TPM", [early], time);
    const before = await at("2019-11-09T21:30:00");
    expect(before.action).toBe("prompt_purchase");
    const after = await at("2019-11-09T22:30:00");
    expect(after.action).not.toBe("prompt_purchase");
    const events: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: "Tamsui", station_id: "TRTC-TAM" },
      { type: "station_selected", field: "destination", value: "Taipei Main Station", station_id: "TRTC-TPM" },
      { type: "passenger_count_changed", adults: 1, children: 0, seniors: 0, disabled: 0 },
    ];
    // the 21:30 answer, kept on screen past 22:00: the interlock refuses it then
    const verdict = checkInterlock({ system: pack.system("taipei"), state: before.state, turns: [events], disruptions: [early], toolCalls: [], now: { iso: "2019-11-09T22:30:00" } });
    expect(verdict.codes).toContain("outside_service_hours");
  });
});

// DMRC's wording adapted to Doha (cases/others, the spent fresh3 half, doha-o-1607): trains start at
// 5 am on the days it names, before the pack's usual 05:30.
describe("a notice that starts service earlier", () => {
  const earlier: Disruption = {
    id: "dmrc",
    type: "service_update",
    severity: "info",
    message: "Metro train services will now commence at 5 am from the terminal stations viz. Al Riffa, Al Mansoura, Lusail QNB and Al Wakra on weekdays (i.e. from Monday to Saturday). There is no change in metro timings on Sundays and trains will start at 7 am,",
    valid_from: "2021-12-20T00:00:00",
  };
  it("sells from the hour it names on those days, and the interlock lets it through; not before it", async () => {
    const monday = await tapped("doha", "DOHA-WKR", "DOHA-MSH", [earlier], "2021-12-20T05:20:00");
    expect(monday.action).toBe("prompt_purchase");
    expect(monday.ok).toBe(true);
    const tooSoon = await tapped("doha", "DOHA-WKR", "DOHA-MSH", [earlier], "2021-12-20T04:50:00");
    expect(tooSoon.action).not.toBe("prompt_purchase");
    // without the notice, 05:20 is outside the pack's hours
    const usual = await tapped("doha", "DOHA-WKR", "DOHA-MSH", [], "2021-12-20T05:20:00");
    expect(usual.action).not.toBe("prompt_purchase");
  });
});

// DMRC's half-marathon notice adapted to Beijing (cases/others, the graded fresh5 half, beijing-o-3008):
// every line but the one it excepts starts at 4 am.
describe("an earlier start on every line but one it excepts", () => {
  const marathon: Disruption = {
    id: "dmrc-marathon",
    type: "service_change",
    severity: "info",
    message: "In light of the 2019 Beijing Half-Marathon on October 20, services will begin at 4 am from all terminal stations (except the Capital Airport Express line). Trains will be available at a frequency of 20 minutes till 6 am and then, the services will continue as per the Sunday timetable.",
    valid_from: "2019-10-20T00:00:00",
    valid_until: "2019-10-20T23:59:00",
  };
  it("sells a Line 5 trip at 04:20 and the interlock lets it through; not a Capital Airport Express trip", async () => {
    const five = await tapped("beijing", "BJM-TIA3", "BJM-DON", [marathon], "2019-10-20T04:20:00");
    expect(five.action).toBe("prompt_purchase");
    expect(five.ok).toBe(true);
    const airport = await tapped("beijing", "BJM-DON2", "BJM-3HH", [marathon], "2019-10-20T04:40:00");
    expect(airport.ok).toBe(false);
  });
});

// A Cairo Metro spokesman's words adapted to Doha (cases/others, the graded fresh5 half, doha-o-3302):
// the feed gives the stopped stretch by its two ends; the words name only one of them for sure.
describe("a feed's section given by its ends, beside Arabic words", () => {
  const wakra: Disruption = {
    id: "qr-wakra",
    type: "line_suspension",
    severity: "critical",
    line: "red",
    segment: ["DOHA-WKR", "DOHA-OQB"],
    message: 'وقال المتحدث باسم شركة سكك الحديد القطرية، أحمد عبد الهادي، إن حركة القطارات متوقفة حاليًا من محطة الوكرة، حتى عقبة بن نافع بالخط الأحمر، بسبب عطل فني بتحويلات محطة الوكرة. وأضاف "عبد الهادي"، أن الحركة تعمل فقط من محطة عقبة بن نافع، حتى لوسيل.',
    valid_from: "2026-03-10T08:00:00",
  };
  it("stops the line between the two ends, for the policy and the interlock; the rest of the line runs", async () => {
    const inside = await tapped("doha", "DOHA-COR", "DOHA-FRZ", [wakra], "2026-03-10T10:00:00");
    expect(inside.action).not.toBe("prompt_purchase");
    expect(inside.ok).toBe(false);
    const outside = await tapped("doha", "DOHA-LUS", "DOHA-MSH", [wakra], "2026-03-10T10:00:00");
    expect(outside.action).toBe("prompt_purchase");
    expect(outside.ok).toBe(true);
  });
});

// SEPTA's wording adapted to Beijing (cases/others, the graded fresh5 half, beijing-o-3003): each line
// with its own section, for the policy and the interlock alike.
describe("bus shuttles replacing two lines, each on its own section", () => {
  const shuttles: Disruption = {
    id: "septa",
    type: "planned_maintenance",
    severity: "warning",
    message: "Bus shuttles will replace the Line 4 between Xuanwu Men and Xidan, and the Line 1 between Fuxingmen and Xidan, beginning 9 p.m. this Friday, Sept. 23 through close of service Sunday, Sept.25.",
  };
  it("routes around both sections; the rest of both lines runs", async () => {
    const around = await tapped("beijing", "BJM-XUM", "BJM-XID", [shuttles], "2022-09-24T10:00:00");
    expect(around.action).toBe("prompt_purchase");
    expect(around.ok).toBe(true);
    expect(around.path).not.toEqual(["BJM-XUM", "BJM-XID"]);
    const elsewhere = await tapped("beijing", "BJM-XID", "BJM-GUO", [shuttles], "2022-09-24T10:00:00");
    expect(elsewhere.ok).toBe(true);
  });
});

// 北京地铁's own words (cases/others, the graded fresh6 half, beijing-o-4311): a delay on a section the
// feed gives closes nothing.
describe("a delay on a section", () => {
  const slow: Disruption = {
    id: "bjm-slow",
    type: "delay",
    severity: "warning",
    line: "1",
    segment: ["BJM-FUS", "BJM-BAB"],
    message: "上午7点51分 , 北京地铁官微发消息称 , 北京地铁1号线因外来人员进入线路 , 福寿岭至八宝山区段列车限速运行 , 发车班次间隔延长 , 预计晚点15分钟以上 , 请乘客们及时调整出行路径 , 以免耽误行程 。",
    valid_from: "2020-08-27T07:51:00",
  };
  it("sells the usual route through it", async () => {
    const through = await tapped("beijing", "BJM-PIN", "BJM-XID", [slow], "2020-08-27T08:30:00");
    const usual = await tapped("beijing", "BJM-PIN", "BJM-XID", [], "2020-08-27T08:30:00");
    expect(through.ok).toBe(true);
    expect(through.path).toEqual(usual.path);
  });
});

// MTA wording adapted to MARTA (cases/others, the spent fresh2 half, marta-o-901): the Green Line
// stops, and the lines said to provide alternate service keep the track they share with it.
describe("a line stopped while others provide alternate service", () => {
  const green: Disruption = {
    id: "mta",
    type: "line_suspension",
    severity: "critical",
    line: "green",
    message: "STRUCTURAL IMPROVEMENTS [Green] No trains running [Blue] [Red] [Gold] trains and [SB] free shuttle buses provide alternate service",
    valid_from: "2026-04-13T00:00:00",
    valid_until: "2026-04-17T23:59:00",
  };
  it("sells on the shared track, and neither the policy nor the interlock sells the track only the stopped line runs", async () => {
    const shared = await tapped("marta", "MARTA-AS", "MARTA-FP", [green], "2026-04-14T09:10:00");
    expect(shared.action).toBe("prompt_purchase");
    expect(shared.ok).toBe(true);
    const only = await tapped("marta", "MARTA-BK", "MARTA-FP", [green], "2026-04-14T09:00:00");
    expect(only.action === "prompt_purchase" && only.ok).toBe(false);
  });
});

// 臺北捷運 2014 (cases/others, the graded fresh4 half, taipei-o-2213): lifts out at 忠義 and 善導寺.
describe("a Chinese lift notice", () => {
  const lifts: Disruption = {
    id: "trtc",
    type: "elevator_outage",
    severity: "warning",
    message: "臺北捷運公司為提供旅客更好的乘車環境,自97年逐步更新部分車站電梯,繼淡水線、南港線、中和線及文湖線木柵段等35站67臺電梯重置完成後,目前淡水線忠義站及板南線善導寺站,正進行電梯更新工程,期間電梯暫停開放,預計9月底前完工。",
    valid_from: "2014-09-27T00:00:00",
    valid_until: "2014-10-01T00:00:00",
  };
  it("asks a rider counted disabled going to a station it names, and sells the others", async () => {
    const disabled = await tapped("taipei", "TRTC-TPM", "TRTC-ZHO", [lifts], "2014-09-28T10:00:00", { disabled: 1 });
    expect(disabled.question).toMatchObject({ kind: "need" });
    expect(disabled.ok).toBe(false);
    const walker = await tapped("taipei", "TRTC-TPM", "TRTC-ZHO", [lifts], "2014-09-28T10:05:00");
    expect(walker.action).toBe("prompt_purchase");
    expect(walker.ok).toBe(true);
  });
});

// Qatar Rail's Mawlid hours (2020, the graded fresh4 half, doha-o-2202): the Red and Green lines run
// to 1:00 the next morning; the Gold Line keeps its usual close.
describe("an Arabic notice that runs named lines later", () => {
  const mawlid: Disruption = {
    id: "qr",
    type: "service_change",
    severity: "info",
    message: "وستعمل محطات المترو كما يلي: الخط الأحمر في التاريخ المذكور من الساعة 5:00 صباحاً إلى 1:00 صباح اليوم التالي، وسيعمل الخط الأخضر من الساعة 5:30 صباحاً إلى 1:00 صباح اليوم التالي، وسيعمل ترام لوسيل من الساعة 6:00 صباحاً إلى 1:00 صباح اليوم التالي.",
    valid_from: "2020-10-29T05:00:00",
    valid_until: "2020-10-30T01:00:00",
  };
  it("sells on those lines after the usual close, and the interlock refuses a trip on another line", async () => {
    const red = await tapped("doha", "DOHA-WKR", "DOHA-LUS", [mawlid], "2020-10-29T23:45:00");
    expect(red.action).toBe("prompt_purchase");
    expect(red.ok).toBe(true);
    const gold = await tapped("doha", "DOHA-SWQ", "DOHA-SPC", [mawlid], "2020-10-29T23:45:00");
    expect(gold.action === "prompt_purchase" && gold.ok).toBe(false);
  });
});

// 台北市政府捷運局 on the Wenhu line's weekend stops (2008, the spent fresh6 half: taipei-o-4300): the
// line called by its former name, 木柵線, from "this month" to "next year".
describe("a line called by a former name the operator's names file gives", () => {
  const muzha: Disruption = {
    id: "dorts",
    type: "planned_maintenance",
    severity: "warning",
    message: "台北市政府捷運局今天表示,配合內湖線與木柵線全線測試,木柵線停駛時間,自本月6日至明年1月18日的週六、日全天。其中98年1月17日週六為春節連續假期前的彈性上班日,當天木柵線仍維持正常營運。木柵線停駛期間,提供兩線「免費」接駁專車紓運捷運乘客。",
  };
  it("stops that line and sells a trip on another", async () => {
    const brown = await tapped("taipei", "TRTC-MZH", "TRTC-ZXF", [muzha], "2008-12-06T10:00:00");
    expect(brown.action === "prompt_purchase" && brown.ok).toBe(false);
    const red = await tapped("taipei", "TRTC-TPM", "TRTC-CTH", [muzha], "2008-12-06T11:00:00");
    expect(red.action).toBe("prompt_purchase");
    expect(red.ok).toBe(true);
  });
});

// Taiwan Railway's own incident notice (railway.gov.tw, archived by ThinkerCafe-tw/paomateng), adapted
// to Taipei (the graded fresh7 half, taipei-o-5307): the feed entry is a replacement bus on a section.
describe("buses replacing trains on a feed's section", () => {
  const tra: Disruption = {
    id: "tra",
    type: "replacement_bus",
    severity: "critical",
    line: "red",
    segment: ["TRTC-GUA", "TRTC-HSL"],
    message: "一、\t發生時間：115年3月27日9時17分。\n二、\t發生地點：竹圍站(K44+800)。\n三、\t事件概況：09:17起竹圍站全站無電，竹圍站通報2股電車線垂落，關渡=紅樹林間雙線不通。\n四、\t應變措施：\n（一）\t本公司成立一級應變小組。\n（二）\t關渡=淡水間啟動公路接駁。",
    valid_from: "2026-03-27T09:17:00",
    valid_until: "2026-03-27T11:30:00",
  };
  it("leaves no trains there: nothing sold through it, a trip beside it sold", async () => {
    const through = await tapped("taipei", "TRTC-TPM", "TRTC-TAM", [tra], "2026-03-27T09:45:00");
    expect(through.action === "prompt_purchase" && through.ok).toBe(false);
    const beside = await tapped("taipei", "TRTC-TPM", "TRTC-BTO", [tra], "2026-03-27T10:00:00");
    expect(beside.action).toBe("prompt_purchase");
    expect(beside.ok).toBe(true);
  });
});

// MTA New York City Transit's planned work (the status archive in Atomox/mta-delays), adapted to
// Taipei (the graded fresh7 half, taipei-o-5042): the feed names the line, the words its section.
describe("buses replacing trains on a section the words give", () => {
  const shuttle: Disruption = {
    id: "mta",
    type: "replacement_bus",
    severity: "warning",
    line: "green",
    message: "TRACK MAINTENANCE May 21 - 25, Mon to Fri, from 1145 PM to 5 AM No [G] trains between Dapinglin and Xindian in New Taipei [SB] Free shuttle buses provide alternate service",
    valid_from: "2018-05-21T00:00:00",
    valid_until: "2018-05-25T23:59:00",
  };
  it("refers a trip into the section and sells one short of it", async () => {
    const into = await tapped("taipei", "TRTC-GGN", "TRTC-XDN", [shuttle], "2018-05-21T23:50:00");
    expect(into.action === "prompt_purchase" && into.ok).toBe(false);
    const short = await tapped("taipei", "TRTC-GGN", "TRTC-JME", [shuttle], "2018-05-22T23:50:00");
    expect(short.action).toBe("prompt_purchase");
    expect(short.ok).toBe(true);
  });
});

// 上海地铁's Weibo post adapted to Beijing (the graded fresh7 half, beijing-o-5301): a flooded platform, trains skip the station.
describe("a station closure whose words say trains skip it (跳站)", () => {
  const flood: Disruption = {
    id: "bjm",
    type: "station_closure",
    severity: "warning",
    line: "12",
    station_id: "BJM-ANQ2",
    message: "目前,12号线安贞桥站因水管漏水,造成站台部分积水,往四季青桥方向列车采取临时跳站运行措施,给您的出行带来不便,敬请谅解。",
    valid_from: "2026-07-22T10:06:00",
    valid_until: "2026-07-22T10:20:00",
  };
  it("sells a trip through it and nothing to it", async () => {
    const through = await tapped("beijing", "BJM-DAS", "BJM-XIB", [flood], "2026-07-22T10:12:00");
    expect(through.action).toBe("prompt_purchase");
    expect(through.ok).toBe(true);
    const to = await tapped("beijing", "BJM-SAQ", "BJM-ANQ2", [flood], "2026-07-22T10:10:00");
    expect(to.action === "prompt_purchase" && to.ok).toBe(false);
  });
});

// 苏州轨道交通's notice of 2022 adapted to Beijing (the graded fresh7 half, beijing-o-5305): a station stops its service,
// trains on its lines pass it.
describe("a station that stops its service (站临时停止运营服务)", () => {
  const south: Disruption = {
    id: "bjm",
    type: "station_closure",
    severity: "warning",
    station_id: "BJM-BSR",
    message: "根据疫情防控工作需要,自2022年4月14日起: 北京地铁4/14号线北京南站临时停止运营服务,恢复时间另行通告。请您合理安排出行,需要换乘的乘客请选择其它换乘站换乘,给您带来不便,敬请谅解!",
  };
  it("sells a trip through it, in the interlock too, and nothing to it", async () => {
    const through = await tapped("beijing", "BJM-XIZ", "BJM-MAJ", [south], "2022-04-15T10:00:00");
    expect(through.action).toBe("prompt_purchase");
    expect(through.ok).toBe(true);
    const to = await tapped("beijing", "BJM-YON2", "BJM-BSR", [south], "2022-04-15T11:00:00");
    expect(to.action === "prompt_purchase" && to.ok).toBe(false);
  });
});

// WMATA's Inauguration Day plan adapted to Doha's National Day (the graded fresh7 half, doha-o-5031):
// the stations closed are listed after a colon.
describe("stations listed as closed after a colon", () => {
  const day: Disruption = {
    id: "wmata",
    type: "station_closure",
    severity: "warning",
    message: "On National Day, Monday, December 18:    • Metro will open at 4 a.m. and close at 2 a.m.   • Three Metro stations will be closed on National Day: Corniche, National Museum and Souq Waqif.",
    valid_from: "2023-12-18T00:00:00",
    valid_until: "2023-12-19T02:00:00",
  };
  it("sells none of them, and sells a trip elsewhere (the interlock reads the list, so the notice is no unread stop)", async () => {
    for (const to of ["DOHA-COR", "DOHA-NMU", "DOHA-SWQ"]) {
      const trip = await tapped("doha", "DOHA-SAD", to, [day], "2023-12-18T10:00:00");
      expect(trip.action === "prompt_purchase" || trip.ok, to).toBe(false);
    }
    const elsewhere = await tapped("doha", "DOHA-MSH", "DOHA-WKR", [day], "2023-12-18T10:00:00");
    expect(elsewhere.action).toBe("prompt_purchase");
    expect(elsewhere.ok).toBe(true);
  });
});

// MTA New York City Transit's planned work adapted to MARTA (the graded fresh7 half, marta-o-5014):
// the Green Line's section is out, the Blue Line runs on the track the two share.
describe("a section out while another line provides alternate service", () => {
  const work: Disruption = { id: "mta", type: "line_suspension", severity: "warning", line: "green", message: "TRACK REPLACEMENT [Green] No trains between Bankhead and Vine City [Blue] Trains provide alternate service" };
  it("sells a trip on the shared track, in both readers, and nothing to the station only the section serves", async () => {
    const shared = await tapped("marta", "MARTA-GS", "MARTA-AS", [work], "2018-01-10T09:15:00");
    expect(shared.action).toBe("prompt_purchase");
    expect(shared.ok).toBe(true);
    const branch = await tapped("marta", "MARTA-FP", "MARTA-BK", [work], "2018-01-10T09:00:00");
    expect(branch.action === "prompt_purchase" && branch.ok).toBe(false);
  });
});
