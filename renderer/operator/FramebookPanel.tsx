// Framebook hot-swap: the active framebook of a system, a candidate (uploaded or edited), its
// check (errors with line and column, each one selectable in the editor), the diff against the
// active framebook, apply (for the next passenger session), rollback, and the audit log.
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  MAX_FRAMEBOOK_CHARS,
  type FramebookCheckResult,
  type FramebookStatus,
  type SystemSummary,
} from "../../runtime/kiosk/bridge.ts";
import { toOperatorError } from "../bridge/operatorBridge.ts";
import { ConfirmBox } from "./ConfirmBox.tsx";
import { Icon } from "../components/Icon.tsx";
import { useView } from "../state/ViewStoreProvider.tsx";
import { formatWhen, offsetOf } from "./format.ts";
import { useOperator } from "./session.ts";
import { SystemChooser } from "./SystemChooser.tsx";
import { FramebookWarnings } from "./FramebookWarnings.tsx";

/** A changed value's JSON, indented when it is a list or an object. */
function pretty(json: string): string {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null ? JSON.stringify(value, null, 2) : json;
  } catch {
    return json;
  }
}

type Notice = { tone: "positive" | "warning" | "critical"; text: string } | null;
type Confirming = "apply" | "rollback" | null;

export function FramebookPanel(props: { systems: readonly SystemSummary[]; initialSystem?: SystemSummary["id"] | undefined }) {
  const { t } = useTranslation();
  const { call } = useOperator();
  const language = useView((s) => s.language);
  const [system, setSystem] = useState<SystemSummary["id"] | null>(props.initialSystem ?? props.systems[0]?.id ?? null);
  const [status, setStatus] = useState<FramebookStatus | null>(null);
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [check, setCheck] = useState<{ text: string; result: FramebookCheckResult } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const editor = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const editorId = useId();
  const headingId = useId();
  const systemName = props.systems.find((s) => s.id === system)?.orgName ?? system ?? "";

  const fail = useCallback((error: unknown) => setNotice({ tone: "critical", text: t(`operator.error.${toOperatorError(error).code}`) }), [t]);

  const refresh = useCallback(async (): Promise<FramebookStatus | null> => {
    if (!system) return null;
    try {
      const next = await call("framebookStatus", { system });
      setStatus(next);
      return next;
    } catch (error) {
      fail(error);
      return null;
    }
  }, [call, system, fail]);

  useEffect(() => {
    setStatus(null);
    setText("");
    setFileName(null);
    setCheck(null);
    setNotice(null);
    setConfirming(null);
    void refresh().then((s) => {
      if (s) setText(s.text);
    });
  }, [refresh]);

  const checked = check !== null && check.text === text ? check.result : null;
  const errorLines = new Set((checked?.issues ?? []).filter((i) => i.severity === "error" && i.line !== null).map((i) => i.line));
  const lineCount = text.split("\n").length;
  const canApply = checked?.ok === true && checked.changes.length > 0 && !busy;

  async function runCheck(): Promise<void> {
    if (!system || text.trim() === "") return;
    setBusy(true);
    setNotice(null);
    setConfirming(null);
    try {
      const result = await call("checkFramebook", { system, text, ...(fileName ? { fileName } : {}) });
      setCheck({ text, result });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function apply(): Promise<void> {
    if (!system || !checked) return;
    setBusy(true);
    setConfirming(null);
    try {
      const result = await call("applyFramebook", { system, text, expectedVersion: checked.activeVersion, ...(fileName ? { fileName } : {}) });
      if (result.ok) {
        setNotice({ tone: "positive", text: t("operator.framebook.applied", { version: result.entry.version }) });
        setCheck(null);
      } else if (result.reason === "stale") {
        setNotice({ tone: "warning", text: t("operator.framebook.stale") });
        setCheck(null);
      } else {
        setCheck({ text, result: { ok: false, issues: result.issues, changes: [], activeVersion: result.activeVersion, candidateVersion: checked.candidateVersion, farePolicies: [] } });
      }
      await refresh();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function rollback(): Promise<void> {
    if (!system) return;
    setBusy(true);
    setConfirming(null);
    try {
      const result = await call("rollbackFramebook", { system });
      setNotice(result.ok ? { tone: "positive", text: t("operator.framebook.rolledBack", { version: result.entry.version }) } : { tone: "warning", text: t("operator.framebook.noPrevious") });
      const next = await refresh();
      if (next) setText(next.text);
      setCheck(null);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  function upload(event: ChangeEvent<HTMLInputElement>): void {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > MAX_FRAMEBOOK_CHARS * 4) {
      setNotice({ tone: "critical", text: t("operator.framebook.tooLarge") });
      return;
    }
    void file.text().then((content) => {
      if (content.length > MAX_FRAMEBOOK_CHARS) {
        setNotice({ tone: "critical", text: t("operator.framebook.tooLarge") });
        return;
      }
      setText(content);
      setFileName(file.name);
      setNotice(null);
      setCheck(null);
    });
  }

  function showIssue(line: number, column: number): void {
    const area = editor.current;
    if (!area) return;
    const offset = offsetOf(area.value, line, column);
    area.focus();
    area.setSelectionRange(offset, Math.min(area.value.length, offset + 1));
    // Bring the line into view (the line height is fixed by the editor's CSS).
    const lineHeight = Number.parseFloat(getComputedStyle(area).lineHeight) || 24;
    area.scrollTop = Math.max(0, (line - 4) * lineHeight);
    if (gutter.current) gutter.current.scrollTop = area.scrollTop;
  }

  const previous = status?.previousVersions.at(-1);

  return (
    <section className="op-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("operator.framebook.heading")}</h2>
      <SystemChooser systems={props.systems} value={system} onChange={setSystem} />

      {status ? (
        <div className="op-card op-active">
          <div className="op-card-head">
            <h3>{t("operator.framebook.active")}</h3>
            <span className={`op-badge op-badge-${status.source}`}>{status.source === "operator" ? t("operator.framebook.sourceOperator") : t("operator.framebook.sourceDataPack")}</span>
          </div>
          <FramebookWarnings status={status} />
          <p>
            <span className="op-mono">{t("operator.framebook.version", { version: status.version })}</span> · {t("operator.framebook.earlierVersions", { count: status.previousVersions.length })}
          </p>
          <div className="op-actions">
            <button type="button" className="op-button op-button-secondary" disabled={busy || !previous} onClick={() => setConfirming("rollback")}>
              {t("operator.framebook.rollback")}
            </button>
          </div>
          {confirming === "rollback" && previous ? (
            <ConfirmBox
              label={t("operator.framebook.rollback")}
              question={t("operator.framebook.rollbackConfirm", { system: systemName, version: previous })}
              danger
              onConfirm={() => void rollback()}
              onCancel={() => setConfirming(null)}
            />
          ) : null}
        </div>
      ) : null}

      <div className="op-card">
        <div className="op-card-head">
          <h3>{t("operator.framebook.candidate")}</h3>
          <div className="op-actions">
            <input ref={fileInput} className="visually-hidden" type="file" accept=".yaml,.yml,text/yaml,application/yaml,text/plain" tabIndex={-1} aria-hidden="true" onChange={upload} data-testid="framebook-file" />
            <button type="button" className="op-button op-button-secondary" onClick={() => fileInput.current?.click()}>
              {t("operator.framebook.upload")}
            </button>
            <button
              type="button"
              className="op-button op-button-secondary"
              disabled={!status}
              onClick={() => {
                if (!status) return;
                setText(status.text);
                setFileName(null);
                setCheck(null);
              }}
            >
              {t("operator.framebook.loadActive")}
            </button>
          </div>
        </div>
        <p className="op-muted">{t("operator.framebook.candidateHint")}</p>
        <label htmlFor={editorId} className="op-label">
          {t("operator.framebook.editor")}
          {fileName ? <span className="op-muted"> · {t("operator.framebook.editorFile", { name: fileName })}</span> : null}
        </label>
        <div className="op-editor-wrap">
          <div className="op-gutter" ref={gutter} aria-hidden="true">
            {Array.from({ length: lineCount }, (_, i) => (
              <span key={i} className={errorLines.has(i + 1) ? "op-gutter-error" : undefined}>
                {i + 1}
              </span>
            ))}
          </div>
          <textarea
            id={editorId}
            ref={editor}
            className="op-editor"
            onScroll={(event) => {
              if (gutter.current) gutter.current.scrollTop = event.currentTarget.scrollTop;
            }}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            wrap="off"
            rows={18}
            maxLength={MAX_FRAMEBOOK_CHARS}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={checked?.ok === false}
          />
        </div>
        <div className="op-actions">
          <button type="button" className="op-button op-button-primary" disabled={busy || text.trim() === ""} onClick={() => void runCheck()}>
            {t("operator.framebook.check")}
          </button>
          <button type="button" className="op-button op-button-primary" disabled={!canApply} onClick={() => setConfirming("apply")}>
            {t("operator.framebook.apply")}
          </button>
        </div>
        {confirming === "apply" && canApply ? (
          <ConfirmBox
            label={t("operator.framebook.apply")}
            question={t("operator.framebook.applyConfirm", { system: systemName })}
            onConfirm={() => void apply()}
            onCancel={() => setConfirming(null)}
          />
        ) : null}
      </div>

      {notice ? (
        <p className={`op-notice op-notice-${notice.tone}`} role={notice.tone === "positive" ? "status" : "alert"}>
          <Icon name={notice.tone === "positive" ? "positive" : notice.tone} /> <span>{notice.text}</span>
        </p>
      ) : null}

      {checked ? (
        <div className="op-card op-check" aria-live="polite">
          <p className={`op-notice op-notice-${checked.ok ? "positive" : "critical"}`}>
            <Icon name={checked.ok ? "positive" : "critical"} /> <span>{checked.ok ? t("operator.framebook.valid") : t("operator.framebook.invalid")}</span>
          </p>
          {checked.issues.length > 0 ? (
            <>
              <h3>{t("operator.framebook.issues")}</h3>
              <ul className="op-issues">
                {checked.issues.map((issue, i) => (
                  <li key={i} className={`op-issue op-issue-${issue.severity}`}>
                    <span className="op-issue-kind">{issue.severity === "error" ? t("operator.framebook.error") : t("operator.framebook.warning")}</span>
                    <span className="op-issue-where op-mono">{issue.line !== null ? t("operator.framebook.at", { line: issue.line, column: issue.column ?? 1 }) : t("operator.framebook.wholeFile")}</span>
                    <span className="op-issue-path op-mono">{issue.path}</span>
                    <span className="op-issue-message">{issue.message}</span>
                    {issue.line !== null ? (
                      <button type="button" className="op-button op-button-small op-button-secondary" onClick={() => showIssue(issue.line!, issue.column ?? 1)}>
                        {t("operator.framebook.show")}
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {checked.farePolicies.length > 0 ? (
            <div className="op-reading" role="status" aria-label={t("operator.framebook.farePolicies")}>
              <h3>{t("operator.framebook.farePolicies")}</h3>
              <ul>
                {checked.farePolicies.map((line) => (
                  <li key={line} lang="en" className={line.includes("NOT READ") ? "op-reading-unread" : undefined}>
                    {line}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {checked.ok ? (
            <>
              <h3>{t("operator.framebook.diff")}</h3>
              {checked.changes.length === 0 ? (
                <p className="op-muted">{t("operator.framebook.noChanges")}</p>
              ) : (
                <table className="op-table op-diff">
                  <thead>
                    <tr>
                      <th scope="col">{t("operator.framebook.key")}</th>
                      <th scope="col">{t("operator.framebook.before")}</th>
                      <th scope="col">{t("operator.framebook.after")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {checked.changes.map((change) => (
                      <tr key={change.path}>
                        <th scope="row" className="op-mono">
                          {change.path}
                        </th>
                        <td className="op-mono op-diff-before">{change.before !== null ? pretty(change.before) : t("operator.framebook.absent")}</td>
                        <td className="op-mono op-diff-after">{change.after !== null ? pretty(change.after) : t("operator.framebook.absent")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          ) : null}
        </div>
      ) : null}

      <div className="op-card">
        <h3>{t("operator.framebook.audit")}</h3>
        {status && status.audit.length > 0 ? (
          <table className="op-table op-audit">
            <thead>
              <tr>
                <th scope="col">{t("operator.framebook.when")}</th>
                <th scope="col">{t("operator.framebook.who")}</th>
                <th scope="col">{t("operator.framebook.action")}</th>
                <th scope="col">{t("operator.framebook.versionColumn")}</th>
              </tr>
            </thead>
            <tbody>
              {status.audit.map((entry, i) => (
                <tr key={`${entry.at}-${i}`}>
                  <td>{formatWhen(entry.at, language)}</td>
                  <td>{entry.who}</td>
                  <td>
                    {entry.action === "apply" ? t("operator.framebook.actionApply") : t("operator.framebook.actionRollback")}
                    {entry.fare_override ? (
                      <div className="op-notice op-notice-warning">{t("operator.framebook.fareOverride", { who: entry.fare_override.confirmed_by, reason: entry.fare_override.reason })}</div>
                    ) : null}
                  </td>
                  <td className="op-mono">
                    {entry.previous ? `${entry.previous} → ` : ""}
                    {entry.version}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="op-muted">{t("operator.framebook.auditEmpty")}</p>
        )}
      </div>
    </section>
  );
}
