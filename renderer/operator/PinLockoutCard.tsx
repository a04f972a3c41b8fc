// The technician's override of the operator PIN lockout: wrong PINs lock out only the source that
// typed them, and a technician logged in from another screen clears them here (the kiosk logs who).
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toOperatorError } from "../bridge/operatorBridge.ts";
import { useOperator } from "./session.ts";

export function PinLockoutCard() {
  const { t } = useTranslation();
  const { call } = useOperator();
  const [message, setMessage] = useState<{ tone: "positive" | "critical"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const clear = async (): Promise<void> => {
    setBusy(true);
    try {
      const { cleared } = await call("clearPinLockout", {});
      setMessage({ tone: "positive", text: cleared.length === 0 ? t("operator.pinLockout.none") : t("operator.pinLockout.cleared", { count: cleared.length, sources: cleared.join(", ") }) });
    } catch (error) {
      setMessage({ tone: "critical", text: t(`operator.error.${toOperatorError(error).code}`) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="op-card op-pin-lockout">
      <h3>{t("operator.pinLockout.heading")}</h3>
      <p className="op-muted">{t("operator.pinLockout.intro")}</p>
      <div className="op-actions">
        <button type="button" className="op-button op-button-secondary" disabled={busy} onClick={() => void clear()}>
          {t("operator.pinLockout.clear")}
        </button>
      </div>
      {message ? (
        <p className={`op-notice op-notice-${message.tone}`} role="status">
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
