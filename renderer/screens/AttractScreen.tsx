// The attract loop: touch to start, the system choice, and the kiosk's status.
import { useTranslation } from "react-i18next";
import { useKiosk, useKioskSend } from "../app/KioskActor.tsx";
import { OutOfServiceNotice } from "../app/OutOfServiceNotice.tsx";
import { FailureNotice } from "../components/FailureNotice.tsx";
import { Icon } from "../components/Icon.tsx";
import { useView } from "../state/ViewStoreProvider.tsx";
import type { SystemSummary } from "../../runtime/kiosk/bridge.ts";

export function AttractScreen({ onChooseSystem }: { onChooseSystem: (id: SystemSummary["id"]) => void }) {
  const { t } = useTranslation();
  const send = useKioskSend();
  const status = useKiosk((s) => s.context.status);
  const systems = useView((s) => s.systems);
  const system = useView((s) => s.system);
  const systemFailure = useView((s) => s.systemFailure);
  const outOfService = status?.benchRunning === true;
  return (
    <section className="screen attract" aria-labelledby="attract-title">
      <h1 id="attract-title" tabIndex={-1}>
        {t("attract.title")}
      </h1>
      {system ? <p className="attract-org">{system.fullName}</p> : null}
      {outOfService ? (
        <OutOfServiceNotice />
      ) : (
        <button
          type="button"
          className="button button-primary button-hero attract-start"
          disabled={!system}
          onClick={() => send({ type: "START" })}
        >
          <Icon name="ticket" /> {system ? t("attract.touchToStart") : t("common.loading")}
        </button>
      )}
      {status?.assistant === "rule" || status?.assistant === "unavailable" ? <p className="muted">{t("attract.ruleMode")}</p> : null}
      {systemFailure ? <FailureNotice failure={systemFailure} /> : null}
      {systems.length > 1 ? (
        <div className="system-choice" role="radiogroup" aria-label={t("attract.chooseSystem")}>
          <span className="field-label" aria-hidden="true">
            {t("attract.chooseSystem")}
          </span>
          {systems.map((summary) => (
            <button
              key={summary.id}
              type="button"
              role="radio"
              aria-checked={system?.id === summary.id}
              className="option"
              onClick={() => onChooseSystem(summary.id)}
            >
              {summary.orgName}
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
