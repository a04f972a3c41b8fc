// The live "working" indicator: the assistant's tool steps as progress events arrive.
import { useTranslation } from "react-i18next";
import type { ProgressStep } from "../machines/kioskMachine.ts";
import { Icon } from "./Icon.tsx";

const KNOWN_TOOLS = ["route_planner", "fare_calculator", "disruption_feed", "station_info", "line_info", "knowledge_base"] as const;
type KnownTool = (typeof KNOWN_TOOLS)[number];
const isKnownTool = (name: string): name is KnownTool => (KNOWN_TOOLS as readonly string[]).includes(name);

export function WorkingIndicator({ steps, submitting }: { steps: readonly ProgressStep[]; submitting: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="working" aria-busy="true">
      <div className="spinner" aria-hidden="true">
        <Icon name="spinner" />
      </div>
      <ol className="working-steps" aria-label={t("working.steps")} aria-live="polite">
        {steps.length === 0 ? (
          <li className="step step-running">{t("working.started")}</li>
        ) : (
          steps.map((step, i) => (
            <li key={`${step.name}-${i}`} className={`step step-${step.status}`} data-tool={step.name}>
              {step.status === "done" ? <Icon name="check" /> : step.status === "failed" ? <Icon name="cross" /> : <span className="step-dot" aria-hidden="true" />}
              <span>{t(`tool.${isKnownTool(step.name) ? step.name : "other"}`)}</span>
              <span className="visually-hidden">, {t(`working.${step.status}`)}</span>
            </li>
          ))
        )}
        {submitting ? <li className="step step-running">{t("working.submitting")}</li> : null}
      </ol>
    </div>
  );
}
