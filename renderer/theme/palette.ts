// Colour tokens of both themes, the single source of the CSS custom properties (applied at run
// time through the CSSOM, which the CSP allows). Tests check every text/background pair for WCAG
// contrast: ≥ 4.5:1 normally, ≥ 7:1 in high-contrast mode.

export const TOKENS = [
  "bg", "surface", "surfaceAlt", "text", "muted", "border", "focus",
  "primary", "onPrimary", "secondary", "onSecondary", "disabled", "onDisabled", "danger", "onDanger",
  "header", "onHeader", "selected", "onSelected",
  "criticalBg", "criticalText", "criticalBorder",
  "warningBg", "warningText", "warningBorder",
  "infoBg", "infoText", "infoBorder",
  "positiveBg", "positiveText", "positiveBorder",
  "mapBg", "mapDim",
] as const;
export type Token = (typeof TOKENS)[number];
export type Palette = Record<Token, string>;

export const STANDARD: Palette = {
  bg: "#eef1f5",
  surface: "#ffffff",
  surfaceAlt: "#f6f8fa",
  text: "#141a22",
  muted: "#3f4a58",
  border: "#8893a2",
  focus: "#c25e00",
  primary: "#0b4f9c",
  onPrimary: "#ffffff",
  secondary: "#dde6f2",
  onSecondary: "#0b2d57",
  disabled: "#d3d9e1",
  onDisabled: "#3a4350",
  danger: "#b42318",
  onDanger: "#ffffff",
  header: "#0e2238",
  onHeader: "#ffffff",
  selected: "#0b4f9c",
  onSelected: "#ffffff",
  criticalBg: "#fdecea",
  criticalText: "#5a130d",
  criticalBorder: "#b42318",
  warningBg: "#fff3e2",
  warningText: "#5a2a04",
  warningBorder: "#c4640a",
  infoBg: "#e8f1fd",
  infoText: "#0c2e5c",
  infoBorder: "#1d64d8",
  positiveBg: "#e7f6ed",
  positiveText: "#0b3d22",
  positiveBorder: "#12854a",
  mapBg: "#f8fafc",
  mapDim: "#b7c0cc",
};

export const HIGH_CONTRAST: Palette = {
  bg: "#000000",
  surface: "#000000",
  surfaceAlt: "#0d0d0d",
  text: "#ffffff",
  muted: "#e8e8e8",
  border: "#ffffff",
  focus: "#00e5ff",
  primary: "#ffd400",
  onPrimary: "#000000",
  secondary: "#ffffff",
  onSecondary: "#000000",
  disabled: "#3d3d3d",
  onDisabled: "#ffffff",
  danger: "#ff8a80",
  onDanger: "#000000",
  header: "#000000",
  onHeader: "#ffffff",
  selected: "#ffd400",
  onSelected: "#000000",
  criticalBg: "#000000",
  criticalText: "#ffffff",
  criticalBorder: "#ff6b6b",
  warningBg: "#000000",
  warningText: "#ffffff",
  warningBorder: "#ffa94d",
  infoBg: "#000000",
  infoText: "#ffffff",
  infoBorder: "#74b9ff",
  positiveBg: "#000000",
  positiveText: "#ffffff",
  positiveBorder: "#5ce08a",
  mapBg: "#000000",
  mapDim: "#5c5c5c",
};

/** Text/background pairs that carry text (checked for contrast). */
export const TEXT_PAIRS: readonly [fg: Token, bg: Token][] = [
  ["text", "bg"], ["text", "surface"], ["text", "surfaceAlt"], ["muted", "surface"], ["muted", "bg"],
  ["onPrimary", "primary"], ["onSecondary", "secondary"], ["onDisabled", "disabled"], ["onDanger", "danger"],
  ["onHeader", "header"], ["onSelected", "selected"],
  ["criticalText", "criticalBg"], ["warningText", "warningBg"], ["infoText", "infoBg"], ["positiveText", "positiveBg"],
];

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The CSS custom properties of a palette (`--color-text` …). */
export function cssVariables(palette: Palette): Record<string, string> {
  return Object.fromEntries(TOKENS.map((token) => [`--color-${token.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, palette[token]]));
}
