// Policy `rule`: the kiosk's embedded default. A correct, deterministic decision procedure that
// uses only what a kiosk has at run time — the passenger's events, the framebook, the system data
// and tool results — and never an answer key. It runs the same tools a model would, through the
// same session loop, and re-plans on every new passenger turn.
import { isStepFree, type Accessibility } from "../../../tools/data/accessibility.ts";
import type { KioskEvent, Station } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { adjustQuote, announcesFareChange, unpriceableFareAnnouncement, type PricedItem } from "../../../tools/fares/policy-change.ts";
import { stationsUsed } from "../../../tools/network/index.ts";
import type { Policy, SessionSetup, ToolCallRecord } from "../../session/policy.ts";
import { call, scriptedRun, type PolicyScript, type ToolCallStep } from "../scripted.ts";
import {
  stateFareQuote,
  stateRoute,
  titleCase,
  type Banner,
  type RouteResult,
  type Severity,
} from "./compose.ts";
import { permanentClosures } from "./closures.ts";
import { endedEarlyAt, ridesSkipWay, runsOutsideUsualHoursAt } from "../../language/notices.ts";
import { announcementInForce, disruptionInForceTonight, serviceNightMoments } from "../../language/when.ts";
import { farePricing, OFFER_APPLIES, OFFER_DOES_NOT_APPLY, offerAnswer } from "../../language/offers.ts";
import { quoteWithEffect } from "../../../tools/fares/fare-effect.ts";
import { analyseDisruption, hasRestrictions, mergeRestrictions, type DisruptionImpact, type FeedDisruption } from "./disruptions.ts";
import { accessibilityNeed, classify, findStations, type Intent } from "./freetext.ts";
import { clockTime, formatClock, serviceStatus, usualClose } from "./hours.ts";
import { relevantNotes } from "./notes.ts";
import { interpretEvents, totalRiders, type StationChoice } from "./request.ts";
import { freeChildLimit, readTextRequest, ridersConflict, ridersQuestion, type Clarification, type TextRequest } from "./clarify.ts";
import { messages, statedAges } from "../../language/index.ts";
import { answeringArticle, topicWords } from "../../language/topic.ts";
import { asksServiceHours } from "../../language/intent.ts";
import { voiceFor, type Voice } from "./voice.ts";
import type { RouteFacts } from "../../language/answers.ts";

type Json = Record<string, unknown>;

interface Submission {
  outcome: "route_and_fare_ready" | "advisory_only" | "service_unavailable" | "request_declined" | "policy_answer_only";
  action: "display_info" | "prompt_purchase" | "block_purchase" | "refer_to_staff";
  reason: "ok" | "no_service" | "invalid_request" | "unsupported_request" | "accessibility_issue" | "policy_exception";
  message: string;
  banners?: Banner[];
  route?: Json;
  fareQuote?: Json;
  reasoning: string;
  /** Kiosk extension (not scored): a question with tappable choices. */
  clarification?: Clarification;
}

function submit(s: Submission): ToolCallStep {
  const args: Json = {
    outcome: s.outcome,
    kiosk_action: { action: s.action, reason_code: s.reason },
    assistant_message: s.message,
    reasoning: s.reasoning,
  };
  if (s.route) args.route = s.route;
  if (s.fareQuote) args.fare_quote = s.fareQuote;
  if (s.banners && s.banners.length > 0) args.advisory_banners = s.banners;
  if (s.clarification) args.clarification = s.clarification;
  return call("submit_assistant_state", args);
}

function resolveChoice(system: SystemData, choice: StationChoice | undefined): Station | undefined {
  if (!choice) return undefined;
  if (choice.stationId) {
    const byId = system.stationById(choice.stationId);
    if (byId) return byId;
  }
  // A station named exactly so wins over one whose name only starts so: "Belmont" is CTA's
  // Red/Brown/Purple Belmont, not "Belmont (Blue)", which comes first in the file (where the
  // reference's resolution, kept for the tools, stops).
  const q = choice.value.toLowerCase().trim();
  return system.stations.find((s) => s.name.toLowerCase() === q) ?? system.resolveStation(choice.value);
}

function result<T>(record: ToolCallRecord | undefined): T | undefined {
  return record && record.error === null ? (record.result as T) : undefined;
}

/** One line per distinct piece of text, so banners and message stay short. */
function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * The words of an announcement a question quotes: its sentences about fares, cut at a word to fit
 * the screen's question (a long release would leave the passenger no choices to tap).
 */
function offerExcerpt(text: string, max = 360): string {
  const sentences = text.split(/(?<=[.!?。！？])\s+/u).filter((s) => announcesFareChange(s));
  const words = sentence(sentences.length > 0 ? sentences.join(" ") : text);
  if (words.length <= max) return words;
  const cut = words.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()} …`;
}

type KbResult = { found?: boolean; results?: { title: string; content: string; policy_id: string }[] };

/** The system's own names (organisation, smart card, lines): words every question about it may use. */
function ownNames(system: SystemData): string[] {
  const fb = system.framebook;
  return [fb.org_name, fb.terminology.smartcard, ...system.lines.map((l) => l.name)];
}

/** Whether words name the organisation, its smart card or a line (never a station to look for). */
function isOwnName(system: SystemData, words: string): boolean {
  const w = words.trim().toLowerCase();
  return w.length > 0 && ownNames(system).some((n) => n.toLowerCase().includes(w) || w.includes(n.toLowerCase()));
}

/** The search hit that answers a question of these topic words (with the policy's synonyms), if any. */
function answering(system: SystemData, topics: readonly string[], found: KbResult | undefined): NonNullable<KbResult["results"]>[number] | undefined {
  if (!found?.found) return undefined;
  const hits = (found.results ?? []).map((r) => ({ ...r, synonyms: system.policyById(r.policy_id)?.synonyms ?? [] }));
  const best = answeringArticle(topics, hits);
  return best ? { title: best.title, content: best.content, policy_id: best.policy_id } : undefined;
}

/** `orAsk`: the question for a trip's missing end, asked where no article answers (never a refusal a tap could settle). */
function* answerQuestion(system: SystemData, intent: Intent, text: string, voice: Voice, orAsk?: Clarification): PolicyScript {
  const framebook = system.framebook;
  const say = voice.say;
  const mentioned = findStations(system, text).map((m) => m.station);
  const station = mentioned[0];
  const declined = (reason: Submission["reason"], message: string, reasoning: string): ToolCallStep =>
    submit({ outcome: "request_declined", action: "block_purchase", reason, message, reasoning });

  if (intent.kind === "station_question" && station && intent.topic === "accessibility") {
    const [info] = yield call("station_info", { station_id: station.id, query_type: "accessibility" });
    const data = (result<{ data?: { accessibility?: Partial<Accessibility> } }>(info)?.data?.accessibility) ?? {};
    // null: the network's data does not say (an imported feed), which is said as such.
    const parts = [
      data.elevator === null ? null : data.elevator ? "elevators are in service" : "there is no working elevator",
      data.step_free === null ? "whether there is step-free access is not known" : data.step_free ? "step-free access is available" : "step-free access is not available",
    ].filter((p) => p !== null);
    const here = voice.station(station.id, station.name);
    const banners: Banner[] = isStepFree(data) ? [] : [{ severity: "warning", title: `Accessibility at ${station.name}`, body: `${station.name}: ${parts.join("; ")}.` }];
    yield submit({
      outcome: "policy_answer_only",
      action: "display_info",
      reason: "ok",
      // Unknown is said as unknown; a known step-free station without lift data has no lift problem.
      message: data.step_free === null ? say.accessibilityUnknown(here) : say.accessibility(here, (data.elevator ?? data.step_free) === true, !!data.step_free),
      banners,
      reasoning: "Accessibility question answered from station_info.",
    });
    return;
  }
  if (intent.kind === "station_question" && station && intent.topic === "real_time") {
    const [info] = yield call("station_info", { station_id: station.id, query_type: "real_time_status" });
    const status = result<{ data?: { status?: string } }>(info)?.data?.status ?? "unknown";
    const headways = [...system.linesServing(station.id)].map((l) => system.lineById(l)?.typical_headway_min).filter((h): h is number => typeof h === "number");
    const headway = headways.length > 0 ? Math.min(...headways) : undefined;
    yield submit({
      outcome: "policy_answer_only",
      action: "display_info",
      reason: "ok",
      message: say.realTime(voice.station(station.id, station.name), status, headway),
      reasoning: "Live data is not available to the kiosk; answered with station status and typical headway.",
    });
    return;
  }
  if (intent.kind === "disruption_question") {
    const lineId = system.lines.find((l) => text.toLowerCase().includes(l.name.toLowerCase()))?.id;
    const [feed] = yield call("disruption_feed", lineId ? { line: lineId } : {});
    const list = result<{ disruptions?: FeedDisruption[] }>(feed)?.disruptions ?? [];
    const banners: Banner[] = list.map((d) => ({ severity: severityOf(d.severity), title: titleCase(d.type ?? "disruption"), body: d.message ?? "" }));
    yield submit({
      outcome: "policy_answer_only",
      action: "display_info",
      reason: "ok",
      message: list.length === 0 ? say.noDisruptions(lineId ? voice.line(lineId) : undefined) : say.disruptions(list.map((d) => sentence(d.message ?? ""))),
      banners,
      reasoning: "Answered from the disruption feed.",
    });
    return;
  }
  if (intent.kind === "line_question") {
    const line = system.lines.find((l) => text.toLowerCase().includes(l.name.toLowerCase())) ?? system.lines.find((l) => new RegExp(`\\b${l.id}\\b`, "i").test(text));
    if (line) {
      const [info] = yield call("line_info", { line: line.id });
      const data = result<{ stations?: { station_id?: string; station_name: string }[]; terminals?: string[] }>(info);
      const names = (data?.stations ?? []).map((s) => (s.station_id ? voice.station(s.station_id, s.station_name) : s.station_name));
      yield submit({
        outcome: "policy_answer_only",
        action: "display_info",
        reason: "ok",
        message: say.lineStations(voice.line(line.id), names),
        reasoning: "Line information from line_info.",
      });
      return;
    }
  }
  // Policy and general questions: the knowledge base article that answers them; else the kiosk
  // says it does not know (the search returns something for almost any words).
  const [kb] = yield call("knowledge_base", { query: text });
  const found = result<KbResult>(kb);
  const topics = topicWords(text, ownNames(system));
  let top = answering(system, topics, found);
  if (!top && found?.found && topics.length > 0) {
    // The first search ranked by every shared word ("the", "need"): search again by the topic.
    const [again] = yield call("knowledge_base", { query: topics.join(" ") });
    top = answering(system, topics, result<KbResult>(again));
  }
  if (!top && orAsk) {
    yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: orAsk.question, reasoning: `No article answers; asked the passenger (${orAsk.kind}).`, clarification: orAsk });
    return;
  }
  if (!top && found?.found) {
    yield submit({
      outcome: "policy_answer_only",
      action: "display_info",
      reason: "ok",
      message: messages(voice.language).dontKnow(framebook.org_name),
      reasoning: "No knowledge-base article answers the question; referred to staff.",
    });
    return;
  }
  const connectionsAt = intent.kind === "station_question" && intent.topic === "connections" && station ? voice.station(station.id, station.name) : undefined;
  if (top) {
    yield submit({
      outcome: "policy_answer_only",
      action: "display_info",
      reason: "ok",
      message: say.policyArticle(top.title, top.content, connectionsAt),
      banners: [{ severity: "info", title: top.title, body: top.content }],
      reasoning: `Answered from policy ${top.policy_id}.`,
    });
    return;
  }
  // No article (an imported system has none yet): when trains run is in the framebook.
  const hours = framebook.operating_hours as Record<string, unknown>;
  const dayHours = Object.fromEntries((["weekday", "saturday", "sunday", "default"] as const).flatMap((k) => (typeof hours[k] === "string" ? [[k, hours[k] as string]] : [])));
  if (asksServiceHours(text) && Object.keys(dayHours).length > 0) {
    yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: say.serviceHours(framebook.org_name, dayHours), reasoning: "Service hours from the framebook (no knowledge-base article answers)." });
    return;
  }
  yield declined(
    "unsupported_request",
    say.cannotHelp(voice.term(framebook.terminology.smartcard), framebook.org_name),
    "No matching policy; outside kiosk capabilities.",
  );
}

/** Every leg of the route runs on track that a 24-hour line also serves. */
function servedAllNight(system: SystemData, route: RouteResult, nightLines: ReadonlySet<string>): boolean {
  for (let i = 0; i + 1 < route.stops.length; i++) {
    const a = route.stops[i]?.station_id;
    const b = route.stops[i + 1]?.station_id;
    const served = system.edges.some((e) => nightLines.has(e.line) && ((e.from === a && e.to === b) || (e.from === b && e.to === a)));
    if (!served) return false;
  }
  return route.stops.length > 1;
}

/** The route as the message words it, names in the passenger's language. */
function routeFacts(route: RouteResult, voice: Voice): RouteFacts {
  const name = (s: RouteResult["stops"][number] | undefined): string => (s ? voice.station(s.station_id, s.station_name) : "");
  return {
    origin: name(route.stops[0]),
    destination: name(route.stops[route.stops.length - 1]),
    stops: route.stops.length,
    transfers: route.transfers,
    transferAt: route.stops.filter((s) => s.is_transfer).map(name),
    minutes: Math.round(route.estimated_minutes),
    lines: route.line_sequence.map((id) => voice.line(id)),
  };
}

function severityOf(value: unknown): Severity {
  return value === "critical" || value === "warning" || value === "info" || value === "positive" ? value : "warning";
}

function* ruleScript(setup: SessionSetup, turns: readonly (readonly KioskEvent[])[]): PolicyScript {
  const system = setup.system;
  const framebook = system.framebook;
  const context = setup.context;
  const req = interpretEvents(turns.flat());
  const text = req.freetexts.join(" ");
  const selectedOrigin = resolveChoice(system, req.origin);
  const selectedDestination = resolveChoice(system, req.destination);
  const understood: TextRequest = readTextRequest(system, req.freetexts, {
    origin: !!selectedOrigin,
    destination: !!selectedDestination,
    ...(selectedOrigin ? { originId: selectedOrigin.id } : {}),
    ...(selectedDestination ? { destinationId: selectedDestination.id } : {}),
  });
  const trip = understood.trip;
  const origin = selectedOrigin ?? trip.origin;
  const destination = selectedDestination ?? trip.destination;
  // Riders the passenger wrote count when the screen's counter was never touched.
  if (!req.ridersGiven && understood.riders) req.riders = { ...understood.riders };
  const intent: Intent = text ? classify(text, { ...trip, ...(origin ? { origin } : {}), ...(destination ? { destination } : {}) }, !!selectedOrigin && !!selectedDestination) : { kind: "trip" };
  // The kiosk's accessibility toggle, or what the passenger said about their needs.
  const accessibility = accessibilityNeed(req.freetexts) ?? !!context.accessibility_mode;
  const declined = (reason: Submission["reason"], message: string, reasoning: string): ToolCallStep =>
    submit({ outcome: "request_declined", action: "block_purchase", reason, message, reasoning });
  const voice = voiceFor(setup, understood.language);
  const say = voice.say;
  const nameOf = (s: Station): string => voice.station(s.id, s.name);

  if (intent.kind === "out_of_scope") {
    yield declined(
      "unsupported_request",
      say.outOfScope(intent.topic === "taxi" || intent.topic === "weather" ? intent.topic : "other", framebook.org_name),
      `Out-of-scope request (${intent.topic}).`,
    );
    return;
  }
  if (intent.kind === "manipulation") {
    yield declined("unsupported_request", say.manipulation, "Request tries to bypass kiosk rules.");
    return;
  }
  if (intent.kind === "contradictory") {
    yield declined("invalid_request", say.contradictory, "Contradictory constraints.");
    return;
  }
  if (req.invalidRiders) {
    yield declined("invalid_request", say.invalidRiders, "Invalid passenger counts.");
    return;
  }

  const infoIntent = intent.kind !== "trip";
  // Ambiguous or unsure station names, or a trip without a start: ask instead of guessing.
  const question = understood.question(intent.kind, !!origin, !!destination, origin ? nameOf(origin) : undefined);
  if (question) {
    yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: question.question, reasoning: `Asked the passenger (${question.kind}).`, clarification: question });
    return;
  }
  // The words speak of companions but say who travels unsurely, and the counter was not used or
  // shows one rider (the screen's default) before the words: ask.
  const counterSaysLittle = !req.ridersGiven || (!req.countedAfterText && totalRiders(req.riders) < 2);
  const childLimit = freeChildLimit(system);
  if (!understood.riders && understood.ridersUnsure && counterSaysLittle && origin && destination && !infoIntent) {
    const question = ridersQuestion(understood.ridersUnsure.reading, req.ridersGiven ? req.riders : undefined, understood.language, childLimit);
    yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: question.question, reasoning: "Who travels is not sure from the words.", clarification: question });
    return;
  }
  if (req.ridersGiven && !req.countedAfterText && understood.riders && origin && destination && !infoIntent) {
    const conflict = ridersConflict(req.riders, understood.riders, understood.ridersExclusive ?? false, understood.language, childLimit);
    if (conflict) {
      yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: conflict.question, reasoning: "The passenger counter and the typed request disagree.", clarification: conflict });
      return;
    }
  }
  // The counter has a child riding free, the words a child past the free age ("our 8 year old son"
  // where children under 5 ride free): the counter may be wrong about the fare, so ask — once: a
  // counter set after the words is the passenger's answer.
  if (req.ridersGiven && !req.countedAfterText && req.riders.children > 0 && childLimit && "age" in childLimit && origin && destination && !infoIntent) {
    const limit = childLimit.age;
    if (statedAges(text).some((age) => age >= limit && age < 18)) {
      const question = ridersQuestion(understood.riders ?? understood.ridersUnsure?.reading, req.riders, understood.language, childLimit);
      yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: question.question, reasoning: "The counter has a free child; the words a child past the free age.", clarification: question });
      return;
    }
  }
  if (!origin || !destination || infoIntent) {
    // "the refund policy for a Breeze card": the smart card's name is not a place.
    if (trip.unknownPlace && !destination && !isOwnName(system, trip.unknownPlace)) {
      yield declined("invalid_request", messages(voice.language).notFound(trip.unknownPlace, framebook.org_name), "Unknown destination.");
      return;
    }
    if (text && (infoIntent || (!origin && !destination))) {
      yield* answerQuestion(system, intent, text, voice, intent.kind === "policy_question" ? understood.missingEnd(origin ? nameOf(origin) : undefined, !!destination) : undefined);
      return;
    }
    const missing = understood.missingEnd(origin ? nameOf(origin) : undefined, !!destination);
    if (missing) {
      yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: missing.question, reasoning: `Asked the passenger (${missing.kind}).`, clarification: missing });
      return;
    }
    yield declined("invalid_request", say.missingStations, "Origin or destination missing.");
    return;
  }
  if (origin.id === destination.id) {
    yield declined("invalid_request", say.sameStations(nameOf(origin)), "Same origin and destination.");
    return;
  }
  if (totalRiders(req.riders) === 0) {
    yield declined("invalid_request", say.noPassengers, "No passengers selected.");
    return;
  }

  const banners: Banner[] = [];
  /** The message's wording of a banner in the passenger's language (English: the banner's own). */
  const notices = new Map<Banner, string>();
  const reasoning: string[] = [];
  const nowIso = context.temporal_context?.current_time || context.current_time;
  const clock = clockTime(nowIso, context.temporal_context?.day_of_week);
  const status = clock ? serviceStatus(framebook, clock) : undefined;

  const nightLines = new Set(system.lines.filter((l) => l["24h"]).map((l) => l.id));
  // A notice in force that keeps trains running later ("末班车延长至次日0:30") keeps the kiosk selling.
  // In the early hours, a notice of the evening the night's service began counts too.
  const moments = serviceNightMoments(nowIso);
  const noticesInForce = [
    ...context.active_disruptions.filter((d) => disruptionInForceTonight(d, nowIso)).map((d) => d.message ?? ""),
    ...(moments.some((t) => announcementInForce(context.policy_change?.text, t)) ? [context.policy_change!.text] : []),
  ];
  // …and one that ends service early ("will end at 10pm today") stops selling from then.
  const close = clock && usualClose(framebook, clock);
  const endedEarly = !!clock && endedEarlyAt(noticesInForce, clock.minutes, close);
  // …and one that starts it earlier ("commence at 5 am") sells from then.
  const closedNow = (status !== undefined && !status.open && !(clock && runsOutsideUsualHoursAt(noticesInForce, clock.minutes, close, clock.day))) || endedEarly;
  const noServiceNow = (): ToolCallStep => {
    const opensAt = status?.minutesToOpen !== undefined && clock ? formatClock(clock.minutes + status.minutesToOpen) : undefined;
    return submit({
      outcome: "service_unavailable",
      action: "block_purchase",
      reason: "no_service",
      message: say.noService(framebook.org_name, status?.hoursText ?? "", opensAt),
      banners: [{ severity: "critical", ...say.banner.noService(opensAt, status?.hoursText ?? "") }],
      reasoning: `Current time ${nowIso} is outside service hours ${status?.hoursText ?? ""}.`,
    });
  };
  // Outside service hours with no all-night lines there is nothing to plan.
  if (closedNow && nightLines.size === 0) {
    yield noServiceNow();
    return;
  }

  // Route as planned without disruptions.
  const [firstPlan] = yield call("route_planner", { origin: origin.id, destination: destination.id });
  const planned = result<RouteResult>(firstPlan);
  if (!planned) {
    yield declined("invalid_request", say.noRoute(nameOf(origin), nameOf(destination)), `route_planner: ${firstPlan?.error ?? "no result"}`);
    return;
  }

  if (closedNow) {
    if (!servedAllNight(system, planned, nightLines)) {
      yield noServiceNow();
      return;
    }
    banners.push({ severity: "info", ...say.banner.nightService([...nightLines].map((id) => voice.line(id)), framebook.operating_hours.late_night_headway_min || undefined) });
    reasoning.push("Outside general hours, but every section of the route is served by a 24-hour line.");
  } else if (status?.minutesToClose !== undefined && status.minutesToClose <= 60) {
    const banner: Banner = { severity: "warning", ...say.banner.lastTrains(status.minutesToClose, status.hoursText) };
    banners.push(banner);
    notices.set(banner, say.lastTrains(status.minutesToClose, status.hoursText));
  }

  let route = planned;
  let outcome: Submission["outcome"] = "route_and_fare_ready";
  let action: Submission["action"] = "prompt_purchase";
  let reason: Submission["reason"] = "ok";

  // A station the operator announced as permanently closed: show the route and the notice, sell nothing.
  const closures = permanentClosures(system, context);
  for (const station of [origin, destination]) {
    const notice = closures.get(station.id);
    if (!notice) continue;
    outcome = "advisory_only";
    action = "display_info";
    const banner: Banner = { severity: "critical", title: `${station.name} is closed`, body: sentence(notice) };
    banners.push(banner);
    notices.set(banner, say.closed(nameOf(station), sentence(notice)));
    reasoning.push(`${station.name} is permanently closed: ${notice}`);
  }

  // Disruptions.
  const impacts: DisruptionImpact[] = [];
  if (context.active_disruptions.length > 0) {
    const [feed] = yield call("disruption_feed", {});
    const list = result<{ disruptions?: FeedDisruption[] }>(feed)?.disruptions ?? [];
    for (const d of list) impacts.push(analyseDisruption(system, d, nowIso));
    for (const impact of impacts) {
      const d = impact.disruption;
      const details = [d.message, d.alternative ? `Alternative: ${d.alternative}` : "", d.eta_resolution ? `Expected to resolve: ${d.eta_resolution}` : ""].filter(Boolean).map((t) => sentence(String(t)));
      const upcoming = !impact.inEffect;
      banners.push({ severity: upcoming ? "info" : severityOf(d.severity), title: `${titleCase(d.type ?? "disruption")}${upcoming ? " (not in effect now)" : ""}`, body: details.join(" ") });
    }
    if (impacts.some((i) => i.systemWide)) {
      yield submit({
        outcome: "service_unavailable",
        action: "block_purchase",
        reason: "no_service",
        message: say.suspended(framebook.org_name, impacts.filter((i) => i.systemWide).map((i) => sentence(i.disruption.message ?? ""))),
        banners,
        reasoning: "System-wide suspension in the disruption feed.",
      });
      return;
    }
    const active = impacts.filter((i) => i.inEffect);
    // Skipped one way only: a station of the trip the rider takes the line the other way at is usable.
    const path = planned.stops.map((s) => s.station_id);
    for (const i of active) {
      const bound = i.skipBound;
      if (!bound) continue;
      for (const id of [...i.unusableStations]) {
        const at = path.indexOf(id);
        if (at < 0 || ridesSkipWay(system, bound, id, path[at - 1], path[at + 1])) continue;
        i.unusableStations.delete(id);
        i.restrictions.station_restrictions = i.restrictions.station_restrictions.filter((r) => r.station !== id);
      }
    }
    // A station whose lift is out is unusable only to a passenger who needs step-free access.
    const unusable = (i: DisruptionImpact, id: string): boolean => i.unusableStations.has(id) || (accessibility && i.liftsOut.has(id));
    const endpointsOut = active.some((i) => unusable(i, origin.id) || unusable(i, destination.id));
    const routeLines = new Set(planned.stops.map((s) => s.line).filter((l): l is string => !!l));
    const touches = active.some(
      (i) => [...i.closedLines].some((l) => routeLines.has(l)) || planned.stops.some((s) => unusable(i, s.station_id)),
    );
    if (endpointsOut) {
      outcome = "advisory_only";
      action = "display_info";
      reasoning.push("The origin or destination station is affected by a disruption.");
    } else if (touches) {
      const restrictions = mergeRestrictions(active);
      if (hasRestrictions(restrictions)) {
        const args: Json = { origin: origin.id, destination: destination.id };
        if (restrictions.station_restrictions.length) args.station_restrictions = restrictions.station_restrictions;
        if (restrictions.line_closures.length) args.line_closures = restrictions.line_closures;
        if (restrictions.segment_closures.length) args.segment_closures = restrictions.segment_closures;
        const [replan] = yield call("route_planner", args);
        const alternative = result<RouteResult>(replan);
        if (alternative) {
          route = alternative;
          reasoning.push("Re-planned around the disruption.");
          // A closed station the notice does not say trains still run through: a route around
          // it, where there is one (else the route stays, and the kiosk does not sell it).
          const impassable = new Set(active.filter((i) => i.disruption.type === "station_closure" && !i.passThrough).flatMap((i) => [...i.unusableStations]));
          if (route.stops.slice(1, -1).some((s) => impassable.has(s.station_id))) {
            const closedToo = restrictions.station_restrictions.map((r) => (impassable.has(r.station) ? { ...r, restriction: "closed" as const } : r));
            const [around] = yield call("route_planner", { ...args, station_restrictions: closedToo });
            const avoiding = result<RouteResult>(around);
            if (avoiding) {
              route = avoiding;
              reasoning.push("Re-planned around the closed station.");
            }
          }
        } else {
          outcome = "advisory_only";
          action = "display_info";
          reasoning.push("No route avoids the disruption.");
        }
      } else {
        outcome = "advisory_only";
        action = "display_info";
      }
    }
  }

  // Fare.
  const fareArgs: Json = { route_id: route.route_id, passengers: { ...req.riders } };
  if (req.paymentMethod) fareArgs.payment_method = req.paymentMethod;
  const [fareCall] = yield call("fare_calculator", fareArgs);
  const fare = result<{ line_items: PricedItem[]; total: number; currency: string }>(fareCall);
  if (!fare) {
    yield declined("invalid_request", say.fareFailed, `fare_calculator: ${fareCall?.error ?? "no result"}`);
    return;
  }
  const announced = announcementInForce(context.policy_change?.text, nowIso);
  // A fare offer that depends on the passenger (a card, an ID, an exam ticket) and that the kiosk
  // cannot price is asked about; see farePricing.
  const offer = offerAnswer(req.freetexts);
  const pricing = farePricing(system, context.policy_change?.text, announced, offer, nowIso);
  if (pricing.kind === "ask") {
    const question: Clarification = {
      kind: "offer",
      question: say.offerAsk(offerExcerpt(announced!)),
      choices: [
        { label: say.offerApplies, events: [{ type: "freetext_input", text: OFFER_APPLIES }] },
        { label: say.offerDoesNotApply, events: [{ type: "freetext_input", text: OFFER_DOES_NOT_APPLY }] },
      ],
    };
    yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: question.question, banners, route: stateRoute(route), reasoning: "A fare offer that depends on the passenger is in force: asked whether it applies.", clarification: question });
    return;
  }
  if (pricing.kind === "staff") {
    yield submit({ outcome: "advisory_only", action: "refer_to_staff", reason: "policy_exception", message: say.offerStaff(sentence(announced!)), banners, route: stateRoute(route), reasoning: "The passenger says the offer applies; the kiosk cannot check or price it." });
    return;
  }
  // A fare notice the kiosk cannot price (nothing of it read, or a clause not read): any quote is a
  // guess, so staff sell the ticket (the interlock would refuse the sale too).
  if (pricing.kind === "rules" && unpriceableFareAnnouncement(pricing.text)) {
    yield submit({ outcome: "advisory_only", action: "refer_to_staff", reason: "policy_exception", message: say.fareUnread(sentence(pricing.text!)), banners, route: stateRoute(route), reasoning: "A fare notice the kiosk cannot price is in force." });
    return;
  }
  const engineQuote = { items: fare.line_items, total: fare.total };
  const quote = pricing.kind === "effect" ? quoteWithEffect(engineQuote, req.riders, system.fares.base_fare, pricing.effect) : adjustQuote(engineQuote, req.riders, system.fares.base_fare, pricing.text);
  const policyText = pricing.kind === "effect" ? announced : pricing.text;
  // The passenger sees the whole notice even where only part of it is priced.
  const offerDeclined = announced !== null && policyText === null;
  const shown = offerDeclined ? null : (announcementInForce(context.policy_change?.display_text, nowIso) ?? policyText);
  if (shown) {
    banners.push({ severity: quote.changed && quote.total < fare.total ? "positive" : "info", title: say.banner.policyUpdate, body: sentence(shown) });
    reasoning.push(quote.changed ? `Policy applied: ${quote.applied.join(", ")}.` : "Policy noted; it does not change the fare.");
  }

  // Accessibility.
  if (accessibility) {
    const ids = route.stops.map((s) => s.station_id);
    const [info] = yield call("station_info", { station_ids: ids, query_type: "accessibility" });
    const results = result<{ results?: { station_id: string; data: { name: string; accessibility: Partial<Accessibility> } }[] }>(info)?.results ?? [];
    const issues = results.filter((r) => !isStepFree(r.data.accessibility));
    const outages = impacts.filter((i) => i.inEffect && ids.some((id) => i.liftsOut.has(id)));
    for (const r of issues) {
      const a = r.data.accessibility;
      const problems = [a.elevator === false ? "elevator out of service" : "", a.step_free === false ? "no step-free access" : a.step_free !== true ? "step-free access not known" : ""].filter(Boolean);
      const banner: Banner = { severity: "warning", title: `Accessibility: ${r.data.name}`, body: `${r.data.name}: ${problems.join(", ")}. Ask staff for assistance at this station.` };
      banners.push(banner);
      const where = voice.station(r.station_id, r.data.name);
      notices.set(banner, a.step_free === null ? say.accessibilityUnknown(where) : say.accessibilityIssues(where, a.elevator !== false, a.step_free === true));
    }
    if (outages.length > 0) {
      yield submit({
        outcome: "service_unavailable",
        action: "refer_to_staff",
        reason: "accessibility_issue",
        message: say.noAccessibleRoute(outages.map((o) => sentence(o.disruption.message ?? ""))),
        banners,
        route: stateRoute(route),
        reasoning: "Elevator outage on the route; no accessible alternative.",
      });
      return;
    }
    if (issues.length > 0) {
      if (outcome === "route_and_fare_ready") {
        outcome = "advisory_only";
        action = "display_info";
      }
      reason = "accessibility_issue";
    } else {
      banners.push({ severity: "info", ...say.banner.accessibleRoute });
    }
  } else {
    // A lift out of service on the way: a rider counted disabled may need it, so ask before selling
    // (unless the passenger said the stairs are fine); everyone else is told and sold the trip.
    const used = new Set(stationsUsed(route.stops));
    const liftsOut = route.stops.filter((s) => used.has(s.station_id) && impacts.some((i) => i.inEffect && i.liftsOut.has(s.station_id)));
    if (liftsOut.length > 0) {
      const names = liftsOut.map((s) => voice.station(s.station_id, s.station_name));
      if (req.riders.disabled > 0 && accessibilityNeed(req.freetexts) === undefined) {
        const question: Clarification = {
          kind: "need",
          question: say.liftOutAsk(names),
          choices: [
            { label: say.stepFreeNeeded, events: [{ type: "freetext_input", text: "I need step-free access" }] },
            { label: say.stairsFine, events: [{ type: "freetext_input", text: "The stairs are fine" }] },
          ],
        };
        yield submit({ outcome: "policy_answer_only", action: "display_info", reason: "ok", message: question.question, banners, route: stateRoute(route), reasoning: "A lift on the route is out and a rider is counted disabled: asked whether step-free access is needed.", clarification: question });
        return;
      }
      const banner: Banner = { severity: "warning", ...say.banner.liftOut(names) };
      banners.push(banner);
      notices.set(banner, say.liftOut(names));
    }
  }

  // Things the passenger asked about on the way: framebook notes and policies.
  const questions = req.freetexts.filter((t) => /\?|\b(can i|do i|is it|are there|allowed)\b/i.test(t));
  for (const note of relevantNotes(framebook.cultural_notes, questions.join(" "))) banners.push({ severity: "info", title: say.banner.goodToKnow, body: note });
  if (questions.length > 0 && intent.kind === "trip") {
    const [kb] = yield call("knowledge_base", { query: questions.join(" ") });
    const top = result<{ found?: boolean; results?: { title: string; content: string }[] }>(kb)?.results?.[0];
    if (top && relevantNotes([`${top.title} ${top.content}`], questions.join(" ")).length > 0) banners.push({ severity: "info", title: top.title, body: top.content });
  }
  if (framebook.cultural_notes.length > 0 && route.stops.some((s) => /terminal|airport/i.test(s.station_name))) {
    for (const note of framebook.cultural_notes.filter((n) => /airport express|airport/i.test(n) && /ticket|window|fare/i.test(n))) banners.push({ severity: "info", title: say.banner.airportTravel, body: note });
  }

  const currency = fare.currency;
  const fareQuote = stateFareQuote(quote, req.riders, currency);
  const ridersText = say.riders(req.riders);
  const fareText = say.fare(voice.fare(quote.total, currency), ridersText);
  // Closed stations the route still passes (trains run through without stopping): said so, never
  // "this route avoids the affected section".
  const closedStations = new Set(impacts.filter((i) => i.inEffect && i.disruption.type === "station_closure").flatMap((i) => [...i.unusableStations]));
  const passed = route.stops.slice(1, -1).filter((s) => closedStations.has(s.station_id));
  const lead =
    outcome === "advisory_only"
      ? reason === "accessibility_issue"
        ? say.leadAccessibility
        : say.leadDisrupted
      : passed.length > 0
        ? say.passThrough(passed.map((s) => voice.station(s.station_id, s.station_name)))
        : route !== planned
          ? say.leadRerouted
          : "";
  const shownNotices = banners
    .filter((b) => b.severity === "critical" || b.severity === "warning")
    .map((b) => (voice.language === "en" ? `${b.title}: ${b.body}` : (notices.get(b) ?? say.englishNotice(`${b.title}: ${b.body}`))));
  const payment = outcome === "route_and_fare_ready" ? say.payment(voice.term(framebook.terminology.smartcard), voice.term(framebook.terminology.contactless)) : "";
  const message = [lead, say.route(routeFacts(route, voice)), fareText, payment, ...shownNotices.slice(0, 2)].filter(Boolean).join(say.gap);
  const confirm = understood.confirm(origin, destination, req.riders, { origin: !!selectedOrigin, destination: !!selectedDestination, riders: req.ridersGiven }, ridersText, {
    origin: nameOf(origin),
    destination: nameOf(destination),
  });
  yield submit({
    outcome,
    action,
    reason,
    message,
    banners,
    route: stateRoute(route),
    fareQuote,
    reasoning: reasoning.join(" ") || "Route and fare from the tools.",
    ...(confirm && outcome === "route_and_fare_ready" ? { clarification: confirm } : {}),
  });
}

export const rulePolicy: Policy = {
  id: "rule",
  start: (setup) => scriptedRun(setup, ruleScript, { restartOnNewTurn: true }),
};
