// "This machine is temporarily out of service": shown as soon as the kiosk's pushed state says so
// (a technician bench run), on the attract screen and over a journey in progress.
import { useTranslation } from "react-i18next";
import { Icon } from "../components/Icon.tsx";

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

/** Headset mode with no headset output: said on screen, since nothing is spoken (issue 17). */
export function HeadsetMissingNotice() {
  const { t } = useTranslation();
  return (
    <div className="notice notice-warning headset-missing" role="alert" data-announce>
      <Icon name="speaker" />
      <p>{t("a11y.headsetMissing")}</p>
    </div>
  );
}
