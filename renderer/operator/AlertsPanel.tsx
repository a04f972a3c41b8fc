// Service alerts, live: the alerts of a system (in force, announced, past, ended) with an End
// button, a form to add one in the data pack's vocabulary (type, severity, lines, stations or a
// segment, valid until, passenger text), a preview that replays the stored passenger sessions with
// it in force, and the log of who changed what. The kiosk checks every field and names the wrong one.
// Types, places and the preview are in words and names in the operator's language, not codes.
import type { TFunction } from "i18next";
import { useCallback, useEffect, useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  DISRUPTION_SEVERITIES,
  DISRUPTION_TYPES,
  RiderTypeSchema,
  STATION_DISRUPTION_TYPES,
  type AlertCause,
  type AlertReadingView,
  type AlertIssueView,
  type AlertsList,
  type AlertView,
  type PlaceName,
  type ReplayReportView,
  type SystemSummary,
  type UnreadDecision,
  UNREAD_DECISIONS,
} from "../../runtime/kiosk/bridge.ts";
import { toOperatorError } from "../bridge/operatorBridge.ts";
import type { Language } from "../i18n/catalog.ts";
import { isolate, nameIn } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import { ConfirmBox } from "./ConfirmBox.tsx";
import { formatWhen } from "./format.ts";
import { useOperator } from "./session.ts";
import { SystemChooser } from "./SystemChooser.tsx";

type Notice = { tone: "positive" | "warning" | "critical"; text: string } | null;
type Alert = AlertView["alert"];
type Places = NonNullable<AlertsList["places"]>;
type Preview = { report: ReplayReportView; cause: AlertCause; reading: AlertReadingView };
type Difference = ReplayReportView["first"][number];

interface Draft {
  type: string;
  severity: string;
  lines: string;
  stations: string;
  from: string;
  to: string;
  validUntil: string;
  /** Passenger text by language tag ("en", "es", "zh-Hans"…). */
  text: Readonly<Record<string, string>>;
  /** The alert being edited (its id, and the fields the form does not show, are kept); null: a new one. */
  editing: Alert | null;
}

type DraftField = Exclude<keyof Draft, "text" | "editing">;

const EMPTY: Draft = { type: "station_closure", severity: "", lines: "", stations: "", from: "", to: "", validUntil: "", text: {}, editing: null };

const list = (text: string): string[] =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The form as the alert file format the kiosk validates. */
export function draftAlert(system: string, d: Draft): Record<string, unknown> {
  const text = Object.fromEntries(
    Object.entries(d.text)
      .map(([lang, value]) => [lang, value.trim()] as const)
      .filter(([, value]) => value !== ""),
  );
  const kept = d.editing;
  return {
    ...(kept ? { id: kept.id } : {}),
    system,
    type: d.type,
    ...(d.severity ? { severity: d.severity } : {}),
    lines: list(d.lines),
    stations: list(d.stations),
    ...(d.from || d.to ? { segment: { from_station: d.from, to_station: d.to } } : {}),
    ...(kept?.valid_from ? { valid_from: kept.valid_from } : {}),
    ...(d.validUntil ? { valid_until: d.validUntil } : {}),
    text,
    ...(kept?.alternative ? { alternative: kept.alternative } : {}),
    ...(kept?.eta_resolution ? { eta_resolution: kept.eta_resolution } : {}),
  };
}

/** A station's or line's name from the system's data (the id when it is not there). */
function nameOf(names: readonly PlaceName[] | undefined, id: string): string {
  return names?.find((n) => n.id === id)?.name ?? id;
}

/** What the edit form shows for an id: the name when no other station (line) has it, else the id. */
function formName(names: readonly PlaceName[] | undefined, id: string): string {
  const name = nameOf(names, id);
  return name !== id && names?.filter((n) => n.name === name).length === 1 ? name : id;
}

/** The edit form filled with an alert. */
export function draftOf(alert: Alert, places: Places | null): Draft {
  const station = (id: string): string => formName(places?.stations, id);
  return {
    type: alert.type,
    severity: alert.severity,
    lines: alert.lines.map((id) => formName(places?.lines, id)).join(", "),
    stations: alert.stations.map(station).join(", "),
    from: alert.segment ? station(alert.segment.from_station) : "",
    to: alert.segment ? station(alert.segment.to_station) : "",
    validUntil: alert.valid_until?.slice(0, 16) ?? "",
    text: { ...alert.text },
    editing: alert,
  };
}

/** Which form field an issue's path belongs to ("text.es" → the Spanish text). */
function fieldOf(path: string): string | null {
  if (path.startsWith("lines")) return "lines";
  if (path.startsWith("stations")) return "stations";
  if (path === "segment.to_station") return "to";
  if (path.startsWith("segment")) return "from";
  if (path === "valid_until" || path === "valid_from") return "validUntil";
  if (path === "text") return "text.en";
  if (path.startsWith("text.")) return path;
  if (path === "type" || path === "severity") return path;
  return null;
}

/**
 * Whether the operator may edit an alert here: their own, not a feed's or the back office's (whose
 * next import or publication would overwrite the edit). Any running alert may be ended.
 */
export function editable(alert: Alert): boolean {
  return alert.source.kind === "operator";
}

/** An alert by the places of the system's data (an id the data does not have stands for itself). */
export function causeOf(alert: Alert, places: Places | null): AlertCause {
  const place = (names: readonly PlaceName[] | undefined, id: string): PlaceName => names?.find((n) => n.id === id) ?? { id, name: id };
  const station = (id: string): PlaceName => place(places?.stations, id);
  return {
    type: alert.type,
    stations: alert.stations.map(station),
    lines: alert.lines.map((id) => place(places?.lines, id)),
    segment: alert.segment ? { from: station(alert.segment.from_station), to: station(alert.segment.to_station) } : null,
  };
}

/** Where an alert applies, by name in `language` ("–" for an alert of the whole system). */
export function where(cause: AlertCause, language: Language = "en"): string {
  const name = (p: PlaceName): string => nameIn(p, language);
  const lines = cause.lines.map(name);
  if (cause.segment) return `${name(cause.segment.from)} – ${name(cause.segment.to)}${lines.length ? ` (${lines.join(", ")})` : ""}`;
  return [...lines, ...cause.stations.map(name)].join(", ") || "–";
}

/** "Station closed: Five Points" (the type alone for an alert of the whole system). */
export function causeText(t: TFunction, cause: AlertCause, language: Language): string {
  const type = t(`operator.alerts.type_${cause.type}`);
  const place = where(cause, language);
  return place === "–" ? type : t("operator.alerts.cause", { type, where: place });
}

/** One changed answer in words: "West Oakland → Embarcadero, 1 adult: would no longer be sold — Station closed: Embarcadero". */
export function differenceText(t: TFunction, d: Difference, cause: AlertCause, language: Language): string {
  const { from, to, riders } = d.trip;
  const trip = from || to ? t("operator.alerts.previewTrip", { from: from ? isolate(nameIn(from, language)) : "?", to: to ? isolate(nameIn(to, language)) : "?" }) : t("operator.alerts.previewNoTrip");
  const who = riders ? RiderTypeSchema.options.filter((k) => (riders[k] ?? 0) > 0).map((k) => t(`riders.${k}`, { count: riders[k] })) : [];
  const words = { trip, effect: t(`operator.alerts.effect_${d.effect}`), cause: causeText(t, cause, language) };
  return who.length > 0 ? t("operator.alerts.previewLine", { ...words, riders: who.join(", ") }) : t("operator.alerts.previewLineNoRiders", words);
}

export function AlertsPanel(props: { systems: readonly SystemSummary[]; initialSystem?: SystemSummary["id"] | undefined }) {
  const { t } = useTranslation();
  const { call } = useOperator();
  const language = useView((s) => s.language);
  const [system, setSystem] = useState<SystemSummary["id"] | null>(props.initialSystem ?? props.systems[0]?.id ?? null);
  const [alerts, setAlerts] = useState<AlertsList | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [issues, setIssues] = useState<AlertIssueView[]>([]);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [ending, setEnding] = useState<AlertView | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  /** The store refused the alert because the kiosk cannot map where its words stop service: the operator decides. */
  const [unread, setUnread] = useState(false);
  const headingId = useId();
  const formId = useId();
  const stationListId = useId();

  const fail = useCallback((error: unknown) => setNotice({ tone: "critical", text: t(`operator.error.${toOperatorError(error).code}`) }), [t]);

  const refresh = useCallback(async () => {
    if (!system) return;
    try {
      setAlerts(await call("listAlerts", { system }));
    } catch (error) {
      fail(error);
    }
  }, [call, system, fail]);

  useEffect(() => {
    setAlerts(null);
    setDraft(EMPTY);
    setIssues([]);
    setPreview(null);
    setNotice(null);
    void refresh();
  }, [refresh]);

  const set = (key: DraftField) => (event: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [key]: event.target.value }));
    setPreview(null);
    setUnread(false);
  };
  const setText = (language: string) => (event: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, text: { ...d.text, [language]: event.target.value } }));
    setPreview(null);
    setUnread(false);
  };
  const invalid = new Set(issues.map((i) => fieldOf(i.path)));
  const places = alerts?.places ?? null;
  // English first, then the system's local language, then any other language the edited alert has.
  const languages = [...new Set([...(places?.languages ?? ["en"]), ...Object.keys(draft.text)])];

  function edit(alert: Alert): void {
    setDraft(draftOf(alert, places));
    setIssues([]);
    setPreview(null);
    setNotice(null);
    document.getElementById(formId)?.scrollIntoView?.({ block: "start" });
  }

  function cancelEdit(): void {
    setDraft(EMPTY);
    setIssues([]);
    setPreview(null);
  }

  async function runPreview(): Promise<void> {
    if (!system) return;
    setBusy(true);
    setNotice(null);
    try {
      const result = await call("previewAlert", { alert: draftAlert(system, draft) });
      if (result.ok) {
        setIssues([]);
        setPreview({ report: result.report, cause: result.cause, reading: result.reading });
      } else setIssues(result.issues);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function save(ifUnread?: UnreadDecision): Promise<void> {
    if (!system) return;
    setBusy(true);
    setNotice(null);
    const mode = draft.editing ? "edit" : "add";
    try {
      const result = await call("saveAlert", { alert: draftAlert(system, draft), mode, ...(ifUnread ? { ifUnread } : {}) });
      setUnread(!result.ok && result.reason === "unread");
      if (result.ok) {
        setIssues([]);
        setPreview(null);
        setDraft(EMPTY);
        setNotice({ tone: "positive", text: t(mode === "edit" ? "operator.alerts.saved" : "operator.alerts.added", { id: result.record.alert.id }) });
        await refresh();
      } else setIssues(result.issues);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function end(id: string): Promise<void> {
    setEnding(null);
    setBusy(true);
    setNotice(null);
    try {
      const result = await call("endAlert", { id });
      setNotice(result.ok ? { tone: "positive", text: t("operator.alerts.ended", { id }) } : { tone: "warning", text: result.message });
      await refresh();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  const field = (key: string, label: string, input: ReactNode) => (
    <label className="op-field" data-invalid={invalid.has(key) || undefined}>
      {label}
      {input}
    </label>
  );
  const text = (key: DraftField, label: string, hint?: string, suggestions?: string) =>
    field(key, label, <input className="op-input" aria-label={label} value={draft[key]} onChange={set(key)} aria-invalid={invalid.has(key)} placeholder={hint} list={suggestions} />);

  const stationType = (STATION_DISRUPTION_TYPES as readonly string[]).includes(draft.type);

  return (
    <section className="op-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("operator.alerts.heading")}</h2>
      <SystemChooser systems={props.systems} value={system} onChange={setSystem} />

      {notice ? (
        <p className={`op-notice op-notice-${notice.tone}`} role={notice.tone === "critical" ? "alert" : "status"}>
          {notice.text}
        </p>
      ) : null}

      <div className="op-card">
        <h3>{t("operator.alerts.current")}</h3>
        {alerts && alerts.alerts.length === 0 ? <p className="op-muted">{t("operator.alerts.none")}</p> : null}
        {alerts && alerts.alerts.length > 0 ? (
          <table className="op-table">
            <thead>
              <tr>
                <th>{t("operator.alerts.type")}</th>
                <th>{t("operator.alerts.where")}</th>
                <th>{t("operator.alerts.validUntil")}</th>
                <th>{t("operator.alerts.status")}</th>
                <th>{t("operator.alerts.by")}</th>
                <th>
                  <span className="visually-hidden">{t("operator.alerts.end")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {alerts.alerts.map((a) => (
                <tr key={a.alert.id} data-alert={a.alert.id}>
                  <td>
                    <strong title={a.alert.type}>{t(`operator.alerts.type_${a.alert.type}`)}</strong> · {t(`operator.alerts.severity_${a.alert.severity}`)}
                    <div className="op-muted">{a.alert.text["en"] ?? Object.values(a.alert.text)[0]}</div>
                  </td>
                  <td>{where(causeOf(a.alert, places), language)}</td>
                  <td>{a.alert.valid_until?.replace("T", " ").slice(0, 16) ?? t("operator.alerts.untilEnded")}</td>
                  <td>
                    <span className={`op-badge op-badge-alert-${a.status}`}>{t(`operator.alerts.status_${a.status}`)}</span>
                  </td>
                  <td>{a.endedBy ? t("operator.alerts.endedBy", { name: a.endedBy }) : a.createdBy}</td>
                  <td>
                    {a.status === "active" || a.status === "upcoming" ? (
                      <div className="op-row-actions">
                        {editable(a.alert) ? (
                          <button type="button" className="op-button op-button-secondary" disabled={busy} onClick={() => edit(a.alert)} aria-label={t("operator.alerts.editNamed", { id: a.alert.id })}>
                            {t("operator.alerts.edit")}
                          </button>
                        ) : null}
                        <button type="button" className="op-button op-button-secondary" disabled={busy} onClick={() => setEnding(a)} aria-label={t("operator.alerts.endNamed", { id: a.alert.id })}>
                          {t("operator.alerts.end")}
                        </button>
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {ending ? (
          <ConfirmBox
            label={t("operator.alerts.endNamed", { id: ending.alert.id })}
            question={t("operator.alerts.endConfirm", { what: causeText(t, causeOf(ending.alert, places), language) })}
            danger
            onConfirm={() => void end(ending.alert.id)}
            onCancel={() => setEnding(null)}
          />
        ) : null}
      </div>

      <form
        className="op-card op-alert-form"
        aria-labelledby={formId}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        data-editing={draft.editing?.id}
      >
        <h3 id={formId}>{draft.editing ? t("operator.alerts.editHeading", { id: draft.editing.id }) : t("operator.alerts.addHeading")}</h3>
        <div className="op-alert-grid">
          {field(
            "type",
            t("operator.alerts.type"),
            <select className="op-input" aria-label={t("operator.alerts.type")} value={draft.type} onChange={set("type")} aria-invalid={invalid.has("type")}>
              {DISRUPTION_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`operator.alerts.type_${type}`)}
                </option>
              ))}
            </select>,
          )}
          {field(
            "severity",
            t("operator.alerts.severity"),
            <select className="op-input" aria-label={t("operator.alerts.severity")} value={draft.severity} onChange={set("severity")}>
              <option value="">{t("operator.alerts.severityDefault")}</option>
              {DISRUPTION_SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {t(`operator.alerts.severity_${s}`)}
                </option>
              ))}
            </select>,
          )}
          {text("lines", t("operator.alerts.lines"), t("operator.alerts.listHint"))}
          {text("stations", stationType ? t("operator.alerts.stationsNeeded") : t("operator.alerts.stations"), t("operator.alerts.listHint"))}
          {text("from", t("operator.alerts.segmentFrom"), undefined, stationListId)}
          {text("to", t("operator.alerts.segmentTo"), undefined, stationListId)}
          {field("validUntil", t("operator.alerts.validUntil"), <input className="op-input" type="datetime-local" aria-label={t("operator.alerts.validUntil")} value={draft.validUntil} onChange={set("validUntil")} aria-invalid={invalid.has("validUntil")} />)}
        </div>
        <datalist id={stationListId}>
          {places?.stations.map((s) => <option key={s.id} value={s.name} label={s.id} />)}
        </datalist>
        {languages.map((language) => {
          const label = language === "en" ? t("operator.alerts.text") : t("operator.alerts.textOptional", { language: t(`language.${language}`, { defaultValue: language }) });
          const key = `text.${language}`;
          return (
            <div key={language}>
              {field(key, label, <textarea className="op-input" lang={language} dir="auto" aria-label={label} rows={language === "en" ? 3 : 2} value={draft.text[language] ?? ""} onChange={setText(language)} aria-invalid={invalid.has(key)} />)}
            </div>
          );
        })}
        {issues.length > 0 ? (
          <ul className="op-issues" role="alert" aria-label={t("operator.alerts.problems")}>
            {issues.map((i) => (
              <li key={`${i.path}:${i.message}`}>
                <span className="op-mono">{i.path || "alert"}</span>: {i.message}
              </li>
            ))}
          </ul>
        ) : null}
        {unread ? (
          <div className="op-notice op-notice-warning" role="alert">
            <div className="op-panel">
              <p>{t("operator.alerts.unreadWarning", { trips: preview ? unreadTrips(t, preview.reading, language) : t("operator.alerts.unreadEveryTrip") })}</p>
              <div className="op-actions">
                {UNREAD_DECISIONS.map((decision) => (
                  <button key={decision} type="button" className="op-button op-button-secondary" disabled={busy} onClick={() => void save(decision)}>
                    {t(`operator.alerts.unread${DECISION_KEY[decision]}`)}
                  </button>
                ))}
              </div>
            </div>
          </div>
        ) : null}
        {preview ? <ReadingList reading={preview.reading} language={language} /> : null}
        {preview ? (
          <div className="op-notice op-notice-info op-preview" role="status" aria-label={t("operator.alerts.previewHeading")}>
            <p>{preview.report.sessions === 0 ? t("operator.alerts.previewEmpty") : t("operator.alerts.previewSummary", { changed: preview.report.changedTurns, turns: preview.report.turns, sessions: preview.report.sessions })}</p>
            {preview.report.first.length > 0 ? (
              <ul>
                {preview.report.first.map((d) => (
                  <li key={`${d.sessionId}:${d.turn}`}>
                    {differenceText(t, d, preview.cause, language)}
                    <details className="op-muted">
                      <summary>{t("operator.alerts.previewDetails")}</summary>
                      <span className="op-mono">{d.sessionId}</span> · {d.asked}: {d.changes.map((c) => `${c.field} ${c.before} → ${c.after}`).join("; ")}
                    </details>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <div className="op-actions">
          <button type="button" className="op-button op-button-secondary" disabled={busy || !system} onClick={() => void runPreview()}>
            {t("operator.alerts.preview")}
          </button>
          {draft.editing ? (
            <button type="button" className="op-button op-button-secondary" disabled={busy} onClick={cancelEdit}>
              {t("operator.alerts.cancelEdit")}
            </button>
          ) : null}
          <button type="submit" className="op-button op-button-primary" disabled={busy || !system}>
            {draft.editing ? t("operator.alerts.save") : t("operator.alerts.add")}
          </button>
        </div>
      </form>

      {alerts && alerts.audit.length > 0 ? (
        <div className="op-card">
          <h3>{t("operator.alerts.log")}</h3>
          <ul className="op-log">
            {alerts.audit.map((a, i) => (
              <li key={`${a.at}:${i}`}>
                {formatWhen(a.at, language)} · <strong>{a.who}</strong> · {t(`operator.alerts.action_${a.action}`)} <span className="op-mono">{a.alertId}</span>
                {a.detail ? ` (${a.detail})` : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** What the kiosk reads in the alert: what it will refuse while the alert is in force, in names. */
const DECISION_KEY: Record<UnreadDecision, "Refer" | "Block" | "Ignore"> = { refer: "Refer", block: "Block", ignore: "Ignore" };

/** The trips an alert's unread words may touch, in words. */
function unreadTrips(t: TFunction, r: AlertReadingView, language: Language): string {
  return r.unreadLines.length === 0 ? t("operator.alerts.unreadEveryTrip") : t("operator.alerts.unreadTripsOn", { lines: r.unreadLines.map((p) => isolate(nameIn(p, language))).join(", ") });
}

function ReadingList(props: { reading: AlertReadingView; language: Language }): ReactNode {
  const { t } = useTranslation();
  const r = props.reading;
  const names = (places: readonly PlaceName[]): string => places.map((p) => isolate(nameIn(p, props.language))).join(", ");
  const items: { key: string; text: string; warn?: boolean }[] = [];
  if (r.systemSuspended) items.push({ key: "all", text: t("operator.alerts.readAll") });
  if (r.lines.length > 0) items.push({ key: "lines", text: t("operator.alerts.readLines", { lines: names(r.lines) }) });
  for (const s of r.sections) items.push({ key: `s:${s.from.id}:${s.to.id}`, text: t("operator.alerts.readSection", { from: names([s.from]), to: names([s.to]) }) });
  if (r.closed.length > 0) items.push({ key: "closed", text: t("operator.alerts.readClosed", { stations: names(r.closed) }) });
  if (r.passThrough.length > 0) items.push({ key: "through", text: t("operator.alerts.readPassThrough", { stations: names(r.passThrough) }) });
  if (r.liftsOut.length > 0) items.push({ key: "lifts", text: t("operator.alerts.readLiftsOut", { stations: names(r.liftsOut) }) });
  if (r.window) items.push({ key: "window", text: t("operator.alerts.readWindow", { from: r.window.from?.replace("T", " ") ?? "…", until: r.window.until?.replace("T", " ") ?? "…" }) });
  if (r.unread) {
    const trips = unreadTrips(t, r, props.language);
    const decision = r.decision ? t(`operator.alerts.unread${DECISION_KEY[r.decision]}Decided`, { trips }) : t("operator.alerts.unreadUndecided", { trips });
    items.push({ key: "unread", text: t("operator.alerts.readUnread", { decision }), warn: true });
  }
  if (items.length === 0) items.push({ key: "none", text: t("operator.alerts.readNothing") });
  return (
    <div className="op-card op-reading" role="status" aria-label={t("operator.alerts.readingHeading")}>
      <h4>{t("operator.alerts.readingHeading")}</h4>
      <ul>
        {items.map((i) => (
          <li key={i.key} className={i.warn ? "op-reading-unread" : undefined}>
            {i.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
