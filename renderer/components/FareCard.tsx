// The fare quote: passengers in words, "count × rider @ unit" per line item, discounts, total.
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { formatFare, passengersInWords, riderLabel } from "../lib/format.ts";
import type { FareQuote } from "../lib/types.ts";

export function FareCard({ system, quote }: { system: SystemView; quote: FareQuote }) {
  const { t, i18n } = useTranslation();
  const money = (amount: number): string => formatFare(amount, system.fareDisplayFormat, system.currencySymbol);
  const summary = quote.passenger_summary ? passengersInWords(quote.passenger_summary, t, i18n.language) : "";
  const discounts = (quote.discounts ?? []).filter((d) => d.amount !== undefined || d.label);
  return (
    <section className="card fare-card" aria-labelledby="fare-heading">
      <h2 id="fare-heading">{t("fare.title")}</h2>
      {summary ? (
        <p className="fare-passengers">
          <span className="muted">{t("fare.passengers")}: </span>
          {summary}
        </p>
      ) : null}
      {quote.line_items && quote.line_items.length > 0 ? (
        <table className="fare-items">
          <tbody>
            {quote.line_items.map((item, i) => (
              <tr key={`${item.rider_type}-${i}`} data-rider={item.rider_type}>
                <td>{t("fare.item", { count: item.count, rider: riderLabel(item.rider_type, t), unit: money(item.unit_fare) })}</td>
                <td className="amount">{money(item.subtotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {discounts.length > 0 ? (
        <div className="fare-discounts">
          <h3>{t("fare.discounts")}</h3>
          <ul>
            {discounts.map((discount, i) => (
              <li key={i}>
                <span>{discount.label ?? t("fare.discount")}</span>
                {discount.amount !== undefined ? <span className="amount">{money(-Math.abs(discount.amount))}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="fare-total">
        <span>{t("fare.total")}</span>
        <strong className="amount" data-testid="fare-total">
          {money(quote.total)}
        </strong>
        <span className="currency-code">{quote.currency}</span>
      </p>
    </section>
  );
}
