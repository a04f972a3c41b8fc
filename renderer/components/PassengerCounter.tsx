// One counter per rider type the system supports.
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { qualifierText, type RiderRules } from "../lib/format.ts";
import type { RiderType, SystemView } from "../../runtime/kiosk/bridge.ts";
import { MAX_PASSENGERS_PER_TYPE } from "../lib/askDraft.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

/**
 * Who a rider type is and what it pays, from the fare table ("under 5, free · older children pay the
 * adult fare"): a parent sees at the button whether an 8-year-old is a child here.
 */
function riderNote(rider: RiderType, rule: RiderRules[string] | undefined, t: TFunction): string {
  if (!rule || rider === "adults") return "";
  const qualifier = qualifierText(rule.qualifier, t);
  const band = rule.free ? (qualifier ? t("riders.freeNote", { qualifier }) : t("riders.freeNoteNoQualifier")) : qualifier;
  return rider === "children" && rule.qualifier ? `${band} · ${t("counter.childrenOtherwise")}` : band;
}

function Counter({ rider, note }: { rider: RiderType; note: string }) {
  const { t } = useTranslation();
  const count = useView((s) => s.journey.passengers[rider]);
  const setPassengers = useView((s) => s.setPassengers);
  const label = t(`riderType.${rider}`);
  return (
    <div className="counter" role="group" aria-label={note ? `${label} (${note})` : label}>
      <span className="counter-label" id={`counter-${rider}`}>
        {label}
        {note ? <span className="counter-note">{note}</span> : null}
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
        <Counter key={rider} rider={rider} note={riderNote(rider, system.riderRules?.[rider], t)} />
      ))}
    </fieldset>
  );
}
