// The session audit: today's passenger sessions with filter chips (fallback, blocked, refused, an
// outcome, a language), and one session opened as a readable timeline — what the passenger asked,
// what each tool returned, what was shown, why the buy button was on or off, what happened at the till.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSENGER_LANGUAGES, type AuditFilter, type AuditSessions, type TimelineView } from "../../runtime/kiosk/bridge.ts";
import { toOperatorError } from "../bridge/operatorBridge.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import { formatWhen } from "./format.ts";
import { useOperator } from "./session.ts";

const FLAGS = ["fallback", "blocked", "refused"] as const;
const OUTCOMES = ["route_and_fare_ready", "advisory_only", "service_unavailable", "request_declined", "policy_answer_only"] as const;

export function AuditPanel() {
  const { t } = useTranslation();
  const { call } = useOperator();
  const language = useView((s) => s.language);
  const [filter, setFilter] = useState<AuditFilter>({});
  const [list, setList] = useState<AuditSessions | null>(null);
  const [timeline, setTimeline] = useState<TimelineView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();
  const timelineHeading = useRef<HTMLHeadingElement>(null);

  const refresh = useCallback(async () => {
    try {
      setList(await call("auditSessions", { filter }));
      setProblem(null);
    } catch (error) {
      setProblem(t(`operator.error.${toOperatorError(error).code}`));
    }
  }, [call, filter, t]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // The timeline is drawn below the list, often off screen: bring it into view, and move the focus
  // to its heading so keyboard and screen-reader users land on it.
  useEffect(() => {
    const heading = timelineHeading.current;
    if (!timeline || !heading) return;
    heading.closest(".op-timeline")?.scrollIntoView({ block: "start" });
    heading.focus({ preventScroll: true });
  }, [timeline]);

  async function open(sessionId: string): Promise<void> {
    try {
      setTimeline(await call("auditTimeline", { sessionId }));
      setProblem(null);
    } catch (error) {
      setProblem(t(`operator.error.${toOperatorError(error).code}`));
    }
  }

  const toggle = (key: (typeof FLAGS)[number]) => setFilter((f) => ({ ...f, [key]: f[key] ? undefined : true }));
  const time = (iso: string): string => new Date(iso).toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

  return (
    <section className="op-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{list ? t("operator.audit.headingDay", { day: list.day }) : t("operator.audit.heading")}</h2>
      <div className="op-choice" role="group" aria-label={t("operator.audit.filters")}>
        {FLAGS.map((key) => (
          <button key={key} type="button" className="op-chip" aria-pressed={filter[key] === true} onClick={() => toggle(key)}>
            {t(`operator.audit.only_${key}`)}
          </button>
        ))}
        <label className="op-field op-field-inline">
          {t("operator.audit.outcome")}
          <select className="op-input" aria-label={t("operator.audit.outcome")} value={filter.outcome ?? ""} onChange={(e) => setFilter((f) => ({ ...f, outcome: e.target.value || undefined }))}>
            <option value="">{t("operator.audit.any")}</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <label className="op-field op-field-inline">
          {t("operator.audit.language")}
          <select className="op-input" aria-label={t("operator.audit.language")} value={filter.language ?? ""} onChange={(e) => setFilter((f) => ({ ...f, language: e.target.value || undefined }))}>
            <option value="">{t("operator.audit.any")}</option>
            {PASSENGER_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
      </div>
      {problem ? (
        <p className="op-notice op-notice-critical" role="alert">
          {problem}
        </p>
      ) : null}

      <div className="op-card">
        {list && list.sessions.length === 0 ? <p className="op-muted">{t("operator.audit.none")}</p> : null}
        {list && list.sessions.length > 0 ? (
          <table className="op-table" aria-label={t("operator.audit.sessions")}>
            <thead>
              <tr>
                <th>{t("operator.audit.time")}</th>
                <th>{t("operator.audit.system")}</th>
                <th>{t("operator.audit.language")}</th>
                <th>{t("operator.audit.outcome")}</th>
                <th>{t("operator.audit.answeredBy")}</th>
                <th>{t("operator.audit.flags")}</th>
                <th>
                  <span className="visually-hidden">{t("operator.audit.open")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.sessions.map((s) => (
                <tr key={s.sessionId} data-session={s.sessionId} aria-selected={timeline?.sessionId === s.sessionId}>
                  <td>{time(s.startedAt)}</td>
                  <td>{s.system}</td>
                  <td>{s.language}</td>
                  <td>
                    {s.outcome}
                    <div className="op-muted">{s.action}</div>
                  </td>
                  <td>{s.answeredBy}</td>
                  <td>
                    {s.sold ? <span className="op-badge op-badge-finished">{t("operator.audit.sold")}</span> : null}
                    {FLAGS.filter((k) => s[k]).map((k) => (
                      <span key={k} className="op-badge op-badge-interrupted">
                        {t(`operator.audit.flag_${k}`)}
                      </span>
                    ))}
                    {s.blockCodes.length > 0 ? <div className="op-mono">{s.blockCodes.join(", ")}</div> : null}
                  </td>
                  <td>
                    <button type="button" className="op-button op-button-secondary" onClick={() => void open(s.sessionId)} aria-label={t("operator.audit.openNamed", { id: s.sessionId })}>
                      {t("operator.audit.open")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>

      {timeline ? (
        <div className="op-card op-timeline" aria-label={t("operator.audit.timelineOf", { id: timeline.sessionId })}>
          <div className="op-card-head">
            <h3 ref={timelineHeading} tabIndex={-1}>
              {t("operator.audit.timelineOf", { id: timeline.sessionId })}
            </h3>
            <button type="button" className="op-button op-button-secondary" onClick={() => setTimeline(null)}>
              {t("operator.audit.closeTimeline")}
            </button>
          </div>
          <p className="op-muted">
            {timeline.system} · {timeline.language} · {formatWhen(timeline.startedAt, language)} · {t("operator.audit.turns", { count: timeline.summary.turns })}
          </p>
          <ol className="op-timeline-list">
            {timeline.entries.map((e, i) => (
              <li key={i} className={`op-timeline-entry op-timeline-${e.kind}`} data-kind={e.kind} data-ok={e.ok === undefined ? undefined : String(e.ok)}>
                <div className="op-timeline-head">
                  <span className="op-timeline-kind">{t(`operator.audit.kind_${e.kind}`)}</span>
                  <span className="op-timeline-title">{e.title}</span>
                  <span className="op-muted op-timeline-time">
                    {t("operator.audit.turn", { turn: e.turn })} · {time(e.at)}
                  </span>
                </div>
                {e.lines.length > 0 ? (
                  <ul className="op-timeline-lines">
                    {e.lines.map((line, j) => (
                      <li key={j}>{line}</li>
                    ))}
                  </ul>
                ) : null}
                {e.data !== undefined ? (
                  <details>
                    <summary>{t("operator.audit.details")}</summary>
                    <pre className="op-mono">{JSON.stringify(e.data, null, 2)}</pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
