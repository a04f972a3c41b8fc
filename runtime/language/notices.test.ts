import { describe, expect, it } from "vitest";
import { trainsRunThrough } from "./notices.ts";

describe("a closed station's notice: do trains still run through it?", () => {
  it("reads skipping and running through in the words operators use", () => {
    expect(trainsRunThrough("Blue and Brown line trains skip this station.")).toBe(true);
    expect(trainsRunThrough("Zhongxiao Fuxing is closed for a water leak. Blue and Brown trains go straight through it.")).toBe(true);
    expect(trainsRunThrough("Trains will not stop at Five Points.")).toBe(true);
    expect(trainsRunThrough("Red Line trains pass through without stopping.")).toBe(true);
  });

  it("does not read it where the line is cut or nothing is said", () => {
    expect(trainsRunThrough("Trains cannot pass through Five Points.")).toBe(false);
    expect(trainsRunThrough("Five Points station is closed for police activity.")).toBe(false);
  });
});
