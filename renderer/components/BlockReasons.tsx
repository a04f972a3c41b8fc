// Why the kiosk refused to sell an offered ticket: the interlock's block codes (AskResult.interlock),
// each explained in the screen's language (i18n safety.codes.*), in the order found.
import { useTranslation } from "react-i18next";
import type { AskResult } from "../../runtime/kiosk/bridge.ts";

export function BlockReasons({ result }: { result: AskResult }) {
  const { t } = useTranslation();
  const codes = result.interlock?.codes ?? [];
  if (result.purchasable || codes.length === 0) return null;
  return (
    <section className="block-reasons" aria-labelledby="block-reasons-title">
      <h3 id="block-reasons-title">{t("safety.blockedTitle")}</h3>
      <ul>
        {codes.map((code) => (
          <li key={code} data-code={code}>
            {t(`safety.codes.${code}`)}
          </li>
        ))}
      </ul>
    </section>
  );
}
