// "Are you sure?" under an operator action that is hard to undo (apply, roll back, end an alert).
import { useTranslation } from "react-i18next";

/** "Are you sure?" under an action: confirm or cancel. */
export function ConfirmBox(props: { label: string; question: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="op-confirm" role="alertdialog" aria-label={props.label}>
      <p>{props.question}</p>
      <div className="op-actions">
        <button type="button" className={`op-button ${props.danger ? "op-button-danger" : "op-button-primary"}`} onClick={props.onConfirm}>
          {t("operator.confirm")}
        </button>
        <button type="button" className="op-button op-button-secondary" onClick={props.onCancel}>
          {t("operator.cancel")}
        </button>
      </div>
    </div>
  );
}
