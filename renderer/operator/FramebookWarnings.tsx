// What the operator must know about the framebook status (issue 13, findings 10 and 11): an
// operator file that is not in force (so the data pack's is), and audit log lines that were skipped.
import { useTranslation } from "react-i18next";
import type { FramebookStatus } from "../../runtime/kiosk/bridge.ts";
import { Icon } from "../components/Icon.tsx";

export function FramebookWarnings({ status }: { status: FramebookStatus }) {
  const { t } = useTranslation();
  const skipped = status.auditProblems ?? [];
  if (!status.problem && skipped.length === 0) return null;
  return (
    <>
      {status.problem ? (
        <p className="op-notice op-notice-warning" role="alert" data-warning="not-in-force">
          <Icon name="warning" /> <span>{t("safety.framebookProblem", { problem: status.problem })}</span>
        </p>
      ) : null}
      {skipped.length > 0 ? (
        <p className="op-notice op-notice-warning" role="status" data-warning="audit-skipped">
          <Icon name="warning" /> <span>{t("safety.auditSkipped", { lines: skipped.join("; ") })}</span>
        </p>
      ) : null}
    </>
  );
}
