// The fold the interlock's notice and station-name readers match words in (interlock/service.ts,
// stations.ts, access.ts). Pure.

/**
 * Lower-case, accents stripped, full-width forms and Arabic-Indic digits folded, every run of
 * punctuation or space turned into one space (apostrophes are dropped: "O'Hare" → "ohare").
 */
export function normalize(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .toLowerCase()
    .replace(/['’‘`´]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
