// The six in-process transit tools, with the reference server's exact results and error bodies.
//
//   const session = new ToolSession(pack.system("bart"));
//   session.setDisruptions(kase.system_context.active_disruptions);
//   const out = session.call("route_planner", { origin: "Embarcadero", destination: "SFO" });
//   // out.ok ? out.result : `${out.status} ${out.body}`
//
// Line order (`options.lineOrder`) only decides which of two equal-cost parallel lines labels a
// route: "python-hash-13" (default) reproduces the oracle's labels exactly (CPython set order under
// PYTHONHASHSEED=13); "sorted" uses plain sorted line ids. Stations, transfers, minutes, miles and
// fares are the same under both.
export { TOOL_NAMES, TOOL_SUMMARIES, isToolName, type ToolName } from "./names.ts";
export { ToolSession, TOOL_RESULT_FLOAT_KEYS, type ToolCallContext, type ToolOutcome, type ToolSessionOptions } from "./session.ts";
export { validateBody, type PydanticError } from "./pydantic.ts";
export { routeId } from "./route-planner.ts";
export * from "./schemas.ts";
