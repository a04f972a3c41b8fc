// The assistant's terminal state: headline by outcome, notices, the message (read aloud on
// request), banners, route, fare, map and the kiosk action.
import { useTranslation } from "react-i18next";
import type { AskResult, SystemView } from "../../runtime/kiosk/bridge.ts";
import { useKiosk, useKioskSend } from "../app/KioskActor.tsx";
import { requestText } from "../components/AssistantChat.tsx";
import { ActionPanel } from "../components/ActionPanel.tsx";
import { BannerList } from "../components/BannerList.tsx";
import { ClarifyChoices, type ClarificationChoice } from "../components/ClarifyChoices.tsx";
import { PASSENGERS_ID } from "../components/PassengerCounter.tsx";
import { FareCard } from "../components/FareCard.tsx";
import { Icon } from "../components/Icon.tsx";
import { NetworkMap } from "../components/NetworkMap.tsx";
import { RouteCard } from "../components/RouteCard.tsx";
import { SpeechControls } from "../components/SpeechControls.tsx";
import { stationName } from "../lib/names.ts";
import { scriptLanguage } from "../lib/speech.ts";
import { useView, useViewStoreApi } from "../state/ViewStoreProvider.tsx";
import type { Language } from "../i18n/catalog.ts";
import type { AskDraft } from "../machines/kioskMachine.ts";

export function ResultView(props: {
  system: SystemView;
  result: AskResult;
  onPurchase: () => void;
  onEdit: () => void;
  onFinish: () => void;
  onFollowUp: () => void;
  /** The passenger tapped one of the assistant's choices (its events are the next turn). */
  onChoose?: (choice: ClarificationChoice) => void;
  /** The assistant asked for a station that has no short list: open the picker for it. */
  onChooseOnScreen?: (field: "origin" | "destination" | "riders") => void;
  /** A provisional answer the assistant is still checking: shown, never purchasable. */
  checking?: boolean;
  /** What the passenger asked, shown above the answer. */
  question?: string | undefined;
}) {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  const { system, result } = props;
  const { state } = result;
  const banners = state.advisory_banners ?? [];
  // A trip to, from or through a closed station that is not sold: the kiosk's plain words and the
  // open stations to choose instead take the answer's place — no fare, no buy button.
  const closed = result.closedTrip && result.closedTrip.kind !== "pass_through" ? result.closedTrip : undefined;
  const passThrough = result.closedTrip?.kind === "pass_through" ? result.closedTrip : undefined;
  // Buying: the button stays in reach at the bottom. Blocked / information / staff: that is the
  // answer, so it comes first.
  const purchaseFlow = state.kiosk_action.action === "prompt_purchase" && !closed;
  // A question for the passenger: the question and its answers come first, the way out after.
  const asking = ((!!result.clarification && !purchaseFlow) || !!closed) && !!props.onChoose;
  const actionLast = purchaseFlow || asking;
  const message = closed ? closed.notice : state.assistant_message;
  const choices = closed ? { question: closed.question, kind: "station" as const, choices: closed.choices } : result.clarification;
  // A shown trip the kiosk sells once it is confirmed: the confirmation is the buy button's step.
  const onChoose = props.onChoose;
  const confirmChoice = purchaseFlow && !result.purchasable && result.clarification?.kind === "confirm" && onChoose ? result.clarification.choices[0] : undefined;
  const action = (
    <ActionPanel
      system={system}
      result={result}
      onPurchase={props.onPurchase}
      onEdit={props.onEdit}
      onFinish={props.onFinish}
      onFollowUp={props.onFollowUp}
      asking={asking}
      closed={!!closed}
      {...(confirmChoice && onChoose ? { confirm: { label: confirmChoice.label, onConfirm: () => onChoose(confirmChoice) } } : {})}
    />
  );
  const spoken = [message, ...banners.map((b) => `${b.title}. ${b.body}`)].filter(Boolean).join(" ");
  return (
    <section className="screen result" data-outcome={state.outcome} data-action={state.kiosk_action.action} data-closed={result.closedTrip?.kind} aria-labelledby="result-title">
      <header className="result-head">
        <h1 id="result-title" tabIndex={-1}>
          {closed ? t(closed.kind === "end" ? "result.closedTitle" : "result.closedRouteTitle") : asking ? t("clarify.title") : t(`outcome.${state.outcome}`)}
        </h1>
        {state.kiosk_action.reason_code !== "ok" ? (
          <span className="badge" data-reason={state.kiosk_action.reason_code}>
            {t(`reason.${state.kiosk_action.reason_code}`)}
          </span>
        ) : null}
      </header>
      {props.checking ? (
        <div className="notice notice-info checking" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true">
            <Icon name="spinner" />
          </span>
          <p>{t("result.checking")}</p>
        </div>
      ) : null}
      {result.check?.changed && result.check.note ? (
        <div className="notice notice-warning changed" role="status">
          <Icon name="info" />
          <p dir="auto">{t("result.changed", { note: result.check.note })}</p>
        </div>
      ) : null}
      {props.checking ? null : actionLast ? null : action}
      {result.assistantUnavailable ? (
        <div className="notice notice-warning assistant-unavailable" role="status">
          <Icon name="warning" />
          <p>{t("result.assistantUnavailable")}</p>
        </div>
      ) : null}
      {result.fallback ? (
        <div className="notice notice-warning" role="status">
          <Icon name="info" />
          <p>{t("result.fallback")}</p>
        </div>
      ) : null}
      {props.question ? (
        <p className="your-question" data-announce>
          <span className="muted">{t("chat.youAsked")}</span>{" "}
          <span dir="auto">{props.question}</span>
        </p>
      ) : null}
      {passThrough ? (
        <div className="notice notice-warning pass-through" role="status">
          <Icon name="warning" />
          <p dir="auto">{passThrough.notice}</p>
        </div>
      ) : null}
      <figure className="assistant-message">
        <figcaption className="muted">{t("result.message")}</figcaption>
        <blockquote dir="auto" data-announce>
          {message}
        </blockquote>
        <SpeechControls text={spoken} lang={scriptLanguage(spoken, language)} />
        {closed?.question ? (
          <p className="clarify-question" dir="auto">
            {closed.question}
          </p>
        ) : null}
        {choices && props.onChoose && props.onChooseOnScreen && !confirmChoice ? (
          <ClarifyChoices
            clarification={choices}
            onChoose={props.onChoose}
            onChooseOnScreen={props.onChooseOnScreen}
            disabled={props.checking ?? false}
            stationName={(id) => {
              const station = system.stations.find((s) => s.id === id);
              return station ? stationName(system, station, language) : undefined;
            }}
          />
        ) : null}
      </figure>
      <BannerList banners={banners} />
      <div className="result-grid">
        <div className="result-main">
          {state.route && !closed ? <RouteCard system={system} route={state.route} /> : null}
          {state.fare_quote && !closed ? <FareCard system={system} quote={state.fare_quote} /> : null}
        </div>
        {state.route && !closed ? (
          <div className="result-side">
            <NetworkMap system={system} route={state.route.stops} />
          </div>
        ) : null}
      </div>
      {!props.checking && actionLast ? action : null}
    </section>
  );
}

/** The passenger's words (or chosen journey) of the last turn, for "You asked: …". */
export function useLastQuestion(system: SystemView): string | undefined {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  const turn = useKiosk((s) => s.context.turns.at(-1));
  return turn ? requestText(turn, system, language, (from, to) => t("chat.journeyRequest", { from, to, arrow: t("common.arrow") })) : undefined;
}

export function ResultScreen({ system, result }: { system: SystemView; result: AskResult }) {
  const send = useKioskSend();
  const store = useViewStoreApi();
  const question = useLastQuestion(system);
  return (
    <ResultView
      system={system}
      result={result}
      question={question}
      onPurchase={() => send({ type: "PURCHASE" })}
      onEdit={() => send({ type: "EDIT" })}
      onFinish={() => send({ type: "START_OVER" })}
      onFollowUp={() => {
        send({ type: "EDIT" });
        store.getState().openPanel("chat");
      }}
      onChoose={(choice) => {
        const state = store.getState();
        state.applyChoice(choice.events);
        send({ type: "ASK", request: choiceAsk(system, choice, state.language, state.journey.stepFree) });
      }}
      onChooseOnScreen={(field) => {
        send({ type: "EDIT" });
        if (field === "riders") {
          // Back on the journey, with the passenger counter in focus.
          store.getState().openPanel("none");
          requestAnimationFrame(() => document.getElementById(PASSENGERS_ID)?.focus());
        } else store.getState().openPanel(field);
      }}
    />
  );
}

/** A tapped choice as the session's next ask: exactly its events, in the screen's language. */
export function choiceAsk(system: SystemView, choice: ClarificationChoice, language: Language, stepFree: boolean): AskDraft {
  return { system: system.id, events: choice.events, language, ...(stepFree ? { accessibilityMode: true } : {}) };
}
