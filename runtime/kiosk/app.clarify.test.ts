import { describe, expect, it } from "vitest";
import { AskResultSchema } from "./bridge.ts";
import { testApp } from "./testing.ts";

describe("KioskApp: clarifying questions reach the screen", () => {
  it("carries the question's choices in the ask result, and a tap on one continues the session to a sale", async () => {
    const { app } = testApp();
    // Two CTA stations are called Kedzie: the kiosk asks which, and sells nothing yet.
    const first = AskResultSchema.parse(await app.ask({ system: "cta", events: [{ type: "freetext_input", text: "Howard to Kedzie" }] }));
    expect(first.purchasable).toBe(false);
    expect(first.clarification?.kind).toBe("station");
    const choices = first.clarification?.choices ?? [];
    expect(choices.length).toBeGreaterThanOrEqual(2);
    expect(choices.every((c) => /Kedzie/.test(c.label))).toBe(true);

    const chosen = choices[0]!;
    const second = AskResultSchema.parse(await app.ask({ system: "cta", sessionId: first.sessionId, events: chosen.events }));
    expect(second.sessionId).toBe(first.sessionId);
    const chosenId = chosen.events.find((e) => e.type === "station_selected")?.station_id;
    expect(second.state.route?.stops.at(-1)?.station_id).toBe(chosenId);
    // A second question may follow (confirm the trip read from words); its single choice sells.
    const final =
      second.clarification?.kind === "confirm"
        ? AskResultSchema.parse(await app.ask({ system: "cta", sessionId: first.sessionId, events: second.clarification.choices[0]!.events }))
        : second;
    expect(final.purchasable).toBe(true);
    expect(final.clarification).toBeUndefined();
  });

  it("has no clarification when the request is clear", async () => {
    const { app } = testApp();
    const answer = AskResultSchema.parse(
      await app.ask({
        system: "marta",
        events: [
          { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
          { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
        ],
      }),
    );
    expect(answer.purchasable).toBe(true);
    expect(answer.clarification).toBeUndefined();
  });
});
