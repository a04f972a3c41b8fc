// The ticket / receipt with a QR code of the ticket id.
import { useTranslation } from "react-i18next";
import type { SystemView, Ticket } from "../../runtime/kiosk/bridge.ts";
import { useKioskSend } from "../app/KioskActor.tsx";
import { QrCode } from "../components/QrCode.tsx";
import { formatFare, passengersInWords } from "../lib/format.ts";
import { paymentLabel, stationNameById } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export function TicketScreen({ system, ticket }: { system: SystemView; ticket: Ticket }) {
  const { t, i18n } = useTranslation();
  const send = useKioskSend();
  const language = useView((s) => s.language);
  const name = (id: string, fallback: string): string => stationNameById(system, id, language, fallback);
  const method = paymentLabel(system, ticket.paymentMethod, language);
  const issued = new Date(ticket.issuedAt);
  const issuedText = Number.isNaN(issued.getTime())
    ? ticket.issuedAt
    : new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(issued);
  return (
    <section className="screen ticket-screen" aria-labelledby="ticket-title">
      <h1 id="ticket-title" tabIndex={-1}>
        {t("ticket.title")}
      </h1>
      <p className="ticket-thanks" role="status" data-announce>
        {t("ticket.thanks")}
      </p>
      <div className="ticket card">
        <QrCode text={ticket.ticketId} label={t("ticket.qr", { id: ticket.ticketId })} />
        <dl className="ticket-details">
          <dt>{t("ticket.number")}</dt>
          <dd className="ticket-id" dir="ltr">
            {ticket.ticketId}
          </dd>
          <dt>{t("ticket.journey")}</dt>
          <dd>
            <bdi>{name(ticket.originId, ticket.origin)}</bdi> <span aria-hidden="true">{t("common.arrow")}</span>
            <span className="visually-hidden">{t("journey.to")}</span> <bdi>{name(ticket.destinationId, ticket.destination)}</bdi>
          </dd>
          <dt>{t("ticket.riders")}</dt>
          <dd>{passengersInWords(ticket.riders, t, i18n.language, system.riderRules)}</dd>
          <dt>{t("ticket.paid")}</dt>
          <dd className="amount">{formatFare(ticket.total, system)}</dd>
          <dt>{t("ticket.method")}</dt>
          <dd>
            <bdi>{method}</bdi>
          </dd>
          <dt>{t("ticket.issued")}</dt>
          <dd>{issuedText}</dd>
        </dl>
      </div>
      <button type="button" className="button button-primary button-hero" onClick={() => send({ type: "DONE" })}>
        {t("ticket.done")}
      </button>
    </section>
  );
}
