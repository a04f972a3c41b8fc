// Rules of the terminal-state validator, one by one. Expected bodies and response ids are what the
// reference server (FastAPI + pydantic 2) returned for the same request bodies.
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { PyFloat } from "../../tools/py/index.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { validateSubmission, type SubmissionOutcome } from "./index.ts";
import { pydanticFloatText } from "./wire.ts";

const marta = new DataPack(SHARED_DATA_DIR).system("marta");

const KA = { action: "prompt_purchase", reason_code: "ok" };
const ROUTE = {
  origin: "Airport",
  destination: "Five Points",
  stops: ["MARTA-AP", "MARTA-FP"],
  transfers: 0,
  estimated_minutes: 17.6,
  distance_miles: 8.79,
  line_sequence: ["red"],
};
const READY = {
  outcome: "route_and_fare_ready",
  route: ROUTE,
  fare_quote: { total: 2.5, currency: "USD" },
  kiosk_action: KA,
  assistant_message: "ok",
};
const INFO = {
  outcome: "policy_answer_only",
  kiosk_action: { action: "display_info", reason_code: "ok" },
  assistant_message: "Bags are screened.",
};

function rejected(v: SubmissionOutcome): Extract<SubmissionOutcome, { accepted: false }> {
  if (v.accepted) throw new Error(`expected a rejection, got accepted ${v.responseId}`);
  return v;
}
function accepted(v: SubmissionOutcome): string {
  if (!v.accepted) throw new Error(`expected acceptance, got ${v.status} ${v.body}`);
  return v.responseId;
}

describe("acceptance and response_id", () => {
  it("accepts a minimal policy answer; the id hashes the validated request (case_id included)", () => {
    expect(accepted(validateSubmission(INFO, marta))).toBe("9403081e20c7");
    expect(accepted(validateSubmission(INFO, marta, { caseId: "MARTA-A-001" }))).toBe("59ba1b1ab487");
  });

  it("uses an injected response id generator", () => {
    expect(accepted(validateSubmission(INFO, marta, { responseId: () => "fixed-id" }))).toBe("fixed-id");
  });

  it("accepts object stops with exact station ids", () => {
    const args = {
      ...READY,
      route: { ...ROUTE, stops: [{ station_id: "MARTA-AP", station_name: "Airport", line: "red", is_transfer: false }, { station_id: "MARTA-FP" }] },
    };
    expect(accepted(validateSubmission(args, marta))).toBe("631cb9736a83");
  });

  it("accepts empty stops without checking anything", () => {
    expect(accepted(validateSubmission({ ...READY, route: { ...ROUTE, stops: [] } }, marta))).toBe("a5612a557d62");
  });

  it("does not enforce the banner severity enum", () => {
    const args = { ...READY, advisory_banners: [{ severity: "urgent", title: "T", body: "B" }] };
    expect(accepted(validateSubmission(args, marta))).toBe("e41b82f5f2da");
  });
});

describe("schema (pydantic lax mode)", () => {
  it("coerces numeric strings", () => {
    const args = {
      ...READY,
      route: { ...ROUTE, transfers: "1", estimated_minutes: " 17.5 ", distance_miles: "8.79" },
      fare_quote: { total: "2.50", currency: "USD" },
    };
    expect(accepted(validateSubmission(args, marta))).toBe("2b7ee3dabb55");
  });

  it('rejects "$2.50" as a number', () => {
    const v = rejected(validateSubmission({ ...READY, fare_quote: { total: "$2.50", currency: "USD" } }, marta));
    expect(v.status).toBe(422);
    expect(v.body).toBe(
      '{"detail":[{"type":"float_parsing","loc":["body","fare_quote","total"],"msg":"Input should be a valid number, unable to parse string as a number","input":"$2.50"}]}',
    );
    expect(v.errors).toEqual([{ path: "fare_quote.total", message: "Input should be a valid number, unable to parse string as a number" }]);
  });

  it("reports every missing required key, echoing the parent object (with the injected case_id)", () => {
    expect(rejected(validateSubmission({}, marta)).body).toBe(
      '{"detail":[{"type":"missing","loc":["body","outcome"],"msg":"Field required","input":{}},{"type":"missing","loc":["body","kiosk_action"],"msg":"Field required","input":{}},{"type":"missing","loc":["body","assistant_message"],"msg":"Field required","input":{}}]}',
    );
    const withCase = rejected(validateSubmission({}, marta, { caseId: "MARTA-A-001" }));
    expect(withCase.body).toBe(
      '{"detail":[{"type":"missing","loc":["body","outcome"],"msg":"Field required","input":{"case_id":"MARTA-A-001"}},{"type":"missing","loc":["body","kiosk_action"],"msg":"Field required","input":{"case_id":"MARTA-A-001"}},{"type":"missing","loc":["body","assistant_message"],"msg":"Field required","input":{"case_id":"MARTA-A-001"}}]}',
    );
    expect(withCase.errors.map((e) => e.path)).toEqual(["outcome", "kiosk_action", "assistant_message"]);
  });

  it("requires a given route to be complete", () => {
    const v = rejected(validateSubmission({ ...READY, route: { origin: "Airport", stops: [] } }, marta));
    const input = '{"origin":"Airport","stops":[]}';
    const missing = (f: string) => `{"type":"missing","loc":["body","route","${f}"],"msg":"Field required","input":${input}}`;
    expect(v.body).toBe(`{"detail":[${["destination", "transfers", "estimated_minutes", "distance_miles", "line_sequence"].map(missing).join(",")}]}`);
    expect(v.errors.map((e) => e.path)).toEqual(["route.destination", "route.transfers", "route.estimated_minutes", "route.distance_miles", "route.line_sequence"]);
  });

  it("rejects a fractional transfer count", () => {
    expect(rejected(validateSubmission({ ...READY, route: { ...ROUTE, transfers: 1.5 } }, marta)).body).toBe(
      '{"detail":[{"type":"int_from_float","loc":["body","route","transfers"],"msg":"Input should be a valid integer, got a number with a fractional part","input":1.5}]}',
    );
  });

  it("rejects non-object containers and null defaults in pydantic's field order", () => {
    const args = { ...READY, route: "Airport to Five Points", kiosk_action: null, advisory_banners: null, reasoning: null };
    const v = rejected(validateSubmission(args, marta));
    expect(v.body).toBe(
      '{"detail":[{"type":"model_attributes_type","loc":["body","route"],"msg":"Input should be a valid dictionary or object to extract fields from","input":"Airport to Five Points"},{"type":"model_attributes_type","loc":["body","kiosk_action"],"msg":"Input should be a valid dictionary or object to extract fields from","input":null},{"type":"list_type","loc":["body","advisory_banners"],"msg":"Input should be a valid list","input":null},{"type":"string_type","loc":["body","reasoning"],"msg":"Input should be a valid string","input":null}]}',
    );
    expect(v.errors.map((e) => e.path)).toEqual(["route", "kiosk_action", "advisory_banners", "reasoning"]);
  });

  it("rejects non-object input; a null body is a missing body", () => {
    const list = rejected(validateSubmission([1, 2], marta));
    expect(list.body).toBe(
      '{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":[1,2]}]}',
    );
    expect(list.errors).toEqual([{ path: "", message: "Input should be a valid dictionary or object to extract fields from" }]);
    expect(rejected(validateSubmission("route please", marta)).body).toContain('"input":"route please"');
    expect(rejected(validateSubmission(null, marta)).body).toBe(
      '{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}',
    );
  });

  it("keeps Python float literals when the caller marks them (PyFloat)", () => {
    const v = rejected(validateSubmission({ ...READY, route: { ...ROUTE, transfers: "x", distance_miles: new PyFloat(9) } }, marta));
    expect(v.body).toBe(
      '{"detail":[{"type":"int_parsing","loc":["body","route","transfers"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"}]}',
    );
    const missing = rejected(validateSubmission({ route: { distance_miles: new PyFloat(9), transfers: 9 } }, marta));
    expect(missing.body).toContain('"input":{"distance_miles":9.0,"transfers":9}');
  });

  it.each([
    ["3", true],
    [" 3 ", true],
    ["3.000", true],
    ["1_000", true],
    [true, true],
    [2.0, true],
    ["1e2", false],
    ["3.5", false],
    ["3.", false],
    ["_1", false],
    [null, false],
  ])("transfers %j accepted: %s", (transfers, ok) => {
    expect(validateSubmission({ ...READY, route: { ...ROUTE, transfers } }, marta).accepted).toBe(ok);
  });

  it.each([
    ["2.50", true],
    [" 2.5\n", true],
    ["1e3", true],
    [".5", true],
    ["5.", true],
    ["inf", true],
    ["1_000.5", true],
    [false, true],
    ["$2.50", false],
    ["2,50", false],
    ["", false],
    ["1__0", false],
    ["0x10", false],
    [[], false],
  ])("total %j accepted: %s", (total, ok) => {
    expect(validateSubmission({ ...READY, fare_quote: { total, currency: "USD" } }, marta).accepted).toBe(ok);
  });
});

describe("conditional checks, in order", () => {
  it("rejects an unknown outcome before an unknown action, and an action before a reason code", () => {
    const outcome = rejected(validateSubmission({ ...READY, outcome: "done", kiosk_action: { action: "buy", reason_code: "ok" } }, marta));
    expect(outcome.body).toBe('{"detail":"Invalid outcome: done"}');
    expect(outcome.errors).toEqual([{ path: "outcome", message: "Invalid outcome: done" }]);
    const action = rejected(validateSubmission({ ...READY, kiosk_action: { action: "buy", reason_code: "nope" } }, marta));
    expect(action.body).toBe('{"detail":"Invalid action: buy"}');
    expect(action.errors[0]?.path).toBe("kiosk_action.action");
    const reason = rejected(validateSubmission({ ...READY, kiosk_action: { action: "display_info", reason_code: "nope" } }, marta));
    expect(reason.body).toBe('{"detail":"Invalid reason_code: nope"}');
    expect(reason.errors[0]?.path).toBe("kiosk_action.reason_code");
  });

  it("requires a route for advisory_only (null route) and route_and_fare_ready (absent route)", () => {
    const args = { outcome: "advisory_only", route: null, kiosk_action: { action: "display_info", reason_code: "no_service" }, assistant_message: "m" };
    const v = rejected(validateSubmission(args, marta));
    expect(v.body).toBe('{"detail":"route required when outcome=advisory_only"}');
    expect(v.errors).toEqual([{ path: "route", message: "route required when outcome=advisory_only" }]);
    const { route: _route, ...noRoute } = READY;
    expect(rejected(validateSubmission(noRoute, marta)).body).toBe('{"detail":"route required when outcome=route_and_fare_ready"}');
  });

  it("requires a fare quote for route_and_fare_ready only", () => {
    const v = rejected(validateSubmission({ ...READY, fare_quote: null }, marta));
    expect(v.body).toBe('{"detail":"fare_quote required when outcome=route_and_fare_ready"}');
    expect(v.errors[0]?.path).toBe("fare_quote");
    expect(validateSubmission({ ...READY, outcome: "advisory_only", fare_quote: null }, marta).accepted).toBe(true);
  });
});

describe("stop ids", () => {
  it("names the first five unknown ids as a Python list (exact, case-sensitive ids; any JSON scalar)", () => {
    const stops = ["MARTA-AP", { station_id: "marta-fp" }, "O'Hare", null, 5, 2.5, { station_id: true }, "Ünïcode"];
    const v = rejected(validateSubmission({ ...READY, route: { ...ROUTE, stops } }, marta));
    expect(v.status).toBe(422);
    expect(v.body).toBe(
      `{"detail":"Unknown station IDs in route.stops: ['marta-fp', \\"O'Hare\\", None, 5, 2.5]. Use station_id values from route_planner (e.g. MARTA-AP)."}`,
    );
    expect(v.errors.map((e) => e.path)).toEqual(["route.stops"]);
  });

  it("rejects station names in string stops", () => {
    const v = rejected(validateSubmission({ ...READY, route: { ...ROUTE, stops: ["Airport", "MARTA-FP"] } }, marta));
    expect(v.body).toBe(`{"detail":"Unknown station IDs in route.stops: ['Airport']. Use station_id values from route_planner (e.g. MARTA-AP)."}`);
  });

  it("crashes like the reference (500) on an object stop without station_id, even after unknown ids", () => {
    const v = rejected(validateSubmission({ ...READY, route: { ...ROUTE, stops: ["Airport", { station_name: "Airport" }] } }, marta));
    expect(v.status).toBe(500);
    expect(v.body).toBe("Internal Server Error");
    expect(v.errors).toEqual([{ path: "route.stops", message: "route.stops[1]: stop object has no station_id" }]);
    expect(rejected(validateSubmission({ ...READY, route: { ...ROUTE, stops: [["MARTA-AP"]] } }, marta)).status).toBe(500);
  });

  it("checks the stops of any outcome that carries a route", () => {
    const args = { ...INFO, route: { ...ROUTE, stops: ["Airport"] } };
    expect(rejected(validateSubmission(args, marta)).errors[0]?.path).toBe("route.stops");
  });
});

describe("pydantic float text", () => {
  it.each([
    [2, "2.0"],
    [17.6, "17.6"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e+16"],
    [1.2345678901234568e17, "1.2345678901234568e+17"],
    [1e-4, "0.0001"],
    [1e-5, "0.00001"],
    [1.5e-5, "0.000015"],
    [1e-6, "1e-6"],
    [1.5e-7, "1.5e-7"],
    [-0, "-0.0"],
    [Infinity, "null"],
  ])("%d → %s", (x, text) => {
    expect(pydanticFloatText(x)).toBe(text);
  });
});
