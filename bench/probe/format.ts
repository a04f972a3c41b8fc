// The probe's outputs: one flat JSON object (`kiosk probe --json`, `--out FILE`), an aligned
// terminal table, and label/value figures for the technician screen.
import { pyRound } from "../../tools/py/index.ts";
import { formatMs, renderTable } from "../report/table.ts";
import { formatThreadDecision, type ThreadGovernorStatus } from "../../models/thread-governor.ts";
import type { LatencyStats, ProbeResult } from "./probe.ts";

const r1 = (x: number): number => pyRound(x, 1);
const r1n = (x: number | null): number | null => (x === null ? null : pyRound(x, 1));

function latencyJson(s: LatencyStats): Record<string, number | null> {
  return { n: s.n, p50_ms: r1n(s.p50Ms), p95_ms: r1n(s.p95Ms), mean_ms: r1n(s.meanMs), max_ms: r1n(s.maxMs) };
}

/** The probe as one JSON object: the headline figures first (flat), then the details. */
export function probeJson(r: ProbeResult): Record<string, unknown> {
  return {
    load_ms: r1(r.loadMs),
    ttft_cold_ms: r1(r.ttftColdMs),
    ttft_warm_ms: r1(r.ttftWarmMs),
    prefill_tokens_cold: r.prefillTokensCold,
    prefill_tokens_warm: r.prefillTokensWarm,
    prefill_tok_s: r1(r.prefillTokS),
    decode_tok_s: r1n(r.decodeTokS),
    case_latency_p50_ms: r1n(r.caseLatency.p50Ms),
    case_latency_p95_ms: r1n(r.caseLatency.p95Ms),
    peak_rss_mb: r1(r.peakRssMb),
    policy: r.policy,
    cases_run: r.cases.length,
    prompt_tokens_cold: r.promptTokensCold,
    prompt_tokens_warm: r.promptTokensWarm,
    cached_tokens_warm: r.cachedTokensWarm,
    cold_case: r.coldCaseId,
    warm_case: r.warmCaseId,
    decode_tokens_measured: r.decodeTokensMeasured,
    session_decode_tok_s: r1n(r.sessionDecodeTokS),
    case_latency: latencyJson(r.caseLatency),
    ...(r.byPath ? { by_path: { rule: latencyJson(r.byPath.rule), model: latencyJson(r.byPath.model) } } : {}),
    cases: r.cases.map((c) => ({
      id: c.id,
      system: c.system,
      category: c.category,
      e2e_ms: r1(c.e2eMs),
      rounds: c.rounds,
      termination: c.termination,
      prompt_tokens: c.promptTokens,
      cached_prompt_tokens: c.cachedPromptTokens,
      completion_tokens: c.completionTokens,
      first_ttft_ms: r1n(c.firstTtftMs),
      ...(c.path ? { path: c.path } : {}),
      ...(c.answeredBy ? { answered_by: c.answeredBy } : {}),
    })),
    ...(r.sustained
      ? {
          sustained: {
            seconds: r.sustained.seconds,
            samples: r.sustained.samples.map((s) => ({ t_s: s.tS, prefill_tokens: s.prefillTokens, prefill_tok_s: s.prefillTokS, decode_tokens: s.decodeTokens, decode_tok_s: s.decodeTokS })),
            decode_tok_s_first: r1n(r.sustained.decodeTokSFirst),
            decode_tok_s_last: r1n(r.sustained.decodeTokSLast),
            decode_drop_pct: r.sustained.decodeDropPct,
            prefill_tok_s_first: r1n(r.sustained.prefillTokSFirst),
            prefill_tok_s_last: r1n(r.sustained.prefillTokSLast),
          },
        }
      : {}),
    threads: {
      used: r.threads.used,
      best: r.threads.table.best,
      from_cache: r.threads.fromCache,
      measured_at: r.threads.table.measuredAt,
      measure_seconds: r.threads.table.seconds,
      table: r.threads.table.results.map((t) => ({ threads: t.threads, decode_tok_s: r1(t.decodeTokS), prefill_tok_s: r1(t.prefillTokS) })),
      adaptive: r.threads.adaptive
        ? {
            decisions: r.threads.adaptive.decisions.map(formatThreadDecision),
            observed_decode_tok_s: r1n(r.threads.adaptive.status.observedTokS),
            remeasure_below_tok_s: r1n(r.threads.adaptive.status.slowBelowTokS),
            would: adaptiveOutlook(r.threads.adaptive.status),
          }
        : null,
    },
    air_m2_projection: {
      kind: r.airProjection.kind,
      machine: r.airProjection.machine,
      decode_tok_s: r1(r.airProjection.decodeTokS),
      decode_ceiling_tok_s: r1(r.airProjection.decodeCeilingTokS),
      prefill_tok_s: r1(r.airProjection.prefillTokS),
      model_sessions: r.airProjection.sessions,
      mean_prefill_tokens: r1n(r.airProjection.meanPrefillTokens),
      mean_generated_tokens: r1n(r.airProjection.meanGeneratedTokens),
      mean_session_s: r1n(r.airProjection.meanSessionSeconds),
      max_session_s: r1n(r.airProjection.maxSessionSeconds),
      assumptions: r.airProjection.assumptions,
    },
    model: {
      file: r.model.file,
      bytes: r.model.bytes,
      quantization: r.model.quantization,
      architecture: r.model.architecture,
      parameters: r.model.parameters,
      catalog_id: r.model.catalogId,
      context_size: r.model.contextSize,
      threads: r.model.threads,
      gpu: r.model.gpu,
    },
    machine: r.machine,
    started_at: r.startedAt,
    wall_ms: r1(r.wallMs),
  };
}

const ms = (x: number | null): string => (x === null ? "–" : formatMs(x));
const tokS = (x: number | null): string => (x === null ? "–" : `${x >= 100 ? x.toFixed(0) : x.toFixed(1)} tok/s`);
const mb = (x: number): string => (x >= 1024 ? `${(x / 1024).toFixed(2)} GB` : x >= 1 ? `${x.toFixed(0)} MB` : `${(x * 1024).toFixed(0)} KB`);

const threadsText = (n: number): string => `${n} thread${n === 1 ? "" : "s"}`;

/** What the adaptive thread count would do next, from what it sees at the end of the probe. */
export function adaptiveOutlook(s: ThreadGovernorStatus): string {
  if (s.wouldRemeasure) return `re-measure: decode at ${threadsText(s.threads)} is under ${tokS(s.slowBelowTokS)}`;
  if (s.comeBackInMs !== null) return `check in ${Math.round(s.comeBackInMs / 1000)} s whether ${threadsText(s.quietBest)} (the quiet-machine best) is faster again`;
  return `keep ${threadsText(s.threads)} (re-measures when decode falls under ${tokS(s.slowBelowTokS)})`;
}

/** Label/value pairs of the headline figures (terminal table, technician screen). */
export function probeFigures(r: ProbeResult): { label: string; value: string }[] {
  const figures = [
    { label: "model", value: `${r.model.fileName} (${r.model.quantization ?? "?"}, ${mb(r.model.bytes / (1024 * 1024))}) · ${r.model.threads} threads · ${r.model.gpu === false ? "CPU" : `GPU ${r.model.gpu}`}` },
    { label: "load", value: ms(r.loadMs) },
    { label: "first token, cold", value: `${ms(r.ttftColdMs)} (${r.prefillTokensCold} prompt tokens prefilled)` },
    { label: "first token, warm", value: `${ms(r.ttftWarmMs)} (${r.prefillTokensWarm} prefilled, ${r.cachedTokensWarm} reused)` },
    { label: "prefill", value: tokS(r.prefillTokS) },
    { label: "decode", value: tokS(r.decodeTokS) },
    { label: `per case (${r.caseLatency.n} cases)`, value: `p50 ${ms(r.caseLatency.p50Ms)} · p95 ${ms(r.caseLatency.p95Ms)}` },
  ];
  if (r.byPath) {
    for (const path of ["rule", "model"] as const) {
      const s = r.byPath[path];
      figures.push({ label: `  routed to ${path} (${s.n})`, value: s.n > 0 ? `p50 ${ms(s.p50Ms)} · p95 ${ms(s.p95Ms)}` : "–" });
    }
  }
  figures.push({ label: "peak memory (RSS)", value: mb(r.peakRssMb) });
  figures.push({ label: "threads", value: r.threads.table.results.map((t) => `${t.threads}: ${tokS(t.decodeTokS)}`).join(" · ") + ` → ${r.threads.used} used` });
  const adaptive = r.threads.adaptive;
  if (adaptive) {
    const observed = adaptive.status.observedTokS !== null ? `watched decode ${tokS(adaptive.status.observedTokS)}; ` : "";
    const remeasures = `${adaptive.decisions.length} re-measure${adaptive.decisions.length === 1 ? "" : "s"}`;
    figures.push({ label: "adaptive threads", value: `${remeasures}; ${observed}would ${adaptiveOutlook(adaptive.status)}` });
  }
  if (r.airProjection.meanSessionSeconds !== null) {
    figures.push({ label: "Air M2 (projection)", value: `decode ${tokS(r.airProjection.decodeTokS)} · ${r.airProjection.meanSessionSeconds.toFixed(1)} s per model session` });
  }
  if (r.sustained) {
    const s = r.sustained;
    figures.push({
      label: `sustained ${s.seconds} s (${s.samples.length} samples)`,
      value: `decode ${tokS(s.decodeTokSFirst)} → ${tokS(s.decodeTokSLast)}${s.decodeDropPct !== null ? ` (${s.decodeDropPct > 0 ? "−" : "+"}${Math.abs(s.decodeDropPct).toFixed(1)} %)` : ""} · prefill ${tokS(s.prefillTokSFirst)} → ${tokS(s.prefillTokSLast)}`,
    });
  }
  return figures;
}

/** The terminal output: headline figures, then one line per case. */
export function renderProbeTable(r: ProbeResult): string {
  const head = renderTable([{ align: "l" }, { align: "l" }], ["Latency probe", ""], probeFigures(r).map((f) => [f.label, f.value]));
  const hybrid = r.policy === "hybrid";
  const header = ["case", "e2e", "rounds", "prompt", "cached", "generated", "first token", "ended", ...(hybrid ? ["path", "answered by"] : [])];
  const rows = r.cases.map((c) => [
    c.id,
    formatMs(c.e2eMs),
    String(c.rounds),
    String(c.promptTokens),
    String(c.cachedPromptTokens),
    String(c.completionTokens),
    ms(c.firstTtftMs),
    c.termination,
    ...(hybrid ? [c.path ?? "–", c.answeredBy ?? "–"] : []),
  ]);
  const cases = renderTable(header.map((_, i) => ({ align: i === 0 || i >= 7 ? ("l" as const) : ("r" as const) })), header, rows);
  const blocks = [head, cases];
  const t = r.threads;
  blocks.push(
    renderTable(
      [{ align: "r" }, { align: "r" }, { align: "r" }, { align: "l" }],
      ["threads", "decode", "prefill", `${t.fromCache ? "cached" : "measured"} ${t.table.measuredAt.slice(0, 10)} (${t.table.seconds} s)`],
      t.table.results.map((m) => [String(m.threads), tokS(m.decodeTokS), tokS(m.prefillTokS), [m.threads === t.table.best ? "fastest" : "", m.threads === t.used ? "used" : ""].filter(Boolean).join(", ")]),
    ),
  );
  if (t.adaptive && t.adaptive.decisions.length > 0) {
    blocks.push(renderTable([{ align: "l" }], ["adaptive threads: decisions during the probe"], t.adaptive.decisions.map((d) => [formatThreadDecision(d)])));
  }
  const p = r.airProjection;
  blocks.push(
    renderTable(
      [{ align: "l" }, { align: "l" }],
      [`PROJECTION (not measured): ${p.machine}`, ""],
      [
        ["decode", `${tokS(p.decodeTokS)} (bandwidth ceiling ${tokS(p.decodeCeilingTokS)})`],
        ["prefill", tokS(p.prefillTokS)],
        [
          `per model session (${p.sessions})`,
          p.meanSessionSeconds === null ? "–" : `${p.meanSessionSeconds.toFixed(1)} s mean, ${(p.maxSessionSeconds as number).toFixed(1)} s max (${(p.meanPrefillTokens as number).toFixed(0)} prefilled + ${(p.meanGeneratedTokens as number).toFixed(0)} generated tokens)`,
        ],
        ...p.assumptions.map((a, i) => [i === 0 ? "assumptions" : "", a]),
      ],
    ),
  );
  if (r.sustained && r.sustained.samples.length > 0) {
    const step = Math.max(1, Math.ceil(r.sustained.samples.length / 20));
    const series = r.sustained.samples.filter((_, i) => i % step === 0 || i === r.sustained!.samples.length - 1);
    blocks.push(renderTable([{ align: "r" }, { align: "r" }, { align: "r" }], ["t", "prefill", "decode"], series.map((s) => [`${s.tS.toFixed(1)} s`, tokS(s.prefillTokS), tokS(s.decodeTokS)])));
  }
  return `${blocks.join("\n\n")}\n`;
}
