// The rule policy's terminal passenger messages (answers, refusals, closures, service hours) in the
// kiosk's five languages. English is the benchmark's wording, byte for byte; the others are used at
// a live kiosk when the passenger typed in (or chose on screen) that language. Texts that only exist
// in English (knowledge-base articles, disruption feed messages) are quoted, and the message says so,
// rather than machine-translated. Callers pass names already in the passenger's language. Pure.
import type { PassengerLanguage, RiderCounts } from "./types.ts";

export interface RouteFacts {
  origin: string;
  destination: string;
  stops: number;
  transfers: number;
  /** Names of the stations where the passenger changes, in order. */
  transferAt: readonly string[];
  minutes: number;
  lines: readonly string[];
}

export type OutOfScopeTopic = "taxi" | "weather" | "other";

type HourKey = "weekday" | "saturday" | "sunday" | "default";

/** The day types that have hours, each worded; "every day" when all three are the same (or only a default is given). */
function hoursList(hours: Readonly<Partial<Record<HourKey, string>>>, days: Record<HourKey, string>, item: (from: string, to: string, when: string) => string, separator: string): string {
  const same = hours.weekday !== undefined && hours.weekday === hours.saturday && hours.weekday === hours.sunday;
  const keys: HourKey[] = same ? ["weekday"] : hours.weekday || hours.saturday || hours.sunday ? ["weekday", "saturday", "sunday"] : ["default"];
  const shown = keys.filter((k) => hours[k] !== undefined);
  if (same) return shown.map((k) => item(...((hours[k] as string).split("-") as [string, string]), days.default)).join(separator);
  return shown.map((k) => {
    const [from = "", to = ""] = (hours[k] as string).split("-");
    return item(from, to, days[k]);
  }).join(separator);
}

export interface Answers {
  /** BCP 47 locale for Intl (amounts, numbers). */
  locale: string;
  /** Between sentences: a space, or nothing in Chinese. */
  gap: string;
  riders(riders: RiderCounts): string;
  accessibility(station: string, elevator: boolean, stepFree: boolean): string;
  /** The network's data does not say whether the station is step-free (an imported feed). */
  accessibilityUnknown(station: string): string;
  realTime(station: string, status: string, headwayMin: number | undefined): string;
  noDisruptions(line: string | undefined): string;
  /** Disruption feed messages (operator text, English), each already a sentence. */
  disruptions(messages: readonly string[]): string;
  lineStations(line: string, stations: readonly string[]): string;
  /** A knowledge-base article (English) quoted, with a pointer to a station's connections. */
  policyArticle(title: string, content: string, connectionsAt: string | undefined): string;
  cannotHelp(smartcard: string, org: string): string;
  /** Service hours from the framebook, by day type ("05:30-23:15"), where no article answers. */
  serviceHours(org: string, hours: Readonly<Partial<Record<"weekday" | "saturday" | "sunday" | "default", string>>>): string;
  outOfScope(topic: OutOfScopeTopic, org: string): string;
  manipulation: string;
  contradictory: string;
  invalidRiders: string;
  missingStations: string;
  sameStations(station: string): string;
  noPassengers: string;
  /** Outside service hours; `opens` is a clock time, or undefined when unknown. */
  noService(org: string, hours: string, opens: string | undefined): string;
  noRoute(origin: string, destination: string): string;
  suspended(org: string, messages: readonly string[]): string;
  fareFailed: string;
  noAccessibleRoute(messages: readonly string[]): string;
  leadAccessibility: string;
  leadDisrupted: string;
  leadRerouted: string;
  route(facts: RouteFacts): string;
  fare(total: string, riders: string): string;
  payment(smartcard: string, contactless: string): string;
  /** Notices for the message (the banners have their own wording). */
  closed(station: string, notice: string): string;
  lastTrains(minutes: number, hours: string): string;
  accessibilityIssues(station: string, elevator: boolean, stepFree: boolean): string;
  /** A notice whose text only exists in English. */
  englishNotice(text: string): string;
  /** Trains run through these closed stations without stopping (the route shown passes them). */
  passThrough(stations: readonly string[]): string;
  /** A trip to or from a closed station: no ticket; `until` is a clock time when the notice gives one. */
  stationClosed(station: string, until: string | undefined): string;
  /** A route through a closed station that trains may not pass: no ticket for this route. */
  closedOnRoute(station: string, until: string | undefined): string;
  /** A route that changes trains at a closed station (trains only pass through it): no ticket for this route. */
  closedChange(station: string, until: string | undefined): string;
  /** The operator's notice (its text in the passenger's language where the operator wrote one). */
  operatorNotice(text: string): string;
  /** The alternative the notice names (operator text). */
  noticeAlternative(text: string): string;
  /** Before the tappable choices of open stations. */
  chooseOpenStation: string;
  /** A choice's label: travel to / start from an open station instead of the closed one. */
  insteadChoice(field: "origin" | "destination", station: string): string;
  /** Marks a choice the operator's notice itself recommends. */
  suggestedInNotice(label: string): string;
  /** A lift is out at these stations of the route and a rider is counted disabled: does anyone need step-free access? */
  liftOutAsk(stations: readonly string[]): string;
  /** The choices of that question. */
  stepFreeNeeded: string;
  stairsFine: string;
  /** Told to everyone else: the lift is out at these stations (the trip is still sold). */
  liftOut(stations: readonly string[]): string;
  /** A fare offer in force depends on the passenger (a card, an ID): does it apply to them? */
  offerAsk(notice: string): string;
  offerApplies: string;
  offerDoesNotApply: string;
  /** The passenger says it applies: staff check and issue it. */
  offerStaff(notice: string): string;
  /** A fare notice in force that the kiosk cannot price: staff sell the ticket. */
  fareUnread(notice: string): string;
  /** The rule policy's own banners (operator and feed texts keep their words). */
  banner: BannerTexts;
}

export interface BannerText {
  title: string;
  body: string;
}

export interface BannerTexts {
  /** `opens` is a clock time, or undefined when unknown. */
  noService(opens: string | undefined, hours: string): BannerText;
  /** `lines` are already names in the passenger's language. */
  nightService(lines: readonly string[], headwayMin: number | undefined): BannerText;
  lastTrains(minutes: number, hours: string): BannerText;
  accessibleRoute: BannerText;
  liftOut(stations: readonly string[]): BannerText;
  policyUpdate: string;
  goodToKnow: string;
  airportTravel: string;
}

/** English line lists keep the arrow they have always had ("Red Line → Blue Line"): bench output is byte-identical. */
const englishList = (items: readonly string[]): string => items.join(" → ");

const EN_RIDERS: Record<keyof RiderCounts, [string, string]> = {
  adults: ["adult", "adults"],
  children: ["child", "children"],
  seniors: ["senior", "seniors"],
  disabled: ["disabled rider", "disabled riders"],
};
const RIDER_KEYS = ["adults", "children", "seniors", "disabled"] as const;

const riderList = (riders: RiderCounts, word: (key: keyof RiderCounts, n: number) => string, sep: string, none: string): string =>
  RIDER_KEYS.filter((k) => riders[k] > 0)
    .map((k) => word(k, riders[k]))
    .join(sep) || none;

const joined = (messages: readonly string[]): string => messages.join(" ");

const en: Answers = {
  locale: "en-US",
  gap: " ",
  riders: (r) => riderList(r, (k, n) => `${n} ${n === 1 ? EN_RIDERS[k][0] : EN_RIDERS[k][1]}`, ", ", "no passengers"),
  accessibilityUnknown: (s) => `We do not know whether ${s} has step-free access. Please ask staff before you travel.`,
  accessibility: (s, e, f) => `At ${s}, ${e ? "elevators are in service" : "there is no working elevator"} and ${f ? "step-free access is available" : "step-free access is not available"}.`,
  realTime: (s, status, h) => `${s} is ${status}. This kiosk has no live arrival or crowding data.${h !== undefined ? ` Trains run about every ${h} minutes.` : ""}`,
  noDisruptions: (l) => `There are no reported disruptions${l ? ` on the ${l}` : ""} right now.`,
  disruptions: joined,
  lineStations: (l, names) => `The ${l} serves ${names.length} stations: ${names.join(", ")}. The network map is shown on screen.`,
  policyArticle: (t, c, s) => `${t}: ${c}${s ? ` Connections at ${s} are listed on the station map.` : ""}`,
  serviceHours: (org, h) => `${org} trains run ${hoursList(h, { weekday: "on weekdays", saturday: "on Saturdays", sunday: "on Sundays", default: "every day" }, (from, to, when) => `${from}–${to} ${when}`, ", ")}.`,
  cannotHelp: (card, org) => `I can help with routes, fares and ${card} tickets on the ${org} network, but not with that request.`,
  outOfScope: (topic, org) =>
    `Sorry, this kiosk cannot help with ${topic === "taxi" ? "taxis or ride services" : topic === "weather" ? "weather information" : "that"}. I can plan ${org} trips and sell tickets.`,
  manipulation: "I can only sell tickets at the published fares and follow the kiosk's rules. Please ask a member of staff for anything else.",
  contradictory: "Your request asks for things that cannot all be true at once. Please choose one option, for example the fastest route.",
  invalidRiders: "Passenger numbers must be whole numbers of zero or more. Please correct the passenger count.",
  missingStations: "Please select both an origin and a destination station.",
  sameStations: (s) => `Origin and destination are both ${s}. Please choose a different destination.`,
  noPassengers: "Please add at least one passenger.",
  noService: (org, h, o) => `There is no ${org} service right now (service hours ${h}). The first train runs at ${o ?? "the morning"}; no ticket can be sold for this trip now.`,
  noRoute: (o, d) => `No route could be planned from ${o} to ${d}.`,
  suspended: (org, m) => `All ${org} service is suspended. ${joined(m)} No tickets can be sold now.`,
  fareFailed: "The fare for this trip could not be calculated. Please ask a member of staff.",
  noAccessibleRoute: (m) => `There is no accessible route for this trip right now. ${joined(m)} Please ask a member of staff for assistance.`,
  leadAccessibility: "Accessibility issues on this route — please read the notices before travelling.",
  leadDisrupted: "Service on this trip is disrupted — please read the notices; tickets are not sold for this trip right now.",
  leadRerouted: "Your usual route is disrupted, so this route avoids the affected section.",
  route: (r) =>
    `${r.origin} to ${r.destination}: ${r.stops} stops, ${r.transfers === 0 ? "no transfers" : `${r.transfers} transfer${r.transfers === 1 ? "" : "s"}`}${
      r.transferAt.length > 0 ? ` (change at ${r.transferAt.join(", ")})` : ""
    }, about ${r.minutes} min on ${r.lines.join(" → ")}.`,
  fare: (t, r) => `Fare: ${t} for ${r}.`,
  payment: (card, contactless) => `Pay with ${card} or ${contactless}.`,
  // English notices are the banners' own "title: body" (built by the policy), so these are unused.
  closed: (s, n) => `${s} is closed: ${n}`,
  lastTrains: (m, h) => `Last trains soon: Service closes in about ${m} minutes (hours ${h}). Travel now to catch the last train.`,
  accessibilityIssues: (s, e, f) => `Accessibility: ${s}: ${[!e ? "elevator out of service" : "", !f ? "no step-free access" : ""].filter(Boolean).join(", ")}. Ask staff for assistance at this station.`,
  englishNotice: (t) => t,
  passThrough: (s) => `Trains pass through ${s.join(", ")} without stopping: ${s.length === 1 ? "the station is" : "the stations are"} closed, so you cannot get on, off or change trains there.`,
  stationClosed: (s, u) => `${s} station is closed${u ? ` until ${u}` : ""}. No ticket is sold to or from it now.`,
  closedOnRoute: (s, u) => `This route passes through ${s} station, which is closed${u ? ` until ${u}` : ""}, and the notice does not say trains still run through it. No ticket is sold for this route now.`,
  closedChange: (s, u) => `This route changes trains at ${s} station, which is closed${u ? ` until ${u}` : ""}: trains pass through it without stopping. No ticket is sold for this route now.`,
  operatorNotice: (t) => `Notice: ${t}`,
  noticeAlternative: (t) => `Suggested instead: ${t}`,
  chooseOpenStation: "Choose an open station nearby:",
  insteadChoice: (f, s) => (f === "origin" ? `Start from ${s} instead` : `Go to ${s} instead`),
  suggestedInNotice: (l) => `${l} (suggested in the notice)`,
  offerAsk: (n) => `${n} Does this offer apply to you?`,
  offerApplies: "Yes, it applies to me",
  offerDoesNotApply: "No, I pay the usual fare",
  offerStaff: (n) => `${n} The kiosk cannot check this offer: please ask a member of staff, who will issue it.`,
  fareUnread: (n) => `${n} The kiosk cannot work out the fare under this notice: please ask a member of staff for this ticket.`,
  liftOutAsk: (s) => `The lift at ${s.join(", ")} is out of service. Does anyone travelling need step-free access?`,
  stepFreeNeeded: "Yes, step-free access is needed",
  stairsFine: "No, we can use the stairs",
  liftOut: (s) => `The lift at ${s.join(", ")} is out of service: there are stairs only.`,
  banner: {
    noService: (opens, hours) => ({ title: "No service at this hour", body: `Service is closed now. Trains resume at ${opens ?? "the morning"} (hours ${hours}).` }),
    nightService: (lines, headway) => ({ title: "Night service", body: `Only the ${englishList(lines)} run overnight${headway ? `, about every ${headway} minutes` : ""}.` }),
    lastTrains: (m, h) => ({ title: "Last trains soon", body: `Service closes in about ${m} minutes (hours ${h}). Travel now to catch the last train.` }),
    accessibleRoute: { title: "Accessible route", body: "Every station on this route has working elevators and step-free access." },
    liftOut: (s) => ({ title: "Lift out of service", body: `The lift at ${s.join(", ")} is out of service: there are stairs only.` }),
    policyUpdate: "Policy update",
    goodToKnow: "Good to know",
    airportTravel: "Airport travel",
  },
};

const ES_RIDERS: Record<keyof RiderCounts, [string, string]> = {
  adults: ["adulto", "adultos"],
  children: ["niño", "niños"],
  seniors: ["persona mayor", "personas mayores"],
  disabled: ["pasajero con discapacidad", "pasajeros con discapacidad"],
};

const es: Answers = {
  locale: "es-US",
  gap: " ",
  riders: (r) => riderList(r, (k, n) => `${n} ${n === 1 ? ES_RIDERS[k][0] : ES_RIDERS[k][1]}`, ", ", "ningún pasajero"),
  accessibilityUnknown: (s) => `No sabemos si ${s} tiene acceso sin escalones. Pregunte al personal antes de viajar.`,
  accessibility: (s, e, f) => `En ${s}, ${e ? "los ascensores funcionan" : "no hay ningún ascensor en servicio"} y ${f ? "hay acceso sin escalones" : "no hay acceso sin escalones"}.`,
  realTime: (s, status, h) =>
    `${s}: ${status === "open" ? "abierta" : status === "closed" ? "cerrada" : status}. Este quiosco no tiene datos de llegadas ni de ocupación en tiempo real.${h !== undefined ? ` Los trenes pasan cada ${h} minutos aproximadamente.` : ""}`,
  noDisruptions: (l) => `No hay incidencias comunicadas${l ? ` en la ${l}` : ""} en este momento.`,
  disruptions: (m) => `Avisos del operador (solo en inglés): ${joined(m)}`,
  lineStations: (l, names) => `La ${l} tiene ${names.length} estaciones: ${names.join(", ")}. El mapa de la red se muestra en pantalla.`,
  policyArticle: (t, c, s) => `Esta información solo está disponible en inglés. ${t}: ${c}${s ? ` Las conexiones en ${s} figuran en el plano de la estación.` : ""}`,
  serviceHours: (org, h) => `Los trenes de ${org} circulan ${hoursList(h, { weekday: "entre semana", saturday: "los sábados", sunday: "los domingos", default: "todos los días" }, (from, to, when) => `${when} de ${from} a ${to}`, ", ")}.`,
  cannotHelp: (card, org) => `Puedo ayudarle con rutas, tarifas y billetes ${card} de la red de ${org}, pero no con esa solicitud.`,
  outOfScope: (topic, org) =>
    `Lo siento, este quiosco no puede ayudarle con ${topic === "taxi" ? "taxis ni servicios de transporte privado" : topic === "weather" ? "información del tiempo" : "eso"}. Puedo planificar viajes de ${org} y vender billetes.`,
  manipulation: "Solo puedo vender billetes a las tarifas publicadas y seguir las normas del quiosco. Para cualquier otra cosa, pregunte al personal.",
  contradictory: "Su solicitud pide cosas que no pueden cumplirse a la vez. Elija una opción, por ejemplo la ruta más rápida.",
  invalidRiders: "El número de pasajeros debe ser un número entero, cero o mayor. Corrija el número de pasajeros.",
  missingStations: "Elija una estación de origen y una de destino.",
  sameStations: (s) => `El origen y el destino son ambos ${s}. Elija otro destino.`,
  noPassengers: "Añada al menos un pasajero.",
  noService: (org, h, o) => `Ahora no hay servicio de ${org} (horario ${h}). El primer tren sale a las ${o ?? "primera hora de la mañana"}; ahora no se pueden vender billetes para este viaje.`,
  noRoute: (o, d) => `No se pudo planificar una ruta de ${o} a ${d}.`,
  suspended: (org, m) => `Todo el servicio de ${org} está suspendido. No se pueden vender billetes ahora. Aviso del operador (solo en inglés): ${joined(m)}`,
  fareFailed: "No se pudo calcular la tarifa de este viaje. Pregunte al personal.",
  noAccessibleRoute: (m) => `Ahora no hay una ruta accesible para este viaje. Pregunte al personal para recibir ayuda. Aviso del operador (solo en inglés): ${joined(m)}`,
  leadAccessibility: "Hay problemas de accesibilidad en esta ruta; lea los avisos antes de viajar.",
  leadDisrupted: "El servicio de este viaje tiene incidencias; lea los avisos. Ahora no se venden billetes para este viaje.",
  leadRerouted: "Su ruta habitual tiene incidencias, así que esta ruta evita el tramo afectado.",
  route: (r) =>
    `De ${r.origin} a ${r.destination}: ${r.stops} paradas, ${r.transfers === 0 ? "sin transbordos" : `${r.transfers} transbordo${r.transfers === 1 ? "" : "s"}`}${
      r.transferAt.length > 0 ? ` (cambie en ${r.transferAt.join(", ")})` : ""
    }, unos ${r.minutes} min en ${r.lines.join(" → ")}.`,
  fare: (t, r) => `Tarifa: ${t} para ${r}.`,
  payment: (card, contactless) => `Pague con ${card} o ${contactless}.`,
  closed: (s, n) => `La estación ${s} está cerrada. Aviso del operador (solo en inglés): ${n}`,
  lastTrains: (m, h) => `Últimos trenes: el servicio termina en unos ${m} minutos (horario ${h}). Viaje ahora para alcanzar el último tren.`,
  accessibilityIssues: (s, e, f) =>
    `Accesibilidad en ${s}: ${[!e ? "ascensor fuera de servicio" : "", !f ? "sin acceso sin escalones" : ""].filter(Boolean).join(", ")}. Pida ayuda al personal en esta estación.`,
  englishNotice: (t) => `Aviso (solo en inglés): ${t}`,
  passThrough: (s) => `Los trenes pasan por ${s.join(", ")} sin parar: ${s.length === 1 ? "la estación está cerrada" : "las estaciones están cerradas"}, así que no se puede subir, bajar ni hacer transbordo allí.`,
  stationClosed: (s, u) => `La estación ${s} está cerrada${u ? ` hasta las ${u}` : ""}. Ahora no se venden billetes desde ni hacia ella.`,
  closedOnRoute: (s, u) => `Esta ruta pasa por la estación ${s}, que está cerrada${u ? ` hasta las ${u}` : ""}, y el aviso no dice que los trenes sigan pasando por ella. Ahora no se venden billetes para esta ruta.`,
  closedChange: (s, u) => `Esta ruta hace transbordo en la estación ${s}, que está cerrada${u ? ` hasta las ${u}` : ""}: los trenes pasan sin parar. Ahora no se venden billetes para esta ruta.`,
  operatorNotice: (t) => `Aviso: ${t}`,
  noticeAlternative: (t) => `Alternativa sugerida: ${t}`,
  chooseOpenStation: "Elija una estación abierta cercana:",
  insteadChoice: (f, s) => (f === "origin" ? `Salir desde ${s}` : `Ir a ${s}`),
  suggestedInNotice: (l) => `${l} (sugerida en el aviso)`,
  offerAsk: (n) => `Aviso del operador: ${n} ¿Se aplica esta oferta a usted?`,
  offerApplies: "Sí, se aplica a mí",
  offerDoesNotApply: "No, pago la tarifa normal",
  offerStaff: (n) => `Aviso del operador: ${n} El quiosco no puede comprobar esta oferta: pregunte al personal, que se la dará.`,
  fareUnread: (n) => `Aviso del operador: ${n} El quiosco no puede calcular la tarifa con este aviso: pida este billete al personal.`,
  liftOutAsk: (s) => `El ascensor de ${s.join(", ")} está fuera de servicio. ¿Alguien del grupo necesita acceso sin escalones?`,
  stepFreeNeeded: "Sí, necesitamos acceso sin escalones",
  stairsFine: "No, podemos usar las escaleras",
  liftOut: (s) => `El ascensor de ${s.join(", ")} está fuera de servicio: solo hay escaleras.`,
  banner: {
    noService: (opens, hours) => ({ title: "Sin servicio a esta hora", body: `El servicio está cerrado. Los trenes vuelven a circular ${opens ? `a las ${opens}` : "por la mañana"} (horario ${hours}).` }),
    nightService: (lines, headway) => ({ title: "Servicio nocturno", body: `Solo ${lines.join(", ")} circula${lines.length > 1 ? "n" : ""} toda la noche${headway ? `, cada ${headway} minutos aproximadamente` : ""}.` }),
    lastTrains: (m, h) => ({ title: "Últimos trenes", body: `El servicio termina en unos ${m} minutos (horario ${h}). Viaje ahora para alcanzar el último tren.` }),
    accessibleRoute: { title: "Ruta accesible", body: "Todas las estaciones de esta ruta tienen ascensores en servicio y acceso sin escalones." },
    liftOut: (s) => ({ title: "Ascensor fuera de servicio", body: `El ascensor de ${s.join(", ")} está fuera de servicio: solo hay escaleras.` }),
    policyUpdate: "Aviso de tarifas",
    goodToKnow: "Conviene saber",
    airportTravel: "Viaje al aeropuerto",
  },
};

const ZH_RIDERS: Record<"zh-Hans" | "zh-Hant", Record<keyof RiderCounts, string>> = {
  "zh-Hans": { adults: "成人", children: "儿童", seniors: "老人", disabled: "残障乘客" },
  "zh-Hant": { adults: "成人", children: "兒童", seniors: "敬老乘客", disabled: "身障乘客" },
};

const zhHans: Answers = {
  locale: "zh-CN",
  gap: "",
  riders: (r) => riderList(r, (k, n) => `${n}位${ZH_RIDERS["zh-Hans"][k]}`, "、", "没有乘客"),
  accessibilityUnknown: (s) => `我们不清楚${s}是否有无障碍通道。出行前请向工作人员咨询。`,
  accessibility: (s, e, f) => `${s}：${e ? "电梯正常运行" : "没有可用的电梯"}，${f ? "有无障碍通道" : "没有无障碍通道"}。`,
  realTime: (s, status, h) =>
    `${s}${status === "open" ? "正常开放" : status === "closed" ? "已关闭" : `：${status}`}。本机没有实时到站或拥挤度信息。${h !== undefined ? `列车大约每${h}分钟一班。` : ""}`,
  noDisruptions: (l) => `目前${l ? `${l}` : ""}没有运营异常报告。`,
  disruptions: (m) => `运营通告（仅有英文）：${joined(m)}`,
  lineStations: (l, names) => `${l}共有${names.length}座车站：${names.join("、")}。屏幕上显示线网图。`,
  policyArticle: (t, c, s) => `此信息仅有英文版本。${t}: ${c}${s ? ` ${s}的换乘信息见车站示意图。` : ""}`,
  serviceHours: (org, h) => `${org}运营时间：${hoursList(h, { weekday: "工作日", saturday: "周六", sunday: "周日", default: "每天" }, (from, to, when) => `${when} ${from}–${to}`, "，")}。`,
  cannotHelp: (card, org) => `我可以帮您查询${org}的路线、票价和${card}车票，但无法办理这项请求。`,
  outOfScope: (topic, org) => `抱歉，本机无法提供${topic === "taxi" ? "出租车或网约车服务" : topic === "weather" ? "天气信息" : "这项帮助"}。我可以规划${org}行程并售票。`,
  manipulation: "我只能按公布的票价售票并遵守售票机的规定。其他事项请询问工作人员。",
  contradictory: "您的要求互相矛盾，无法同时满足。请选择一项，例如最快路线。",
  invalidRiders: "乘客人数必须是零或正整数。请更正乘客人数。",
  missingStations: "请选择出发站和到达站。",
  sameStations: (s) => `出发站和到达站都是${s}。请选择其他目的地。`,
  noPassengers: "请至少添加一位乘客。",
  noService: (org, h, o) => `${org}现在不运营（运营时间${h}）。首班车${o ? `${o}发车` : "明早发车"}；现在无法出售此行程的车票。`,
  noRoute: (o, d) => `无法规划从${o}到${d}的路线。`,
  suspended: (org, m) => `${org}全线停运，现在无法售票。运营通告（仅有英文）：${joined(m)}`,
  fareFailed: "无法计算此行程的票价。请询问工作人员。",
  noAccessibleRoute: (m) => `此行程目前没有无障碍路线。请向工作人员寻求帮助。运营通告（仅有英文）：${joined(m)}`,
  leadAccessibility: "此路线存在无障碍问题，出行前请阅读通告。",
  leadDisrupted: "此行程的运营受到影响，请阅读通告；目前不出售此行程的车票。",
  leadRerouted: "您的常用路线受到影响，此路线已避开受影响区段。",
  route: (r) =>
    `${r.origin}到${r.destination}：${r.stops}站，${r.transfers === 0 ? "无需换乘" : `换乘${r.transfers}次`}${r.transferAt.length > 0 ? `（在${r.transferAt.join("、")}换乘）` : ""}，乘坐${r.lines.join(" → ")}约${r.minutes}分钟。`,
  fare: (t, r) => `票价：${t}（${r}）。`,
  payment: (card, contactless) => `可使用${card}或${contactless}支付。`,
  closed: (s, n) => `${s}已关闭。运营通告（仅有英文）：${n}`,
  lastTrains: (m, h) => `末班车即将发出：约${m}分钟后停止运营（运营时间${h}）。请尽快出行。`,
  accessibilityIssues: (s, e, f) => `${s}无障碍提示：${[!e ? "电梯停用" : "", !f ? "没有无障碍通道" : ""].filter(Boolean).join("，")}。请在该站向工作人员寻求帮助。`,
  englishNotice: (t) => `通告（仅有英文）：${t}`,
  passThrough: (s) => `列车经过${s.join("、")}不停车：该站已关闭，不能在该站上下车或换乘。`,
  stationClosed: (s, u) => `${s}站已关闭${u ? `，至${u}` : ""}。现在不出售往返该站的车票。`,
  closedOnRoute: (s, u) => `此路线经过已关闭的${s}站${u ? `（至${u}）` : ""}，通告未说明列车仍可通过该站。现在不出售此路线的车票。`,
  closedChange: (s, u) => `此路线需在已关闭的${s}站换乘${u ? `（至${u}）` : ""}：列车经过该站不停车。现在不出售此路线的车票。`,
  operatorNotice: (t) => `通告：${t}`,
  noticeAlternative: (t) => `建议改为：${t}`,
  chooseOpenStation: "请选择附近开放的车站：",
  insteadChoice: (f, s) => (f === "origin" ? `改从${s}出发` : `改到${s}`),
  suggestedInNotice: (l) => `${l}（通告建议）`,
  offerAsk: (n) => `运营通告：${n} 此优惠适用于您吗？`,
  offerApplies: "适用，我符合条件",
  offerDoesNotApply: "不适用，按正常票价",
  offerStaff: (n) => `运营通告：${n} 自助机无法核实此优惠，请向工作人员办理。`,
  fareUnread: (n) => `运营通告：${n} 自助机无法按此通告计算票价，请向工作人员购票。`,
  liftOutAsk: (s) => `${s.join("、")}的电梯暂停使用。请问同行乘客中有人需要无障碍通道吗？`,
  stepFreeNeeded: "需要无障碍通道",
  stairsFine: "不需要，我们可以走楼梯",
  liftOut: (s) => `${s.join("、")}的电梯暂停使用，只能走楼梯。`,
  banner: {
    noService: (opens, hours) => ({ title: "此时段无列车服务", body: `目前已停止运营。列车将于${opens ?? "早上"}恢复运行（运营时间${hours}）。` }),
    nightService: (lines, headway) => ({ title: "夜间服务", body: `只有${lines.join("、")}通宵运营${headway ? `，约每${headway}分钟一班` : ""}。` }),
    lastTrains: (m, h) => ({ title: "末班车即将发出", body: `约${m}分钟后停止运营（运营时间${h}）。请尽快出行。` }),
    accessibleRoute: { title: "无障碍路线", body: "本路线各站电梯均正常运行，全程无台阶。" },
    liftOut: (s) => ({ title: "电梯暂停使用", body: `${s.join("、")}的电梯暂停使用，只能走楼梯。` }),
    policyUpdate: "票价公告",
    goodToKnow: "温馨提示",
    airportTravel: "机场出行",
  },
};

const zhHant: Answers = {
  locale: "zh-TW",
  gap: "",
  riders: (r) => riderList(r, (k, n) => `${n}位${ZH_RIDERS["zh-Hant"][k]}`, "、", "沒有乘客"),
  accessibilityUnknown: (s) => `我們不清楚${s}是否有無障礙通道。出行前請向站務人員詢問。`,
  accessibility: (s, e, f) => `${s}：${e ? "電梯正常運作" : "沒有可用的電梯"}，${f ? "有無障礙通道" : "沒有無障礙通道"}。`,
  realTime: (s, status, h) =>
    `${s}${status === "open" ? "正常開放" : status === "closed" ? "已關閉" : `：${status}`}。本機沒有即時到站或擁擠度資訊。${h !== undefined ? `列車大約每${h}分鐘一班。` : ""}`,
  noDisruptions: (l) => `目前${l ? `${l}` : ""}沒有營運異常通報。`,
  disruptions: (m) => `營運公告（僅有英文）：${joined(m)}`,
  lineStations: (l, names) => `${l}共有${names.length}個車站：${names.join("、")}。螢幕上顯示路網圖。`,
  policyArticle: (t, c, s) => `此資訊僅有英文版本。${t}: ${c}${s ? ` ${s}的轉乘資訊請見車站示意圖。` : ""}`,
  serviceHours: (org, h) => `${org}營運時間：${hoursList(h, { weekday: "平日", saturday: "週六", sunday: "週日", default: "每天" }, (from, to, when) => `${when} ${from}–${to}`, "，")}。`,
  cannotHelp: (card, org) => `我可以協助查詢${org}的路線、票價和${card}車票，但無法處理這項要求。`,
  outOfScope: (topic, org) => `抱歉，本機無法提供${topic === "taxi" ? "計程車或叫車服務" : topic === "weather" ? "天氣資訊" : "這項協助"}。我可以規劃${org}行程並售票。`,
  manipulation: "我只能依公告票價售票並遵守售票機的規定。其他事項請詢問站務人員。",
  contradictory: "您的要求互相矛盾，無法同時滿足。請選擇一項，例如最快路線。",
  invalidRiders: "乘客人數必須是零或正整數。請更正乘客人數。",
  missingStations: "請選擇出發站和抵達站。",
  sameStations: (s) => `出發站和抵達站都是${s}。請選擇其他目的地。`,
  noPassengers: "請至少新增一位乘客。",
  noService: (org, h, o) => `${org}目前沒有營運（營運時間${h}）。首班車${o ? `${o}發車` : "明早發車"}；目前無法販售此行程的車票。`,
  noRoute: (o, d) => `無法規劃從${o}到${d}的路線。`,
  suspended: (org, m) => `${org}全線停駛，目前無法售票。營運公告（僅有英文）：${joined(m)}`,
  fareFailed: "無法計算此行程的票價。請詢問站務人員。",
  noAccessibleRoute: (m) => `此行程目前沒有無障礙路線。請向站務人員尋求協助。營運公告（僅有英文）：${joined(m)}`,
  leadAccessibility: "此路線有無障礙問題，出發前請閱讀公告。",
  leadDisrupted: "此行程的營運受到影響，請閱讀公告；目前不販售此行程的車票。",
  leadRerouted: "您的常用路線受到影響，此路線已避開受影響區段。",
  route: (r) =>
    `${r.origin}到${r.destination}：${r.stops}站，${r.transfers === 0 ? "不需轉乘" : `轉乘${r.transfers}次`}${r.transferAt.length > 0 ? `（在${r.transferAt.join("、")}轉乘）` : ""}，搭乘${r.lines.join(" → ")}約${r.minutes}分鐘。`,
  fare: (t, r) => `票價：${t}（${r}）。`,
  payment: (card, contactless) => `可使用${card}或${contactless}付款。`,
  closed: (s, n) => `${s}已關閉。營運公告（僅有英文）：${n}`,
  lastTrains: (m, h) => `末班車即將發車：約${m}分鐘後停止營運（營運時間${h}）。請儘快出發。`,
  accessibilityIssues: (s, e, f) => `${s}無障礙提示：${[!e ? "電梯停用" : "", !f ? "沒有無障礙通道" : ""].filter(Boolean).join("，")}。請在該站向站務人員尋求協助。`,
  englishNotice: (t) => `公告（僅有英文）：${t}`,
  passThrough: (s) => `列車經過${s.join("、")}不停車：該站已關閉，不能在該站上下車或轉乘。`,
  stationClosed: (s, u) => `${s}站已關閉${u ? `，至${u}` : ""}。目前不出售往返該站的車票。`,
  closedOnRoute: (s, u) => `此路線經過已關閉的${s}站${u ? `（至${u}）` : ""}，公告未說明列車仍可通過該站。目前不出售此路線的車票。`,
  closedChange: (s, u) => `此路線需在已關閉的${s}站轉乘${u ? `（至${u}）` : ""}：列車經過該站不停車。目前不出售此路線的車票。`,
  operatorNotice: (t) => `公告：${t}`,
  noticeAlternative: (t) => `建議改為：${t}`,
  chooseOpenStation: "請選擇附近開放的車站：",
  insteadChoice: (f, s) => (f === "origin" ? `改從${s}出發` : `改到${s}`),
  suggestedInNotice: (l) => `${l}（公告建議）`,
  offerAsk: (n) => `營運公告：${n} 此優惠適用於您嗎？`,
  offerApplies: "適用，我符合條件",
  offerDoesNotApply: "不適用，按一般票價",
  offerStaff: (n) => `營運公告：${n} 自助機無法核實此優惠，請向站務人員辦理。`,
  fareUnread: (n) => `營運公告：${n} 自助機無法依此公告計算票價，請向站務人員購票。`,
  liftOutAsk: (s) => `${s.join("、")}的電梯暫停使用。請問同行乘客中有人需要無障礙通道嗎？`,
  stepFreeNeeded: "需要無障礙通道",
  stairsFine: "不需要，我們可以走樓梯",
  liftOut: (s) => `${s.join("、")}的電梯暫停使用，只能走樓梯。`,
  banner: {
    noService: (opens, hours) => ({ title: "此時段無列車服務", body: `目前已停止營運。列車將於${opens ?? "早上"}恢復行駛（營運時間${hours}）。` }),
    nightService: (lines, headway) => ({ title: "夜間服務", body: `只有${lines.join("、")}通宵營運${headway ? `，約每${headway}分鐘一班` : ""}。` }),
    lastTrains: (m, h) => ({ title: "末班車即將發車", body: `約${m}分鐘後停止營運（營運時間${h}）。請儘快出發。` }),
    accessibleRoute: { title: "無障礙路線", body: "本路線各站電梯皆正常運作，全程無階梯。" },
    liftOut: (s) => ({ title: "電梯暫停使用", body: `${s.join("、")}的電梯暫停使用，只能走樓梯。` }),
    policyUpdate: "票價公告",
    goodToKnow: "貼心提醒",
    airportTravel: "機場交通",
  },
};

const AR_RIDERS: Record<keyof RiderCounts, [string, string]> = {
  adults: ["بالغ", "بالغين"],
  children: ["طفل", "أطفال"],
  seniors: ["مسن", "مسنين"],
  disabled: ["راكب من ذوي الإعاقة", "ركاب من ذوي الإعاقة"],
};

const ar: Answers = {
  // Latin digits, as on the Arabic screen and in the station data.
  locale: "ar-QA-u-nu-latn",
  gap: " ",
  riders: (r) => riderList(r, (k, n) => `${n} ${n === 1 ? AR_RIDERS[k][0] : AR_RIDERS[k][1]}`, "، ", "لا يوجد ركاب"),
  accessibilityUnknown: (s) => `لا نعرف إن كانت محطة ${s} تتيح الدخول دون درج. يرجى سؤال الموظفين قبل السفر.`,
  accessibility: (s, e, f) => `في محطة ${s}، ${e ? "المصاعد تعمل" : "لا يوجد مصعد يعمل"} و${f ? "يتوفر دخول دون درج" : "لا يتوفر دخول دون درج"}.`,
  realTime: (s, status, h) =>
    `محطة ${s} ${status === "open" ? "مفتوحة" : status === "closed" ? "مغلقة" : status}. لا تتوفر لدى هذا الجهاز بيانات مباشرة عن مواعيد الوصول أو الازدحام.${h !== undefined ? ` تمر القطارات كل ${h} دقائق تقريبًا.` : ""}`,
  noDisruptions: (l) => `لا توجد اضطرابات مُبلغ عنها${l ? ` على ${l}` : ""} حاليًا.`,
  disruptions: (m) => `تنبيهات المشغل (بالإنجليزية فقط): ${joined(m)}`,
  lineStations: (l, names) => `يخدم ${l} ${names.length} محطة: ${names.join("، ")}. خريطة الشبكة معروضة على الشاشة.`,
  policyArticle: (t, c, s) => `هذه المعلومات متوفرة بالإنجليزية فقط. ${t}: ${c}${s ? ` وصلات محطة ${s} مبينة على خريطة المحطة.` : ""}`,
  serviceHours: (org, h) => `تعمل قطارات ${org} ${hoursList(h, { weekday: "أيام الأسبوع", saturday: "يوم السبت", sunday: "يوم الأحد", default: "كل يوم" }, (from, to, when) => `${when} من ${from} إلى ${to}`, "، ")}.`,
  cannotHelp: (card, org) => `يمكنني المساعدة في المسارات والأجرة وتذاكر ${card} على شبكة ${org}، لكن ليس في هذا الطلب.`,
  outOfScope: (topic, org) =>
    `عذرًا، لا يمكن لهذا الجهاز المساعدة في ${topic === "taxi" ? "سيارات الأجرة أو خدمات التوصيل" : topic === "weather" ? "معلومات الطقس" : "ذلك"}. يمكنني تخطيط رحلات ${org} وبيع التذاكر.`,
  manipulation: "لا يمكنني بيع التذاكر إلا بالأسعار المعلنة ووفق قواعد الجهاز. يرجى سؤال الموظفين عن أي شيء آخر.",
  contradictory: "طلبك يتضمن أمورًا لا يمكن أن تتحقق معًا. يرجى اختيار خيار واحد، مثل أسرع مسار.",
  invalidRiders: "يجب أن يكون عدد الركاب عددًا صحيحًا صفرًا أو أكثر. يرجى تصحيح عدد الركاب.",
  missingStations: "يرجى اختيار محطة الانطلاق ومحطة الوصول.",
  sameStations: (s) => `محطة الانطلاق والوصول كلتاهما ${s}. يرجى اختيار وجهة أخرى.`,
  noPassengers: "يرجى إضافة راكب واحد على الأقل.",
  noService: (org, h, o) => `لا توجد خدمة ${org} الآن (ساعات الخدمة ${h}). ${o ? `يغادر أول قطار الساعة ${o}` : "يغادر أول قطار في الصباح"}؛ لا يمكن بيع تذكرة لهذه الرحلة الآن.`,
  noRoute: (o, d) => `تعذر تخطيط مسار من ${o} إلى ${d}.`,
  suspended: (org, m) => `جميع خدمات ${org} متوقفة، ولا يمكن بيع التذاكر الآن. تنبيه المشغل (بالإنجليزية فقط): ${joined(m)}`,
  fareFailed: "تعذر حساب أجرة هذه الرحلة. يرجى سؤال الموظفين.",
  noAccessibleRoute: (m) => `لا يوجد مسار مهيأ لذوي الإعاقة لهذه الرحلة الآن. يرجى طلب المساعدة من الموظفين. تنبيه المشغل (بالإنجليزية فقط): ${joined(m)}`,
  leadAccessibility: "توجد مشكلات في إمكانية الوصول على هذا المسار — يرجى قراءة التنبيهات قبل السفر.",
  leadDisrupted: "الخدمة في هذه الرحلة مضطربة — يرجى قراءة التنبيهات؛ لا تُباع تذاكر لهذه الرحلة الآن.",
  leadRerouted: "مسارك المعتاد متأثر باضطراب، لذا يتجنب هذا المسار الجزء المتأثر.",
  route: (r) =>
    `من ${r.origin} إلى ${r.destination}: ${r.stops} محطات، ${r.transfers === 0 ? "دون تبديل" : `${r.transfers} تبديل`}${
      r.transferAt.length > 0 ? ` (التبديل في ${r.transferAt.join("، ")})` : ""
    }، نحو ${r.minutes} دقيقة على ${r.lines.join(" \u200f←\u200f ")}.`,
  fare: (t, r) => `الأجرة: ${t} لـ ${r}.`,
  payment: (card, contactless) => `ادفع باستخدام ${card} أو ${contactless}.`,
  closed: (s, n) => `محطة ${s} مغلقة. تنبيه المشغل (بالإنجليزية فقط): ${n}`,
  lastTrains: (m, h) => `آخر القطارات قريبًا: تنتهي الخدمة بعد نحو ${m} دقيقة (ساعات الخدمة ${h}). سافر الآن لتلحق بآخر قطار.`,
  accessibilityIssues: (s, e, f) => `إمكانية الوصول في محطة ${s}: ${[!e ? "المصعد معطل" : "", !f ? "لا يوجد دخول دون درج" : ""].filter(Boolean).join("، ")}. اطلب المساعدة من الموظفين في هذه المحطة.`,
  englishNotice: (t) => `تنبيه (بالإنجليزية فقط): ${t}`,
  passThrough: (s) => `تمر القطارات عبر ${s.join("، ")} دون توقف: المحطة مغلقة، فلا يمكن الصعود أو النزول أو تبديل القطار فيها.`,
  stationClosed: (s, u) => `محطة ${s} مغلقة${u ? ` حتى ${u}` : ""}. لا تُباع الآن تذاكر منها أو إليها.`,
  closedOnRoute: (s, u) => `يمر هذا المسار بمحطة ${s} المغلقة${u ? ` حتى ${u}` : ""}، ولا يذكر التنبيه أن القطارات ما زالت تمر بها. لا تُباع الآن تذاكر لهذا المسار.`,
  closedChange: (s, u) => `يتطلب هذا المسار تبديل القطار في محطة ${s} المغلقة${u ? ` حتى ${u}` : ""}: تمر القطارات بها دون توقف. لا تُباع الآن تذاكر لهذا المسار.`,
  operatorNotice: (t) => `تنبيه: ${t}`,
  noticeAlternative: (t) => `البديل المقترح: ${t}`,
  chooseOpenStation: "اختر محطة مفتوحة قريبة:",
  insteadChoice: (f, s) => (f === "origin" ? `الانطلاق من ${s} بدلًا من ذلك` : `الذهاب إلى ${s} بدلًا من ذلك`),
  suggestedInNotice: (l) => `${l} (مقترحة في التنبيه)`,
  offerAsk: (n) => `تنبيه المشغل: ${n} هل ينطبق هذا العرض عليك؟`,
  offerApplies: "نعم، ينطبق علي",
  offerDoesNotApply: "لا، أدفع الأجرة المعتادة",
  offerStaff: (n) => `تنبيه المشغل: ${n} لا يستطيع الجهاز التحقق من هذا العرض: يرجى سؤال الموظفين لإصداره.`,
  fareUnread: (n) => `تنبيه المشغل: ${n} لا يستطيع الجهاز حساب الأجرة بموجب هذا التنبيه: يرجى شراء هذه التذكرة من الموظفين.`,
  liftOutAsk: (s) => `المصعد في ${s.join("، ")} معطل. هل يحتاج أحد المسافرين إلى دخول دون درج؟`,
  stepFreeNeeded: "نعم، نحتاج إلى دخول دون درج",
  stairsFine: "لا، يمكننا استخدام الدرج",
  liftOut: (s) => `المصعد في ${s.join("، ")} معطل: يوجد درج فقط.`,
  banner: {
    noService: (opens, hours) => ({ title: "لا خدمة في هذه الساعة", body: `الخدمة متوقفة الآن. تعود القطارات ${opens ? `الساعة ${opens}` : "صباحًا"} (ساعات الخدمة ${hours}).` }),
    nightService: (lines, headway) => ({ title: "خدمة ليلية", body: `تعمل طوال الليل ${lines.join("، ")} فقط${headway ? `، كل ${headway} دقيقة تقريبًا` : ""}.` }),
    lastTrains: (m, h) => ({ title: "آخر القطارات قريبًا", body: `تنتهي الخدمة بعد نحو ${m} دقيقة (ساعات الخدمة ${h}). سافر الآن لتلحق بآخر قطار.` }),
    accessibleRoute: { title: "مسار ميسّر", body: "جميع محطات هذا المسار فيها مصاعد تعمل ومداخل بلا درج." },
    liftOut: (s) => ({ title: "المصعد معطل", body: `المصعد في ${s.join("، ")} معطل: يوجد درج فقط.` }),
    policyUpdate: "إعلان الأجرة",
    goodToKnow: "معلومة مفيدة",
    airportTravel: "السفر إلى المطار",
  },
};

const TABLE: Record<PassengerLanguage, Answers> = { en, es, "zh-Hans": zhHans, "zh-Hant": zhHant, ar };

export function answers(language: PassengerLanguage | undefined): Answers {
  return TABLE[language ?? "en"];
}

/** An amount in the passenger's language and currency (e.g. "2,50 US$", "NT$20", "2 ر.ق."). */
export function formatAmount(language: PassengerLanguage, amount: number, currency: string): string {
  const digits = Number.isInteger(amount) && currency !== "USD" ? 0 : 2;
  try {
    return new Intl.NumberFormat(answers(language).locale, { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: 2 }).format(amount);
  } catch {
    // An unknown currency code: the number in the passenger's locale, then the code.
    return `${new Intl.NumberFormat(answers(language).locale).format(amount)} ${currency}`;
  }
}
