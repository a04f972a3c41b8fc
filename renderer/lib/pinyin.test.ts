import { describe, expect, it } from "vitest";
import { candidatesFor, normalizePinyin, segmentPinyin } from "./pinyin.ts";

describe("pinyin input", () => {
  it("splits a composition into syllables, longest first", () => {
    expect(segmentPinyin("beijing")).toEqual(["bei", "jing"]);
    expect(segmentPinyin("xizhimen")).toEqual(["xi", "zhi", "men"]);
    expect(segmentPinyin("zhongxiaofuxing")).toEqual(["zhong", "xiao", "fu", "xing"]);
    expect(segmentPinyin("zh")).toEqual(["zh"]);
    expect(normalizePinyin("Lü")).toBe("lv");
  });

  it("offers simplified characters most frequent first", () => {
    expect(candidatesFor("bei", "simplified")[0]).toBe("北");
    expect(candidatesFor("xi", "simplified")).toContain("西");
    expect(candidatesFor("men", "simplified")[1]).toBe("门");
    expect(candidatesFor("zzz", "simplified")).toEqual([]);
  });

  it("offers traditional characters on the Taipei screen", () => {
    expect(candidatesFor("men", "traditional")).toContain("門");
    expect(candidatesFor("men", "traditional")).not.toContain("门");
    expect(candidatesFor("tai", "traditional")).toEqual(expect.arrayContaining(["臺", "台", "颱"]));
    expect(candidatesFor("che", "traditional")[0]).toBe("車");
    expect(candidatesFor("bei", "traditional")[0]).toBe("北");
  });
});
