// The report as aligned terminal tables.
import { categoryLabel } from "../../tools/data/schemas.ts";
import type { Hardware } from "../store/schema.ts";
import { pyRound } from "../../tools/py/index.ts";
import type { PartitionName } from "../stats/index.ts";
import {
  HYBRID_PATHS,
  PARTITION_LABELS,
  PARTITION_NAMES,
  type BenchReport,
  type CI,
  type DeltaRow,
  type HybridPartition,
  type HybridReport,
  type HybridRow,
  type PathStats,
  type RunInfo,
  type TerminationReport,
} from "./build.ts";
import { KIOSK_VERDICT_HEADER, kioskVerdictNotes, kioskVerdictRows, type KioskVerdictReport } from "./kiosk.ts";

type Align = "l" | "r";

interface Column {
  align: Align;
}

interface Group {
  label: string;
  span: number;
}

/** Aligned columns with an optional row of group labels spanning columns. */
export function renderTable(columns: readonly Column[], header: readonly string[], rows: readonly (readonly string[])[], groups?: readonly Group[]): string {
  const widths = columns.map((_, i) => Math.max((header[i] ?? "").length, ...rows.map((r) => (r[i] ?? "").length)));
  const gap = "  ";
  if (groups) {
    // Widen the last column of a group whose label is longer than its columns.
    let col = 0;
    for (const g of groups) {
      const span = widths.slice(col, col + g.span).reduce((a, b) => a + b, 0) + gap.length * (g.span - 1);
      if (g.label.length > span) widths[col + g.span - 1]! += g.label.length - span;
      col += g.span;
    }
  }
  const cell = (text: string, i: number): string => (columns[i]?.align === "r" ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const line = (cells: readonly string[]): string => cells.map((c, i) => cell(c, i)).join(gap).trimEnd();
  const out: string[] = [];
  if (groups) {
    const parts: string[] = [];
    let col = 0;
    for (const g of groups) {
      const span = widths.slice(col, col + g.span).reduce((a, b) => a + b, 0) + gap.length * (g.span - 1);
      parts.push(g.label.padEnd(span));
      col += g.span;
    }
    out.push(parts.join(gap).trimEnd());
  }
  out.push(line(header));
  out.push(widths.map((w) => "─".repeat(w)).join(gap));
  for (const r of rows) out.push(line(r));
  return out.join("\n");
}

export const f1 = (x: number): string => pyRound(x, 1).toFixed(1);
export const f2 = (x: number): string => pyRound(x, 2).toFixed(2);
export const fci = (c: CI | undefined): string => (c && c.n > 0 ? `[${f1(c.lo)}, ${f1(c.hi)}]` : "");
const signed = (x: number, digits: 1 | 2): string => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${(digits === 1 ? f1 : f2)(Math.abs(x))}`;

export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms.toFixed(0)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms - m * 60_000) / 1000)} s`;
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

/** The machine in one line, as a run's headline and the perf scripts name it. */
export function describeMachine(h: Hardware): string {
  return `${h.cpuModel} ×${h.cpuCores}, ${formatBytes(h.memoryBytes)}, ${h.platform} ${h.arch}, node ${h.node}`;
}

export function runHeadline(run: RunInfo): string[] {
  const lines = [
    `Run ${run.id} · policy ${run.policy}${run.model !== run.policy ? ` (model ${run.model})` : ""} · ${run.status} · judge ${run.judge}`,
    `${run.casesDone}/${run.casesTotal} cases stored, ${run.casesScored} scored · wall ${formatMs(run.wallMs)}` +
      (run.sessions > 1 ? ` over ${run.sessions} sessions` : "") +
      ` · concurrency ${run.concurrency}` +
      (run.e2eMs.median !== undefined ? ` · per case median ${formatMs(run.e2eMs.median)}, p95 ${formatMs(run.e2eMs.p95 ?? 0)}` : "") +
      (run.tokens.input + run.tokens.output > 0 ? ` · tokens ${run.tokens.input} in / ${run.tokens.output} out` : ""),
    `started ${run.startedAt}${run.finishedAt ? ` · finished ${run.finishedAt}` : ""} · commit ${run.gitCommit?.slice(0, 10) ?? "unknown"}${run.gitDirty ? " (modified)" : ""} · pack ${run.upstreamCommit?.slice(0, 10) ?? "unknown"}`,
    `machine: ${describeMachine(run.hardware)}`,
  ];
  if (run.selection.casesFile) lines.push(`cases from ${run.selection.casesFile}`);
  return lines;
}

/** Rows × partitions: n, value, CI per partition. */
function partitionBlock(report: BenchReport, title: string, rows: { label: string; cell: (p: PartitionName) => { n: number; value: string; ci: CI | undefined } | undefined }[]): string {
  const parts = PARTITION_NAMES.filter((p) => report.partitions[p].n > 0);
  const columns: Column[] = [{ align: "l" }];
  const header = [""];
  const groups: Group[] = [{ label: title, span: 1 }];
  for (const p of parts) {
    columns.push({ align: "r" }, { align: "r" }, { align: "l" });
    header.push("n", "%", "95% CI");
    groups.push({ label: PARTITION_LABELS[p], span: 3 });
  }
  const body = rows.map((r) => {
    const cells = [r.label];
    for (const p of parts) {
      const c = r.cell(p);
      cells.push(c ? String(c.n) : "", c ? c.value : "–", c ? fci(c.ci) : "");
    }
    return cells;
  });
  return renderTable(columns, header, body, groups);
}

function scoreBlocks(report: BenchReport): string[] {
  if (PARTITION_NAMES.every((p) => report.partitions[p].n === 0)) return ["No scored cases in this run (see the notes below)."];
  const systems = [...new Set(PARTITION_NAMES.flatMap((p) => report.partitions[p].systems.map((s) => s.system)))];
  const categories = [...new Set(PARTITION_NAMES.flatMap((p) => report.partitions[p].categories.map((c) => c.category)))].sort();
  const out: string[] = [];
  for (const metric of ["tier1", "composite"] as const) {
    const ciKey = metric === "tier1" ? "tier1Ci" : "compositeCi";
    const title = metric === "tier1" ? "Tier 1" : "Composite (no judge: lower bound)";
    out.push(
      partitionBlock(report, title, [
        ...systems.map((system) => ({
          label: system,
          cell: (p: PartitionName) => {
            const row = report.partitions[p].systems.find((s) => s.system === system);
            return row ? { n: row.n, value: f1(row[metric]), ci: row[ciKey] } : undefined;
          },
        })),
        {
          label: "overall",
          cell: (p: PartitionName) => {
            const o = report.partitions[p];
            return { n: o.n, value: f2(o.overall[metric]), ci: o.overall[ciKey] };
          },
        },
      ]),
    );
    out.push(
      partitionBlock(
        report,
        `${metric === "tier1" ? "Tier 1" : "Composite"} by category`,
        categories.map((category) => ({
          label: categoryLabel(category),
          cell: (p: PartitionName) => {
            const row = report.partitions[p].categories.find((c) => c.category === category);
            return row ? { n: row.n, value: f2(row[metric]), ci: row[ciKey] } : undefined;
          },
        })),
      ),
    );
  }
  return out;
}

const TERMINATION_LABELS: Readonly<Record<string, string>> = {
  submitted: "submitted a state",
  text_reply: "ended with a text reply",
  policy_done: "policy finished",
  round_budget_exhausted: "round budget exhausted",
  deadline: "deadline",
  aborted: "aborted",
  policy_error: "policy error",
  malformed_tool_arguments: "malformed tool arguments",
  truncated: "truncated output",
  empty_responses: "empty responses",
};

export function terminationRows(report: BenchReport): { label: string; values: number[] }[] {
  const all = report.terminations.overall;
  const systems = Object.values(report.terminations.systems) as TerminationReport[];
  const reasons = Object.keys(all.byTermination);
  const row = (label: string, get: (t: TerminationReport) => number): { label: string; values: number[] } => ({ label, values: [get(all), ...systems.map(get)] });
  return [
    ...reasons.map((r) => row(TERMINATION_LABELS[r] ?? r, (t) => t.byTermination[r] ?? 0)),
    row("errors (any)", (t) => t.errors),
    row("· rounds exhausted", (t) => t.exhaustedRounds),
    row("· truncated", (t) => t.truncated),
    row("· empty-response retries", (t) => t.emptyResponseExhausted),
    row("· HTTP errors", (t) => t.httpErrors),
    row("· other errors", (t) => t.otherErrors),
    row("no response", (t) => t.noResponse),
    row("rejected submissions", (t) => t.rejectedSubmissions),
    row("cases with a rejection", (t) => t.casesWithRejectedSubmission),
    row("tool errors", (t) => t.toolErrors),
    row("fallback state shown", (t) => t.fallbacks),
    row("not scored", (t) => t.unscored),
  ];
}

function terminationBlock(report: BenchReport): string {
  const systems = Object.keys(report.terminations.systems);
  const columns: Column[] = [{ align: "l" }, { align: "r" }, ...systems.map(() => ({ align: "r" as const }))];
  const rows = terminationRows(report).map((r) => [r.label, ...r.values.map(String)]);
  return renderTable(columns, ["How cases ended", "all", ...systems], rows);
}

function deltaBlock(report: BenchReport, metric: "tier1" | "composite", pick: (p: BenchReport["comparison"] & object, part: PartitionName) => DeltaRow[], title: string): string {
  const cmp = report.comparison!;
  const parts = PARTITION_NAMES.filter((p) => cmp.partitions[p].n > 0 && p !== "train");
  const columns: Column[] = [{ align: "l" }];
  const header = [""];
  const groups: Group[] = [{ label: title, span: 1 }];
  for (const p of parts) {
    columns.push({ align: "r" }, { align: "r" }, { align: "r" }, { align: "r" }, { align: "l" });
    header.push("n", `run ${report.run.id}`, `run ${cmp.base.id}`, "Δ", "95% CI of Δ");
    groups.push({ label: PARTITION_LABELS[p], span: 5 });
  }
  const keys = [...new Set(parts.flatMap((p) => pick(cmp, p).map((r) => r.key)))];
  const ciKey = metric === "tier1" ? "tier1Ci" : "compositeCi";
  const rows = keys.map((key) => {
    const cells = [categoryLabel(key)];
    for (const p of parts) {
      const r = pick(cmp, p).find((x) => x.key === key);
      if (!r) cells.push("", "–", "–", "", "");
      else cells.push(String(r.n), f1(r.run[metric]), f1(r.base[metric]), signed(r.delta[metric], 1), fci(r[ciKey]));
    }
    return cells;
  });
  return renderTable(columns, header, rows, groups);
}

function comparisonBlocks(report: BenchReport): string[] {
  const cmp = report.comparison;
  if (!cmp) return [];
  const out = [
    `Run ${report.run.id} vs run ${cmp.base.id} (${cmp.base.policy}${cmp.base.model !== cmp.base.policy ? `, ${cmp.base.model}` : ""}): paired over ${cmp.commonCases} common cases` +
      (cmp.onlyInRun + cmp.onlyInBase > 0 ? ` (${cmp.onlyInRun} only in run ${report.run.id}, ${cmp.onlyInBase} only in run ${cmp.base.id})` : "") +
      `; Δ = run ${report.run.id} − run ${cmp.base.id}`,
  ];
  for (const metric of ["tier1", "composite"] as const) {
    const name = metric === "tier1" ? "Tier 1" : "Composite";
    out.push(deltaBlock(report, metric, (c, p) => [...c.partitions[p].systems, c.partitions[p].overall], `${name} Δ`));
    out.push(deltaBlock(report, metric, (c, p) => c.partitions[p].categories, `${name} Δ by category`));
  }
  return out;
}

const msOrDash = (ms: number | undefined): string => (ms === undefined ? "–" : formatMs(ms));
const t1OrDash = (s: PathStats): string => (s.tier1 === null ? "–" : f2(s.tier1));

/** One line per hybrid row: n, then per path share, Tier 1, p50 and p95 of the per-case latency. */
export function hybridTableRows(part: HybridPartition): string[][] {
  const row = (r: HybridRow): string[] => [
    categoryLabel(r.key),
    String(r.n),
    ...HYBRID_PATHS.flatMap((p) => {
      const s = r.paths[p];
      return s.n === 0 ? ["0 %", "–", "–", "–"] : [`${f1(s.sharePct)} %`, t1OrDash(s), msOrDash(s.e2eMs.median), msOrDash(s.e2eMs.p95)];
    }),
    String(r.fallbacks),
  ];
  return [...part.categories.map(row), row(part.overall)];
}

/** How a partition's cases were answered: by the rule path, the model, or rule after the model. */
export function hybridAnsweredLine(part: HybridPartition): string {
  const a = part.answeredBy;
  const d = a.deterministic;
  return (
    `${PARTITION_LABELS[part.partition]}: ${d.n} of ${part.n} cases (${f1(d.sharePct)} %) answered deterministically (rule path ${a.rule.n}, model fallback ${a["rule-fallback"].n})` +
    `${d.tier1 !== null ? `, Tier 1 ${f2(d.tier1)}` : ""}; ${a.model.n} answered by the model${a.model.tier1 !== null ? `, Tier 1 ${f2(a.model.tier1)}` : ""}`
  );
}

/** The hybrid section's terminal blocks (none for a run without routing). */
export function hybridBlocks(hybrid: HybridReport | undefined): string[] {
  if (!hybrid) return [];
  const parts = (["holdout", "full"] as const).filter((p) => hybrid.partitions[p].n > 0);
  const columns: Column[] = [{ align: "l" }, { align: "r" }, ...HYBRID_PATHS.flatMap(() => [{ align: "r" as const }, { align: "r" as const }, { align: "r" as const }, { align: "r" as const }]), { align: "r" }];
  const header = ["", "n", ...HYBRID_PATHS.flatMap(() => ["share", "Tier 1", "p50", "p95"]), "fell back"];
  const out: string[] = [];
  for (const p of parts) {
    const groups: Group[] = [{ label: `Hybrid routing · ${PARTITION_LABELS[p]}`, span: 2 }, ...HYBRID_PATHS.map((path) => ({ label: `→ ${path}`, span: 4 })), { label: "", span: 1 }];
    out.push(renderTable(columns, header, hybridTableRows(hybrid.partitions[p]), groups));
  }
  const reasons = Object.entries(hybrid.reasons).map(([r, n]) => `${r} ${n}`).join(", ");
  out.push(
    [
      ...parts.map((p) => hybridAnsweredLine(hybrid.partitions[p])),
      `router reasons: ${reasons}${hybrid.unrouted > 0 ? ` · ${hybrid.unrouted} case(s) without a router decision` : ""}`,
      ...Object.entries(hybrid.fallbackReasons).map(([r, n]) => `fallback ×${n}: ${r}`),
      "share: of the row's cases; Tier 1: mean per-case Tier 1 of the path's scored cases; p50/p95: per-case end-to-end latency.",
    ].join("\n"),
  );
  return out;
}

/** The kiosk's verdict section (none for a run stored without it). */
export function kioskBlocks(kiosk: KioskVerdictReport | undefined): string[] {
  if (!kiosk) return [];
  const columns: Column[] = [{ align: "l" }, ...KIOSK_VERDICT_HEADER.slice(1).map(() => ({ align: "r" as const }))];
  const groups: Group[] = [{ label: "At the kiosk", span: 5 }, { label: "answered by", span: 3 }];
  return [renderTable(columns, KIOSK_VERDICT_HEADER, kioskVerdictRows(kiosk), groups), kioskVerdictNotes(kiosk).join("\n")];
}

/** The whole report for a terminal. */
export function renderReportTable(report: BenchReport): string {
  const b = report.bootstrap;
  const blocks = [
    runHeadline(report.run).join("\n"),
    ...scoreBlocks(report),
    report.run.casesScored === 0
      ? ""
      : `Per system: mean of per-case %; overall: mean of the system means; by category: mean over the category's cases.\n` +
      `95% CIs: percentile bootstrap, ${b.resamples.toLocaleString("en-US")} resamples, seed ${b.seed} (overall: resampled within each system).`,
    terminationBlock(report),
    ...hybridBlocks(report.hybrid),
    ...kioskBlocks(report.kiosk),
    ...comparisonBlocks(report),
  ];
  if (report.notes.length > 0) blocks.push(report.notes.map((n) => `note: ${n}`).join("\n"));
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}
