// The report page's case sections: the trace viewer (every case opens to its conversation, tool
// calls with arguments and results, the submission and each component's score and reason), a
// "failed only" filter, the repeated-trials table (pass^k) and a comparison's per-case differences.
// Like the rest of the page it is script-free: <details> opens a case, and the filter is a CSS-only
// checkbox, so the page works offline and under the technician screen's CSP (no script at all;
// its one extra style element is allowed by hash, runtime/kiosk/csp.ts).
import { createHash } from "node:crypto";
import { categoryLabel } from "../../tools/data/schemas.ts";
import type { BenchReport } from "./build.ts";
import { componentChangeText } from "./case-diff-text.ts";
import { esc } from "./svg.ts";
import type { CaseTrace, TraceMessage } from "./trace.ts";
import type { TrialsReport } from "./trials.ts";

/** The id of the filter checkbox; it must precede `.page` in the body (see renderReportHtml). */
export const FAILED_ONLY_INPUT = `<input class="tabs-input" type="checkbox" id="failed-only" aria-label="Show failed cases only">`;

export const TRACE_CSS = `
.filter{display:inline-flex;align-items:center;gap:8px;padding:5px 14px;border:1px solid var(--line);border-radius:999px;cursor:pointer;font-weight:600;font-size:14px;background:#fff;color:var(--ink);margin:4px 0 10px}
.filter .box{width:16px;height:16px;border:2px solid var(--muted);border-radius:4px;display:inline-block}
#failed-only:checked~.page .filter{border-color:var(--blue);color:var(--blue)}
#failed-only:checked~.page .filter .box{background:var(--blue);border-color:var(--blue);box-shadow:inset 0 0 0 2px #fff}
#failed-only:focus-visible~.page .filter{outline:2px solid var(--blue);outline-offset:2px}
#failed-only:checked~.page details.case.pass{display:none}
.case-list{border:1px solid var(--line);border-radius:10px;overflow:hidden;margin:6px 0 16px}
details.case{border-top:1px solid #eaeef2}
details.case:first-child{border-top:none}
details.case>summary{display:grid;grid-template-columns:16px 150px 30px 70px 108px 108px 1fr;gap:10px;padding:7px 12px;cursor:pointer;list-style:none;align-items:baseline;font-size:14px}
details.case>summary::-webkit-details-marker{display:none}
details.case>summary::before{content:"▸";color:var(--muted)}
details.case[open]>summary::before{content:"▾"}
details.case>summary:hover,details.case[open]>summary{background:var(--soft)}
details.case>summary:focus-visible{outline:2px solid var(--blue);outline-offset:-2px}
.case-id{font-weight:650;font-variant-numeric:tabular-nums}
.verdict{font-weight:600}.verdict.pass{color:#116329}.verdict.fail{color:#a40e26}
.lost{color:var(--muted);font-size:13px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.trace{padding:6px 18px 18px 40px;border-top:1px solid #eaeef2}
.trace h4{font-size:14px;margin:14px 0 4px;font-weight:650}
.msg{border-left:3px solid var(--line);padding:4px 0 4px 12px;margin:8px 0}
.msg.user{border-color:var(--blue)}.msg.assistant{border-color:var(--orange)}.msg.tool{border-color:#8c959f}
.msg .role{font-size:12px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}
.msg .call{font-weight:600;font-size:13.5px;margin-top:4px}
.trace pre{white-space:pre-wrap;overflow-wrap:anywhere;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;margin:4px 0;background:var(--soft);padding:6px 9px;border-radius:6px;max-height:340px;overflow:auto}
.trace pre.reasoning{background:#fff8eb}
table.components{border-collapse:collapse;font-size:13.5px;width:100%}
table.components th,table.components td{padding:4px 10px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}
table.components td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
table.components tr.short td.num{color:var(--down);font-weight:700}
table.components thead th{color:var(--muted);font-size:12.5px}
table.data td.reason{text-align:left;white-space:normal}
`;

/** The CSP source that allows exactly TRACE_CSS as an inline style element. */
export function traceStyleHash(): string {
  return `'sha256-${createHash("sha256").update(TRACE_CSS, "utf8").digest("base64")}'`;
}

const pct = (x: number | null): string => (x === null ? "–" : x.toFixed(1));

/** Text inside an element: only &, < and > need escaping (quotes do not; they add up in JSON). */
const escText = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function lostPoints(t: CaseTrace): string {
  if (!t.scored) return t.scoreNote ?? "not scored";
  const lost = t.components.filter((c) => c.tier === 1 && c.score < c.max).map((c) => `${c.name} ${c.score}/${c.max}`);
  return lost.join(" · ") || (t.passed ? "all Tier 1 components at full marks" : "");
}

function messageHtml(m: TraceMessage, finalSubmission: string | null): string {
  const parts: string[] = [];
  const role = m.role === "tool" ? `tool result${m.toolName ? ` · ${m.toolName}` : ""}` : m.role;
  if (m.reasoning) parts.push(`<pre class="reasoning">${escText(m.reasoning)}</pre>`);
  if (m.text) parts.push(`<pre>${escText(m.text)}</pre>`);
  for (const c of m.toolCalls) {
    // The final submission's arguments are the Submission section below: not repeated here.
    if (c.id === finalSubmission) parts.push(`<div class="call">→ ${esc(c.name)} <span class="muted">(arguments: the submission, below)</span></div>`);
    else parts.push(`<div class="call">→ ${esc(c.name)}</div><pre>${escText(c.arguments)}</pre>`);
  }
  return `<div class="msg ${m.role}"><div class="role">${esc(role)}</div>${parts.join("")}</div>`;
}

function caseHtml(t: CaseTrace): string {
  const finalSubmission = t.submission === null ? null : (t.conversation.flatMap((m) => m.toolCalls).filter((c) => c.name === "submit_assistant_state").pop()?.id ?? null);
  const verdict = t.passed ? `<span class="verdict pass">passed</span>` : `<span class="verdict fail">${t.scored ? "failed" : "not scored"}</span>`;
  const components = t.components
    .map((c) => `<tr${c.score < c.max ? ' class="short"' : ""}><td>${esc(c.name)}</td><td>${c.tier}</td><td class="num">${c.score} / ${c.max}</td><td>${esc(c.reason)}</td></tr>`)
    .join("");
  const body = [
    `<p class="caption">${esc(t.system)} · category ${esc(categoryLabel(t.category))} · ${esc(t.partition === "holdout" ? "held-out" : t.partition)} · ended: ${esc(t.termination)}${t.fallback ? " (safe fallback state)" : ""} · ${Math.round(t.e2eMs)} ms${t.error ? ` · error: ${esc(t.error)}` : ""} · system prompt ${t.systemPromptChars.toLocaleString("en-US")} characters (not shown)</p>`,
    `<h4>Conversation</h4>${t.conversation.map((m) => messageHtml(m, finalSubmission)).join("") || '<p class="empty">No messages.</p>'}`,
    `<h4>Submission</h4><pre>${escText(JSON.stringify(t.submission, null, 1) ?? "null")}</pre>`,
    `<h4>Scores</h4>${components ? `<table class="components"><thead><tr><th>component</th><th>tier</th><th>score</th><th>reason</th></tr></thead><tbody>${components}</tbody></table>` : `<p class="empty">${esc(t.scoreNote ?? "Not scored.")}</p>`}`,
  ].join("");
  return `<details class="case ${t.passed ? "pass" : "fail"}" id="case-${esc(t.caseId)}"><summary><span class="case-id">${esc(t.caseId)}</span><span>${esc(categoryLabel(t.category))}</span><span>${esc(t.system)}</span><span>Tier 1 ${pct(t.tier1Pct)}</span><span>${verdict}</span><span class="lost" title="${esc(lostPoints(t))}">${esc(lostPoints(t))}</span></summary><div class="trace">${body}</div></details>`;
}

/** The "Cases" section: every case in run order, with the failed-only filter. */
export function traceViewerHtml(traces: readonly CaseTrace[]): string {
  if (traces.length === 0) return "";
  const failed = traces.filter((t) => !t.passed).length;
  return `<h2 id="cases">Cases</h2>
<p class="caption">Open a case for its conversation, every tool call with its arguments and result, the submission and each component's score and reason. A case passes when all its Tier 1 components score full marks: ${failed} of ${traces.length} did not.</p>
<label class="filter" for="failed-only"><span class="box" aria-hidden="true"></span>Failed only (${failed})</label>
<div class="case-list">${traces.map(caseHtml).join("")}</div>`;
}

export function trialsHtml(t: TrialsReport | undefined): string {
  if (!t) return "";
  const k = t.counted;
  const head = `<tr><th></th><th>n</th>${Array.from({ length: k }, (_, i) => `<th>pass^${i + 1}</th>`).join("")}</tr>`;
  const row = (r: TrialsReport["overall"], total = false): string => `<tr${total ? ' class="total"' : ""}><th scope="row">${esc(categoryLabel(r.key))}</th><td>${r.n}</td>${r.passAt.map((p) => `<td>${p.toFixed(1)}</td>`).join("")}</tr>`;
  return `<h2 id="trials">Repeated trials</h2>
<p class="caption">${k} of ${t.trials} trial(s) of this selection (runs ${t.runs.map((r) => r.id).join(", ")}); ${t.cases} case(s) scored in every trial${t.leftOut > 0 ? `, ${t.leftOut} left out` : ""}. pass^k is the chance that k trials of a case all pass (τ-bench's consistency measure, C(c,k)/C(n,k) averaged over cases); ${esc(t.passDefinition)}.</p>
<table class="data"><thead>${head}</thead><tbody>${t.categories.map((r) => row(r)).join("")}${row(t.overall, true)}</tbody></table>`;
}

export function caseDiffHtml(report: BenchReport, limit = 100): string {
  const cmp = report.comparison;
  if (!cmp) return "";
  const d = cmp.cases;
  const signed = (x: number): string => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toFixed(1)}`;
  const rows = d.cases
    .slice(0, limit)
    .map((c) => `<tr><th scope="row">${esc(c.caseId)}</th><td>${c.base.tier1.toFixed(1)}</td><td>${c.run.tier1.toFixed(1)}</td><td class="${c.delta.tier1 < 0 ? "down" : c.delta.tier1 > 0 ? "up" : ""}">${signed(c.delta.tier1)}</td><td>${signed(c.delta.composite)}</td><td class="reason">${esc(componentChangeText(c.components))}</td></tr>`)
    .join("");
  return `<h2 id="case-differences">Per case: run ${report.run.id} vs run ${cmp.base.id}</h2>
<p class="caption">${d.compared} cases compared · ${d.worsened} worse · ${d.improved} better · ${d.unchanged} with the same score. Largest Tier 1 losses first${d.cases.length > limit ? `; the first ${limit} of ${d.cases.length} changed cases` : ""}; components as base → run.</p>
${d.cases.length === 0 ? '<p class="empty">No case changed.</p>' : `<table class="data wide"><thead><tr><th>case</th><th>Tier 1 base</th><th>Tier 1 run</th><th>Δ Tier 1</th><th>Δ composite</th><th>components</th></tr></thead><tbody>${rows}</tbody></table>`}`;
}
