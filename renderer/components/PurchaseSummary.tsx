// The one summary the passenger confirms before paying (issue 13): from, to, travellers and total,
// as the kiosk's interlock confirmed them (AskResult.confirmation) — not the assistant's words.
import { useTranslation } from "react-i18next";
import type { PurchaseConfirmation, SystemView } from "../../runtime/kiosk/bridge.ts";
import { formatFare, passengersInWords } from "../lib/format.ts";
import { stationNameById } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export function PurchaseSummary({ system, confirmation }: { system: SystemView; confirmation: PurchaseConfirmation }) {
  const { t, i18n } = useTranslation();
  const language = useView((s) => s.language);
  const rows: [string, string, string][] = [
    ["from", t("safety.confirmFrom"), stationNameById(system, confirmation.fromId, language, confirmation.from)],
    ["to", t("safety.confirmTo"), stationNameById(system, confirmation.toId, language, confirmation.to)],
    ["riders", t("safety.confirmRiders"), passengersInWords(confirmation.riders, t, i18n.language)],
    ["total", t("safety.confirmTotal"), formatFare(confirmation.total, system)],
  ];
  return (
    <section className="card purchase-summary" aria-labelledby="purchase-summary-title" data-confirmation={confirmation.id}>
      <h2 id="purchase-summary-title">{t("safety.confirmTitle")}</h2>
      <dl>
        {rows.map(([key, label, value]) => (
          <div key={key} className="purchase-summary-row" data-field={key}>
            <dt className="muted">{label}</dt>
            <dd dir="auto">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t("safety.confirmHint")}</p>
    </section>
  );
}
