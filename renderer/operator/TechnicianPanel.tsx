// The technician's on-device bench: choose a policy (rule and rule-ref always; llm/hybrid when a
// model is configured) and a set of cases, start it (the kiosk refuses passengers meanwhile),
// follow live progress with per-category running scores, stop it, then read the bench's own HTML
// report in a sandboxed iframe (no scripts) and export the results. Stored runs — from this screen
// or `kiosk bench run` — can be reopened. The latency probe needs a configured model. An imported
// network has no benchmark cases: for each imported system the technician generates them (count
// per category and seed) and runs them, and sees what was generated per category with the run.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  BENCH_CATEGORIES,
  benchCategoryLabel,
  type BenchCategory,
  type BenchGeneration,
  type BenchJob,
  type BenchPolicyName,
  type BenchReport,
  type BenchRunSummary,
  type BenchSelection,
  type BenchStatus,
  GENERATED_PER_CATEGORY,
  GeneratedSelectionSchema,
  GENERATION_SEED,
  type LatencyProbeResult,
  type SpeechStatus,
  type SystemSummary,
  type TechnicianInfo,
} from "../../runtime/kiosk/bridge.ts";
import { toOperatorError } from "../bridge/operatorBridge.ts";
import { Icon } from "../components/Icon.tsx";
import { downloadText, formatDuration, formatScore } from "./format.ts";
import { SpeechStatusCard } from "./SpeechStatusCard.tsx";
import { PinLockoutCard } from "./PinLockoutCard.tsx";
import { useOperator } from "./session.ts";

/** The pack's selections (a generated one is started from the imported systems' card). */
type SelectionKind = Exclude<BenchSelection["kind"], "generated">;
type SystemId = SystemSummary["id"];

/** What the technician typed for one imported system (kept as text: a half-typed number is not lost). */
interface GenerateForm {
  perCategory: string;
  seed: string;
}
const DEFAULT_FORM: GenerateForm = { perCategory: String(GENERATED_PER_CATEGORY.default), seed: String(GENERATION_SEED.default) };
type GenerateField = keyof GenerateForm;
const FIELD_RANGE = { perCategory: GENERATED_PER_CATEGORY, seed: GENERATION_SEED } as const satisfies Record<GenerateField, { min: number; max: number }>;

/** A whole number typed or stepped with − and + (the kiosk is a touch screen; a keyboard may be absent). */
function NumberStepper(props: { label: string; value: string; invalid: boolean; min: number; max: number; disabled: boolean; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const n = Number(props.value);
  const step = (delta: number): void => {
    const base = props.value.trim() !== "" && Number.isInteger(n) ? n : delta > 0 ? props.min - 1 : props.min + 1;
    props.onChange(String(Math.min(props.max, Math.max(props.min, base + delta))));
  };
  return (
    <div className="op-field op-stepper-field" data-invalid={props.invalid || undefined}>
      <label htmlFor={id}>{props.label}</label>
      <div className="op-stepper">
        <button type="button" className="op-button op-button-secondary" aria-label={t("operator.technician.decrease", { field: props.label })} disabled={props.disabled || (Number.isInteger(n) && n <= props.min)} onClick={() => step(-1)}>
          −
        </button>
        <input id={id} className="op-input op-num" inputMode="numeric" value={props.value} aria-invalid={props.invalid} disabled={props.disabled} onChange={(e) => props.onChange(e.target.value)} />
        <button type="button" className="op-button op-button-secondary" aria-label={t("operator.technician.increase", { field: props.label })} disabled={props.disabled || (Number.isInteger(n) && n >= props.max)} onClick={() => step(1)}>
          +
        </button>
      </div>
    </div>
  );
}

/** What was generated per category, or why a category was skipped. */
function GenerationTable(props: { generation: BenchGeneration }) {
  const { t } = useTranslation();
  const { generation } = props;
  return (
    <>
      <h4>{t("operator.technician.generatedHeading")}</h4>
      <p className="op-muted">{t("operator.technician.generatedTotal", { cases: generation.cases, categories: generation.categories.filter((c) => c.generated > 0).length })}</p>
      <p className="op-muted op-mono">{t("operator.technician.caseFile", { file: generation.casesFile })}</p>
      <table className="op-table op-generated-table">
        <thead>
          <tr>
            <th scope="col">{t("operator.technician.categoryColumn")}</th>
            <th scope="col">{t("operator.technician.generatedColumn")}</th>
            <th scope="col">{t("operator.technician.noteColumn")}</th>
          </tr>
        </thead>
        <tbody>
          {generation.categories.map((c) => {
            const dropped = Object.entries(c.dropped);
            return (
              <tr key={c.category} data-generated-category={c.category} data-skipped={c.generated === 0 || undefined}>
                <th scope="row">{benchCategoryLabel(c.category)}</th>
                <td className="op-num">{t("operator.technician.generatedCount", { generated: c.generated, requested: c.requested })}</td>
                <td>
                  <div className="op-generated-notes">
                    {c.generated === 0 ? <span className="op-generated-skipped">{t("operator.technician.skipped", { reason: c.skipped ?? "" })}</span> : null}
                    {c.notes.map((note) => (
                      <span key={note} className="op-generated-note op-muted">
                        {note}
                      </span>
                    ))}
                    {dropped.length > 0 ? (
                      <span className="op-generated-note op-muted">{t("operator.technician.leftOut", { list: dropped.map(([why, n]) => `${n} × ${why}`).join("; ") })}</span>
                    ) : null}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

const POLICY_LABEL = {
  rule: "operator.technician.policyRule",
  "rule-ref": "operator.technician.policyRuleRef",
  llm: "operator.technician.policyLlm",
  hybrid: "operator.technician.policyHybrid",
} as const satisfies Record<BenchPolicyName, string>;

const STATE_LABEL = {
  starting: "operator.technician.starting",
  running: "operator.technician.running",
  finished: "operator.technician.finished",
  interrupted: "operator.technician.interrupted",
  failed: "operator.technician.failed",
} as const satisfies Record<BenchJob["state"], string>;

export function TechnicianPanel(props: { pollMs?: number; onBenchRunning?: (running: boolean) => void; speech?: SpeechStatus | undefined; systems?: readonly SystemSummary[] }) {
  const { t } = useTranslation();
  const { call } = useOperator();
  const pollMs = props.pollMs ?? 500;
  const onBenchRunning = props.onBenchRunning;
  const [info, setInfo] = useState<TechnicianInfo | null>(null);
  const [status, setStatus] = useState<BenchStatus | null>(null);
  const [policy, setPolicy] = useState<BenchPolicyName>("rule");
  const [kind, setKind] = useState<SelectionKind>("probe");
  const [category, setCategory] = useState<BenchCategory>("A");
  const [report, setReport] = useState<BenchReport | null>(null);
  // Building a report takes seconds: say so while it loads, and say when it could not be loaded.
  const [reportLoad, setReportLoad] = useState<{ runId: number; error: string | null } | null>(null);
  const wantedReport = useRef<number | null>(null);
  const [probe, setProbe] = useState<LatencyProbeResult | null>(null);
  const [message, setMessage] = useState<{ tone: "positive" | "critical"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [forms, setForms] = useState<Partial<Record<SystemId, GenerateForm>>>({});
  // Per imported system: the fields the screen found wrong, or what the kiosk said when it refused.
  const [generateProblems, setGenerateProblems] = useState<Partial<Record<SystemId, { fields: GenerateField[]; refused: string | null }>>>({});
  const headingId = useId();
  const importedHeadingId = useId();
  const imported = (props.systems ?? []).filter((s) => s.imported === true);
  const job = status?.job ?? null;
  const running = job !== null && (job.state === "running" || job.state === "starting");

  const fail = useCallback((error: unknown) => setMessage({ tone: "critical", text: t(`operator.error.${toOperatorError(error).code}`) }), [t]);

  const showReport = useCallback(
    async (runId: number) => {
      wantedReport.current = runId;
      setReport(null);
      setReportLoad({ runId, error: null });
      try {
        const next = await call("benchReport", { runId });
        if (wantedReport.current !== runId) return; // another report was asked for meanwhile
        setReport(next);
        setReportLoad(null);
      } catch (error) {
        if (wantedReport.current === runId) setReportLoad({ runId, error: t(`operator.error.${toOperatorError(error).code}`) });
      }
    },
    [call, t],
  );

  useEffect(() => {
    void (async () => {
      try {
        const [i, s] = await Promise.all([call("technicianInfo", {}), call("benchStatus", {})]);
        setInfo(i);
        setStatus(s);
      } catch (error) {
        fail(error);
      }
    })();
  }, [call, fail]);

  // Leaving the tab stops "watching" (the tools' walk-away timer applies again).
  useEffect(() => () => onBenchRunning?.(false), [onBenchRunning]);

  // While a run is in progress: poll its progress; when it ends, show its report.
  useEffect(() => {
    onBenchRunning?.(running);
    if (!running) return;
    let stopped = false;
    const timer = setInterval(() => {
      void call("benchStatus", {})
        .then((next) => {
          if (stopped) return;
          setStatus(next);
          const nextJob = next.job;
          if (nextJob && nextJob.state !== "running" && nextJob.state !== "starting" && nextJob.runId !== null && nextJob.done > 0) void showReport(nextJob.runId);
        })
        .catch(fail);
    }, pollMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [running, call, fail, pollMs, showReport, onBenchRunning]);

  /** Start a run; false when the kiosk refused it (`onRefused` may explain it next to what was asked). */
  async function startRun(selection: BenchSelection, onRefused?: (error: ReturnType<typeof toOperatorError>) => boolean): Promise<void> {
    setBusy(true);
    setMessage(null);
    setReport(null);
    setReportLoad(null);
    wantedReport.current = null;
    try {
      const started = await call("startBench", { policy, selection });
      setStatus((s) => ({ job: started, runs: s?.runs ?? [] }));
    } catch (error) {
      if (!onRefused?.(toOperatorError(error))) fail(error);
    } finally {
      setBusy(false);
    }
  }

  function start(): Promise<void> {
    return startRun(kind === "category" ? { kind, category } : { kind });
  }

  const formOf = (system: SystemId): GenerateForm => forms[system] ?? DEFAULT_FORM;

  function edit(system: SystemId, field: GenerateField, value: string): void {
    setForms((f) => ({ ...f, [system]: { ...(f[system] ?? DEFAULT_FORM), [field]: value } }));
    setGenerateProblems((p) => ({ ...p, [system]: { fields: (p[system]?.fields ?? []).filter((x) => x !== field), refused: null } }));
  }

  async function generate(system: SystemId): Promise<void> {
    const form = formOf(system);
    const number = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text.trim()));
    // The contract's own schema checks the count and the seed before anything is sent.
    const parsed = GeneratedSelectionSchema.safeParse({ kind: "generated", system, perCategory: number(form.perCategory), seed: number(form.seed) });
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => i.path[0]).filter((f): f is GenerateField => f === "perCategory" || f === "seed"))];
      setGenerateProblems((p) => ({ ...p, [system]: { fields, refused: fields.length > 0 ? null : (parsed.error.issues[0]?.message ?? "") } }));
      return;
    }
    setGenerateProblems((p) => ({ ...p, [system]: { fields: [], refused: null } }));
    await startRun(parsed.data, (error) => {
      if (error.code !== "rejected") return false;
      setGenerateProblems((p) => ({ ...p, [system]: { fields: [], refused: error.detail ?? t("operator.error.rejected") } }));
      return true;
    });
  }

  async function stop(): Promise<void> {
    try {
      setStatus(await call("stopBench", {}));
    } catch (error) {
      fail(error);
    }
  }

  async function exportRun(runId: number, format: "summary" | "reference", system?: BenchRunSummary["systems"][number]): Promise<void> {
    try {
      const file = await call("exportBench", { runId, format, ...(system ? { system } : {}) });
      downloadText(file.fileName, file.mediaType, file.content);
      setMessage({ tone: "positive", text: t("operator.technician.downloaded", { file: file.fileName }) });
    } catch (error) {
      fail(error);
    }
  }

  async function measure(): Promise<void> {
    try {
      setProbe(await call("latencyProbe", {}));
    } catch (error) {
      fail(error);
    }
  }

  const availability = (name: BenchPolicyName) => info?.policies.find((p) => p.name === name);
  const count = (k: SelectionKind): number => (info ? (k === "category" ? (info.counts.categories.find((c) => c.category === category)?.cases ?? 0) : info.counts[k]) : 0);
  const systemName = (id: SystemId): string => props.systems?.find((s) => s.id === id)?.fullName ?? id;
  const canGenerate = info !== null && info.generatedCasesDir !== null && info.generatedCasesDir !== undefined;
  const reportRun = report ? status?.runs.find((r) => r.runId === report.runId) : undefined;
  const percent = job && job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;

  return (
    <section className="op-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("operator.technician.heading")}</h2>
      <p className="op-muted">{t("operator.technician.intro")}</p>
      {info ? (
        <p className="op-meta">
          <span>{info.model.configured && info.model.name ? t("operator.technician.model", { name: info.model.name }) : t("operator.technician.noModel")}</span>
          <span className="op-mono">{t("operator.technician.database", { file: info.database })}</span>
        </p>
      ) : null}

      <div className="op-card op-bench-setup">
        <div className="op-choice" role="radiogroup" aria-label={t("operator.technician.policy")}>
          <span className="op-label" aria-hidden="true">
            {t("operator.technician.policy")}
          </span>
          {(Object.keys(POLICY_LABEL) as BenchPolicyName[]).map((name) => {
            const a = availability(name);
            const why = a && !a.available ? (a.unavailableReason === "no_model" ? t("operator.technician.needsModel") : t("operator.technician.notBuilt")) : null;
            return (
              <button key={name} type="button" role="radio" aria-checked={policy === name} className="op-option" disabled={running || !a?.available} onClick={() => setPolicy(name)}>
                <span>{t(POLICY_LABEL[name])}</span>
                {why ? <span className="op-option-note">{why}</span> : null}
              </button>
            );
          })}
        </div>
        <div className="op-choice" role="radiogroup" aria-label={t("operator.technician.cases")}>
          <span className="op-label" aria-hidden="true">
            {t("operator.technician.cases")}
          </span>
          {(["probe", "category", "holdout", "all"] as const).map((k) => (
            <button key={k} type="button" role="radio" aria-checked={kind === k} className="op-option" disabled={running} onClick={() => setKind(k)}>
              {k === "category" ? t("operator.technician.category") : t(`operator.technician.${k}`, { count: count(k) })}
            </button>
          ))}
        </div>
        {kind === "category" ? (
          <div className="op-choice op-categories" role="radiogroup" aria-label={t("operator.technician.categoryPick")}>
            <span className="op-label" aria-hidden="true">
              {t("operator.technician.categoryPick")}
            </span>
            {BENCH_CATEGORIES.map((c) => (
              <button
                key={c}
                type="button"
                role="radio"
                aria-checked={category === c}
                className="op-option op-option-compact"
                disabled={running}
                onClick={() => setCategory(c)}
                aria-label={t("operator.technician.categoryOption", { category: benchCategoryLabel(c), count: info?.counts.categories.find((x) => x.category === c)?.cases ?? 0 })}
              >
                {benchCategoryLabel(c)}
              </button>
            ))}
          </div>
        ) : null}
        <div className="op-actions">
          {running ? (
            <button type="button" className="op-button op-button-danger" onClick={() => void stop()}>
              {t("operator.technician.stop")}
            </button>
          ) : (
            <button type="button" className="op-button op-button-primary" disabled={busy || !info || !availability(policy)?.available} onClick={() => void start()}>
              {t("operator.technician.start")}
            </button>
          )}
          <span className="op-warning-text">
            <Icon name="warning" /> {t("operator.technician.refusing")}
          </span>
        </div>
      </div>

      {imported.length > 0 ? (
        <section className="op-card op-generate" aria-labelledby={importedHeadingId}>
          <h3 id={importedHeadingId}>{t("operator.technician.importedHeading")}</h3>
          <p className="op-muted">{t("operator.technician.importedIntro", { policy: t(POLICY_LABEL[policy]) })}</p>
          {info && !canGenerate ? (
            <p className="op-notice op-notice-info">
              <Icon name="info" /> <span>{t("operator.technician.noCasesDir")}</span>
            </p>
          ) : null}
          {info?.generatedCasesDir ? <p className="op-muted op-mono">{t("operator.technician.casesDir", { dir: info.generatedCasesDir })}</p> : null}
          <ul className="op-generate-list">
            {imported.map((system) => {
              const form = formOf(system.id);
              const problems = generateProblems[system.id];
              const disabled = running || busy;
              return (
                <li key={system.id} className="op-generate-system" data-system={system.id}>
                  <div className="op-generate-name">
                    <strong>{system.fullName}</strong> <span className="op-mono op-muted">{system.id}</span>
                  </div>
                  <div className="op-generate-fields">
                    {(["perCategory", "seed"] as const).map((field) => (
                      <NumberStepper
                        key={field}
                        label={t(`operator.technician.${field}`)}
                        value={form[field]}
                        invalid={problems?.fields.includes(field) ?? false}
                        min={FIELD_RANGE[field].min}
                        max={FIELD_RANGE[field].max}
                        disabled={disabled}
                        onChange={(value) => edit(system.id, field, value)}
                      />
                    ))}
                    <button
                      type="button"
                      className="op-button op-button-primary"
                      aria-label={t("operator.technician.generateRunFor", { system: system.fullName })}
                      disabled={disabled || !canGenerate || !availability(policy)?.available}
                      onClick={() => void generate(system.id)}
                    >
                      {t("operator.technician.generateRun")}
                    </button>
                  </div>
                  {problems && (problems.fields.length > 0 || problems.refused) ? (
                    <ul className="op-issues" role="alert">
                      {problems.fields.map((field) => (
                        <li key={field}>{t(`operator.technician.${field}Invalid`, { min: FIELD_RANGE[field].min, max: FIELD_RANGE[field].max })}</li>
                      ))}
                      {problems.refused ? <li>{t("operator.technician.generateRefused", { reason: problems.refused })}</li> : null}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      {message ? (
        <p className={`op-notice op-notice-${message.tone}`} role={message.tone === "positive" ? "status" : "alert"}>
          <Icon name={message.tone} /> <span>{message.text}</span>
        </p>
      ) : null}

      {job ? (
        <div className="op-card op-progress" aria-live="polite">
          <div className="op-card-head">
            <h3>{job.runId !== null ? t("operator.technician.progress", { id: job.runId }) : t("operator.technician.starting")}</h3>
            <span className={`op-badge op-badge-${job.state}`}>{t(STATE_LABEL[job.state])}</span>
          </div>
          <p className="op-muted">
            {t(POLICY_LABEL[job.policy])} ·{" "}
            {job.selection.kind === "category"
              ? `${t("operator.technician.categoryPick")} ${benchCategoryLabel(job.selection.category)}`
              : job.selection.kind === "generated"
                ? t("operator.technician.generatedFor", { system: systemName(job.selection.system), perCategory: job.selection.perCategory, seed: job.selection.seed })
                : t(`operator.technician.${job.selection.kind}`, { count: job.total })}
          </p>
          <div className="op-bar" role="progressbar" aria-valuemin={0} aria-valuemax={job.total} aria-valuenow={job.done} aria-label={t("operator.technician.done", { done: job.done, total: job.total })}>
            <div className="op-bar-fill" style={{ inlineSize: `${percent}%` }} />
          </div>
          <div className="op-figures">
            <div>
              <span className="op-figure">{t("operator.technician.done", { done: job.done, total: job.total })}</span>
              <span className="op-muted">{t("operator.technician.elapsed", { time: formatDuration(job.elapsedMs) })}</span>
            </div>
            <div>
              <span className="op-figure-label">{t("operator.technician.tier1")}</span>
              <span className="op-figure op-figure-big">{formatScore(job.tier1)}</span>
            </div>
            <div>
              <span className="op-figure-label">{t("operator.technician.composite")}</span>
              <span className="op-figure op-figure-big">{formatScore(job.composite)}</span>
            </div>
          </div>
          {job.state === "failed" && job.error ? <p className="op-notice op-notice-critical">{t("operator.technician.failedBecause", { message: job.error })}</p> : null}
          {job.generation ? <GenerationTable generation={job.generation} /> : null}
          <h4>{t("operator.technician.byCategory")}</h4>
          <table className="op-table op-categories-table">
            <thead>
              <tr>
                <th scope="col">{t("operator.technician.categoryColumn")}</th>
                <th scope="col">{t("operator.technician.doneColumn")}</th>
                <th scope="col">{t("operator.technician.tier1")}</th>
                <th scope="col">{t("operator.technician.composite")}</th>
              </tr>
            </thead>
            <tbody>
              {job.categories.map((c) => (
                <tr key={c.category} data-category={c.category}>
                  <th scope="row">{benchCategoryLabel(c.category)}</th>
                  <td className="op-num">
                    {c.done}/{c.total}
                  </td>
                  <td>
                    <div className="op-score">
                      <div className="op-score-track" aria-hidden="true">
                        <div className="op-score-fill" style={{ inlineSize: `${Math.max(0, Math.min(100, c.tier1 ?? 0))}%` }} />
                      </div>
                      <span className="op-num">{formatScore(c.tier1, t("operator.technician.noScore"))}</span>
                    </div>
                  </td>
                  <td>
                    <div className="op-score">
                      <div className="op-score-track" aria-hidden="true">
                        <div className="op-score-fill op-score-fill-alt" style={{ inlineSize: `${Math.max(0, Math.min(100, c.composite ?? 0))}%` }} />
                      </div>
                      <span className="op-num">{formatScore(c.composite, t("operator.technician.noScore"))}</span>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {reportLoad && reportLoad.error === null ? (
        <div className="op-card op-report op-report-loading" aria-busy="true" role="status">
          <span className="op-spinner" aria-hidden="true" />
          <span>{t("operator.technician.reportLoading", { id: reportLoad.runId })}</span>
        </div>
      ) : null}
      {reportLoad?.error ? (
        <p className="op-notice op-notice-critical" role="alert">
          <Icon name="critical" /> <span>{t("operator.technician.reportFailed", { id: reportLoad.runId, reason: reportLoad.error })}</span>
        </p>
      ) : null}

      {report ? (
        <div className="op-card op-report">
          <div className="op-card-head">
            <h3>{t("operator.technician.reportTitle", { id: report.runId })}</h3>
            <button type="button" className="op-button op-button-secondary" onClick={() => void exportRun(report.runId, "summary")}>
              {t("operator.technician.exportSummary")}
            </button>
          </div>
          {reportRun && reportRun.systems.length > 0 ? (
            <div className="op-actions" role="group" aria-label={t("operator.technician.exportReferenceGroup")}>
              <span className="op-muted">{t("operator.technician.exportReferenceGroup")}</span>
              {reportRun.systems.map((system) => (
                <button
                  key={system}
                  type="button"
                  className="op-button op-button-secondary op-button-small"
                  aria-label={t("operator.technician.exportReference", { system })}
                  onClick={() => void exportRun(report.runId, "reference", system)}
                >
                  {system}
                </button>
              ))}
            </div>
          ) : null}
          {/* The report is the bench's own HTML: shown sandboxed (no scripts, no same-origin), under the kiosk's CSP. */}
          <iframe className="op-report-frame" title={t("operator.technician.reportTitle", { id: report.runId })} sandbox="" srcDoc={report.html} />
        </div>
      ) : null}

      <div className="op-card">
        <h3>{t("operator.technician.runs")}</h3>
        {status && status.runs.length > 0 ? (
          <ul className="op-runs">
            {status.runs.map((run) => (
              <li key={run.runId}>
                <span className="op-run-id">{t("operator.technician.run", { id: run.runId })}</span>
                <span className="op-muted">{t("operator.technician.runLine", { policy: run.policy, done: run.casesDone, total: run.casesTotal, status: run.status in STATE_LABEL ? t(STATE_LABEL[run.status as BenchJob["state"]]) : run.status })}</span>
                {run.covers ? <span className="op-muted op-run-covers">{run.covers}</span> : null}
                <button type="button" className="op-button op-button-small op-button-secondary" disabled={run.casesDone === 0} onClick={() => void showReport(run.runId)}>
                  {t("operator.technician.viewReport")}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="op-muted">{t("operator.technician.noRuns")}</p>
        )}
      </div>

      <div className="op-card">
        <h3>{t("operator.technician.latency")}</h3>
        {info && !info.model.configured ? (
          <p className="op-notice op-notice-info">
            <Icon name="info" /> <span>{t("operator.technician.latencyNoModel")}</span>
          </p>
        ) : (
          <>
            <div className="op-actions">
              <button type="button" className="op-button op-button-secondary" disabled={running || !info} onClick={() => void measure()}>
                {t("operator.technician.latencyRun")}
              </button>
            </div>
            {probe && !probe.available ? <p className="op-muted">{probe.reason === "no_model" ? t("operator.technician.latencyNoModel") : t("operator.technician.latencyNotBuilt")}</p> : null}
            {probe && probe.available ? (
              <dl className="op-dl">
                {probe.figures.map((f) => (
                  <div key={f.label}>
                    <dt>{f.label}</dt>
                    <dd className="op-num">{f.value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </>
        )}
      </div>

      <SpeechStatusCard speech={props.speech} />
      <PinLockoutCard />
    </section>
  );
}
