// The interlock checks facts, not a policy's reading (issue 13, part 1 and findings 2, 5, 7): a
// model answer that ignores a closure, the service hours, the riders the passenger typed, step-free
// needs or the bounds of a fare is blocked, with codes the screen explains.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Disruption, KioskEvent } from "../../tools/data/schemas.ts";
import type { AssistantState } from "../contract/index.ts";
import { AnswerPipeline } from "../answer/pipeline.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { INTERLOCK_CODES } from "./bridge.ts";
import { checkInterlock, type InterlockInput } from "./interlock.ts";
import { liveClosures, readDisruption } from "./interlock/service.ts";
import { KioskService } from "./service.ts";
import { caseById, testPack } from "./testing.ts";

const pack = testPack();

/**
 * What a model that ignores the live conditions would answer: the rule policy run at 14:00 with
 * no disruptions and no step-free need, for the case's events.
 */
async function ignorantAnswer(caseId: string, events?: KioskEvent[]): Promise<InterlockInput> {
  const kase = caseById(caseId);
  const service = new KioskService({ pack, pipeline: new AnswerPipeline({ rule: rulePolicy, profile: pack.promptProfile() }), conditions: () => ({ now: new Date(2026, 2, 9, 14, 0, 0), disruptions: [] }) });
  const turns = [events ?? kase.events];
  const result = await service.start({ system: kase.system, events: turns[0]! });
  return {
    system: pack.system(kase.system),
    state: result.record.kiosk.state,
    turns,
    disruptions: kase.system_context.active_disruptions,
    toolCalls: result.record.tool_calls_made,
    now: { iso: kase.system_context.temporal_context?.current_time || kase.system_context.current_time, day: kase.system_context.temporal_context?.day_of_week ?? null },
    accessibilityMode: kase.system_context.accessibility_mode === true,
  };
}

function edited(input: InterlockInput, edit: (s: AssistantState) => void): InterlockInput {
  const state = structuredClone(input.state);
  edit(state);
  return { ...input, state };
}

describe("interlock: it imports nothing from any policy", () => {
  it("runtime/kiosk/interlock.ts and interlock/* have no runtime/policies import", () => {
    const dir = path.join(import.meta.dirname, "interlock");
    const files = [path.join(import.meta.dirname, "interlock.ts"), ...readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).map((f) => path.join(dir, f))];
    for (const file of files) {
      const imports = [...readFileSync(file, "utf8").matchAll(/^import[^;]*from\s+"([^"]+)"/gm)].map((m) => m[1]!);
      expect(imports.filter((i) => i.includes("policies")), file).toEqual([]);
    }
  });
});

describe("interlock: closures and service hours from the framebook and the live feed (finding 2)", () => {
  it("blocks BART 12th St Oakland → Embarcadero through the closed Transbay Tube", async () => {
    const input = await ignorantAnswer("BART-C-006");
    expect(input.state.kiosk_action.action).toBe("prompt_purchase");
    const verdict = checkInterlock(input);
    expect(verdict.ok).toBe(false);
    expect(verdict.codes).toContain("track_closed");
    expect(verdict.problems.find((p) => p.startsWith("track_closed"))).toMatch(/BART-WOAK-BART-EMBR/);
    // The same answer with the tube open (no closure in the feed or on screen) is sold.
    expect(checkInterlock({ ...input, disruptions: [], turns: [input.turns[0]!.filter((e) => e.type !== "disruption_update")] }).ok).toBe(true);
  });

  it("blocks MARTA at 03:00 (outside 05:00–01:00), allows 00:30 (yesterday's service still running)", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    const night = checkInterlock({ ...input, now: { iso: "2026-03-14T03:00:00" } });
    expect(night.codes).toEqual(["outside_service_hours"]);
    expect(checkInterlock({ ...input, now: { iso: "2026-03-14T00:30:00" } }).ok).toBe(true);
    expect(checkInterlock({ ...input, now: { iso: "2026-03-14T05:00:00" } }).ok).toBe(true);
    // A clock the kiosk cannot read blocks too.
    expect(checkInterlock({ ...input, now: { iso: "not a time" } }).codes).toEqual(["service_hours_unknown"]);
  });

  it("outside service hours sells only on the framebook's 24-hour lines (CTA Red yes, Orange no)", async () => {
    const red = await ignorantAnswer("CTA-A-001", [
      { type: "station_selected", field: "origin", value: "63rd", station_id: "CTA-63R" },
      { type: "station_selected", field: "destination", value: "95th/Dan Ryan", station_id: "CTA-95D" },
    ]);
    expect(checkInterlock({ ...red, now: { iso: "2026-03-11T02:00:00" } }).ok).toBe(true);
    const orange = await ignorantAnswer("CTA-A-001", [
      { type: "station_selected", field: "origin", value: "Midway", station_id: "CTA-MID" },
      { type: "station_selected", field: "destination", value: "Roosevelt", station_id: "CTA-RSV" },
    ]);
    expect(checkInterlock({ ...orange, now: { iso: "2026-03-11T02:00:00" } }).codes).toEqual(["outside_service_hours"]);
  });

  it("sells after the usual last train while a notice keeps trains running later, only on the lines it names", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    const night = { ...input, now: { iso: "2026-03-14T03:00:00" } };
    const later = (message: string): Disruption[] => [{ id: "late", type: "service_change", severity: "info", message } as Disruption];
    expect(checkInterlock({ ...night, disruptions: later("Trains will run until 4 am tonight.") }).ok).toBe(true);
    expect(checkInterlock({ ...night, disruptions: later("Trains will run until 2 am tonight.") }).codes).toEqual(["outside_service_hours"]);
    // Airport → Five Points rides Red/Gold track: a later Blue Line does not carry it
    expect(checkInterlock({ ...night, disruptions: later("Blue Line trains will run until 4 am tonight.") }).codes).toEqual(["outside_service_hours"]);
    expect(checkInterlock({ ...night, disruptions: later("Gold Line trains will run until 4 am tonight.") }).ok).toBe(true);
  });

  it("blocks a suspended system, a suspended line and a closed end station, read from the feed", async () => {
    const hurricane = checkInterlock(await ignorantAnswer("MARTA-C-014"));
    expect(hurricane.codes).toContain("system_suspended");
    // "Green Line service suspended": the answer rides the Green Line from Edgewood/Candler Park.
    const green = checkInterlock(await ignorantAnswer("MARTA-C-012"));
    expect(green.codes).toContain("line_suspended");
    // Red and Gold share the track from Airport: a suspended line closes the shared track (as the
    // benchmark's planner closes lines), whatever line the route says it rides; Blue does not share it.
    const airport = await ignorantAnswer("MARTA-A-001");
    const feed = (message: string): Disruption[] => [{ id: "x", type: "hurricane_warning", severity: "warning", line: null, segment: null, message }];
    const trunk = edited(airport, (s) => s.route!.stops.forEach((stop) => (stop.line = "red")));
    expect(checkInterlock({ ...trunk, disruptions: feed("Gold Line service suspended. Red Line operating normally.") }).codes).toEqual(["line_suspended"]);
    expect(checkInterlock({ ...trunk, disruptions: feed("Blue Line service suspended. Red, Gold and Green lines operating normally.") }).ok).toBe(true);
    // Five Points closed, trains skip it: the Airport → Indian Creek answer changes lines there.
    const fivePoints = checkInterlock(await ignorantAnswer("MARTA-C-001"));
    expect(fivePoints.codes).toContain("station_closed");
    // An advisory that says the lines run normally blocks nothing.
    const advisory = checkInterlock(await ignorantAnswer("MARTA-C-011"));
    expect(advisory.ok).toBe(true);
  });

  it("a closure of part of a line, named in its message, closes that part only (MARTA-C-007)", async () => {
    // "Blue Line: No late-night service between East Lake and Indian Creek", segment East Lake–Indian Creek.
    const through = checkInterlock(await ignorantAnswer("MARTA-C-007"));
    expect(through.codes).toEqual(["track_closed"]);
    expect(through.problems.some((p) => p.includes("MARTA-EL-MARTA-EC") || p.includes("MARTA-EC-MARTA-EL"))).toBe(false);
    // East Lake → Five Points rides the Blue Line outside the segment: it is sold.
    const kase = caseById("MARTA-C-007");
    const events: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: "East Lake", station_id: "MARTA-EL" },
      { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
      { type: "passenger_count_changed", adults: 1 },
    ];
    const outside = await ignorantAnswer("MARTA-C-007", events);
    expect(outside.state.route?.stops.map((s) => s.station_id)).toEqual(["MARTA-EL", "MARTA-EC", "MARTA-IR", "MARTA-KM", "MARTA-GS", "MARTA-FP"]);
    expect(checkInterlock({ ...outside, disruptions: kase.system_context.active_disruptions }).problems).toEqual([]);
    // Without a segment, the section the message names ("between East Lake and Indian Creek") closes;
    // without one in the words either, the line closes whole.
    const noSegment = kase.system_context.active_disruptions.map((d) => ({ ...d, segment: null }));
    expect(checkInterlock({ ...outside, disruptions: noSegment }).problems).toEqual([]);
    const wholeLine = noSegment.map((d) => ({ ...d, message: "Blue Line: no late-night service due to signal upgrade work." }));
    expect(checkInterlock({ ...outside, disruptions: wholeLine }).codes).toEqual(["line_suspended"]);
  });

  it("fails closed on a notice that says service stops but not where (issue 12, part 3)", async () => {
    const airport = await ignorantAnswer("MARTA-A-001");
    const feed = (message: string, type = "service_alert"): Disruption[] => [{ id: "n1", type, severity: "warning", line: null, segment: null, message }];
    // Our own wordings: each says trains stop, none names a line, station or "all service".
    for (const message of [
      "Because of a power cut every train has stopped where it is.",
      "Flooding: the metro is shut until further notice.",
      "Trains cancelled today after a storm brought down the overhead wires.",
      "Police have evacuated the network; nothing is running.",
      "No metro service this evening because of a strike.",
    ]) {
      expect(checkInterlock({ ...airport, disruptions: feed(message) }).codes, message).toEqual(["disruption_unmapped"]);
    }
    // A structured closure type with no scope the kiosk can map is a notice it cannot check either.
    expect(checkInterlock({ ...airport, disruptions: feed("Service change.", "line_suspension") }).codes).toEqual(["disruption_unmapped"]);
    // Notices that stop nothing, or that the kiosk maps, do not stop every sale.
    for (const message of ["Expect delays of about 10 minutes due to a signal problem.", "Reduced service: trains every 20 minutes this weekend.", "Elevator out of service at Five Points station."]) {
      expect(checkInterlock({ ...airport, disruptions: feed(message) }).problems, message).toEqual([]);
    }
    expect(checkInterlock({ ...airport, disruptions: feed("Blue Line service suspended.") }).ok).toBe(true);
  });

  it("an unread notice touches only the trips of the lines it names, and the operator's decision on it holds", async () => {
    const airport = await ignorantAnswer("MARTA-A-001");
    const notice = (extra: Partial<Disruption>): Disruption[] => [{ id: "u1", type: "service_alert", severity: "warning", line: null, segment: null, message: "Trains are stopped because of police activity.", ...extra }];
    // Its own line, or a line named in its words, is where it may stop trains: other lines' trips are sold.
    expect(checkInterlock({ ...airport, disruptions: notice({ line: "blue" }) }).problems).toEqual([]);
    expect(checkInterlock({ ...airport, disruptions: notice({ message: "Green Line trains are stopped because of police activity." }) }).problems).toEqual([]);
    expect(checkInterlock({ ...airport, disruptions: notice({ line: "gold" }) }).codes).toEqual(["disruption_unmapped"]);
    expect(checkInterlock({ ...airport, disruptions: notice({ line: "gold" }) }).problems[0]).toContain("on gold, but not where");
    // Naming no line, it may touch every trip.
    expect(checkInterlock({ ...airport, disruptions: notice({}) }).codes).toEqual(["disruption_unmapped"]);
    // The operator decided: refer (as unconfirmed), block, or act only on what was read.
    expect(checkInterlock({ ...airport, disruptions: notice({ if_unread: "refer" }) }).codes).toEqual(["disruption_unmapped"]);
    expect(checkInterlock({ ...airport, disruptions: notice({ if_unread: "block" }) }).codes).toEqual(["disruption_blocked"]);
    expect(checkInterlock({ ...airport, disruptions: notice({ if_unread: "ignore" }) }).problems).toEqual([]);
    // A measure taken only if something happens is no unread stop (北京's flood notice); "after the
    // last train, stations are exit-only" is one — the same notice moves the last train to 19:00.
    const beijing = pack.system("beijing");
    expect(readDisruption(beijing, { id: "f", type: "service_alert", severity: "warning", message: "遇极端情况,将立即采取封闭车站出入口、封闭车站、区段停运等措施,全力保障乘客人身财产安全。" }).unread).toEqual([]);
    expect(readDisruption(beijing, { id: "l", type: "service_alert", severity: "warning", message: "北京地铁各线路两端站点末班车将进一步延长至19点。各站末班车发出后,车站将只出不进。" }).unread).toHaveLength(1);
    // Ignoring the unread words keeps what was read: a named closure still stops its trips.
    expect(checkInterlock({ ...airport, disruptions: notice({ if_unread: "ignore", type: "station_closure", station_id: "MARTA-AP", message: "Airport station closed." }) }).codes).toEqual(["station_closed"]);
  });

  it("a closed station whose name carries a line's word ('Chicago (Brown)') closes the station, not its line", () => {
    const cta = pack.system("cta");
    const named = cta.stations.filter((s) => /\((?:Brown|Red)\)$/.test(s.name)).slice(0, 4);
    expect(named.length).toBeGreaterThan(1);
    for (const s of named) {
      const read = readDisruption(cta, { id: "c", type: "station_closure", severity: "critical", station_id: s.id, message: `${s.name} station closed: trains pass through without stopping.` });
      expect([...read.lines.keys()], s.name).toEqual([]);
      expect([...read.stations.keys()], s.name).toEqual([s.id]);
    }
    // The line itself, named, still closes.
    expect([...readDisruption(cta, { id: "l", type: "service_alert", severity: "critical", message: "Brown Line trains are suspended." }).lines.keys()]).toEqual(["brown"]);
  });

  it("a line named only in a notice's words: the section it names closes, the rest of the line still sells", async () => {
    const airport = await ignorantAnswer("MARTA-A-001");
    expect(airport.state.route?.stops[0]?.station_id).toBe("MARTA-AP");
    const feed = (message: string): Disruption[] => [{ id: "t1", type: "planned_maintenance", severity: "warning", line: null, segment: null, message }];
    for (const message of ["There are no Red Line trains from Garnett to Airport this weekend.", "Gold Line is shut between Airport and West End today."]) {
      expect(checkInterlock({ ...airport, disruptions: feed(message) }).codes, message).toEqual(["track_closed"]);
    }
    expect(checkInterlock({ ...airport, disruptions: feed("Red and Gold trains not operating today.") }).codes).toEqual(["line_suspended"]);
    // A list of lines between "no" and "trains"; "no delays, trains running" closes nothing.
    expect(checkInterlock({ ...airport, disruptions: feed("No Blue, Green, Red or Gold Line trains until further notice.") }).codes).toEqual(["line_suspended"]);
    expect(checkInterlock({ ...airport, disruptions: feed("No delays, trains running normally on all lines.") }).codes).not.toContain("line_suspended");
    // A section elsewhere on the line leaves this trip alone.
    expect(checkInterlock({ ...airport, disruptions: feed("No Red Line trains between Buckhead and North Springs this weekend.") }).problems).toEqual([]);
    // A section of a loop line may mean either way round: the whole line closes.
    const loop = liveClosures(pack.system("beijing"), feed("Line 2 is shut between Xizhimen and Dongzhimen today."), "2026-03-09T14:00:00");
    expect([...loop.lines.keys()]).toEqual(["2"]);
    expect(loop.tracks.size).toBe(0);
  });

  it("operators' own notices (cases/others, tune half): a line's section in the words, not the whole line; a Chinese stop notice stops every sale it cannot map", () => {
    const now = "2026-03-17T12:00:00";
    // MTA NYCT planned work, adapted to Taipei (taipei-o-015): the feed's line, and the section its words give.
    const ximen = liveClosures(pack.system("taipei"), [{ id: "o15", type: "line_suspension", severity: "critical", line: "blue", segment: null, message: "TRACK MAINTENANCE [Blue] No trains between Ximen and Zhongxiao Fuxing [SB] Free shuttle buses provide alternate service" }], now);
    expect(ximen.lines.size).toBe(0);
    expect(ximen.tracks.size).toBeGreaterThan(0);
    // The same adapted to BART (bart-o-015): "Civic Center" is Civic Center/UN Plaza.
    const civic = liveClosures(pack.system("bart"), [{ id: "o15", type: "line_suspension", severity: "critical", line: "blue", segment: null, message: "STRUCTURAL IMPROVEMENTS [Blue] No trains between Civic Center and 24th St Mission [SB] Free shuttle buses provide alternate service" }], now);
    expect(civic.lines.size).toBe(0);
    expect([...civic.tracks.keys()].some((k) => k.includes("BART-CIVC"))).toBe(true);
    // 深圳地铁's Typhoon Saola notice adapted to Beijing (beijing-o-031): the whole network stops at 19:00.
    const typhoon = liveClosures(pack.system("beijing"), [{ id: "o31", type: "typhoon_warning", severity: "critical", message: "根据北京市防台风防汛紧急动员令(2023年1号)要求,为确保乘客出行安全,今日(9月1日)19:00起,北京地铁全网各线路所有列车和车站将停止运营服务。" }], "2023-09-01T20:00:00");
    expect(typhoon.systemSuspended).toBe("o31");
    // 北京地铁's rainstorm notice (beijing-o-030): Line 13 stops, the rest of the network runs.
    const rain = liveClosures(pack.system("beijing"), [{ id: "o30", type: "line_suspension", severity: "critical", message: "目前,北京地铁13号线暂停运营,并已启动地面公交接驳。" }], now);
    expect([...rain.lines.keys()]).toEqual(["13"]);
    expect(rain.unread).toEqual([]);
  });

  it("a closed station whose name several stations share closes each of them (CTA Kedzie)", async () => {
    const events: KioskEvent[] = [
      { type: "station_selected", field: "origin", value: "Howard", station_id: "CTA-HOW" },
      { type: "station_selected", field: "destination", value: "Kedzie", station_id: "CTA-KDZ" },
      { type: "passenger_count_changed", adults: 1 },
    ];
    const input = await ignorantAnswer("CTA-A-014", events);
    expect(input.state.route?.stops.at(-1)?.station_id).toBe("CTA-KDZ");
    const closed: Disruption = { id: "k", type: "service_alert", severity: "warning", line: null, segment: null, message: "Kedzie station is closed for repairs today." };
    expect(checkInterlock({ ...input, disruptions: [closed] }).codes).toEqual(["station_closed"]);
  });

  it("lets a trip pass through a station trains skip, but not end there", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    const closed: Disruption = { id: "sc", type: "station_closure", severity: "critical", line: null, segment: null, message: "West End station closed due to a water main break. Trains will skip this station." };
    expect(input.state.route?.stops.map((s) => s.station_id)).toContain("MARTA-WE");
    expect(checkInterlock({ ...input, disruptions: [closed] }).ok).toBe(true);
    const end: Disruption = { ...closed, message: "Five Points station closed due to a water main break. Trains will skip this station." };
    expect(checkInterlock({ ...input, disruptions: [end] }).codes).toEqual(["station_closed"]);
    // Other words for the same: trains still pass; "cannot pass through" cuts the line there.
    for (const message of ["West End is closed; trains will not stop there.", "West End station is closed and trains pass through.", "West End closed: services run through without stopping.", "Police activity: West End is shut, trains are not stopping there.", "West End is closed for a water leak. Red and Gold trains go straight through it."]) {
      expect(checkInterlock({ ...input, disruptions: [{ ...closed, message }] }).ok, message).toBe(true);
    }
    expect(checkInterlock({ ...input, disruptions: [{ ...closed, message: "West End station closed. Trains cannot pass through." }] }).codes).toEqual(["station_closed"]);
    // A closure no longer in effect (valid_until passed) blocks nothing.
    expect(checkInterlock({ ...input, disruptions: [{ ...end, valid_until: "2026-03-09T06:00:00" }] }).ok).toBe(true);
    // A disruption shown on screen during the session counts too.
    expect(checkInterlock({ ...input, turns: [...input.turns, [{ type: "disruption_update", disruption: end }]] }).codes).toEqual(["station_closed"]);
  });

  it("blocks a step-free passenger's trip through a station without a lift (on-screen mode or their words)", async () => {
    // The model offers the trip although the passenger needs step-free access.
    const input = edited(await ignorantAnswer("MARTA-D-006"), (s) => {
      s.outcome = "route_and_fare_ready";
      s.kiosk_action = { action: "prompt_purchase", reason_code: "ok" };
    });
    expect(input.accessibilityMode).toBe(true);
    const verdict = checkInterlock(input);
    expect(verdict.codes).toEqual(["not_step_free"]);
    expect(verdict.problems[0]).toMatch(/MARTA-MT/);
    // Words alone: "I use a wheelchair" — and withdrawn: "I can use stairs, no wheelchair needed".
    const words = { ...input, accessibilityMode: false, turns: [[...input.turns[0]!.filter((e) => e.type !== "freetext_input"), { type: "freetext_input" as const, text: "I use a wheelchair" }]] };
    expect(checkInterlock(words).codes).toEqual(["not_step_free"]);
    const withdrawn = { ...words, turns: [...words.turns, [{ type: "freetext_input" as const, text: "Actually I can use stairs, no wheelchair needed" }]] };
    expect(checkInterlock(withdrawn).ok).toBe(true);
    for (const later of ["no need for the wheelchair route, I can do stairs", "stairs are fine", "forget about the lift", "I'm fine with the stairs"]) {
      expect(checkInterlock({ ...words, turns: [...words.turns, [{ type: "freetext_input" as const, text: later }]] }).ok, later).toBe(true);
    }
    // Still needed: "not fine with stairs", "I can't do stairs".
    for (const later of ["I'm not fine with stairs", "sorry, I can't do stairs"]) {
      expect(checkInterlock({ ...words, turns: [...words.turns, [{ type: "freetext_input" as const, text: later }]] }).ok, later).toBe(false);
    }
  });
});

describe("interlock: the passenger's own words about riders (finding 7)", () => {
  it("blocks 'Airport to Five Points, 3 adults and 2 children' sold as 1 adult, and sells it for 3 + 2", async () => {
    const text: KioskEvent[] = [{ type: "freetext_input", text: "Airport to Five Points, 3 adults and 2 children" }];
    const input = await ignorantAnswer("MARTA-A-001", [{ type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" }, { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" }]);
    const one = checkInterlock({ ...input, turns: [text] });
    expect(one.codes).toEqual(["riders_differ_from_text"]);
    expect(one.problems).toEqual(["riders_differ_from_text: adults: the passenger wrote 3, quoted 1", "riders_differ_from_text: children: the passenger wrote 2, quoted 0"]);
    const family = edited(input, (s) => {
      s.fare_quote!.passenger_summary = { adults: 3, children: 2, seniors: 0, disabled: 0, free_riders: 2 };
      s.fare_quote!.total = 7.5;
    });
    expect(checkInterlock({ ...family, turns: [text] }).ok).toBe(true);
  });

  it("reads group sizes, ages and other languages; a later count on screen supersedes what was typed", async () => {
    const input = await ignorantAnswer("MARTA-A-001", [{ type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" }, { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" }]);
    const says = (text: string): string[] => checkInterlock({ ...input, turns: [[...input.turns[0]!, { type: "freetext_input", text }]] }).codes;
    for (const text of ["there are four of us", "me and my wife", "a family of 5", "dos adultos y un niño", "两个大人一个小孩", "I'm travelling with my two kids", "I am 70", "my daughter is a 3 year old"]) {
      expect(says(text), text).toEqual(["riders_differ_from_text"]);
    }
    for (const text of ["just me", "one adult please", "Is the Airport station busy today?", "I need to be there by 3", "Line 2 towards Five Points"]) expect(says(text), text).toEqual([]);
    // People named first, the age told after them: a lying model's two adults are blocked.
    for (const text of ["my mum and I, she's 70", "my husband (72) and I", "mi madre y yo, ella tiene 70", "我和我妈妈，她70岁"]) {
      const twoAdults = edited(input, (s) => {
        s.fare_quote!.passenger_summary = { adults: 2, children: 0, seniors: 0, disabled: 0, free_riders: 0 };
        s.fare_quote!.total = 5;
      });
      expect(checkInterlock({ ...twoAdults, turns: [[...twoAdults.turns[0]!, { type: "freetext_input", text }]] }).codes, text).toEqual(["riders_differ_from_text"]);
      const right = edited(input, (s) => {
        s.fare_quote!.passenger_summary = { adults: 1, children: 0, seniors: 1, disabled: 0, free_riders: 0 };
        s.fare_quote!.total = 3.75;
      });
      expect(checkInterlock({ ...right, turns: [[...right.turns[0]!, { type: "freetext_input", text }]] }).problems, text).toEqual([]);
    }
    // The passenger typed "3 adults", then set the counter to 1 adult: the counter stands.
    const later = checkInterlock({ ...input, turns: [[...input.turns[0]!, { type: "freetext_input", text: "3 adults" }], [{ type: "passenger_count_changed", adults: 1 }]] });
    expect(later.ok).toBe(true);
  });
});

describe("interlock: fare bounds and currency (finding 5)", () => {
  it("blocks a negative, an absurd and a wrong-currency total, and a free trip no rule makes free", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    const negative = checkInterlock(edited(input, (s) => (s.fare_quote!.total = -2.5)));
    expect(negative.codes).toContain("fare_out_of_bounds");
    const huge = checkInterlock(edited(input, (s) => (s.fare_quote!.total = 99_999_999)));
    expect(huge.codes).toContain("fare_out_of_bounds");
    const yen = checkInterlock(edited(input, (s) => (s.fare_quote!.currency = "JPY")));
    expect(yen.codes).toEqual(["currency_mismatch"]);
    // "Base fare capped at 0": the fare policy's own price is 0, but nothing says the trip is free.
    const capped = checkInterlock({ ...edited(input, (s) => (s.fare_quote!.total = 0)), policyText: "EFFECTIVE TODAY: base fare capped at $0." });
    expect(capped.codes).toEqual(["free_without_rule"]);
    // "150% off" for a group: the policy's own price is below zero.
    const group = edited(input, (s) => {
      s.fare_quote!.passenger_summary = { adults: 3, children: 0, seniors: 0, disabled: 0, free_riders: 0 };
      s.fare_quote!.total = -3.75;
    });
    const offTooMuch = checkInterlock({ ...group, turns: [input.turns[0]!.filter((e) => e.type === "station_selected")], policyText: "Groups of 3 or more adults get 150% off." });
    expect(offTooMuch.codes).toContain("fare_out_of_bounds");
    // A rule that makes seniors free is honoured.
    const senior = edited(input, (s) => {
      s.fare_quote!.passenger_summary = { adults: 0, children: 0, seniors: 1, disabled: 0, free_riders: 1 };
      s.fare_quote!.total = 0;
    });
    const stationsOnly = [input.turns[0]!.filter((e) => e.type === "station_selected")];
    expect(checkInterlock({ ...senior, turns: stationsOnly, policyText: "EFFECTIVE TODAY: Senior citizens (65+) ride free." }).problems).toEqual([]);
  });

  it("sells nothing under a fare announcement it cannot price, and prices the ones it can", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    // Announcements it cannot read, or only partly: any quote under them would be a guess.
    for (const policyText of [
      "New fares take effect today. Ask staff for the updated prices.",
      "Seniors ride free today, and students pay a reduced fare.",
      "Seniors pay half price this week.",
    ]) {
      expect(checkInterlock({ ...input, policyText }).codes, policyText).toEqual(["fare_announcement_unpriceable"]);
    }
    // Reworded announcements it reads are priced: the full adult fare under "50% off" is refused,
    // and an adult's fare is untouched by "seniors travel free".
    expect(checkInterlock({ ...input, policyText: "WEEKEND PROMOTION: 50% off every single-ride fare." }).codes).toEqual(["fare_mismatch"]);
    expect(checkInterlock({ ...input, policyText: "Starting today, riders aged 65 and over travel at no charge." }).problems).toEqual([]);
    // Announcements about other things, and fare rules the kiosk reads, do not stop sales.
    expect(checkInterlock({ ...input, policyText: "Free Wi-Fi is now available on all trains." }).problems).toEqual([]);
    expect(checkInterlock({ ...input, policyText: "EFFECTIVE TODAY: Senior citizens (65+) ride free." }).problems).toEqual([]);
  });

  it("honours a framebook's max_sale_total", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    const system = input.system.withFramebook({ ...input.system.framebook, max_sale_total: 2 } as typeof input.system.framebook, input.system.framebookPy);
    expect(checkInterlock({ ...input, system }).codes).toEqual(["fare_out_of_bounds"]);
  });
});

describe("interlock: the trip the passenger asked for", () => {
  it("blocks a reversed trip and a trip from a station to itself", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    const reversed = edited(input, (s) => {
      s.route!.stops.reverse();
      [s.route!.origin, s.route!.destination] = [s.route!.destination, s.route!.origin];
    });
    expect(checkInterlock({ ...reversed, turns: [[{ type: "freetext_input", text: "from Airport to Five Points please" }]] }).codes).toEqual(["trip_reversed"]);
    const same = edited(input, (s) => {
      s.route!.stops = [s.route!.stops[0]!, { ...s.route!.stops[0]! }];
    });
    expect(checkInterlock({ ...same, turns: [[{ type: "freetext_input", text: "Airport" }]] }).codes).toContain("same_station");
  });

  it("finds stations named in a local language through the screen's names", async () => {
    const input = await ignorantAnswer("BJM-A-001");
    const stops = input.state.route!.stops;
    const names = new Map([[stops[0]!.station_id, ["起点站"]], [stops[stops.length - 1]!.station_id, ["终点站"]]]);
    expect(checkInterlock({ ...input, turns: [[{ type: "freetext_input", text: "我想从起点站到终点站" }]], stationNames: names }).ok).toBe(true);
    expect(checkInterlock({ ...input, turns: [[{ type: "freetext_input", text: "我想从起点站到终点站" }]] }).codes).toEqual(["origin_not_requested", "destination_not_requested"]);
  });
});

describe("interlock codes", () => {
  it("every problem the interlock reports has a code the screen can explain", async () => {
    const input = await ignorantAnswer("BART-C-006");
    for (const edit of [(s: AssistantState) => (s.fare_quote!.total = -1), (s: AssistantState) => s.route!.stops.splice(1, 1), (s: AssistantState) => delete s.fare_quote!.passenger_summary]) {
      const verdict = checkInterlock(edited(input, edit));
      expect(verdict.codes.length).toBeGreaterThan(0);
      for (const code of verdict.codes) expect(INTERLOCK_CODES).toContain(code);
    }
  });
});

describe("interlock: stations the passenger named, read by the one reader of passenger words", () => {
  it("a number in a name written in digits is the station named ('My group of three leaves from 5 Points.', an SGD turn, cases/others marta-p-029)", async () => {
    const input = await ignorantAnswer("MARTA-A-001");
    const stops = input.state.route!.stops;
    expect(stops[stops.length - 1]!.station_id).toBe("MARTA-FP");
    const turns = [[{ type: "freetext_input" as const, text: "from the Airport to 5 Points" }]];
    expect(checkInterlock({ ...input, turns }).codes).toEqual([]);
    // A station the passenger took back or corrected away is not one they named: the old trip is not sold.
    expect(checkInterlock({ ...input, turns: [[{ type: "freetext_input", text: "From the Airport to Five Points, no wait, to Garnett" }]] }).codes).toContain("destination_not_requested");
    expect(checkInterlock({ ...input, turns: [[{ type: "freetext_input", text: "To Five Points, not from the Airport, from West End" }]] }).codes).toContain("origin_not_requested");
    // Another word for a station (an alias) is no name: the passenger confirms it on screen first.
    expect(checkInterlock({ ...input, turns: [[{ type: "freetext_input", text: "from ATL to 5 Points" }]] }).codes).toContain("origin_not_requested");
  });
});

describe("interlock: a notice out of the window its own words give", () => {
  it("a fare announcement that has ended prices nothing and blocks nothing (CTA's New Year's Eve free rides, cases/others cta-o-036)", async () => {
    const input = await ignorantAnswer("CTA-A-001");
    const text = "The Chicago Transit Authority [...] will provide free rides on all buses and trains beginning 10 p.m. Wednesday, December 31 until 4 a.m. Thursday, January 1";
    expect(checkInterlock({ ...input, policyText: text, now: { iso: "2015-01-01T10:00" } }).codes).not.toContain("fare_announcement_unpriceable");
    // While it applies, the kiosk's own price must follow it: the full fare is no longer right.
    expect(checkInterlock({ ...input, policyText: text, now: { iso: "2014-12-31T23:00" } }).ok).toBe(false);
  });
});
