// The rule policy answers a question from the knowledge base only with an article that answers it;
// otherwise it says it does not know and refers to staff (issue 12: "never the top knowledge-base
// article"). TUNED: questions the relevance check was developed on. HELD_OUT: written before the
// first run and never tuned on; its pass rate is printed and must stay high, not perfect.
import { describe, expect, it } from "vitest";
import type { SystemId } from "../../../tools/data/schemas.ts";
import { testApp } from "../../kiosk/testing.ts";
import { topicWords } from "../../language/topic.ts";

type Expect = RegExp | "dont_know";
const DONT_KNOW = /I don't know that — please ask a member of .* staff\./;

const TUNED: [SystemId, string, Expect][] = [
  ["bart", "I need to get to the airport with my bike", /^Food, Drink, and Conduct Policy: .*Bikes are allowed/],
  ["bart", "Can I bring my bike on the train?", /^Food, Drink, and Conduct Policy/],
  ["bart", "Is there wifi on the trains?", "dont_know"],
  ["bart", "Where can I buy a coffee?", "dont_know"],
  ["marta", "Can I take my dog on the train?", "dont_know"],
  ["marta", "What is the refund policy for a Breeze card?", /^Breeze Card Refund Policy/],
  ["cta", "Are e-scooters allowed?", "dont_know"],
  ["doha", "Is there a women-only carriage?", /^Family Carriage Policy/],
  ["taipei", "Can I eat on the MRT?", /^No Eating and Drinking Rule/],
  ["bart", "How late does the last train run on Sunday?", /^Operating Hours/],
  ["cta", "Who won the Bulls game last night?", "dont_know"],
];

const HELD_OUT: [SystemId, string, Expect][] = [
  ["bart", "I lost my wallet on a train yesterday, who do I call?", /^Lost and Found/],
  ["bart", "what time does bart close on saturday", /^Operating Hours/],
  ["cta", "my ventra card got stolen", /^Lost Ventra Card/],
  ["cta", "what happens during a polar vortex", /^Extreme Weather/],
  ["marta", "can i get my money back on a day pass", /^Day Pass Refund/],
  ["marta", "is there a discount for disabled riders", /^Reduced Fare/],
  ["doha", "what's the difference between gold class and standard", /Gold Class/],
  ["doha", "what items are prohibited", /^Prohibited/],
  ["taipei", "what do I do if there's a typhoon", /Typhoon/],
  ["taipei", "is there a senior discount", /^Senior and Disabled/],
  ["beijing", "do I have to show my ID to buy a ticket", /^Real-Name/],
  ["beijing", "how much luggage can I bring", /^Luggage/],
  ["bart", "can you recommend a good restaurant", "dont_know"],
  ["cta", "what's the score of the cubs game", "dont_know"],
  ["marta", "do you have a phone charger I can borrow", "dont_know"],
  ["doha", "is there a mosque nearby", "dont_know"],
  ["taipei", "where can I exchange money", "dont_know"],
  ["beijing", "can I pay with bitcoin", "dont_know"],
  ["bart", "is there free wifi in stations", "dont_know"],
  ["cta", "can I bring my bicycle on the L", "dont_know"],
];

async function answer(system: SystemId, text: string): Promise<string> {
  const { app } = testApp();
  const result = await app.ask({ system, events: [{ type: "freetext_input", text }] });
  expect(result.purchasable).toBe(false);
  return result.state.assistant_message;
}

function passes(message: string, expected: Expect): boolean {
  return expected === "dont_know" ? DONT_KNOW.test(message) : expected.test(message);
}

describe("knowledge-base answers only when an article answers the question", () => {
  it.each(TUNED)("%s: %s", async (system, text, expected) => {
    const message = await answer(system, text);
    expect(passes(message, expected), message).toBe(true);
  });

  it("held-out questions (never tuned on): at least 80 % answered right, rate printed", async () => {
    const misses: string[] = [];
    for (const [system, text, expected] of HELD_OUT) {
      const message = await answer(system, text);
      if (!passes(message, expected)) misses.push(`${system} "${text}" → ${message.slice(0, 90)}`);
    }
    const rate = (HELD_OUT.length - misses.length) / HELD_OUT.length;
    console.log(`knowledge-base held-out questions: ${HELD_OUT.length - misses.length}/${HELD_OUT.length} right${misses.length ? `\n  ${misses.join("\n  ")}` : ""}`);
    expect(rate).toBeGreaterThanOrEqual(0.8);
  });

  it("topic words leave out function words, the kiosk's everyday words and the system's own names", () => {
    expect(topicWords("Can I bring my bikes on the BART train?", ["BART"])).toEqual(["bike"]);
    expect(topicWords("¿Puedo llevar mi bicicleta en el tren?")).toEqual(["llevar", "bicicleta"]);
    expect(topicWords("Is it allowed?")).toEqual([]);
  });
});
