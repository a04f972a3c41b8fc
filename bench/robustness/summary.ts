// The robustness report: originals and variants side by side, per category and per kind of
// variation, for each half of the suite, with the strict kiosk score beside Tier 1, wrong
// purchasable offers and the clarifying share on ambiguous requests. Pure data + renderers.
import { pyRound } from "../../tools/py/index.ts";
import { DISPUTED_NO_SALE } from "../disputed-keys.ts";
import { renderTable } from "../report/table.ts";
import type { VariantOutcome } from "./run.ts";
import type { Half } from "./suite.ts";

export interface SideBySide {
  key: string;
  n: number;
  originalTier1: number;
  variantTier1: number;
  originalStrict: number;
  variantStrict: number;
  wrongOffers: number;
}

export interface HalfSummary {
  half: Half;
  n: number;
  overall: SideBySide;
  categories: SideBySide[];
  kinds: SideBySide[];
  passengers: SideBySide;
  operators: SideBySide;
  ambiguous: { n: number; asked: number; sharePct: number };
  /** Variants offered a purchasable but wrong (or undue) sale, with why. */
  wrong: { id: string; text: string; problems: string[] }[];
  /** Offers the answer key calls wrong where the key contradicts the framebook (bench/disputed-keys.ts). */
  disputed: { id: string; text: string; problems: string[]; why: string }[];
}

/** A wrong offer by the answer key, unless that key is disputed. */
const wrongOffer = (o: VariantOutcome): boolean => o.variant.strict.wrongOffer && DISPUTED_NO_SALE[o.entry.base.id] === undefined;
const variantText = (o: VariantOutcome): string => o.entry.variant.text ?? o.entry.variant.texts?.join(" / ") ?? o.entry.variant.policy ?? o.entry.variant.disruption ?? "";

const pct = (part: number, whole: number): number => (whole > 0 ? pyRound((100 * part) / whole, 1) : 0);
const mean = (xs: readonly number[]): number => (xs.length > 0 ? pyRound(xs.reduce((a, b) => a + b, 0) / xs.length, 2) : 0);

function row(key: string, list: readonly VariantOutcome[]): SideBySide {
  return {
    key,
    n: list.length,
    originalTier1: mean(list.map((o) => o.original.tier1)),
    variantTier1: mean(list.map((o) => o.variant.tier1)),
    originalStrict: pct(list.filter((o) => o.original.strict.pass).length, list.length),
    variantStrict: pct(list.filter((o) => o.variant.strict.pass).length, list.length),
    wrongOffers: list.filter(wrongOffer).length,
  };
}

export function summarizeHalf(half: Half, outcomes: readonly VariantOutcome[]): HalfSummary {
  const list = outcomes.filter((o) => o.entry.half === half);
  const categories = [...new Set(list.map((o) => o.entry.base.category))].sort().map((c) => row(c, list.filter((o) => o.entry.base.category === c)));
  const kinds = [...new Set(list.flatMap((o) => o.entry.variant.kinds))].sort().map((k) => row(k, list.filter((o) => o.entry.variant.kinds.includes(k))));
  const ambiguous = list.filter((o) => o.entry.variant.clarify !== undefined);
  const asked = ambiguous.filter((o) => o.variant.askedFirst).length;
  return {
    half,
    n: list.length,
    overall: row("overall", list),
    categories,
    kinds,
    passengers: row("passenger texts", list.filter((o) => !o.entry.operator)),
    operators: row("operator texts", list.filter((o) => o.entry.operator)),
    ambiguous: { n: ambiguous.length, asked, sharePct: pct(asked, ambiguous.length) },
    wrong: list.filter(wrongOffer).map((o) => ({ id: o.entry.id, text: variantText(o), problems: o.variant.strict.problems })),
    disputed: list
      .filter((o) => o.variant.strict.wrongOffer && !wrongOffer(o))
      .map((o) => ({ id: o.entry.id, text: variantText(o), problems: o.variant.strict.problems, why: DISPUTED_NO_SALE[o.entry.base.id]! })),
  };
}

const f = (x: number): string => x.toFixed(1);

export function renderHalfTable(s: HalfSummary): string {
  const header = ["", "n", "T1 original", "T1 variant", "Δ", "strict original %", "strict variant %", "wrong offers"];
  const line = (r: SideBySide): string[] => [r.key, String(r.n), f(r.originalTier1), f(r.variantTier1), f(r.variantTier1 - r.originalTier1), f(r.originalStrict), f(r.variantStrict), String(r.wrongOffers)];
  const cols = header.map((_, i) => ({ align: i === 0 ? ("l" as const) : ("r" as const) }));
  const parts = [
    `${s.half} half: ${s.n} variants${s.half === "report" ? " (never tuned on)" : " (tuned on)"}`,
    renderTable(cols, header, [...s.categories.map(line), line(s.passengers), line(s.operators), line(s.overall)]),
    "",
    "per kind of variation",
    renderTable(cols, header, s.kinds.map(line)),
    "",
    `clarifying question on ambiguous requests: ${s.ambiguous.asked}/${s.ambiguous.n} (${f(s.ambiguous.sharePct)} %)`,
    `wrong purchasable offers: ${s.wrong.length}${s.wrong.length > 0 ? `\n${s.wrong.map((w) => `  ${w.id} "${w.text}": ${w.problems.join("; ")}`).join("\n")}` : ""}`,
    ...(s.disputed.length > 0 ? [`offers on a disputed answer key (left out above): ${s.disputed.length}\n${s.disputed.map((w) => `  ${w.id} "${w.text}": ${w.problems.join("; ")} — ${w.why}`).join("\n")}`] : []),
  ];
  return `${parts.join("\n")}\n`;
}

const esc = (t: string): string => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function renderSuiteHtml(halves: readonly HalfSummary[]): string {
  const table = (rows: readonly SideBySide[]): string =>
    `<table><tr><th></th><th>n</th><th>Tier 1 original</th><th>Tier 1 variant</th><th>Δ</th><th>strict original %</th><th>strict variant %</th><th>wrong offers</th></tr>${rows
      .map((r) => `<tr><td>${esc(r.key)}</td><td>${r.n}</td><td>${f(r.originalTier1)}</td><td>${f(r.variantTier1)}</td><td>${f(r.variantTier1 - r.originalTier1)}</td><td>${f(r.originalStrict)}</td><td>${f(r.variantStrict)}</td><td>${r.wrongOffers}</td></tr>`)
      .join("")}</table>`;
  const body = halves
    .map((s) => `<h2>${s.half} half (${s.n} variants${s.half === "report" ? ", never tuned on" : ", tuned on"})</h2>${table([...s.categories, s.passengers, s.operators, s.overall])}<h3>Per kind of variation</h3>${table(s.kinds)}<p>Clarifying question on ambiguous requests: ${s.ambiguous.asked}/${s.ambiguous.n} (${f(s.ambiguous.sharePct)} %). Wrong purchasable offers: ${s.wrong.length}.</p>${s.wrong.length ? `<ul>${s.wrong.map((w) => `<li>${esc(w.id)} “${esc(w.text)}”: ${esc(w.problems.join("; "))}</li>`).join("")}</ul>` : ""}${s.disputed.length ? `<p>Offers on a disputed answer key (left out above): ${s.disputed.length}.</p><ul>${s.disputed.map((w) => `<li>${esc(w.id)} “${esc(w.text)}”: ${esc(w.problems.join("; "))} — ${esc(w.why)}</li>`).join("")}</ul>` : ""}`)
    .join("");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Robustness suite</title><style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child{text-align:left}</style></head><body><h1>Robustness suite: originals vs variants</h1><p>Strict kiosk score: exact end stations, exact total to the cent, exact riders, and no purchasable state (offer + interlock) where none is due.</p>${body}</body></html>`;
}
