// The wire messages live in one module: no tool, engine or validator phrases an error the model
// reads anywhere else. (Their exact text is proven by the parity suites: tools/tools/parity.test.ts,
// runtime/contract/parity.test.ts, runtime/policies/rule-ref.parity.test.ts.)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../test/paths.ts";
import { HTTP_BODIES, INFO_MESSAGES, PYDANTIC_MESSAGES, ROUTE_MESSAGES, SUBMISSION_MESSAGES } from "./messages.ts";

function sources(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f));
}

describe("tools/wire/messages.ts", () => {
  it("is the only place that words a tool or submission error", () => {
    const offenders: string[] = [];
    for (const file of [...sources("tools"), ...sources("runtime/contract")]) {
      if (file === path.join("tools", "wire", "messages.ts")) continue;
      const text = readFileSync(path.join(REPO_ROOT, file), "utf8");
      // An error the model reads, built from a literal: new HttpError(404, "…"), new RouteError(`…`), reject422(path, "…").
      for (const m of text.matchAll(/new (?:HttpError|RouteError|FareError)\((?:\d+,\s*)?["'`]|reject422\([^,]+,\s*["'`]|msg: ["'`]/g)) {
        offenders.push(`${file}: ${text.slice(m.index, m.index + 60)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("keeps the reference's wording (a sample; the parity suites check every one)", () => {
    expect(ROUTE_MESSAGES.partialClosureOnLoop("2")).toBe("Partial closure on loop line '2' is ambiguous — use whole-line closure or specify segments");
    expect(INFO_MESSAGES.invalidQueryType("x", "['a', 'b']")).toBe("Invalid query_type 'x'. Must be one of: ['a', 'b']");
    expect(SUBMISSION_MESSAGES.unknownStopIds("['X']")).toBe("Unknown station IDs in route.stops: ['X']. Use station_id values from route_planner (e.g. MARTA-AP).");
    expect(PYDANTIC_MESSAGES.missing).toBe("Field required");
    expect(HTTP_BODIES.internalServerError).toBe("Internal Server Error");
  });
});
