// The assistant's one short question with its answers as buttons (which station, where from, who
// travels, "is this right?"). A tap answers in the same session; a question without a short list
// (where do you start?) opens the station picker instead, and "who is travelling?" the counter.
import { useTranslation } from "react-i18next";
import type { AskResult } from "../../runtime/kiosk/bridge.ts";

type Clarification = NonNullable<AskResult["clarification"]>;
export type ClarificationChoice = Clarification["choices"][number];

export function ClarifyChoices(props: {
  clarification: Clarification;
  onChoose: (choice: ClarificationChoice) => void;
  /** The screen's own control for the answer: a station picker, or the passenger counter. */
  onChooseOnScreen: (field: "origin" | "destination" | "riders") => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { clarification } = props;
  const select = clarification.select;
  if (clarification.choices.length === 0 && !select) return null;
  return (
    <div className="clarify" role="group" aria-label={t("clarify.choices")} data-kind={clarification.kind}>
      {clarification.choices.map((choice, i) => (
        <button key={i} type="button" className="button button-primary clarify-choice" dir="auto" disabled={props.disabled} onClick={() => props.onChoose(choice)}>
          {choice.label}
        </button>
      ))}
      {select ? (
        <button type="button" className="button button-secondary clarify-choice" disabled={props.disabled} onClick={() => props.onChooseOnScreen(select)}>
          {select === "riders" ? t("clarify.setPassengers") : t("clarify.chooseOnScreen")}
        </button>
      ) : null}
    </div>
  );
}
