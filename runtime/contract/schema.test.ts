// The LLM-facing schema must describe exactly what the tool definition sent to the model asks for.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { AssistantStateSchema, assistantStateJsonSchema } from "./index.ts";

/** Drop the prose (descriptions) and zod's additionalProperties, keep the structure. */
function structure(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(structure);
  if (node !== null && typeof node === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "description" || k === "additionalProperties") continue;
      out[k] = k === "required" && Array.isArray(v) ? [...(v as string[])].sort() : structure(v);
    }
    return out;
  }
  return node;
}

describe("AssistantStateSchema", () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const tool = pack.toolDefinitions().find((t) => t.function.name === "submit_assistant_state");

  it("has the structure of the submit_assistant_state tool parameters", () => {
    expect(tool).toBeDefined();
    expect(structure(assistantStateJsonSchema())).toEqual(structure(tool?.function.parameters));
  });

  it("converts to JSON Schema with zod directly", () => {
    const js = z.toJSONSchema(AssistantStateSchema) as { required: string[] };
    expect(js.required).toEqual(["outcome", "kiosk_action", "assistant_message"]);
  });

  it("parses a full state and fills passenger_summary defaults", () => {
    const parsed = AssistantStateSchema.parse({
      outcome: "route_and_fare_ready",
      route: {
        origin: "Airport",
        destination: "Five Points",
        stops: [{ station_id: "MARTA-AP", station_name: "Airport", line: "red", is_transfer: false }],
        transfers: 0,
        estimated_minutes: 18,
        distance_miles: 8.79,
        line_sequence: ["red"],
      },
      fare_quote: { total: 2.5, currency: "USD", passenger_summary: { adults: 1 } },
      kiosk_action: { action: "prompt_purchase", reason_code: "ok" },
      advisory_banners: [{ severity: "positive", title: "t", body: "b" }],
      assistant_message: "Your trip",
    });
    expect(parsed.fare_quote?.passenger_summary).toEqual({ adults: 1, children: 0, seniors: 0, disabled: 0, free_riders: 0 });
  });

  it("is stricter than the server: string stops, fractional minutes and unknown severities fail", () => {
    const base = {
      outcome: "advisory_only",
      kiosk_action: { action: "display_info", reason_code: "ok" },
      assistant_message: "m",
    };
    const route = { origin: "a", destination: "b", transfers: 0, estimated_minutes: 3, distance_miles: 1, line_sequence: [] };
    expect(AssistantStateSchema.safeParse({ ...base, route: { ...route, stops: ["MARTA-AP"] } }).success).toBe(false);
    expect(AssistantStateSchema.safeParse({ ...base, route: { ...route, stops: [], estimated_minutes: 3.5 } }).success).toBe(false);
    expect(AssistantStateSchema.safeParse({ ...base, advisory_banners: [{ severity: "urgent", title: "t", body: "b" }] }).success).toBe(false);
    expect(AssistantStateSchema.safeParse({ ...base, outcome: "done" }).success).toBe(false);
    expect(AssistantStateSchema.safeParse({ ...base, route: { ...route, stops: [{ station_name: "x" }] } }).success).toBe(false);
  });
});
