// One counter per rider type the system supports.
import { useTranslation } from "react-i18next";
import type { RiderType, SystemView } from "../../runtime/kiosk/bridge.ts";
import { MAX_PASSENGERS_PER_TYPE } from "../lib/askDraft.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

function Counter({ rider }: { rider: RiderType }) {
  const { t } = useTranslation();
  const count = useView((s) => s.journey.passengers[rider]);
  const setPassengers = useView((s) => s.setPassengers);
  const label = t(`riderType.${rider}`);
  return (
    <div className="counter" role="group" aria-label={label}>
      <span className="counter-label" id={`counter-${rider}`}>
        {label}
      </span>
      <button
        type="button"
        className="button button-icon counter-button"
        aria-label={t("counter.decrease", { rider: label })}
        disabled={count <= 0}
        aria-describedby={count <= 0 ? `counter-${rider}-min` : undefined}
        onClick={() => setPassengers(rider, count - 1)}
      >
        −
      </button>
      {/* A disabled button says why. */}
      {count <= 0 ? (
        <span id={`counter-${rider}-min`} className="visually-hidden">
          {t("counter.atZero")}
        </span>
      ) : null}
      <output className="counter-value" aria-live="polite" aria-label={t("counter.value", { rider: label, count })}>
        {count}
      </output>
      <button
        type="button"
        className="button button-icon counter-button"
        aria-label={t("counter.increase", { rider: label })}
        disabled={count >= MAX_PASSENGERS_PER_TYPE}
        aria-describedby={count >= MAX_PASSENGERS_PER_TYPE ? `counter-${rider}-max` : undefined}
        onClick={() => setPassengers(rider, count + 1)}
      >
        +
      </button>
      {count >= MAX_PASSENGERS_PER_TYPE ? (
        <span id={`counter-${rider}-max`} className="visually-hidden">
          {t("counter.atMax", { count: MAX_PASSENGERS_PER_TYPE })}
        </span>
      ) : null}
    </div>
  );
}

/** The counter's element id: "who is travelling?" focuses it. */
export const PASSENGERS_ID = "passengers";

export function PassengerCounter({ system }: { system: SystemView }) {
  const { t } = useTranslation();
  return (
    <fieldset className="passengers panel" id={PASSENGERS_ID} tabIndex={-1}>
      <legend>{t("journey.passengers")}</legend>
      {system.riderTypes.map((rider) => (
        <Counter key={rider} rider={rider} />
      ))}
    </fieldset>
  );
}
