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

  it("asks about a child past the free age with the band in the question, in the passenger's language; a tap on the words' reading sells at the adult fare", async () => {
    const { app } = testApp();
    const first = AskResultSchema.parse(
      await app.ask({
        system: "marta",
        events: [
          { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
          { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
          { type: "passenger_count_changed", adults: 2, children: 1 },
          { type: "freetext_input", text: "me my wife and our 8 year old son" },
        ],
      }),
    );
    expect(first.purchasable).toBe(false);
    expect(first.clarification).toMatchObject({ kind: "riders", question: "Who is travelling? Please set the passengers on the counter. Children under 5 ride free; older children pay the adult fare." });
    // The parent counts the boy as a paying rider on the counter: sold at the adult fare, not asked again.
    const next = AskResultSchema.parse(await app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "passenger_count_changed", adults: 3, children: 0 }] }));
    expect(next.clarification).toBeUndefined();
    expect(next.state.fare_quote?.total).toBe(7.5);
    // Keeping the free child on the counter after the question (a toddler travels too) is the answer: not asked again.
    const kept = AskResultSchema.parse(await app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "passenger_count_changed", adults: 3, children: 1 }] }));
    expect(kept.clarification).toBeUndefined();
    // Words that say it surely and disagree with the counter: the disagreement is asked, with the band.
    const sure = AskResultSchema.parse(
      await app.ask({ system: "marta", events: [{ type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" }, { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" }, { type: "passenger_count_changed", adults: 2, children: 1 }, { type: "freetext_input", text: "me, my wife and our 8 year old son" }] }),
    );
    expect(sure.clarification?.question).toBe("The passenger counter shows 2 adults, 1 child, but you wrote 3 adults. Who is travelling? Children under 5 ride free; older children pay the adult fare.");
    // Beijing's rule is a height: an 8-year-old is asked about, with that rule, in Chinese when typed in Chinese.
    const beijing = AskResultSchema.parse(await app.ask({ system: "beijing", events: [{ type: "freetext_input", text: "西直门到东直门，我和我的8岁女儿, me and my 8 year old daughter" }] }));
    expect(beijing.clarification?.kind).toBe("riders");
    expect(beijing.clarification?.question).toMatch(/身高120厘米以下儿童免费乘车|Children under 120 cm ride free/);
  });

  it("asks who travels when the counter and the words disagree, and either tap settles it (it does not ask again)", async () => {
    const trip = [
      { type: "station_selected", field: "origin", value: "Doraville", station_id: "MARTA-DO" },
      { type: "station_selected", field: "destination", value: "Arts Center", station_id: "MARTA-AC" },
      { type: "passenger_count_changed", adults: 1, seniors: 1 },
      { type: "freetext_input", text: "I'm a wheelchair user" },
    ] as const;
    for (const pick of [0, 1]) {
      const { app } = testApp();
      const first = AskResultSchema.parse(await app.ask({ system: "marta", events: [...trip] }));
      expect(first.purchasable).toBe(false);
      expect(first.clarification?.kind).toBe("riders");
      expect(first.state.assistant_message).toContain("shows 1 adult, 1 senior, but you wrote 1 disabled");
      const chosen = first.clarification!.choices[pick]!;
      const next = AskResultSchema.parse(await app.ask({ system: "marta", sessionId: first.sessionId, events: chosen.events }));
      expect(next.clarification?.kind).not.toBe("riders");
      expect(next.purchasable).toBe(true);
      expect(next.state.fare_quote?.passenger_summary).toMatchObject(pick === 0 ? { adults: 1, seniors: 1 } : { disabled: 1 });
    }
  });

  it("asks who travels when the words speak of companions unsurely, offering the counter; the counter's answer sells", async () => {
    const trip = [
      { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
      { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
    ] as const;
    for (const [text, offered] of [
      ["me and my mum", []],
      ["a mom, a dad and twins of 3", ["2 children"]],
    ] as const) {
      const { app } = testApp();
      const first = AskResultSchema.parse(await app.ask({ system: "marta", events: [...trip, { type: "freetext_input", text }] }));
      expect(first.purchasable, text).toBe(false);
      expect(first.clarification, text).toMatchObject({ kind: "riders", select: "riders" });
      expect(first.clarification!.choices.map((c) => c.label), text).toEqual(offered);
      const counted = AskResultSchema.parse(await app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "passenger_count_changed", adults: 2, children: 2 }] }));
      expect(counted.clarification, text).toBeUndefined();
      expect(counted.purchasable, text).toBe(true);
      expect(counted.state.fare_quote?.passenger_summary, text).toMatchObject({ adults: 2, children: 2 });
    }
    // The screen sends its default counter (1 adult) with the first words: asked all the same, the
    // counter's value offered as a button too.
    const { app } = testApp();
    const withDefault = AskResultSchema.parse(await app.ask({ system: "marta", events: [...trip, { type: "passenger_count_changed", adults: 1 }, { type: "freetext_input", text: "me and my mum" }] }));
    expect(withDefault.clarification).toMatchObject({ kind: "riders", select: "riders" });
    expect(withDefault.clarification!.choices.map((c) => c.label)).toEqual(["1 adult"]);
    // A counter of two or more before the words is taken as set: no question.
    const set = AskResultSchema.parse(await app.ask({ system: "marta", events: [...trip, { type: "passenger_count_changed", adults: 1, seniors: 1 }, { type: "freetext_input", text: "me and my mum" }] }));
    expect(set.clarification).toBeUndefined();
    expect(set.purchasable).toBe(true);
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
