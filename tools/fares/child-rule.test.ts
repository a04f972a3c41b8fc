import { describe, expect, it } from "vitest";
import { childAgeLimit, childLimitOf } from "./child-rule.ts";

describe("the fare table's child rule", () => {
  it("reads an age or a height, as fare tables write them", () => {
    expect(childLimitOf("under 5")).toEqual({ age: 5 });
    expect(childLimitOf("Under 7 years")).toEqual({ age: 7 });
    expect(childLimitOf("children under 6 years old ride free with a paying adult")).toEqual({ age: 6 });
    expect(childLimitOf("under 120cm")).toEqual({ cm: 120 });
    expect(childLimitOf("under 120 cm")).toEqual({ cm: 120 });
  });

  it("reads nothing from a qualifier that names no limit", () => {
    expect(childLimitOf(undefined)).toBeUndefined();
    expect(childLimitOf("free")).toBeUndefined();
    expect(childLimitOf("under 1.2 m")).toBeUndefined();
    expect(childLimitOf("under 20 kg")).toBeUndefined();
  });

  it("gives an age limit only for a rule by age", () => {
    expect(childAgeLimit("under 5")).toBe(5);
    expect(childAgeLimit("under 120cm")).toBeUndefined();
    expect(childAgeLimit(undefined)).toBeUndefined();
  });
});
