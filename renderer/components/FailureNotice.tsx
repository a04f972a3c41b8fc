import { useTranslation } from "react-i18next";
import type { BridgeFailure } from "../bridge/errors.ts";
import { Icon } from "./Icon.tsx";

/** A bridge failure in words the passenger can act on (the technical detail stays in the console). */
export function FailureNotice({ failure }: { failure: BridgeFailure }) {
  const { t } = useTranslation();
  return (
    <div className="notice notice-critical" role="alert" data-failure={failure.kind} data-announce>
      <Icon name="critical" />
      <p>{t(`failure.${failure.kind}`)}</p>
    </div>
  );
}
