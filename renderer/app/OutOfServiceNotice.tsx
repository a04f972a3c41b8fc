// "This machine is temporarily out of service": shown as soon as the kiosk's pushed state says so
// (a technician bench run), on the attract screen and over a journey in progress.
import { useTranslation } from "react-i18next";
import { Icon } from "../components/Icon.tsx";
import type { HeadsetProblem } from "../lib/headsetSpeech.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export function OutOfServiceNotice() {
  const { t } = useTranslation();
  return (
    <div className="notice notice-warning out-of-service" role="alert">
      <Icon name="warning" />
      <div>
        <p className="notice-title">{t("attract.outOfService")}</p>
        <p>{t("attract.outOfServiceBody")}</p>
      </div>
    </div>
  );
}

/** Why headset mode is silent, said on screen (nothing is spoken instead, least of all on the loudspeaker). */
export function HeadsetProblemNotice({ problem }: { problem: HeadsetProblem }) {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  const text =
    problem === "no_headset"
      ? t("a11y.headsetMissing")
      : problem === "no_voice"
        ? t("a11y.headsetNoVoice", { language: t(`language.${language}`) })
        : problem === "no_engine"
          ? t("a11y.headsetNoEngine")
          : t("a11y.headsetFailed");
  return (
    <div className="notice notice-warning headset-missing" role="alert" data-announce data-headset-problem={problem}>
      <Icon name="speaker" />
      <p>{text}</p>
    </div>
  );
}
