// Payment: confirm amount and method, then the simulated terminal (main side) does its work; a
// failure says what happened and that no ticket was issued.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { useKiosk, useKioskSend } from "../app/KioskActor.tsx";
import { FailureNotice } from "../components/FailureNotice.tsx";
import { Icon } from "../components/Icon.tsx";
import { PaymentMethodChooser } from "../components/PaymentMethodChooser.tsx";
import { PurchaseSummary } from "../components/PurchaseSummary.tsx";
import { formatFare } from "../lib/format.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export function PaymentScreen({ system }: { system: SystemView }) {
  const { t } = useTranslation();
  const send = useKioskSend();
  const stage = useKiosk((s) =>
    s.matches({ session: { flow: { payment: "processing" } } }) ? "processing" : s.matches({ session: { flow: { payment: "failed" } } }) ? "failed" : "confirm",
  );
  const quote = useKiosk((s) => s.context.result?.state.fare_quote);
  const confirmation = useKiosk((s) => s.context.result?.confirmation);
  const purchaseFailure = useKiosk((s) => s.context.purchaseFailure);
  const chosen = useView((s) => s.journey.paymentMethod);
  const setPaymentMethod = useView((s) => s.setPaymentMethod);
  const [method, setMethod] = useState<string | null>(chosen ?? (system.paymentMethods.length === 1 ? system.paymentMethods[0]!.id : null));
  const total = quote ? formatFare(quote.total, system) : "";

  return (
    <section className="screen payment" data-stage={stage} aria-labelledby="payment-title">
      <h1 id="payment-title" tabIndex={-1}>
        {stage === "failed" ? t("payment.failedTitle") : t("payment.title")}
      </h1>
      <p className="payment-amount" data-announce>
        <span className="muted">{t("payment.amount")}</span>
        <strong className="amount">{total}</strong>
      </p>
      {stage === "confirm" ? (
        <>
          {confirmation ? <PurchaseSummary system={system} confirmation={confirmation} /> : null}
          <PaymentMethodChooser
            system={system}
            value={method}
            legend={t("payment.method")}
            onChange={(id) => {
              setMethod(id);
              setPaymentMethod(id);
            }}
          />
          <div className="action-buttons">
            <button
              type="button"
              className="button button-primary button-hero"
              disabled={!method}
              aria-describedby={method ? undefined : "pay-why"}
              onClick={() => method && send({ type: "PAY", paymentMethod: method })}
            >
              <Icon name="card" /> {t("payment.pay", { total })}
            </button>
            {method ? null : (
              <p id="pay-why" className="hint">
                {t("payment.needMethod")}
              </p>
            )}
            <button type="button" className="button button-secondary" data-keypad-back onClick={() => send({ type: "EDIT" })}>
              {t("payment.back")}
            </button>
          </div>
        </>
      ) : null}
      {stage === "processing" ? (
        <div className="terminal" role="status" aria-live="assertive" aria-busy="true" data-announce>
          <Icon name="card" className="icon-large terminal-icon" />
          <p className="terminal-text">{t("payment.processing")}</p>
          <p className="muted">{t("payment.processingHint")}</p>
        </div>
      ) : null}
      {stage === "failed" && purchaseFailure ? (
        <>
          {purchaseFailure.reason === "bridge" ? (
            <>
              <div className="notice notice-critical" role="alert" data-reason="bridge" data-announce>
                <Icon name="critical" />
                <p>{t("safety.purchaseUnknown")}</p>
              </div>
              <FailureNotice failure={purchaseFailure.failure} />
            </>
          ) : (
            <div className="notice notice-critical" role="alert" data-reason={purchaseFailure.reason} data-announce>
              <Icon name="critical" />
              <p>{t(`purchaseFailure.${purchaseFailure.reason}`)}</p>
            </div>
          )}
          <div className="action-buttons">
            {purchaseFailure.reason === "payment_declined" || purchaseFailure.reason === "bridge" ? (
              <button type="button" className="button button-primary" onClick={() => send({ type: "RETRY" })}>
                {t("payment.retry")}
              </button>
            ) : null}
            <button type="button" className="button button-secondary" data-keypad-back onClick={() => send({ type: "EDIT" })}>
              {t("payment.back")}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}
