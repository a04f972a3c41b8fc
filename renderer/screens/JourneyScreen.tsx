// Building the journey: stations (with the map), passengers, payment method, step-free need and
// the assistant chat; "Find route and fare" asks the assistant.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { useKiosk, useKioskSend } from "../app/KioskActor.tsx";
import { ChatComposer, Transcript } from "../components/AssistantChat.tsx";
import { FailureNotice } from "../components/FailureNotice.tsx";
import { Icon } from "../components/Icon.tsx";
import { NetworkMap } from "../components/NetworkMap.tsx";
import { PassengerCounter } from "../components/PassengerCounter.tsx";
import { PaymentMethodChooser } from "../components/PaymentMethodChooser.tsx";
import { StationFields } from "../components/StationFields.tsx";
import { StationPicker } from "../components/StationPicker.tsx";
import { askDraft, canAsk } from "../lib/askDraft.ts";
import { stationPhrases } from "../lib/pinyin.ts";
import { useView, useViewStoreApi } from "../state/ViewStoreProvider.tsx";

export function JourneyScreen({ system }: { system: SystemView }) {
  const { t } = useTranslation();
  const send = useKioskSend();
  const store = useViewStoreApi();
  const failure = useKiosk((s) => s.context.failure);
  const turns = useKiosk((s) => s.context.turns);
  const panel = useView((s) => s.panel);
  const journey = useView((s) => s.journey);
  const asked = useView((s) => s.asked);
  const { openPanel, selectStation, setPaymentMethod, setFreetext, setStepFree } = store.getState();
  const ready = canAsk(system, journey, asked);
  const phrases = useMemo(() => stationPhrases(system.stations), [system]);

  const ask = (): void => {
    const state = store.getState();
    if (!canAsk(system, state.journey, state.asked)) return;
    send({ type: "ASK", request: askDraft(system, state.journey, state.asked, state.language) });
    state.markAsked();
  };

  if (panel === "origin" || panel === "destination") {
    return (
      <section className="screen journey" aria-label={t("journey.title")}>
        <StationPicker system={system} field={panel} onSelect={(id) => selectStation(panel, id)} onClose={() => openPanel("none")} />
      </section>
    );
  }

  return (
    <section className="screen journey" aria-labelledby="journey-title">
      <h1 id="journey-title" tabIndex={-1}>
        {t("journey.title")}
      </h1>
      {failure ? <FailureNotice failure={failure} /> : null}
      <div className="journey-grid" hidden={panel === "chat"}>
        <div className="journey-form">
          <StationFields system={system} />
          <PassengerCounter system={system} />
          <div className="panel">
            <PaymentMethodChooser system={system} value={journey.paymentMethod} onChange={setPaymentMethod} />
          </div>
          <button
            type="button"
            className="option step-free-toggle"
            role="switch"
            aria-checked={journey.stepFree}
            onClick={() => setStepFree(!journey.stepFree)}
          >
            {t("journey.stepFree")}
          </button>
        </div>
        <div className="journey-side">
          <NetworkMap system={system} origin={journey.origin} destination={journey.destination} />
        </div>
      </div>
      <section className="panel chat" aria-labelledby="chat-title">
        <div className="panel-head">
          <h2 id="chat-title">{t("chat.title")}</h2>
          {panel === "chat" ? (
            <button type="button" className="button button-secondary chat-close" data-keypad-back onClick={() => openPanel("none")}>
              {t("common.close")}
            </button>
          ) : null}
        </div>
        <Transcript turns={turns} system={system} />
        {panel === "chat" ? (
          <ChatComposer value={journey.freetext} onChange={setFreetext} onSend={ask} canSend={journey.freetext.trim().length > 0} phrases={phrases} />
        ) : (
          <button type="button" className="button button-secondary" onClick={() => openPanel("chat")}>
            <Icon name="keyboard" /> {t("chat.placeholder")}
          </button>
        )}
      </section>
      <div className="primary-action">
        {ready ? null : (
          <p id="find-why" className="hint">
            {asked ? t("journey.followUpHint") : t("journey.needStations")}
          </p>
        )}
        <button type="button" className="button button-primary button-hero" disabled={!ready} aria-describedby={ready ? undefined : "find-why"} onClick={ask}>
          {t("journey.find")}
        </button>
      </div>
    </section>
  );
}
