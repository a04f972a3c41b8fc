// Small SVG chart builders for the HTML report: grouped bars with CI whiskers on a 0–100 scale, and
// horizontal deltas around zero with CI whiskers. Plain strings, no dependencies, no scripts.
import { pyRound } from "../../tools/py/index.ts";

/** Okabe & Ito's colour-blind-safe palette. */
export const PALETTE = {
  blue: "#0072B2",
  orange: "#E69F00",
  sky: "#56B4E9",
  green: "#009E73",
  vermillion: "#D55E00",
  purple: "#CC79A7",
  yellow: "#F0E442",
  ink: "#1f2328",
  muted: "#59636e",
  grid: "#d8dee4",
} as const;

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

const n1 = (x: number): string => pyRound(x, 1).toFixed(1);
/** Coordinates with at most 2 decimals keep the markup small. */
const c = (x: number): string => String(Math.round(x * 100) / 100);

export interface Series {
  name: string;
  color: string;
}

export interface BarValue {
  value: number;
  lo?: number;
  hi?: number;
  /** Tooltip text (a <title>). */
  title?: string;
}

export interface BarGroup {
  label: string;
  /** One per series, in series order; undefined leaves a gap. */
  values: (BarValue | undefined)[];
}

export interface BarChartOptions {
  title: string;
  series: readonly Series[];
  groups: readonly BarGroup[];
  width?: number;
  height?: number;
  /** Dashed horizontal reference lines, e.g. the overall mean per series. */
  references?: { value: number; color: string; label: string }[];
}

/** Vertical grouped bars on 0–100 with 95% CI whiskers and value labels. */
export function barChart(o: BarChartOptions): string {
  const width = o.width ?? 960;
  const height = o.height ?? 300;
  const m = { top: 48, right: 12, bottom: 34, left: 40 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const y = (v: number): number => m.top + plotH - (Math.max(0, Math.min(100, v)) / 100) * plotH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(o.title)}" class="chart">`);
  out.push(`<title>${esc(o.title)}</title>`);
  // Grid and axis labels.
  for (let v = 0; v <= 100; v += 20) {
    out.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${c(y(v))}" y2="${c(y(v))}" stroke="${v === 0 ? PALETTE.muted : PALETTE.grid}" stroke-width="1"/>`);
    out.push(`<text x="${m.left - 8}" y="${c(y(v) + 4)}" text-anchor="end" class="axis">${v}</text>`);
  }
  // Legend (top left, inside the margin).
  let lx = m.left;
  for (const s of o.series) {
    out.push(`<rect x="${lx}" y="8" width="12" height="12" rx="2" fill="${s.color}"/>`);
    out.push(`<text x="${lx + 17}" y="18" class="legend">${esc(s.name)}</text>`);
    lx += 30 + s.name.length * 7.2;
  }
  out.push(`<line x1="${lx}" x2="${lx}" y1="8" y2="20" stroke="${PALETTE.ink}" stroke-width="1.5"/><line x1="${lx - 4}" x2="${lx + 4}" y1="8" y2="8" stroke="${PALETTE.ink}" stroke-width="1.5"/><line x1="${lx - 4}" x2="${lx + 4}" y1="20" y2="20" stroke="${PALETTE.ink}" stroke-width="1.5"/>`);
  out.push(`<text x="${lx + 10}" y="18" class="legend">95% CI</text>`);

  // Reference lines sit behind the bars: visible between the groups, never over a value label.
  for (const r of o.references ?? []) {
    out.push(`<g><title>${esc(r.label)}</title><line x1="${m.left}" x2="${width - m.right}" y1="${c(y(r.value))}" y2="${c(y(r.value))}" stroke="${r.color}" stroke-width="1.5" stroke-dasharray="6 4"/></g>`);
  }
  const groupW = plotW / Math.max(1, o.groups.length);
  const inner = groupW * 0.78;
  const barW = inner / Math.max(1, o.series.length);
  o.groups.forEach((g, gi) => {
    const gx = m.left + gi * groupW + (groupW - inner) / 2;
    g.values.forEach((v, si) => {
      if (!v) return;
      const s = o.series[si];
      if (!s) return;
      const x = gx + si * barW + barW * 0.06;
      const w = barW * 0.88;
      const top = y(v.value);
      out.push(`<g><title>${esc(v.title ?? `${g.label} ${s.name}: ${n1(v.value)}`)}</title>`);
      out.push(`<rect x="${c(x)}" y="${c(top)}" width="${c(w)}" height="${c(m.top + plotH - top)}" fill="${s.color}" rx="1.5"/>`);
      let labelY = top - 5;
      if (v.lo !== undefined && v.hi !== undefined) {
        const cx = x + w / 2;
        const cap = Math.min(7, w * 0.3);
        out.push(`<line x1="${c(cx)}" x2="${c(cx)}" y1="${c(y(v.lo))}" y2="${c(y(v.hi))}" stroke="${PALETTE.ink}" stroke-width="1.4"/>`);
        out.push(`<line x1="${c(cx - cap)}" x2="${c(cx + cap)}" y1="${c(y(v.hi))}" y2="${c(y(v.hi))}" stroke="${PALETTE.ink}" stroke-width="1.4"/>`);
        out.push(`<line x1="${c(cx - cap)}" x2="${c(cx + cap)}" y1="${c(y(v.lo))}" y2="${c(y(v.lo))}" stroke="${PALETTE.ink}" stroke-width="1.4"/>`);
        labelY = Math.min(labelY, y(v.hi) - 5);
      }
      if (w >= 18) out.push(`<text x="${c(x + w / 2)}" y="${c(labelY)}" text-anchor="middle" class="value">${n1(v.value)}</text>`);
      out.push(`</g>`);
    });
    out.push(`<text x="${c(m.left + gi * groupW + groupW / 2)}" y="${height - m.bottom + 21}" text-anchor="middle" class="label">${esc(g.label)}</text>`);
  });
  out.push(`</svg>`);
  return out.join("");
}

export interface DeltaRowValue {
  delta: number;
  lo: number;
  hi: number;
  title?: string;
}

export interface DeltaChartOptions {
  title: string;
  series: readonly Series[];
  rows: readonly { label: string; values: (DeltaRowValue | undefined)[]; emphasis?: boolean }[];
  width?: number;
  /** Axis caption, e.g. "Δ points (run 7 − run 6)". */
  caption: string;
}

function niceStep(span: number): number {
  const raw = span / 4;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const f = raw / pow;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * pow;
}

/** Horizontal bars from zero with CI whiskers, one band per row, one bar per series. */
export function deltaChart(o: DeltaChartOptions): string {
  const width = o.width ?? 960;
  const rowH = 18 * Math.max(1, o.series.length) + 12;
  const m = { top: 34, right: 70, bottom: 40, left: 190 }; // room for "J · Tool-Hallucination"
  const height = m.top + m.bottom + rowH * o.rows.length;
  const plotW = width - m.left - m.right;
  // The domain spans zero and every interval, on round ticks (not symmetric: all-positive deltas
  // get the whole width).
  let lo = 0;
  let hi = 0;
  for (const r of o.rows) {
    for (const v of r.values) {
      if (!v) continue;
      lo = Math.min(lo, v.delta, v.lo);
      hi = Math.max(hi, v.delta, v.hi);
    }
  }
  if (hi - lo < 1) {
    hi = Math.max(hi, 0.5);
    lo = Math.min(lo, -0.5);
  }
  const step = niceStep(hi - lo);
  const min = Math.floor(lo / step + 1e-9) * step;
  const max = Math.ceil(hi / step - 1e-9) * step;
  const x = (v: number): number => m.left + ((v - min) / (max - min)) * plotW;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(o.title)}" class="chart">`);
  out.push(`<title>${esc(o.title)}</title>`);
  let lx = m.left;
  for (const s of o.series) {
    out.push(`<rect x="${lx}" y="8" width="12" height="12" rx="2" fill="${s.color}"/>`);
    out.push(`<text x="${lx + 17}" y="18" class="legend">${esc(s.name)}</text>`);
    lx += 30 + s.name.length * 7.2;
  }
  out.push(`<text x="${lx}" y="18" class="legend muted">whiskers: 95% CI of the paired difference</text>`);
  for (let i = 0, v = min; v <= max + 1e-9; i++, v = min + i * step) {
    const xv = x(v);
    out.push(`<line x1="${c(xv)}" x2="${c(xv)}" y1="${m.top - 4}" y2="${height - m.bottom}" stroke="${Math.abs(v) < 1e-9 ? PALETTE.ink : PALETTE.grid}" stroke-width="${Math.abs(v) < 1e-9 ? 1.5 : 1}"/>`);
    out.push(`<text x="${c(xv)}" y="${height - m.bottom + 16}" text-anchor="middle" class="axis">${v > 0 ? "+" : ""}${pyRound(v, 2)}</text>`);
  }
  out.push(`<text x="${c(m.left + plotW / 2)}" y="${height - 6}" text-anchor="middle" class="axis">${esc(o.caption)}</text>`);
  o.rows.forEach((r, ri) => {
    const top = m.top + ri * rowH;
    if (ri % 2 === 1) out.push(`<rect x="0" y="${c(top)}" width="${width}" height="${rowH}" fill="#f6f8fa"/>`);
    out.push(`<text x="${m.left - 10}" y="${c(top + rowH / 2 + 4)}" text-anchor="end" class="label${r.emphasis ? " strong" : ""}">${esc(r.label)}</text>`);
    r.values.forEach((v, si) => {
      if (!v) return;
      const s = o.series[si];
      if (!s) return;
      const by = top + 6 + si * 18;
      const x0 = x(Math.min(0, v.delta));
      const x1 = x(Math.max(0, v.delta));
      out.push(`<g><title>${esc(v.title ?? `${r.label} ${s.name}: ${v.delta}`)}</title>`);
      out.push(`<rect x="${c(x0)}" y="${c(by)}" width="${c(Math.max(1, x1 - x0))}" height="12" fill="${s.color}" rx="1.5"/>`);
      out.push(`<line x1="${c(x(v.lo))}" x2="${c(x(v.hi))}" y1="${c(by + 6)}" y2="${c(by + 6)}" stroke="${PALETTE.ink}" stroke-width="1.4"/>`);
      out.push(`<line x1="${c(x(v.lo))}" x2="${c(x(v.lo))}" y1="${c(by + 1)}" y2="${c(by + 11)}" stroke="${PALETTE.ink}" stroke-width="1.4"/>`);
      out.push(`<line x1="${c(x(v.hi))}" x2="${c(x(v.hi))}" y1="${c(by + 1)}" y2="${c(by + 11)}" stroke="${PALETTE.ink}" stroke-width="1.4"/>`);
      const sign = v.delta > 0 ? "+" : v.delta < 0 ? "−" : "±";
      out.push(`<text x="${width - m.right + 8}" y="${c(by + 10)}" class="value">${sign}${n1(Math.abs(v.delta))}</text>`);
      out.push(`</g>`);
    });
  });
  out.push(`</svg>`);
  return out.join("");
}
