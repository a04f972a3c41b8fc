// The six tools through ToolSession: results, exact error bodies (status + FastAPI text), the
// knowledge-base ranking, disruption filters and the session's route cache and hidden fields.
import { describe, expect, it } from "vitest";
import { DataPack } from "../data/datapack.ts";
import { pyJsonDumps } from "../py/json.ts";
import { PyFloat } from "../py/number.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { TOOL_NAMES, TOOL_RESULT_FLOAT_KEYS, ToolSession, type ToolOutcome } from "./index.ts";
import { pyLen } from "./pyops.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const session = (system = "marta") => new ToolSession(pack.system(system));

function result(out: ToolOutcome): Record<string, unknown> {
  if (!out.ok) throw new Error(`expected a result, got ${out.status} ${out.body}`);
  return out.result as Record<string, unknown>;
}

function failure(out: ToolOutcome): { status: number; body: string } {
  if (out.ok) throw new Error(`expected an error, got ${JSON.stringify(out.result)}`);
  return { status: out.status, body: out.body };
}

describe("ToolSession basics", () => {
  it("lists the six tools and answers an unknown one with 404 Not Found", () => {
    expect(TOOL_NAMES).toEqual(["route_planner", "fare_calculator", "station_info", "line_info", "disruption_feed", "knowledge_base"]);
    expect(failure(session().call("submit_assistant_state", {}))).toEqual({ status: 404, body: '{"detail":"Not Found"}' });
    expect(failure(session().call("toString", {}))).toEqual({ status: 404, body: '{"detail":"Not Found"}' });
  });

  it("plans a route, caches it per session and prices it (ids as the reference computes them)", () => {
    const s = session();
    const route = result(s.call("route_planner", { origin: "Airport", destination: "Five Points", extra: "ignored" }));
    expect(route).toMatchObject({ route_id: "route_0270621855ef", transfers: 0, estimated_minutes: 17.6, distance_miles: 8.79, line_sequence: ["red"] });
    expect(Object.keys(route)).toEqual(["route_id", "stops", "transfers", "estimated_minutes", "distance_miles", "line_sequence"]);
    const fare = result(s.call("fare_calculator", { route_id: route.route_id, passengers: { adults: 1 }, ticket_type: "single" }));
    expect(fare).toEqual({
      fare_id: "fare_90710ac6a094",
      line_items: [{ label: "Adult x1", amount: 2.5, currency: "USD" }],
      subtotal: 2.5,
      discounts: [],
      total: 2.5,
      currency: "USD",
    });
  });

  it("prints Python floats through TOOL_RESULT_FLOAT_KEYS", () => {
    const s = session("doha");
    const route = result(s.call("route_planner", { origin: "Msheireb", destination: "Msheireb" }));
    const fare = result(s.call("fare_calculator", { route_id: route.route_id, passengers: { adults: 2 } }));
    expect(pyJsonDumps(fare, { floatKeys: TOOL_RESULT_FLOAT_KEYS })).toContain('"line_items": [{"label": "Adult x2", "amount": 4.0, "currency": "QAR"}], "subtotal": 4.0');
    expect(pyJsonDumps(route, { floatKeys: TOOL_RESULT_FLOAT_KEYS })).toContain('"estimated_minutes": 0.0, "distance_miles": 0.0');
  });

  it("prices an unknown route id on a flat system but not on a distance system", () => {
    expect(result(session("marta").call("fare_calculator", { route_id: "route_nope", passengers: { adults: 1 } })).total).toBe(2.5);
    expect(failure(session("bart").call("fare_calculator", { route_id: "route_nope", passengers: { adults: 1 } }))).toEqual({
      status: 422,
      body: '{"detail":"route_distance_miles required for distance fare model"}',
    });
  });

  it("keeps routes per session: another session does not know the route id", () => {
    const a = session("bart");
    const route = result(a.call("route_planner", { origin: "Embarcadero", destination: "West Oakland" }));
    expect(result(a.call("fare_calculator", { route_id: route.route_id, passengers: { adults: 1 } })).total).toBe(3.55);
    expect(failure(session("bart").call("fare_calculator", { route_id: route.route_id, passengers: { adults: 1 } })).status).toBe(422);
  });

  it("accepts empty passengers (a zero quote), as the reference does", () => {
    expect(result(session().call("fare_calculator", { route_id: "r", passengers: {} }))).toMatchObject({ line_items: [], subtotal: 0, total: 0 });
  });
});

describe("error bodies", () => {
  it("unknown station → 404 with the message; non-ASCII is not escaped", () => {
    expect(failure(session().call("route_planner", { origin: "Nowhere", destination: "Airport" }))).toEqual({
      status: 404,
      body: `{"detail":"Unknown station: 'Nowhere'"}`,
    });
    expect(failure(session().call("route_planner", { origin: "Airport", destination: "Café \"X\"" })).body).toBe(
      `{"detail":"Unknown station: 'Café \\"X\\"'"}`,
    );
  });

  it("negative passenger counts → pydantic's greater_than_equal list", () => {
    expect(failure(session().call("fare_calculator", { route_id: "r", passengers: { adults: -1, children: 0 } }))).toEqual({
      status: 422,
      body: '{"detail":[{"type":"greater_than_equal","loc":["body","passengers","adults"],"msg":"Input should be greater than or equal to 0","input":-1,"ctx":{"ge":0}}]}',
    });
    // A float input is echoed as a float (PyFloat marks integral floats from parseJsonKeepingFloats).
    expect(failure(session().call("fare_calculator", { route_id: "r", passengers: { seniors: new PyFloat(-2) } })).body).toContain(
      '"loc":["body","passengers","seniors"],"msg":"Input should be greater than or equal to 0","input":-2.0,',
    );
  });

  it("missing fields quote the whole body, hidden case_id included", () => {
    expect(failure(session().call("fare_calculator", { route_id: "r" }, { case_id: "MARTA-A-001" }))).toEqual({
      status: 422,
      body: '{"detail":[{"type":"missing","loc":["body","passengers"],"msg":"Field required","input":{"route_id":"r","case_id":"MARTA-A-001"}}]}',
    });
    expect(failure(session().call("station_info", {})).body).toBe(
      '{"detail":[{"type":"missing","loc":["body","query_type"],"msg":"Field required","input":{}}]}',
    );
  });

  it("malformed types, collected in field order", () => {
    expect(failure(session().call("route_planner", { destination: null, origin: 5, station_restrictions: "x" })).body).toBe(
      '{"detail":[' +
        '{"type":"string_type","loc":["body","origin"],"msg":"Input should be a valid string","input":5},' +
        '{"type":"string_type","loc":["body","destination"],"msg":"Input should be a valid string","input":null},' +
        '{"type":"list_type","loc":["body","station_restrictions"],"msg":"Input should be a valid list","input":"x"}]}',
    );
    expect(failure(session().call("fare_calculator", { route_id: "r", passengers: "two" })).body).toBe(
      '{"detail":[{"type":"model_attributes_type","loc":["body","passengers"],"msg":"Input should be a valid dictionary or object to extract fields from","input":"two"}]}',
    );
    expect(failure(session().call("fare_calculator", { route_id: "r", passengers: { adults: 1.5, children: "x" } })).body).toBe(
      '{"detail":[' +
        '{"type":"int_from_float","loc":["body","passengers","adults"],"msg":"Input should be a valid integer, got a number with a fractional part","input":1.5},' +
        '{"type":"int_parsing","loc":["body","passengers","children"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"}]}',
    );
    expect(failure(session().call("route_planner", { origin: "a", destination: "b", station_restrictions: [{ station: "x" }, 3] })).body).toBe(
      '{"detail":[' +
        '{"type":"missing","loc":["body","station_restrictions",0,"restriction"],"msg":"Field required","input":{"station":"x"}},' +
        '{"type":"model_attributes_type","loc":["body","station_restrictions",1],"msg":"Input should be a valid dictionary or object to extract fields from","input":3}]}',
    );
    expect(failure(session().call("knowledge_base", { policy_id: null })).body).toBe(
      '{"detail":[{"type":"string_type","loc":["body","policy_id"],"msg":"Input should be a valid string","input":null}]}',
    );
    expect(failure(session().call("route_planner", null))).toEqual({
      status: 422,
      body: '{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}',
    });
  });

  it("coerces integer strings, integral floats and bools like pydantic's lax mode", () => {
    const fare = result(
      session().call("fare_calculator", { route_id: "r", passengers: { adults: " 2 ", children: 1.0, seniors: true, disabled: "0_0" } }),
    );
    expect(fare.line_items).toEqual([
      { label: "Adult x2", amount: 5.0, currency: "USD" },
      { label: "Senior x1", amount: 1.25, currency: "USD" },
    ]);
  });

  it("a segment closure with fewer than two stations crashes the reference: 500", () => {
    const s = session();
    expect(failure(s.call("route_planner", { origin: "Airport", destination: "Midtown", segment_closures: [["Five Points"]] }))).toEqual({
      status: 500,
      body: "Internal Server Error",
    });
    expect(s.lastCrash).toBeInstanceOf(TypeError);
  });

  it("route_planner maps line-closure errors to 404", () => {
    expect(failure(session("beijing").call("route_planner", {
      origin: "Guomao",
      destination: "Xidan",
      line_closures: [{ line: "Line 2", from_station: "Xizhimen", to_station: "Dongzhimen" }],
    }))).toEqual({
      status: 404,
      body: '{"detail":"Partial closure on loop line \'2\' is ambiguous — use whole-line closure or specify segments"}',
    });
    expect(failure(session().call("route_planner", { origin: "Airport", destination: "Midtown", line_closures: [{ line: "Purple" }] })).body).toBe(
      '{"detail":"Unknown line: Purple"}',
    );
    const ok = result(session("beijing").call("route_planner", { origin: "Guomao", destination: "Xidan", line_closures: [{ line: "line 1", from_station: null }] }));
    expect(ok.line_sequence).toEqual(["10", "7", "4"]);
  });
});

describe("station_info", () => {
  it("rejects a bad query_type and missing ids", () => {
    expect(failure(session().call("station_info", { station_id: "Airport", query_type: "elevators" }))).toEqual({
      status: 422,
      body: `{"detail":"Invalid query_type 'elevators'. Must be one of: ['accessibility', 'connections', 'exits', 'facilities', 'real_time_status']"}`,
    });
    expect(failure(session().call("station_info", { station_id: "", station_ids: [], query_type: "exits" }))).toEqual({
      status: 422,
      body: '{"detail":"Provide station_id or station_ids"}',
    });
    expect(failure(session().call("station_info", { station_ids: ["Airport", "Nowhere", "Nope"], query_type: "exits" }))).toEqual({
      status: 404,
      body: `{"detail":"Station 'Nowhere' not found"}`,
    });
  });

  it("answers one station flat, several (or station_ids) as results, echoing the requested string", () => {
    const s = session();
    const one = result(s.call("station_info", { station_id: "five points", query_type: "accessibility" }));
    expect(one).toEqual({
      station_id: "five points",
      data: { name: "Five Points", accessibility: pack.system("marta").stationById("MARTA-FP")?.accessibility },
    });
    const batch = result(s.call("station_info", { station_ids: ["MARTA-AP"], query_type: "exits" }));
    expect(batch).toEqual({ results: [{ station_id: "MARTA-AP", data: { name: "Airport", type: expect.any(String), zone: expect.any(String) } }] });
    const facilities = result(s.call("station_info", { station_id: "Airport", query_type: "facilities" }));
    expect(Object.keys(facilities.data as object)).toEqual(["id", "name", "lines", "type", "accessibility", "zone"]);
    expect(result(s.call("station_info", { station_id: "Airport", query_type: "real_time_status" })).data).toEqual({
      name: "Airport",
      status: "operational",
      alerts: [],
    });
    const conn = result(s.call("station_info", { station_id: "Airport", query_type: "connections" })).data as Record<string, unknown>;
    expect(Object.keys(conn)).toEqual(["name", "lines", "connections"]);
  });

  it("returns copies: changing a result does not change the system data", () => {
    const s = session();
    const r = result(s.call("station_info", { station_id: "Airport", query_type: "accessibility" }));
    (r.data as { accessibility: { elevator: boolean } }).accessibility.elevator = !(r.data as { accessibility: { elevator: boolean } }).accessibility.elevator;
    expect(result(s.call("station_info", { station_id: "Airport", query_type: "accessibility" }))).not.toEqual(r);
  });
});

describe("line_info", () => {
  it("describes one line (flat) by id or name", () => {
    const red = result(session().call("line_info", { line: "Red Line" }));
    expect(red).toMatchObject({ line_id: "red", line_name: "Red Line", station_count: 19, is_loop: false, terminals: ["MARTA-NS", "MARTA-AP"] });
    const stations = red.stations as Record<string, unknown>[];
    expect(stations[0]).toEqual({ station_id: "MARTA-NS", station_name: "North Springs", position: 0, is_terminus: true, connections: [] });
    expect(stations.find((s) => s.station_id === "MARTA-FP")?.connections).toEqual(["blue", "gold", "green"]);
  });

  it("batches `lines`, and fails on the first unknown line or on no line at all", () => {
    const batch = result(session("beijing").call("line_info", { lines: ["2", "Line 10"] }));
    expect((batch.results as { line_id: string; is_loop: boolean; terminals: string[] }[]).map((l) => [l.line_id, l.is_loop, l.terminals])).toEqual([
      ["2", true, []],
      ["10", true, []],
    ]);
    expect(failure(session().call("line_info", { lines: ["red", "purple", "pink"] }))).toEqual({ status: 404, body: '{"detail":"Unknown line: purple"}' });
    expect(failure(session().call("line_info", {}))).toEqual({ status: 422, body: '{"detail":"Provide line or lines"}' });
  });
});

describe("knowledge_base", () => {
  const kb = (args: Record<string, unknown>) => result(session().call("knowledge_base", args));
  const ids = (r: Record<string, unknown>) => (r.results as { policy_id: string }[]).map((p) => p.policy_id);

  it("looks up an exact policy id (the query is then ignored)", () => {
    const r = kb({ policy_id: "marta-fare-002", query: "refund" });
    expect(r.found).toBe(true);
    expect(ids(r)).toEqual(["marta-fare-002"]);
    expect(Object.keys((r.results as object[])[0] as object)).toEqual(["title", "content", "policy_id"]);
    expect(kb({ policy_id: "MARTA-FARE-002", query: "refund" })).toEqual({ results: [], found: false });
  });

  it("ranks by the number of query words (> 2 characters) found, stable, top 3", () => {
    expect(ids(kb({ query: "refund my breeze card" }))).toEqual(["marta-refund-001", "marta-lost-002", "marta-access-002"]);
    expect(ids(kb({ query: "lost card", category: "anything" }))).toEqual(["marta-lost-001", "marta-lost-002", "marta-refund-001"]);
    // Punctuation stays attached to its word: "bike?" matches nothing, "bring" three policies.
    expect(ids(kb({ query: "Is it OK to bring my bike?" }))).toEqual(["marta-refund-001", "marta-fare-002", "marta-safety-002"]);
    expect(ids(kb({ query: "wheelchair\u00a0elevator" }))).toEqual(["marta-access-001"]);
    expect(kb({ query: "a an to" })).toEqual({ results: [], found: false });
    expect(kb({})).toEqual({ results: [], found: false });
  });
});

describe("disruption_feed", () => {
  const disruptions = [
    {
      id: "d1",
      line: "red",
      segment: ["MARTA-FP", "MARTA-PC"],
      type: "delay",
      severity: "warning",
      message: "Delays near Five Points",
      valid_until: "2026-04-06T10:00:00",
    },
    {
      id: "d2",
      line: null,
      segment: { from_station: "MARTA-AP", to_station: "MARTA-AP", stations: ["MARTA-AP"] },
      type: "station_closure",
      severity: "critical",
      message: "Airport station closed",
    },
    {
      id: "d3",
      line: "Blue",
      type: "elevator_outage",
      severity: "info",
      message: "Elevator outage at Decatur",
      valid_from: "2026-04-07T00:00:00",
      extra: "dropped",
    },
  ];
  const feed = (args: Record<string, unknown>, context = {}) => {
    const s = session();
    s.setDisruptions(disruptions);
    return (result(s.call("disruption_feed", args, context)).disruptions as { id: string }[]).map((d) => d.id);
  };

  it("returns the ten fields (null when absent), with a dict segment turned into its stations", () => {
    const s = session();
    s.setDisruptions(disruptions);
    const all = result(s.call("disruption_feed", {})).disruptions as Record<string, unknown>[];
    expect(all.map((d) => d.id)).toEqual(["d1", "d2", "d3"]);
    expect(all[1]).toEqual({
      id: "d2",
      line: null,
      segment: ["MARTA-AP"],
      type: "station_closure",
      severity: "critical",
      message: "Airport station closed",
      alternative: null,
      eta_resolution: null,
      valid_from: null,
      valid_until: null,
    });
    expect(Object.keys(all[2] as object)).not.toContain("extra");
    expect(disruptions[1]?.segment).not.toBeInstanceOf(Array); // the caller's object is untouched
    expect(result(session().call("disruption_feed", {}))).toEqual({ disruptions: [] });
  });

  it("filters by line (alias, case-insensitive; line-less disruptions always match)", () => {
    expect(feed({ line: "Red Line" })).toEqual(["d1", "d2"]);
    expect(feed({ line: "blue" })).toEqual(["d2", "d3"]);
  });

  it("filters by station: exact segment element or substring of the message", () => {
    expect(feed({ station: "MARTA-FP" })).toEqual(["d1"]);
    expect(feed({ station: "decatur" })).toEqual(["d3"]);
    expect(feed({ station: "MARTA-AP" })).toEqual(["d2"]);
    expect(feed({ station: "marta-fp" })).toEqual([]);
  });

  it("filters by severity; other values do not filter", () => {
    expect(feed({ severity_filter: "major" })).toEqual(["d1", "d2"]);
    expect(feed({ severity_filter: "minor" })).toEqual(["d3"]);
    expect(feed({ severity_filter: "everything" })).toEqual(["d1", "d2", "d3"]);
  });

  it("drops expired disruptions (valid_until < current_time), keeps announced ones; the hidden time wins", () => {
    expect(feed({}, { current_time: "2026-04-06T12:00:00" })).toEqual(["d2", "d3"]);
    expect(feed({}, { current_time: "2026-04-06T09:00:00" })).toEqual(["d1", "d2", "d3"]);
    expect(feed({ current_time: "2026-04-06T12:00:00" })).toEqual(["d2", "d3"]);
    expect(feed({ current_time: "2026-04-06T12:00:00" }, { current_time: "2026-04-06T09:00:00" })).toEqual(["d1", "d2", "d3"]);
    expect(feed({ current_time: "2026-04-06T12:00:00" }, { current_time: "" })).toEqual(["d2", "d3"]);
  });

  it("answers 500 where the reference would crash on a malformed disruption", () => {
    const s = session();
    s.setDisruptions([{ id: "x", line: 7, type: "delay", severity: "info", message: "m" }]);
    expect(failure(s.call("disruption_feed", { line: "red" }))).toEqual({ status: 500, body: "Internal Server Error" });
    s.setDisruptions([{ line: "red", type: "delay", severity: "info", message: "no id" }]);
    expect(failure(s.call("disruption_feed", {})).status).toBe(500);
    expect(() => s.setDisruptions(["not an object"])).toThrow(TypeError);
  });
});

describe("pyLen", () => {
  it("counts code points as Python's len() does: a surrogate pair once, a lone surrogate once", () => {
    // Python 3.11: len("emoji 😀") == 7, len("😀😀") == 2, len("北京") == 2.
    for (const [text, n] of [["", 0], ["abc", 3], ["北京", 2], ["emoji 😀", 7], ["😀😀", 2], ["\ud83d", 1], ["a\ude00b", 3], ["\ud83d\ud83d", 2]] as const) {
      expect(pyLen(text), JSON.stringify(text)).toBe(n);
    }
  });
});
