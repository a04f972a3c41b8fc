// The frame of every screen: header (system, language, display options, start over), the screen of
// the current flow state, the idle warning, and the data attribution. It also applies the language
// (<html lang dir>), the theme, and reports passenger activity to the flow machine. From the
// attract screen, staff open the PIN-protected operator tools in its place (useOperatorEntry).
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DisplayToggles } from "../components/DisplayToggles.tsx";
import { useBridge } from "../bridge/BridgeProvider.tsx";
import { IdleWarning } from "../components/IdleWarning.tsx";
import { LanguageSwitcher } from "../components/LanguageSwitcher.tsx";
import { directionOf } from "../i18n/catalog.ts";
import { OperatorScreen } from "../operator/OperatorScreen.tsx";
import { useOperatorEntry } from "../operator/useOperatorEntry.ts";
import { AttractScreen } from "../screens/AttractScreen.tsx";
import { JourneyScreen } from "../screens/JourneyScreen.tsx";
import { PaymentScreen } from "../screens/PaymentScreen.tsx";
import { ResultScreen } from "../screens/ResultScreen.tsx";
import { TicketScreen } from "../screens/TicketScreen.tsx";
import { WorkingScreen } from "../screens/WorkingScreen.tsx";
import { useView } from "../state/ViewStoreProvider.tsx";
import { cssVariables, HIGH_CONTRAST, STANDARD } from "../theme/palette.ts";
import { useKiosk, useKioskSend, useScreen } from "./KioskActor.tsx";
import { useAudioGuide } from "./useAudioGuide.ts";
import { HeadsetProblemNotice, OutOfServiceNotice } from "./OutOfServiceNotice.tsx";
import { useFramebookRefresh } from "./useFramebookRefresh.ts";
import { useSystemLoader } from "./useSystemLoader.ts";

function useDocumentSettings(): void {
  const { i18n, t } = useTranslation();
  const language = useView((s) => s.language);
  const highContrast = useView((s) => s.highContrast);
  const largeText = useView((s) => s.largeText);
  useLayoutEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    const root = document.documentElement;
    root.lang = language;
    root.dir = directionOf(language);
    document.title = t("attract.title");
  }, [i18n, language, t]);
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.contrast = highContrast ? "high" : "standard";
    root.dataset.text = largeText ? "large" : "standard";
    for (const [name, value] of Object.entries(cssVariables(highContrast ? HIGH_CONTRAST : STANDARD))) {
      root.style.setProperty(name, value);
    }
  }, [highContrast, largeText]);
}

function useActivityReporting(): void {
  const send = useKioskSend();
  useEffect(() => {
    // (Back on the keypad — Escape — closing a panel is the audio guide's: useAudioGuide.)
    const report = (): void => send({ type: "ACTIVITY" });
    const options = { capture: true, passive: true } as const;
    document.addEventListener("pointerdown", report, options);
    document.addEventListener("keydown", report, options);
    return () => {
      document.removeEventListener("pointerdown", report, options);
      document.removeEventListener("keydown", report, options);
    };
  }, [send]);
}

/** Moves focus to the new screen's heading so screen readers (and the audio guide) announce it. */
function useFocusOnScreenChange(screen: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [screen]);
}

export function KioskShell({ preferredSystem }: { preferredSystem?: string | null | undefined }) {
  const { t } = useTranslation();
  const send = useKioskSend();
  const screen = useScreen();
  const system = useView((s) => s.system);
  const result = useKiosk((s) => s.context.result);
  const ticket = useKiosk((s) => s.context.ticket);
  const paying = useKiosk((s) => s.matches({ session: { flow: { payment: "processing" } } }));
  // A payment that fails stays on the payment screen but is a new screen for the passenger.
  const paymentFailed = useKiosk((s) => s.matches({ session: { flow: { payment: "failed" } } }));
  const chooseSystem = useSystemLoader(preferredSystem);
  const outOfService = useKiosk((s) => s.context.status?.benchRunning === true);
  const headsetConfig = useKiosk((s) => s.context.status?.headsetPattern);
  const setHeadsetPattern = useView((s) => s.setHeadsetPattern);
  useEffect(() => setHeadsetPattern(headsetConfig), [headsetConfig, setHeadsetPattern]);
  const speechStatus = useKiosk((s) => s.context.status?.speech);
  const setSpeech = useView((s) => s.setSpeech);
  useEffect(() => setSpeech(speechStatus), [speechStatus, setSpeech]);
  const headsetProblem = useView((s) => (s.headset ? s.headsetProblem : null));
  useFramebookRefresh(chooseSystem);
  const operatorBridge = useBridge().operator;
  const systems = useView((s) => s.systems);
  const operator = useOperatorEntry(screen === "attract" && operatorBridge !== undefined);
  useDocumentSettings();
  useActivityReporting();
  useFocusOnScreenChange(paymentFailed ? "payment-failed" : screen);
  useAudioGuide();

  if (operator.open && operatorBridge) {
    return (
      <OperatorScreen
        bridge={operatorBridge}
        systems={systems}
        currentSystem={system?.id}
        speech={speechStatus}
        onClose={() => {
          operator.close();
          // A bench run may have started or ended, a framebook may have changed: look again.
          send({ type: "REFRESH_STATUS" });
          if (system) void chooseSystem(system.id);
        }}
      />
    );
  }

  const inSession = screen !== "attract" && screen !== "resetting";
  let body: ReactNode;
  if (screen === "attract" || !system) body = <AttractScreen onChooseSystem={(id) => void chooseSystem(id)} />;
  else if (screen === "journey") body = <JourneyScreen system={system} />;
  else if (screen === "working") body = <WorkingScreen system={system} />;
  else if (screen === "result" && result) body = <ResultScreen system={system} result={result} />;
  else if (screen === "payment") body = <PaymentScreen system={system} />;
  else if (screen === "ticket" && ticket) body = <TicketScreen system={system} ticket={ticket} />;
  else
    body = (
      <section className="screen resetting" aria-live="polite">
        <h1 tabIndex={-1}>{t("reset.title")}</h1>
      </section>
    );

  return (
    <div className="kiosk" data-screen={screen}>
      <header className="kiosk-header">
        <div className="brand" {...operator.pressHandlers}>
          <span className="brand-org">{system?.orgName ?? ""}</span>
        </div>
        <LanguageSwitcher />
        <DisplayToggles />
        {inSession ? (
          <button type="button" className="button button-danger start-over" disabled={paying} onClick={() => send({ type: "START_OVER" })}>
            {t("common.startOver")}
          </button>
        ) : null}
      </header>
      <main className="kiosk-main">
        {/* Pushed by the kiosk: a bench run started while a passenger is here (the attract screen says it itself). */}
        {outOfService && (screen === "journey" || screen === "result") ? <OutOfServiceNotice /> : null}
        {headsetProblem ? <HeadsetProblemNotice problem={headsetProblem} /> : null}
        {body}
      </main>
      <footer className="kiosk-footer">{system ? <span>{system.attribution}</span> : null}</footer>
      <IdleWarning />
    </div>
  );
}
