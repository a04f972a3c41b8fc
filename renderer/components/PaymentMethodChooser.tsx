// Payment methods with the framebook's own names for them ("Breeze Card", "Yikatong Card", …).
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { paymentLabel } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import { Icon } from "./Icon.tsx";

export function PaymentMethodChooser(props: {
  system: SystemView;
  value: string | null;
  onChange: (method: string) => void;
  legend?: string;
}) {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  const legend = props.legend ?? t("journey.payment");
  return (
    <div className="payment-methods" role="radiogroup" aria-label={legend}>
      <span className="field-label" aria-hidden="true">
        {legend}
      </span>
      {props.system.paymentMethods.map((method) => (
        <button
          key={method.id}
          type="button"
          role="radio"
          aria-checked={props.value === method.id}
          className="option"
          onClick={() => props.onChange(method.id)}
        >
          <Icon name="card" /> <bdi>{paymentLabel(props.system, method.id, language)}</bdi>
        </button>
      ))}
    </div>
  );
}
