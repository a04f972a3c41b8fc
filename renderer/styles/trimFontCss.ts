// Trims an @fontsource stylesheet for the kiosk build (used by vite.config.ts): no WOFF fallback
// (Chromium and Electron read WOFF2), and no Latin, Cyrillic or Vietnamese slices of the Chinese
// fonts (Noto Sans covers Latin text; the kiosk shows no Cyrillic or Vietnamese). Only the files the
// remaining url()s name are copied into the bundle.
export function trimFontCss(css: string, id: string): string {
  let out = css.replace(/,\s*url\([^)]*\.woff\)\s*format\(['"]woff['"]\)/g, "");
  if (/noto-sans-(sc|tc)/.test(id)) {
    out = out.replace(/\/\*[^*]*-(latin|latin-ext|cyrillic|vietnamese)-\d+-normal \*\/\s*@font-face\s*{[^}]*}/g, "");
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
    for (const part of range ? range.split(",") : ["U+0-10FFFF"]) {
      const m = /U\+([0-9a-f?]+)(?:-([0-9a-f]+))?/i.exec(part.trim());
      if (!m?.[1]) continue;
      const lo = Number.parseInt(m[1].replace(/\?/g, "0"), 16);
      const hi = m[2] ? Number.parseInt(m[2], 16) : Number.parseInt(m[1].replace(/\?/g, "f"), 16);
      entry.ranges.push([lo, hi]);
    }
    out.set(family, entry);
  }
  return out;
}
