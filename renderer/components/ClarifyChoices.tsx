// The assistant's one short question with its answers as buttons (which station, where from, who
// travels, "is this right?"). A tap answers in the same session; a question without a short list
// (where do you start?) opens the station picker instead, and "who is travelling?" the counter.
import { useTranslation } from "react-i18next";
import type { AskResult } from "../../runtime/kiosk/bridge.ts";

type Clarification = NonNullable<AskResult["clarification"]>;
export type ClarificationChoice = Clarification["choices"][number];

/** The one station a choice selects, if it selects exactly one (a station question's answer). */
function chosenStation(choice: ClarificationChoice): string | undefined {
  const picked = choice.events.filter((e) => e.type === "station_selected");
  const only = picked.length === 1 ? picked[0] : undefined;
  return only && "station_id" in only && typeof only.station_id === "string" ? only.station_id : undefined;
}

export function ClarifyChoices(props: {
  clarification: Clarification;
  onChoose: (choice: ClarificationChoice) => void;
  /** The screen's own control for the answer: a station picker, or the passenger counter. */
  onChooseOnScreen: (field: "origin" | "destination" | "riders") => void;
  disabled?: boolean;
  /**
   * A station's name in the screen's language. The question speaks the language the passenger
   * typed in; a station button also shows the name the screen and the signs use.
   */
  stationName?: (id: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const { clarification } = props;
  const select = clarification.select;
  if (clarification.choices.length === 0 && !select) return null;
  return (
    <div className="clarify" role="group" aria-label={t("clarify.choices")} data-kind={clarification.kind}>
      {clarification.choices.map((choice, i) => {
        const id = chosenStation(choice);
        const local = id !== undefined ? props.stationName?.(id) : undefined;
        const shown = local !== undefined && !choice.label.includes(local) ? local : undefined;
        return (
          <button key={i} type="button" className={`button button-primary clarify-choice${shown ? " clarify-choice-named" : ""}`} dir="auto" disabled={props.disabled} onClick={() => props.onChoose(choice)}>
            {shown ? (
              <>
                <span className="clarify-choice-local">{shown}</span>
                <span className="clarify-choice-label">{choice.label}</span>
              </>
            ) : (
              choice.label
            )}
          </button>
        );
      })}
      {select ? (
        <button type="button" className="button button-secondary clarify-choice" disabled={props.disabled} onClick={() => props.onChooseOnScreen(select)}>
          {select === "riders" ? t("clarify.setPassengers") : t("clarify.chooseOnScreen")}
        </button>
      ) : null}
    </div>
  );
}
