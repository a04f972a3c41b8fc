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
