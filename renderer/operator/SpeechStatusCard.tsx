// What the technician must know about headset speech: which engines the kiosk found, and which
// screen languages have a headset voice — a language without one is silent in headset mode.
import { useTranslation } from "react-i18next";
import { PASSENGER_LANGUAGES, type SpeechStatus } from "../../runtime/kiosk/bridge.ts";
import { Icon } from "../components/Icon.tsx";

export function SpeechStatusCard({ speech }: { speech: SpeechStatus | undefined }) {
  const { t } = useTranslation();
  if (!speech) {
    return (
      <div className="op-card op-speech">
        <h3>{t("operator.speech.heading")}</h3>
        <p className="op-muted">{t("operator.speech.unknown")}</p>
      </div>
    );
  }
  const missing = PASSENGER_LANGUAGES.filter((language) => speech.voices[language].voice === null);
  const renders = speech.engines.some((engine) => engine.output === "samples");
  return (
    <div className="op-card op-speech">
      <h3>{t("operator.speech.heading")}</h3>
      {!renders ? (
        <p className="op-notice op-notice-critical" role="alert">
          <Icon name="warning" /> <span>{t("operator.speech.noEngine")}</span>
        </p>
      ) : missing.length > 0 ? (
        <p className="op-notice op-notice-warning" role="status">
          <Icon name="warning" /> <span>{t("operator.speech.missing", { languages: missing.map((l) => t(`language.${l}`)).join(", ") })}</span>
        </p>
      ) : null}
      {speech.engines.length > 0 ? (
        <p>
          {t("operator.speech.engines")}:{" "}
          {speech.engines.map((engine) => `${engine.label}${engine.output === "loudspeaker" ? ` (${t("operator.speech.loudspeakerOnly")})` : ""}`).join(" · ")}
        </p>
      ) : null}
      <table className="op-table">
        <thead>
          <tr>
            <th>{t("operator.speech.language")}</th>
            <th>{t("operator.speech.voice")}</th>
          </tr>
        </thead>
        <tbody>
          {PASSENGER_LANGUAGES.map((language) => {
            const voice = speech.voices[language];
            return (
              <tr key={language} data-language={language}>
                <td lang={language}>{t(`language.${language}`)}</td>
                <td>
                  {voice.voice !== null ? (
                    <span className="op-mono">
                      {voice.engine} · {voice.voice}
                    </span>
                  ) : (
                    <>
                      <span className="op-badge op-badge-warning">{t("operator.speech.noVoice")}</span> <span className="op-muted">{voice.note}</span>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
