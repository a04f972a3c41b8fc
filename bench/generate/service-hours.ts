// I: service hours. A rider asks in free text for a trip at a stated time. Outside the framebook's
// operating hours there is no service and no sale; shortly before the close there is, with the
// last-train warning. Stations served by a 24-hour line are left out of the closed cases (the
// framebook's hours do not bind those lines), and times near an opening or a close are avoided.
import { ONE_ADULT, SALE, shortFare, type CategoryResult, type DraftCase, type GenerationContext } from "./common.ts";
import { WEEK, clock, closedTime, hoursNote, hoursOn, lastTrainTime } from "./hours.ts";

const CLOSED_TEXTS = [
  "I need to travel from {o} to {d}. It's {t} on {day}.",
  "Is there a train from {o} to {d} at {t} on {day}?",
  "I want to travel from {o} to {d}. It's {t} on {day}.",
];
const LAST_TRAIN_TEXTS = ["I need to travel from {o} to {d}. It's {t} on {day}.", "Can I still get from {o} to {d}? The time is {t} on {day}."];

const fill = (template: string, values: Record<string, string>): string => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");

export function serviceHoursCases(ctx: GenerationContext, count: number): CategoryResult {
  const framebook = ctx.system.framebook;
  const allDay = new Set(ctx.system.lines.filter((l) => l["24h"]).map((l) => l.id));
  const notes: string[] = [];
  const pool = ctx.textSafe();
  const closedPossible = closedTime(framebook, ctx.rng) !== undefined;
  if (!closedPossible) notes.push("the operating hours leave no clear time without service: no closed-hours case");
  if (![0, 1, 2, 3, 4, 5, 6].some((d) => ((h) => h !== undefined && h.close - h.open < 1440)(hoursOn(framebook, d)))) notes.push("service never closes: no last-train case");

  const closedCase = (o: string, d: string): DraftCase | undefined => {
    if ([o, d].some((id) => ctx.net.linesAt(id).some((l) => allDay.has(l)))) {
      ctx.drop("a 24-hour line serves an end of the trip");
      return undefined;
    }
    if (ctx.net.route(o, d).kind === "none") return undefined;
    const when = closedTime(framebook, ctx.rng);
    if (!when) return undefined;
    const day = WEEK[when.dayIndex]!;
    const t = clock(when.minute);
    const now = `${day.date}T${t}:00`;
    return {
      difficulty: when.beforeOpening ? "easy" : "medium",
      interaction_mode: "freetext",
      kind: { temporal_type: when.beforeOpening ? "before_opening" : "overnight_closed" },
      title: `Service hours: ${day.day} ${t}, closed`,
      events: [{ type: "freetext_input", text: fill(ctx.rng.pick(CLOSED_TEXTS), { o: ctx.station(o).name, d: ctx.station(d).name, t, day: day.day }) }],
      system_context: ctx.systemContext({ temporal_context: { current_time: now, day_of_week: day.day, notes: hoursNote(framebook, when.dayIndex, when.minute) } }, now),
      ground_truth: {
        route: null,
        fare: null,
        temporal: { service_available: false, should_warn_last_train: false, temporal_keywords: ["no service", "closed", "opens at", "service hours"] },
        expected_outcome: "service_unavailable",
        expected_kiosk_action: "block_purchase",
        expected_reason_code: "no_service",
      },
    };
  };

  const lastTrainCase = (o: string, d: string): DraftCase | undefined => {
    const trip = ctx.pricedTrip(o, d, ONE_ADULT);
    if (!trip) return undefined;
    const when = lastTrainTime(framebook, trip.route.estimated_minutes, ctx.rng);
    if (!when) {
      ctx.drop("the trip is too long to finish within the last hour of service");
      return undefined;
    }
    const day = WEEK[when.dayIndex]!;
    const t = clock(when.minute);
    const now = `${day.date}T${t}:00`;
    return {
      difficulty: "medium",
      interaction_mode: "freetext",
      kind: { temporal_type: "last_train" },
      title: `Service hours: ${day.day} ${t}, last trains`,
      events: [{ type: "freetext_input", text: fill(ctx.rng.pick(LAST_TRAIN_TEXTS), { o: trip.origin.name, d: trip.destination.name, t, day: day.day }) }],
      system_context: ctx.systemContext({ temporal_context: { current_time: now, day_of_week: day.day, notes: hoursNote(framebook, when.dayIndex, when.minute) } }, now),
      ground_truth: {
        route: trip.route,
        fare: shortFare(trip.fare),
        temporal: { service_available: true, should_warn_last_train: true, temporal_keywords: ["last train", "service hours", "closing"] },
        ...SALE,
      },
    };
  };

  // Two thirds closed, a third at the last trains; either kind tops up when the other runs short.
  const closed: DraftCase[] = [];
  const lastTrain: DraftCase[] = [];
  const asked = new Set<string>();
  const collect = (into: DraftCase[], want: number, make: (o: string, d: string) => DraftCase | undefined): void => {
    for (const [o, d] of ctx.pairs(pool, 300 + count * 100)) {
      if (into.length >= want) return;
      // One question per trip: the top-up pass draws pairs afresh.
      if (asked.has(`${o}>${d}`)) continue;
      const made = make(o, d);
      if (!made) continue;
      asked.add(`${o}>${d}`);
      into.push(made);
    }
  };
  if (closedPossible) collect(closed, Math.ceil((count * 2) / 3), closedCase);
  collect(lastTrain, count - closed.length, lastTrainCase);
  if (closedPossible) collect(closed, count - lastTrain.length, closedCase);
  return { drafts: [...closed, ...lastTrain], notes };
}
