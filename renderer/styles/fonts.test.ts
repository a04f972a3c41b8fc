// The shipped fonts cover every character the screens can show: every catalog string, the
// operators' local names (Busan's Hangul included), and the Chinese on-screen keyboard's
// candidates. (The e2e test checks the rendered screens, including the pack's station names, in a
// Chromium without CJK fonts.)
import { describe, expect, it } from "vitest";
import arabic400 from "@fontsource/noto-sans-arabic/arabic-400.css?raw";
import kr400 from "@fontsource/noto-sans-kr/400.css?raw";
import latin400 from "@fontsource/noto-sans/latin-400.css?raw";
import latinExt400 from "@fontsource/noto-sans/latin-ext-400.css?raw";
import sc400 from "@fontsource/noto-sans-sc/400.css?raw";
import tc400 from "@fontsource/noto-sans-tc/400.css?raw";
import beijingNames from "../../framebooks/beijing/local-names.yaml?raw";
import busanNames from "../../framebooks/busan/local-names.yaml?raw";
import dohaNames from "../../framebooks/doha/local-names.yaml?raw";
import taipeiNames from "../../framebooks/taipei/local-names.yaml?raw";
import { CATALOGS } from "../i18n/index.ts";
import fontsTs from "./fonts.ts?raw";
import { fontCoverage, HANGUL, trimFontCss } from "./trimFontCss.ts";

const SHIPPED = [
  ["@fontsource/noto-sans/latin-400.css", latin400],
  ["@fontsource/noto-sans/latin-ext-400.css", latinExt400],
  ["@fontsource/noto-sans-arabic/arabic-400.css", arabic400],
  ["@fontsource/noto-sans-sc/400.css", sc400],
  ["@fontsource/noto-sans-tc/400.css", tc400],
  ["@fontsource/noto-sans-kr/400.css", kr400],
] as const;

const coverage = new Map<string, [number, number][]>();
for (const [id, css] of SHIPPED) {
  for (const [family, { ranges }] of fontCoverage(trimFontCss(css, id))) coverage.set(family, [...(coverage.get(family) ?? []), ...ranges]);
}
const covered = (cp: number, family?: string): boolean =>
  [...coverage].some(([f, ranges]) => (family === undefined || f === family) && ranges.some(([lo, hi]) => cp >= lo && cp <= hi));

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** Characters no shipped face covers (controls, spaces and bidi isolates need no glyph). */
function uncovered(text: string): string[] {
  return [...new Set(text)].filter((ch) => !/[\s\u2066-\u2069\u200e\u200f]/u.test(ch) && !covered(ch.codePointAt(0)!));
}

describe("shipped fonts", () => {
  it("imports exactly the checked stylesheets", () => {
    for (const [id] of SHIPPED) expect(fontsTs).toContain(`import "${id}";`);
  });

  it("trims WOFF fallbacks and the Chinese fonts' Latin slices", () => {
    const trimmed = trimFontCss(sc400, "@fontsource/noto-sans-sc/400.css");
    expect(trimmed).not.toMatch(/\.woff\)/);
    expect(trimmed).not.toMatch(/noto-sans-sc-(latin|latin-ext|cyrillic|vietnamese)-400/);
    expect(trimmed.match(/@font-face/g)?.length).toBeGreaterThan(90);
    expect(trimFontCss(latin400, "@fontsource/noto-sans/latin-400.css")).toMatch(/\.woff2\)/);
  });

  it("keeps the Korean font for Hangul only, every syllable of it, and drops its slices without Hangul", () => {
    const trimmed = trimFontCss(kr400, "@fontsource/noto-sans-kr/400.css");
    const ranges = fontCoverage(trimmed).get("Noto Sans KR")?.ranges ?? [];
    const inHangul = ([lo, hi]: readonly [number, number]): boolean => HANGUL.some(([a, b]) => lo >= a && hi <= b);
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.filter((r) => !inHangul(r))).toEqual([]);
    // Han and Latin stay with the Chinese fonts and Noto Sans.
    expect([..."北京臺灣Seomyeon"].some((ch) => covered(ch.codePointAt(0)!, "Noto Sans KR"))).toBe(false);
    const missing: string[] = [];
    for (let cp = 0xac00; cp <= 0xd7a3; cp++) if (!covered(cp, "Noto Sans KR")) missing.push(`U+${cp.toString(16)}`);
    expect(missing).toEqual([]);
    expect(trimmed).not.toMatch(/\.woff\)/);
    const faces = (css: string): number => css.match(/@font-face/g)?.length ?? 0;
    expect(faces(trimmed)).toBeLessThan(faces(kr400));
    // Each face left names only its own file, so the bundle copies just those.
    expect(trimmed.match(/url\(/g)?.length).toBe(faces(trimmed));
  });

  it("cover every string of every catalog", () => {
    for (const [language, catalog] of Object.entries(CATALOGS)) expect(uncovered(strings(catalog).join("")), language).toEqual([]);
  });

  it("cover the operators' local station, line and payment names", () => {
    expect(uncovered(beijingNames + taipeiNames + dohaNames + busanNames)).toEqual([]);
    // Hangul is drawn by the Korean font, not the Chinese fonts' Hangul.
    const hangul = [...new Set(busanNames.replace(/^#.*$/gm, ""))].filter((ch) => /\p{Script=Hangul}/u.test(ch));
    expect(hangul.length).toBeGreaterThan(0);
    expect(hangul.filter((ch) => !covered(ch.codePointAt(0)!, "Noto Sans KR"))).toEqual([]);
    // Traditional names take the traditional font's shapes, simplified ones the simplified font's.
    expect(uncovered(taipeiNames.replace(/^#.*$/gm, "")).length).toBe(0);
    expect([..."臺灣車站悠遊卡"].every((ch) => covered(ch.codePointAt(0)!, "Noto Sans TC"))).toBe(true);
    expect([..."北京西直门一卡通"].every((ch) => covered(ch.codePointAt(0)!, "Noto Sans SC"))).toBe(true);
  });
});
