import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { useKiosk } from "../app/KioskActor.tsx";
import { Transcript } from "../components/AssistantChat.tsx";
import { WorkingIndicator } from "../components/WorkingIndicator.tsx";
import { ResultView, useLastQuestion } from "./ResultScreen.tsx";

export function WorkingScreen({ system }: { system: SystemView }) {
  const { t } = useTranslation();
  const steps = useKiosk((s) => s.context.steps);
  const submitted = useKiosk((s) => s.context.answerSubmitted);
  const turns = useKiosk((s) => s.context.turns);
  const provisional = useKiosk((s) => s.context.provisional);
  const question = useLastQuestion(system);
  // A hybrid kiosk already has the deterministic answer: show it while the assistant checks it.
  if (provisional) {
    const ignore = (): void => undefined;
    return <ResultView system={system} result={provisional} question={question} checking onPurchase={ignore} onEdit={ignore} onFinish={ignore} onFollowUp={ignore} />;
  }
  return (
    <section className="screen working-screen" aria-labelledby="working-title">
      <h1 id="working-title" tabIndex={-1}>
        {t("working.title")}
      </h1>
      <Transcript turns={turns} system={system} />
      <WorkingIndicator steps={steps} submitting={submitted} />
    </section>
  );
}
