// Trims an @fontsource stylesheet for the kiosk build (used by vite.config.ts): no WOFF fallback
// (Chromium and Electron read WOFF2), no Latin, Cyrillic or Vietnamese slices of the Chinese fonts
// (Noto Sans covers Latin text; the kiosk shows no Cyrillic or Vietnamese), and the Korean font
// only for Hangul (below). Only the files the remaining url()s name are copied into the bundle.

type Range = [number, number];

/**
 * Hangul: Jamo, compatibility Jamo, Jamo extended A and B, syllables. Noto Sans KR's slices mix
 * Hangul with Han characters, Latin and symbols; it keeps only these, so that Chinese text keeps the
 * Chinese fonts' shapes (Korean Hanja forms differ) and Latin text Noto Sans, whatever the order of
 * the font stack. Slices with no Hangul are dropped with their files.
 */
export const HANGUL: readonly Range[] = [
  [0x1100, 0x11ff],
  [0x3130, 0x318f],
  [0xa960, 0xa97f],
  [0xac00, 0xd7ff],
];

export function trimFontCss(css: string, id: string): string {
  let out = css.replace(/,\s*url\([^)]*\.woff\)\s*format\(['"]woff['"]\)/g, "");
  if (/noto-sans-(sc|tc)/.test(id)) {
    out = out.replace(/\/\*[^*]*-(latin|latin-ext|cyrillic|vietnamese)-\d+-normal \*\/\s*@font-face\s*{[^}]*}/g, "");
  }
  if (/noto-sans-kr/.test(id)) out = keepOnly(out, HANGUL);
  return out;
}

/** Each @font-face (with its comment) narrowed to `keep`: its unicode-range intersected, or dropped when nothing is left. */
function keepOnly(css: string, keep: readonly Range[]): string {
  return css.replace(/(?:\/\*[^*]*\*\/\s*)?@font-face\s*{[^}]*}\s*/g, (block) => {
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    const ranges = range ? parseUnicodeRange(range) : [[0, 0x10ffff] as Range];
    const kept = ranges.flatMap(([lo, hi]) => keep.filter(([klo, khi]) => klo <= hi && khi >= lo).map(([klo, khi]): Range => [Math.max(lo, klo), Math.min(hi, khi)]));
    if (kept.length === 0) return "";
    const text = kept.map(([lo, hi]) => (lo === hi ? `U+${lo.toString(16)}` : `U+${lo.toString(16)}-${hi.toString(16)}`)).join(",");
    return range ? block.replace(range, text) : block.replace(/}\s*$/, `  unicode-range: ${text};\n}\n\n`);
  });
}

/** A unicode-range value ("U+0-ff,U+4e??") as inclusive code point ranges. */
function parseUnicodeRange(value: string): Range[] {
  const out: Range[] = [];
  for (const part of value.split(",")) {
    const m = /U\+([0-9a-f?]+)(?:-([0-9a-f]+))?/i.exec(part.trim());
    if (!m?.[1]) continue;
    const lo = Number.parseInt(m[1].replace(/\?/g, "0"), 16);
    const hi = m[2] ? Number.parseInt(m[2], 16) : Number.parseInt(m[1].replace(/\?/g, "f"), 16);
    out.push([lo, hi]);
  }
  return out;
}

/** The code points a stylesheet's @font-face rules cover, by family (from their unicode-range). */
export function fontCoverage(css: string): Map<string, { ranges: [number, number][] }> {
  const out = new Map<string, { ranges: [number, number][] }>();
  for (const block of css.match(/@font-face\s*{[^}]*}/g) ?? []) {
    const family = /font-family:\s*['"]([^'"]+)['"]/.exec(block)?.[1];
    if (!family) continue;
    const entry = out.get(family) ?? { ranges: [] };
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    // A face without unicode-range covers what its file has; @fontsource always gives the range.
    entry.ranges.push(...(range ? parseUnicodeRange(range) : [[0, 0x10ffff] as Range]));
    out.set(family, entry);
  }
  return out;
}
