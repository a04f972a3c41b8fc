// The report as one self-contained HTML page: inline CSS and SVG, no scripts, no external
// resources (works offline, prints). Partition tabs are CSS-only radio buttons.
import { createHash } from "node:crypto";
import { categoryLabel, type SystemId } from "../../tools/data/schemas.ts";
import type { PartitionName } from "../stats/index.ts";
import { HYBRID_PATHS, PARTITION_LABELS, PARTITION_NAMES, type BenchReport, type HybridReport, type CI, type ComparisonPartition, type DeltaRow, type PartitionReport, type RunInfo } from "./build.ts";
import { barChart, deltaChart, esc, PALETTE, type Series } from "./svg.ts";
import type { CaseTrace } from "./trace.ts";
import { caseDiffHtml, FAILED_ONLY_INPUT, TRACE_CSS, traceViewerHtml, trialsHtml } from "./trace-html.ts";
import { f1, f2, formatBytes, formatMs, hybridAnsweredLine, hybridTableRows, terminationRows } from "./table.ts";
import { KIOSK_VERDICT_HEADER, kioskVerdictNotes, kioskVerdictRows, type KioskVerdictReport } from "./kiosk.ts";

const SERIES: readonly Series[] = [
  { name: "Tier 1", color: PALETTE.blue },
  { name: "Composite (no judge)", color: PALETTE.orange },
];

const ciText = (ci: CI | undefined): string => (ci && ci.n > 0 ? `${f1(ci.lo)}–${f1(ci.hi)}` : "–");
const signed = (x: number): string => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${f1(Math.abs(x))}`;
const signedCi = (ci: CI): string => (ci.n > 0 ? `${signed(ci.lo)} to ${signed(ci.hi)}` : "–");

/** Shades of the heat map: classes h0..h10 (no style attributes, so the page keeps working under a strict CSP). */
const HEAT_STEPS = 10;

/** The shade class of a heat-map cell: 0–100 mapped from 40 up onto a single-hue blue ramp. */
function heat(value: number): string {
  const t = Math.max(0, Math.min(1, (value - 40) / 60));
  return `h${Math.round(t * HEAT_STEPS)}`;
}

/** White to #6baed6 (ColorBrewer Blues): dark text stays above 6:1 contrast on every shade. */
function heatCss(): string {
  const from = [255, 255, 255];
  const to = [107, 174, 214];
  return Array.from({ length: HEAT_STEPS + 1 }, (_, step) => {
    const rgb = from.map((f, i) => Math.round(f + (to[i]! - f) * (step / HEAT_STEPS)));
    return `td.heat.h${step}{background:rgb(${rgb.join(",")})}`;
  }).join("");
}

function card(label: string, value: string, detail: string, extra = ""): string {
  return `<div class="card"><div class="card-label">${esc(label)}</div><div class="card-value">${esc(value)}</div><div class="card-detail">${esc(detail)}</div>${extra}</div>`;
}

function headlineCards(report: BenchReport): string {
  const cards: string[] = [];
  const cmp = report.comparison;
  for (const p of ["holdout", "full"] as const) {
    const part = report.partitions[p];
    if (part.n === 0) continue;
    for (const metric of ["tier1", "composite"] as const) {
      const ci = metric === "tier1" ? part.overall.tier1Ci : part.overall.compositeCi;
      let extra = "";
      if (cmp && cmp.partitions[p].n > 0) {
        const d = cmp.partitions[p].overall;
        const dci = metric === "tier1" ? d.tier1Ci : d.compositeCi;
        const cls = dci.lo > 0 ? "up" : dci.hi < 0 ? "down" : "flat";
        extra = `<div class="card-delta ${cls}">${esc(signed(d.delta[metric]))} vs run ${cmp.base.id}</div><div class="card-detail">Δ 95% CI ${esc(signedCi(dci))}</div>`;
      }
      cards.push(
        card(
          `${metric === "tier1" ? "Tier 1" : "Composite"} · ${PARTITION_LABELS[p]}`,
          f2(part.overall[metric]),
          `95% CI ${ciText(ci)} · n ${part.n}`,
          extra,
        ),
      );
    }
  }
  return `<section class="cards">${cards.join("")}</section>`;
}

function systemTable(part: PartitionReport): string {
  const rows = part.systems.map(
    (s) =>
      `<tr><th scope="row">${esc(s.system)}</th><td>${s.n}</td><td>${f1(s.tier1)}</td><td class="ci">${ciText(s.tier1Ci)}</td><td>${f1(s.composite)}</td><td class="ci">${ciText(s.compositeCi)}</td><td class="muted">${f1(s.compositeUpper)}</td></tr>`,
  );
  rows.push(
    `<tr class="total"><th scope="row">overall</th><td>${part.n}</td><td>${f2(part.overall.tier1)}</td><td class="ci">${ciText(part.overall.tier1Ci)}</td><td>${f2(part.overall.composite)}</td><td class="ci">${ciText(part.overall.compositeCi)}</td><td class="muted">${f2(part.overall.compositeUpper)}</td></tr>`,
  );
  return `<table class="data"><thead><tr><th></th><th>n</th><th>Tier 1</th><th>95% CI</th><th>Composite</th><th>95% CI</th><th title="if every judged component scored full marks">upper</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function categoryTable(part: PartitionReport): string {
  const systems = part.systems.map((s) => s.system);
  const head = `<tr><th></th><th>n</th><th>Tier 1</th><th>95% CI</th><th>Composite</th><th>95% CI</th>${systems.map((s) => `<th class="sys">${esc(s)}</th>`).join("")}</tr>`;
  const rows = part.categories.map((c) => {
    const cells = systems.map((s) => {
      const v = c.bySystem[s as SystemId];
      return v ? `<td class="heat ${heat(v.tier1)}" title="${esc(`${categoryLabel(c.category)} · ${s}: Tier 1 ${f1(v.tier1)}, composite ${f1(v.composite)}`)}">${f1(v.tier1)}</td>` : `<td class="heat">–</td>`;
    });
    return `<tr><th scope="row">${esc(categoryLabel(c.category))}</th><td>${c.n}</td><td>${f2(c.tier1)}</td><td class="ci">${ciText(c.tier1Ci)}</td><td>${f2(c.composite)}</td><td class="ci">${ciText(c.compositeCi)}</td>${cells.join("")}</tr>`;
  });
  return `<table class="data wide"><thead><tr><th colspan="6"></th>${systems.length > 0 ? `<th colspan="${systems.length}" class="group">Tier 1 by system (Σ scored / Σ max)</th>` : ""}</tr>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

function partitionCharts(report: BenchReport, part: PartitionReport): string {
  const label = PARTITION_LABELS[part.partition];
  const systems = barChart({
    title: `Per system, ${label} (${part.n} cases): Tier 1 and composite with 95% CIs`,
    series: SERIES,
    groups: part.systems.map((s) => ({
      label: s.system,
      values: [
        { value: s.tier1, lo: s.tier1Ci.lo, hi: s.tier1Ci.hi, title: `${s.system} Tier 1 ${f1(s.tier1)} (95% CI ${ciText(s.tier1Ci)}, n=${s.n})` },
        { value: s.composite, lo: s.compositeCi.lo, hi: s.compositeCi.hi, title: `${s.system} composite ${f1(s.composite)} (95% CI ${ciText(s.compositeCi)}, n=${s.n})` },
      ],
    })),
    references: [
      { value: part.overall.tier1, color: PALETTE.blue, label: `overall Tier 1 ${f2(part.overall.tier1)}` },
      { value: part.overall.composite, color: PALETTE.orange, label: `overall composite ${f2(part.overall.composite)}` },
    ],
    height: 280,
  });
  const categories = barChart({
    title: `Per category, ${label}: Tier 1 and composite with 95% CIs`,
    series: SERIES,
    groups: part.categories.map((c) => ({
      label: c.category,
      values: [
        { value: c.tier1, lo: c.tier1Ci.lo, hi: c.tier1Ci.hi, title: `category ${categoryLabel(c.category)} Tier 1 ${f2(c.tier1)} (95% CI ${ciText(c.tier1Ci)}, n=${c.n})` },
        { value: c.composite, lo: c.compositeCi.lo, hi: c.compositeCi.hi, title: `category ${categoryLabel(c.category)} composite ${f2(c.composite)} (95% CI ${ciText(c.compositeCi)}, n=${c.n})` },
      ],
    })),
    height: 280,
  });
  return `<h3>Per system</h3><p class="caption">Mean of per-case percentages per system; dashed lines: the overall figure (mean of the system means).</p><figure>${systems}</figure>${systemTable(part)}
<h3>Per category</h3><p class="caption">Mean of per-case percentages over the category's cases, all systems pooled; the heat map gives each system's Σ scored / Σ max.</p><figure>${categories}</figure>${categoryTable(part)}
${report.comparison ? comparisonSection(report, report.comparison.partitions[part.partition]) : ""}`;
}

function deltaTable(rows: readonly DeltaRow[], a: number, b: number): string {
  const body = rows
    .map(
      (r) =>
        `<tr${r.key === "overall" ? ' class="total"' : ""}><th scope="row">${esc(categoryLabel(r.key))}</th><td>${r.n}</td><td>${f1(r.run.tier1)}</td><td>${f1(r.base.tier1)}</td><td class="${r.tier1Ci.lo > 0 ? "up" : r.tier1Ci.hi < 0 ? "down" : ""}">${signed(r.delta.tier1)}</td><td class="ci">${signedCi(r.tier1Ci)}</td><td>${f1(r.run.composite)}</td><td>${f1(r.base.composite)}</td><td class="${r.compositeCi.lo > 0 ? "up" : r.compositeCi.hi < 0 ? "down" : ""}">${signed(r.delta.composite)}</td><td class="ci">${signedCi(r.compositeCi)}</td></tr>`,
    )
    .join("");
  return `<table class="data wide"><thead><tr><th colspan="2"></th><th colspan="4" class="group">Tier 1</th><th colspan="4" class="group">Composite</th></tr><tr><th></th><th>n</th><th>run ${a}</th><th>run ${b}</th><th>Δ</th><th>95% CI</th><th>run ${a}</th><th>run ${b}</th><th>Δ</th><th>95% CI</th></tr></thead><tbody>${body}</tbody></table>`;
}

function comparisonSection(report: BenchReport, cmp: ComparisonPartition): string {
  const base = report.comparison!.base;
  const a = report.run.id;
  if (cmp.n === 0) return `<h3>Run ${a} vs run ${base.id}</h3><p class="empty">No scored case in common in this partition.</p>`;
  const caption = `Δ points (run ${a} − run ${base.id})`;
  const row = (r: DeltaRow): { label: string; emphasis: boolean; values: { delta: number; lo: number; hi: number; title: string }[] } => ({
    label: categoryLabel(r.key),
    emphasis: r.key === "overall",
    values: [
      { delta: r.delta.tier1, lo: r.tier1Ci.lo, hi: r.tier1Ci.hi, title: `${categoryLabel(r.key)} Tier 1 Δ ${signed(r.delta.tier1)} (95% CI ${signedCi(r.tier1Ci)}, n=${r.n})` },
      { delta: r.delta.composite, lo: r.compositeCi.lo, hi: r.compositeCi.hi, title: `${categoryLabel(r.key)} composite Δ ${signed(r.delta.composite)} (95% CI ${signedCi(r.compositeCi)}, n=${r.n})` },
    ],
  });
  const systems = deltaChart({ title: `Run ${a} vs run ${base.id}, ${PARTITION_LABELS[cmp.partition]}: per system`, series: SERIES, rows: [cmp.overall, ...cmp.systems].map(row), caption });
  const categories = deltaChart({ title: `Run ${a} vs run ${base.id}, ${PARTITION_LABELS[cmp.partition]}: per category`, series: SERIES, rows: cmp.categories.map(row), caption });
  return `<h3>Run ${a} vs run ${base.id} <span class="muted">(${esc(base.policy)}${base.model !== base.policy ? ` · ${esc(base.model)}` : ""})</span></h3>
<p class="caption">Paired over the ${cmp.n} cases both runs scored in this partition; whiskers and intervals are 95% bootstrap CIs of the paired difference (overall: resampled within each system). A difference is marked when its interval excludes zero.</p>
<figure>${systems}</figure>${deltaTable([cmp.overall, ...cmp.systems], a, base.id)}<figure>${categories}</figure>${deltaTable(cmp.categories, a, base.id)}`;
}

function terminationTable(report: BenchReport): string {
  const systems = Object.keys(report.terminations.systems);
  const rows = terminationRows(report)
    .map((r) => {
      const sub = r.label.startsWith("· ");
      return `<tr${sub ? ' class="sub"' : ""}><th scope="row">${esc(sub ? r.label.slice(2) : r.label)}</th>${r.values.map((v, i) => `<td class="${v === 0 ? "zero" : ""}${i === 0 ? " strong" : ""}">${v}</td>`).join("")}</tr>`;
    })
    .join("");
  return `<table class="data"><thead><tr><th></th><th>all</th>${systems.map((s) => `<th>${esc(s)}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** Hybrid runs: per category the share of cases the router sent to each path, and how each path did. */
function hybridSection(hybrid: HybridReport | undefined): string {
  if (!hybrid) return "";
  const parts = (["holdout", "full"] as const).filter((p) => hybrid.partitions[p].n > 0);
  const tables = parts.map((p) => {
    const part = hybrid.partitions[p];
    const rows = hybridTableRows(part)
      .map((cells) => {
        const total = cells[0] === "overall";
        return `<tr${total ? ' class="total"' : ""}><th scope="row">${esc(cells[0] ?? "")}</th>${cells
          .slice(1)
          .map((c) => `<td${c === "–" || c === "0 %" ? ' class="zero"' : ""}>${esc(c)}</td>`)
          .join("")}</tr>`;
      })
      .join("");
    const groups = HYBRID_PATHS.map((path) => `<th colspan="4" class="group">routed to ${esc(path)}</th>`).join("");
    const head = HYBRID_PATHS.map(() => "<th>share</th><th>Tier 1</th><th>p50</th><th>p95</th>").join("");
    return `<h3>${esc(PARTITION_LABELS[p])} <span class="muted">(${part.n} cases)</span></h3><p class="caption">${esc(hybridAnsweredLine(part))}.</p>
<table class="data wide hybrid"><thead><tr><th colspan="2"></th>${groups}<th></th></tr><tr><th>category</th><th>n</th>${head}<th title="routed to the model, finished by the rule policy">fell back</th></tr></thead><tbody>${rows}</tbody></table>`;
  });
  const reasons = Object.entries(hybrid.reasons).map(([r, n]) => `${r} ${n}`).join(" · ");
  const fallbacks = Object.entries(hybrid.fallbackReasons).map(([r, n]) => `<li>${n} × ${esc(r)}</li>`).join("");
  return `<h2 id="hybrid">Hybrid routing</h2>
<p class="caption">Where the router sent each case (decision table in runtime/policies/hybrid.ts) and how each path did: share of the category's cases, mean per-case Tier 1 of the path's scored cases, and the per-case end-to-end latency (median, p95). "Fell back": routed to the model, finished by the rule policy.</p>
${tables.join("\n")}
<p class="caption">Router reasons: ${esc(reasons)}${hybrid.unrouted > 0 ? ` · ${hybrid.unrouted} case(s) without a router decision` : ""}</p>${fallbacks ? `<p class="caption">Why the model was replaced:</p><ul class="caption">${fallbacks}</ul>` : ""}`;
}

/** What the kiosk would have done with the answers: purchasable, blocked by the interlock, fallback, who answered. */
function kioskSection(kiosk: KioskVerdictReport | undefined): string {
  if (!kiosk) return "";
  const rows = kioskVerdictRows(kiosk)
    .map((cells) => {
      const total = cells[0] === "overall";
      return `<tr${total ? ' class="total"' : ""}><th scope="row">${esc(cells[0] ?? "")}</th>${cells
        .slice(1)
        .map((c) => `<td${c === "0" || c.startsWith("0 (") ? ' class="zero"' : ""}>${esc(c)}</td>`)
        .join("")}</tr>`;
    })
    .join("");
  const head = KIOSK_VERDICT_HEADER.slice(1).map((h) => `<th>${esc(h)}</th>`).join("");
  return `<h2 id="kiosk">At the kiosk</h2>
<table class="data wide kiosk-verdict"><thead><tr><th colspan="5"></th><th colspan="3" class="group">answered by</th></tr><tr><th>category</th>${head}</tr></thead><tbody>${rows}</tbody></table>
${kioskVerdictNotes(kiosk)
  .map((line) => `<p class="caption">${esc(line)}</p>`)
  .join("\n")}`;
}

function detailList(entries: [string, string | undefined | null][]): string {
  return `<dl class="details">${entries
    .filter((e): e is [string, string] => e[1] !== undefined && e[1] !== null && e[1] !== "")
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join("")}</dl>`;
}

function runDetails(run: RunInfo, title: string): string {
  const sel = run.selection;
  const selection = [
    sel.systems ? `systems ${sel.systems.join(", ")}` : "all systems",
    sel.categories ? `categories ${sel.categories.join(", ")}` : "all categories",
    sel.split === "all" ? "both partitions" : `${sel.split} partition`,
    sel.caseIds ? `${sel.caseIds.length} listed case ids` : "",
    sel.casesFile ? `case file ${sel.casesFile}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const opts = Object.entries(run.policyOptions).map(([k, v]) => `${k}=${String(v)}`);
  return `<div class="detail-block"><h3>${esc(title)}</h3>${detailList([
    ["policy", `${run.policy}${run.model !== run.policy ? ` (model ${run.model})` : ""}${opts.length > 0 ? ` · ${opts.join(", ")}` : ""}`],
    ["judge", run.judge === "none" ? "none (judged Tier 2 components score 0)" : run.judge],
    ["status", `${run.status} · ${run.casesDone}/${run.casesTotal} cases stored, ${run.casesScored} scored`],
    ["selection", selection],
    ["started", run.startedAt],
    ["finished", run.finishedAt],
    ["wall time", `${formatMs(run.wallMs)}${run.sessions > 1 ? ` over ${run.sessions} sessions` : ""} · concurrency ${run.concurrency}`],
    ["per case", run.e2eMs.median !== undefined ? `mean ${formatMs(run.e2eMs.mean ?? 0)}, median ${formatMs(run.e2eMs.median)}, p95 ${formatMs(run.e2eMs.p95 ?? 0)}` : undefined],
    ["tokens", run.tokens.input + run.tokens.output > 0 ? `${run.tokens.input.toLocaleString("en-US")} in · ${run.tokens.output.toLocaleString("en-US")} out` : undefined],
    ["machine", `${run.hardware.cpuModel} · ${run.hardware.cpuCores} cores · ${formatBytes(run.hardware.memoryBytes)} · ${run.hardware.platform} ${run.hardware.arch} ${run.hardware.osRelease} · node ${run.hardware.node}`],
    ["source", run.gitCommit ? `${run.gitCommit}${run.gitDirty ? " (with local changes)" : ""}` : "unknown"],
    ["data pack", `${run.dataRoot}${run.upstreamCommit ? ` · upstream ${run.upstreamCommit}` : ""}`],
  ])}</div>`;
}

/**
 * The page's one style sheet (inline in <style>). It is a constant, so the kiosk's CSP can allow
 * exactly it by hash (reportStyleHash) when the technician screen shows the report in a sandboxed
 * srcdoc iframe, which inherits the kiosk's policy.
 */
export const REPORT_CSS = `
:root{--ink:${PALETTE.ink};--muted:${PALETTE.muted};--line:#d0d7de;--soft:#f6f8fa;--blue:${PALETTE.blue};--orange:${PALETTE.orange};--up:#005f99;--down:#b3401d}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#fff;color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Liberation Sans",Arial,sans-serif;font-variant-numeric:tabular-nums}
.page{max-width:1080px;margin:0 auto;padding:28px 28px 48px}
header h1{font-size:26px;line-height:1.25;margin:0 0 4px;font-weight:650;letter-spacing:-.01em}
header .sub{color:var(--muted);margin:0}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12.5px;font-weight:600;vertical-align:2px;margin-left:6px;border:1px solid var(--line);background:var(--soft)}
.badge.finished{background:#dafbe1;border-color:#aceebb;color:#116329}.badge.interrupted,.badge.running{background:#fff8c5;border-color:#eed888;color:#7d4e00}.badge.failed{background:#ffebe9;border-color:#ffcecb;color:#a40e26}
h2{font-size:19px;margin:34px 0 8px;padding-bottom:6px;border-bottom:1px solid var(--line);font-weight:650}
h3{font-size:16px;margin:26px 0 4px;font-weight:650}
.caption{color:var(--muted);font-size:13.5px;margin:0 0 8px;max-width:80ch}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px;margin:22px 0 8px}
.card{border:1px solid var(--line);border-radius:10px;padding:12px 14px;background:#fff}
.card-label{font-size:13px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.04em}
.card-value{font-size:32px;font-weight:700;line-height:1.2;margin:2px 0}
.card-detail{font-size:13px;color:var(--muted)}
.card-delta{font-size:13.5px;margin-top:4px;font-weight:600}
.up{color:var(--up)}.down{color:var(--down)}.flat{color:var(--muted)}
.notes{border-left:4px solid ${PALETTE.orange};background:#fff8eb;padding:10px 14px;margin:18px 0;border-radius:0 8px 8px 0;font-size:14px}
.notes p{margin:2px 0}
.tabs-input{position:absolute;opacity:0;pointer-events:none}
.tabs{display:flex;gap:6px;margin:28px 0 0;border-bottom:1px solid var(--line)}
.tabs label{padding:8px 16px;border:1px solid transparent;border-bottom:none;border-radius:8px 8px 0 0;cursor:pointer;color:var(--muted);font-weight:600;margin-bottom:-1px}
.tabs label:hover{color:var(--ink);background:var(--soft)}
.tabs label .n{font-weight:400;font-size:13px;margin-left:4px}
.panel{display:none;padding-top:4px}
${PARTITION_NAMES.map((p) => `#tab-${p}:checked~.page .panel-${p}{display:block}#tab-${p}:checked~.page .tabs label[for=tab-${p}]{color:var(--ink);background:#fff;border-color:var(--line)}#tab-${p}:focus-visible~.page .tabs label[for=tab-${p}]{outline:2px solid var(--blue);outline-offset:2px}`).join("\n")}
figure{margin:8px 0 10px}
svg.chart{width:100%;height:auto;display:block}
svg .axis{font-size:12px;fill:var(--muted)}svg .legend{font-size:13px;fill:var(--ink)}svg .legend.muted{fill:var(--muted)}
svg .label{font-size:13px;fill:var(--ink);font-weight:600}svg .label.strong{font-weight:800}
svg .value{font-size:11.5px;fill:var(--ink)}
table.data{border-collapse:collapse;min-width:62%;margin:6px 0 12px;font-size:14px}
table.data.wide{width:100%}
table.data th,table.data td{padding:5px 12px;text-align:right;border-bottom:1px solid #eaeef2;white-space:nowrap}
table.data th:first-child{text-align:left}
table.data thead th{font-size:12.5px;color:var(--muted);font-weight:600;border-bottom:1px solid var(--line)}
table.data thead th.group{text-align:center;border-bottom:1px solid #eaeef2}
table.data tbody th{font-weight:600}
table.data tr.total th,table.data tr.total td{font-weight:700;border-top:2px solid var(--line)}
table.data tr.sub th{font-weight:400;padding-left:24px;color:var(--muted)}
td.ci{color:var(--muted);font-size:13px}
td.heat{text-align:center;min-width:58px;font-size:13px;border-bottom:1px solid #fff}
${heatCss()}
td.zero{color:#afb8c1}td.strong{font-weight:700}
.muted{color:var(--muted);font-weight:400}
.empty{color:var(--muted);font-style:italic}
.detail-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:8px 28px}
dl.details{display:grid;grid-template-columns:max-content 1fr;gap:3px 14px;margin:6px 0;font-size:14px}
dl.details dt{color:var(--muted)}dl.details dd{margin:0;overflow-wrap:anywhere}
footer{margin-top:36px;color:var(--muted);font-size:12.5px;border-top:1px solid var(--line);padding-top:10px}
@media print{.tabs{display:none}.panel{display:block!important;break-before:page}.page{padding:0}}
`;

/** The CSP source that allows exactly REPORT_CSS as an inline style element: 'sha256-…'. */
export function reportStyleHash(): string {
  return `'sha256-${createHash("sha256").update(REPORT_CSS, "utf8").digest("base64")}'`;
}

export function renderReportHtml(report: BenchReport, extras: { traces?: readonly CaseTrace[] } = {}): string {
  const traces = extras.traces ?? [];
  const run = report.run;
  const first: PartitionName = report.partitions.holdout.n > 0 ? "holdout" : "full";
  const tabs = PARTITION_NAMES.map((p) => `<label for="tab-${p}">${PARTITION_LABELS[p]}<span class="n">${report.partitions[p].n}</span></label>`).join("");
  const radios = PARTITION_NAMES.map((p) => `<input class="tabs-input" type="radio" name="partition" id="tab-${p}"${p === first ? " checked" : ""} aria-label="${PARTITION_LABELS[p]} partition">`).join("");
  const panels = PARTITION_NAMES.map((p) => {
    const part = report.partitions[p];
    const body = part.n === 0 ? `<p class="empty">No scored case of this run is in the ${PARTITION_LABELS[p]} partition.</p>` : partitionCharts(report, part);
    return `<section class="panel panel-${p}" aria-label="${PARTITION_LABELS[p]} partition">${body}</section>`;
  }).join("");
  const notes = report.notes.length > 0 ? `<div class="notes">${report.notes.map((n) => `<p>${esc(n)}</p>`).join("")}</div>` : "";
  const cmp = report.comparison;
  const title = `MetroLLM-Bench run ${run.id} · ${run.policy}${cmp ? ` vs run ${cmp.base.id}` : ""}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${esc(title)}</title>
<style>${REPORT_CSS}</style>
<style>${TRACE_CSS}</style>
</head>
<body>
${radios}${traces.length > 0 ? FAILED_ONLY_INPUT : ""}
<div class="page">
<header>
<h1>MetroLLM-Bench · run ${run.id}<span class="badge ${esc(run.status)}">${esc(run.status)}</span></h1>
<p class="sub">${esc(run.policy)}${run.model !== run.policy ? ` · ${esc(run.model)}` : ""} · judge ${esc(run.judge)} · ${run.casesScored} of ${run.casesTotal} cases scored · ${esc(run.startedAt.replace("T", " ").replace(/\.\d+Z$/, " UTC"))}${cmp ? ` · compared with run ${cmp.base.id} (${esc(cmp.base.policy)}) over ${cmp.commonCases} common cases` : ""}</p>
</header>
${headlineCards(report)}
${notes}
<h2 id="scores">Scores</h2>
<p class="caption">As the paper computes them: per case Tier 1 and composite percentages; per system their mean; overall the mean of the system means. Error bars: 95% percentile-bootstrap intervals (${report.bootstrap.resamples.toLocaleString("en-US")} resamples, seed ${report.bootstrap.seed}).</p>
<nav class="tabs" aria-label="Partition">${tabs}</nav>
${panels}
<h2 id="terminations">How cases ended</h2>
${terminationTable(report)}
${hybridSection(report.hybrid)}
${trialsHtml(report.trials)}
${caseDiffHtml(report)}
${traceViewerHtml(traces)}
${kioskSection(report.kiosk)}
<h2 id="details">Run details</h2>
<div class="detail-grid">${runDetails(run, `Run ${run.id}`)}${cmp ? runDetails(cmp.base, `Run ${cmp.base.id} (compared)`) : ""}</div>
<footer>Generated ${esc(report.generatedAt)} by kiosk bench report. Bootstrap: ${esc(report.bootstrap.method)}.</footer>
</div>
</body>
</html>
`;
}
