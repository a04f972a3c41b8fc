import { describe, expect, it } from "vitest";
import { candidatesFor, normalizePinyin, phraseCandidates, segmentPinyin } from "./pinyin.ts";

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

describe("whole names in the candidate bar", () => {
  const phrases = [
    { text: "天安门东", pinyin: "tiananmendong" },
    { text: "天安门西", pinyin: "tiananmenxi" },
    { text: "天通苑", pinyin: "tiantongyuan" },
    { text: "台北車站", pinyin: "taibeichezhan" },
  ];

  it("offers the names a pinyin prefix spells, led by the Chinese they share", () => {
    // Closest first: the shorter pinyin (xi) before the longer (dong).
    expect(phraseCandidates("tiananmen", phrases)).toEqual(["天安门", "天安门西", "天安门东"]);
    expect(phraseCandidates("tiananmendong", phrases)).toEqual(["天安门东"]);
    expect(phraseCandidates("TianAnmen", phrases)).toEqual(["天安门", "天安门西", "天安门东"]);
    expect(phraseCandidates("taibei", phrases)).toEqual(["台北車站"]);
  });

  it("offers none for one syllable (its characters come first) or a name nothing spells", () => {
    expect(phraseCandidates("tian", phrases)).toEqual([]);
    expect(phraseCandidates("xizhimen", phrases)).toEqual([]);
  });
});
