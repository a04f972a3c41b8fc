// The operator and technician screens, behind the PIN: the login, then tabs for framebook
// hot-swap and the on-device bench. Opened from the attract screen (a long press on the top
// corner, Ctrl+Alt+O, or #operator in the address); closing it logs the operator out.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OperatorBridge, SpeechStatus, SystemSummary } from "../../runtime/kiosk/bridge.ts";
import { Icon } from "../components/Icon.tsx";
import { AlertsPanel } from "./AlertsPanel.tsx";
import { AuditPanel } from "./AuditPanel.tsx";
import { FramebookPanel } from "./FramebookPanel.tsx";
import { PinLogin } from "./PinLogin.tsx";
import { OperatorContext, type OperatorContextValue, type OperatorSession } from "./session.ts";
import { TechnicianPanel } from "./TechnicianPanel.tsx";
import "../styles/operator.css";

export type OperatorTab = "framebooks" | "technician" | "alerts" | "audit";

export interface OperatorScreenProps {
  bridge: OperatorBridge;
  systems: readonly SystemSummary[];
  /** The system the passenger screen shows (the framebook tab starts there). */
  currentSystem?: SystemSummary["id"] | undefined;
  onClose: () => void;
  initialTab?: OperatorTab;
  /** Close (and log out) after this long without a touch (default 5 minutes; not while the technician watches a bench run). */
  idleMs?: number;
  /** How often the technician screen polls a running bench. */
  pollMs?: number;
  /** The kiosk's speech engines and headset voices (the technician screen shows them). */
  speech?: SpeechStatus | undefined;
}

export function OperatorScreen(props: OperatorScreenProps) {
  const { t } = useTranslation();
  const { bridge, onClose } = props;
  const [session, setSession] = useState<OperatorSession | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [tab, setTab] = useState<OperatorTab>(props.initialTab ?? "framebooks");
  const [watchingBench, setWatchingBench] = useState(false);
  const sessionRef = useRef<OperatorSession | null>(null);
  sessionRef.current = session;

  const expire = useCallback(() => {
    setSession(null);
    setNotice(t("operator.error.unauthorized"));
  }, [t]);

  const close = useCallback(() => {
    const current = sessionRef.current;
    if (current) void bridge.logout({ token: current.token }).catch(() => undefined);
    onClose();
  }, [bridge, onClose]);

  // Walk-away protection: no touch for idleMs closes the tools.
  const idleMs = props.idleMs ?? 300_000;
  useEffect(() => {
    if (watchingBench) return;
    let timer = setTimeout(close, idleMs);
    const reset = (): void => {
      clearTimeout(timer);
      timer = setTimeout(close, idleMs);
    };
    const options = { capture: true, passive: true } as const;
    document.addEventListener("pointerdown", reset, options);
    document.addEventListener("keydown", reset, options);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("pointerdown", reset, options);
      document.removeEventListener("keydown", reset, options);
    };
  }, [close, idleMs, watchingBench]);

  const context = useMemo<OperatorContextValue | null>(() => (session ? { bridge, session, expire } : null), [bridge, session, expire]);

  useEffect(() => {
    document.querySelector<HTMLElement>(".operator h1")?.focus();
  }, [session]);

  return (
    <div className="operator" data-operator={session ? "signed-in" : "login"}>
      <header className="op-header">
        <span className="op-title">
          <Icon name="staff" /> {t("operator.title")}
        </span>
        {session ? (
          <>
            <span className="op-user">{t("operator.loggedInAs", { name: session.operator })}</span>
            <button
              type="button"
              className="op-button op-button-header"
              onClick={() => {
                void bridge.logout({ token: session.token }).catch(() => undefined);
                setSession(null);
                setNotice(null);
              }}
            >
              {t("operator.logout")}
            </button>
          </>
        ) : null}
        <button type="button" className="op-button op-button-header" onClick={close}>
          <Icon name="cross" /> {t("operator.close")}
        </button>
      </header>
      <main className="op-main">
        {!context ? (
          <PinLogin
            bridge={bridge}
            notice={notice}
            onLogin={(next) => {
              setNotice(null);
              setSession(next);
            }}
          />
        ) : (
          <OperatorContext.Provider value={context}>
            <h1 className="visually-hidden" tabIndex={-1}>
              {t("operator.title")}
            </h1>
            <div className="op-tabs" role="tablist" aria-label={t("operator.tabs")}>
              {(["framebooks", "technician", "alerts", "audit"] as const).map((name) => (
                <button
                  key={name}
                  type="button"
                  role="tab"
                  id={`op-tab-${name}`}
                  aria-selected={tab === name}
                  aria-controls={`op-panel-${name}`}
                  className="op-tab"
                  onClick={() => setTab(name)}
                >
                  {name === "framebooks" ? t("operator.tabFramebooks") : name === "technician" ? t("operator.tabTechnician") : t(`operator.${name}.tab`)}
                </button>
              ))}
            </div>
            <div role="tabpanel" id={`op-panel-${tab}`} aria-labelledby={`op-tab-${tab}`}>
              {tab === "framebooks" ? <FramebookPanel systems={props.systems} initialSystem={props.currentSystem} /> : null}
              {tab === "technician" ? <TechnicianPanel onBenchRunning={setWatchingBench} speech={props.speech} systems={props.systems} {...(props.pollMs !== undefined ? { pollMs: props.pollMs } : {})} /> : null}
              {tab === "alerts" ? <AlertsPanel systems={props.systems} initialSystem={props.currentSystem} /> : null}
              {tab === "audit" ? <AuditPanel /> : null}
            </div>
          </OperatorContext.Provider>
        )}
      </main>
    </div>
  );
}
