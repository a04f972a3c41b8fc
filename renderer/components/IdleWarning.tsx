// "Are you still there?" with the countdown to the reset.
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useKiosk, useKioskSend } from "../app/KioskActor.tsx";

export function IdleWarning() {
  const { t } = useTranslation();
  const send = useKioskSend();
  const warning = useKiosk((s) => s.matches({ session: { idle: "warning" } }));
  const countdownMs = useKiosk((s) => s.context.countdownMs);
  const paying = useKiosk((s) => s.matches({ session: { flow: { payment: "processing" } } }));
  const continueRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (warning) continueRef.current?.focus();
  }, [warning]);
  if (!warning) return null;
  const seconds = Math.ceil(countdownMs / 1000);
  return (
    <div className="overlay" role="presentation">
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="idle-title" aria-describedby="idle-body">
        <h2 id="idle-title">{t("idle.title")}</h2>
        <p id="idle-body" className="idle-countdown">
          {t("idle.body", { count: seconds })}
        </p>
        <div className="dialog-buttons">
          <button ref={continueRef} type="button" className="button button-primary" onClick={() => send({ type: "CONTINUE" })}>
            {t("idle.continue")}
          </button>
          <button type="button" className="button button-secondary" onClick={() => send({ type: "MORE_TIME" })}>
            {t("idle.moreTime")}
          </button>
          {paying ? null : (
            <button type="button" className="button button-secondary" onClick={() => send({ type: "START_OVER" })}>
              {t("common.startOver")}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
