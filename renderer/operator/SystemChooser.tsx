// The operator panels' system choice (framebooks, service alerts): one radio button per system.
import { useTranslation } from "react-i18next";
import type { SystemSummary } from "../../runtime/kiosk/bridge.ts";

export function SystemChooser(props: { systems: readonly SystemSummary[]; value: SystemSummary["id"] | null; onChange: (system: SystemSummary["id"]) => void }) {
  const { t } = useTranslation();
  return (
    <div className="op-choice" role="radiogroup" aria-label={t("operator.framebook.system")}>
      <span className="op-label" aria-hidden="true">
        {t("operator.framebook.system")}
      </span>
      {props.systems.map((s) => (
        <button key={s.id} type="button" role="radio" aria-checked={s.id === props.value} className="op-option" onClick={() => props.onChange(s.id)}>
          {s.orgName}
        </button>
      ))}
    </div>
  );
}
