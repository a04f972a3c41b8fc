import { describe, expect, it } from "vitest";
import { namesAnAirport } from "./airports.ts";

describe("a name that says airport", () => {
  it("is an airport station's, in any of the kiosk's scripts", () => {
    expect(namesAnAirport("Hamad International Airport")).toBe(true);
    expect(namesAnAirport("مطار حمد الدولي")).toBe(true);
    expect(namesAnAirport("Daxing Jichang")).toBe(true);
    expect(namesAnAirport("2号航站楼")).toBe(true);
  });

  it("is not a district named after an airport that moved, nor a bus terminal", () => {
    expect(namesAnAirport("المطار القديم")).toBe(false);
    expect(namesAnAirport("Old Airport")).toBe(false);
    expect(namesAnAirport("Five Points Bus Terminal")).toBe(false);
  });
});
