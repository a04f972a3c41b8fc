// What the kiosk does with the answer (kiosk_action): the purchase button (enabled only for a
// purchasable result), or a screen of its own for block_purchase, display_info and refer_to_staff.
import { useTranslation } from "react-i18next";
import type { AskResult, SystemView } from "../../runtime/kiosk/bridge.ts";
import { formatFare } from "../lib/format.ts";
import { BlockReasons } from "./BlockReasons.tsx";
import type { AdvisoryBanner } from "../lib/types.ts";
import { Icon } from "./Icon.tsx";

const ALTERNATIVE = /(?:Alternative|Alternativa|替代方案|替代方案|البديل)\s*[:：]\s*([^.。]+[.。]?)/i;

/** The alternative a suspension notice names ("Alternative: Free AC Transit bus bridge …"), if any. */
export function alternativeOf(banner: AdvisoryBanner): string | null {
  return ALTERNATIVE.exec(banner.body ?? "")?.[1]?.trim() ?? null;
}

export function ActionPanel(props: {
  system: SystemView;
  result: AskResult;
  onPurchase: () => void;
  onEdit: () => void;
  onFinish: () => void;
  onFollowUp: () => void;
  /**
   * The step that makes a shown trip sellable ("Please confirm: Airport to Five Points for 1 adult"):
   * it takes the buy button's place instead of a greyed one the passenger cannot get past.
   */
  confirm?: { label: string; onConfirm: () => void };
  /** The kiosk asked the passenger a question: its answers are above; this is only the way out. */
  asking?: boolean;
  /** The trip is to, from or through a closed station: nothing is sold (no fare, no buy button). */
  closed?: boolean;
}) {
  const { t } = useTranslation();
  const { state, purchasable } = props.result;
  const { action, reason_code: reason } = state.kiosk_action;
  const reasonText = reason !== "ok" ? <p className="action-reason">{t("result.reasonLabel", { reason: t(`reason.${reason}`) })}</p> : null;
  const secondary = (
    <div className="action-buttons">
      <button type="button" className="button button-secondary" data-keypad-back onClick={props.onEdit}>
        {t("result.change")}
      </button>
      <button type="button" className="button button-secondary" onClick={props.onFollowUp}>
        <Icon name="chat" /> {t("chat.followUp")}
      </button>
    </div>
  );

  if (props.asking || props.closed) {
    // Not "information only", and never a buy button for a closed station's trip: the answers to
    // the question above (or the open stations to choose instead) are the way on; this is the way out.
    return (
      <section className={`action action-asking${props.closed ? " action-closed" : ""}`} data-action={action}>
        {secondary}
        <button type="button" className="button button-secondary" onClick={props.onFinish}>
          {t("result.done")}
        </button>
      </section>
    );
  }

  if (action === "prompt_purchase" && !purchasable && props.confirm) {
    return (
      <section className="action action-purchase action-confirm" data-action={action}>
        <button type="button" className="button button-primary button-hero" dir="auto" onClick={props.confirm.onConfirm}>
          <Icon name="check" /> {props.confirm.label}
        </button>
        <p className="action-note" data-announce>
          {t("result.confirmToBuy")}
        </p>
        {secondary}
      </section>
    );
  }

  if (action === "prompt_purchase") {
    const total = state.fare_quote ? formatFare(state.fare_quote.total, props.system) : "";
    return (
      <section className="action action-purchase" data-action={action}>
        <button
          type="button"
          className="button button-primary button-hero"
          disabled={!purchasable}
          aria-describedby={purchasable ? undefined : "not-purchasable"}
          onClick={props.onPurchase}
        >
          <Icon name="ticket" /> {t("result.buy", { total })}
        </button>
        {purchasable ? null : (
          <p id="not-purchasable" className="action-note" data-announce>
            {t("result.notPurchasable")}
          </p>
        )}
        <BlockReasons result={props.result} />
        {reasonText}
        {secondary}
      </section>
    );
  }

  const screens = {
    block_purchase: { icon: "critical", title: t("result.blockTitle"), body: t("result.blockBody") },
    display_info: { icon: "info-board", title: t("result.infoTitle"), body: t("result.infoBody") },
    refer_to_staff: { icon: "staff", title: t("result.staffTitle"), body: t("result.staffBody") },
  } as const;
  // A critical notice on a trip that is not sold is a suspension: say so, and what to do instead,
  // rather than "no ticket is needed".
  const suspension = action !== "refer_to_staff" ? state.advisory_banners?.find((b) => b.severity === "critical") : undefined;
  const alternative = suspension ? alternativeOf(suspension) : null;
  const screen = suspension
    ? { icon: "critical" as const, title: t("result.suspendedTitle"), body: t("result.suspendedBody") }
    : screens[action];
  return (
    <section
      className={`action action-${action.replace(/_/g, "-")}`}
      data-action={action}
      role={action === "block_purchase" || suspension ? "alert" : "status"}
      data-suspended={suspension ? true : undefined}
      aria-labelledby="action-title"
    >
      <div className="action-head" data-announce>
        <Icon name={screen.icon} className="icon-large" />
        <h2 id="action-title">{screen.title}</h2>
      </div>
      <p className="action-body" data-announce>
        {screen.body}
      </p>
      {suspension ? (
        <p className="action-alternative" dir="auto" data-announce>
          {alternative ? t("result.alternative", { text: alternative }) : `${suspension.title}: ${suspension.body}`}
        </p>
      ) : null}
      {reasonText}
      {secondary}
      <button type="button" className="button button-primary" onClick={props.onFinish}>
        {t("result.done")}
      </button>
    </section>
  );
}
