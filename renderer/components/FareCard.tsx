// The fare quote: passengers in words (free riders said with their type), one line per paying rider
// type ("count × rider @ unit"), who rides free or reduced and up to which age, discounts, total.
// Zero-priced items that are not passengers (a surcharge that does not apply) are left out.
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { formatFare, isKnownRiderType, knownRiderType, passengersInWords, qualifierText, riderLabel } from "../lib/format.ts";
import type { FareQuote } from "../lib/types.ts";

export function FareCard({ system, quote }: { system: SystemView; quote: FareQuote }) {
  const { t, i18n } = useTranslation();
  const money = (amount: number): string => formatFare(amount, system);
  const summary = quote.passenger_summary ? passengersInWords(quote.passenger_summary, t, i18n.language, system.riderRules) : "";
  const discounts = (quote.discounts ?? []).filter((d) => d.amount !== undefined || d.label);
  const items = (quote.line_items ?? []).filter((item) => item.subtotal !== 0 || knownRiderType(item.rider_type) !== null);
  // The rules of the rider types travelling now (children, seniors, disabled riders).
  const travelling = new Set<string>((quote.line_items ?? []).filter((i) => i.count > 0).flatMap((i) => knownRiderType(i.rider_type) ?? []));
  for (const [rider, count] of Object.entries(quote.passenger_summary ?? {})) if (typeof count === "number" && count > 0) travelling.add(rider);
  const rules = Object.entries(system.riderRules ?? {})
    .filter(([rider]) => travelling.has(rider) && isKnownRiderType(rider))
    .map(([rider, rule]) => {
      const values = { rider: riderLabel(rider, t), qualifier: qualifierText(rule.qualifier, t), max: rule.maxPerAdult ?? 0 };
      let text: string;
      if (!rule.qualifier) text = t(rule.free ? "fare.ruleFreeAny" : "fare.ruleReducedAny", values);
      else if (!rule.free) text = t("fare.ruleReduced", values);
      else text = t(rule.maxPerAdult ? "fare.ruleFreeMax" : "fare.ruleFree", values);
      return { rider, text };
    });
  return (
    <section className="card fare-card" aria-labelledby="fare-heading">
      <h2 id="fare-heading">{t("fare.title")}</h2>
      {summary ? (
        <p className="fare-passengers">
          <span className="muted">{t("fare.passengers")}: </span>
          {summary}
        </p>
      ) : null}
      {items.length > 0 ? (
        <table className="fare-items">
          <tbody>
            {items.map((item, i) => (
              <tr key={`${item.rider_type}-${i}`} data-rider={item.rider_type}>
                <td>
                  {item.subtotal === 0 && item.unit_fare === 0
                    ? t("fare.itemFree", { count: item.count, rider: riderLabel(item.rider_type, t) })
                    : t("fare.item", { count: item.count, rider: riderLabel(item.rider_type, t), unit: money(item.unit_fare) })}
                </td>
                <td className="amount">{money(item.subtotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {rules.length > 0 ? (
        <ul className="fare-rules" aria-label={t("fare.rules")}>
          {rules.map((rule) => (
            <li key={rule.rider} data-rider={rule.rider}>
              {rule.text}
            </li>
          ))}
        </ul>
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
      <p className="fare-total" data-announce>
        <span>{t("fare.total")}</span>
        <strong className="amount" data-testid="fare-total">
          {money(quote.total)}
        </strong>
        <span className="currency-code">{quote.currency}</span>
      </p>
    </section>
  );
}
