// Text on a line's colour: black or white, whichever contrasts more.
import { contrastRatio } from "../theme/palette.ts";

export function normalizeHex(color: string): string | null {
  const value = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  if (/^[0-9a-f]{6}$/i.test(value)) return `#${value}`.toLowerCase();
  return null;
}

export function lineTextColor(color: string): "#000000" | "#ffffff" {
  const hex = normalizeHex(color);
  if (!hex) return "#ffffff";
  return contrastRatio(hex, "#000000") >= contrastRatio(hex, "#ffffff") ? "#000000" : "#ffffff";
}

/** A CSS colour for a line (data colours without '#' are accepted; unknown ones fall back to grey). */
export function lineColor(color: string | undefined): string {
  return (color && normalizeHex(color)) ?? "#666666";
}
