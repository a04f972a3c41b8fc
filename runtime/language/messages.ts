// The deterministic policy's passenger messages in the kiosk's five languages. English is the
// benchmark's wording; the others are used when the passenger typed in (or chose) that language.
import type { ChildLimit } from "../../tools/fares/child-rule.ts";
import type { PassengerLanguage } from "./types.ts";

export interface Messages {
  whichStation(field: "origin" | "destination", names: readonly string[]): string;
  startFrom(destination: string): string;
  /** The words want a trip but name neither end. */
  whereFrom(): string;
  /** The words name where the trip starts, not where it goes. */
  whereTo(origin: string): string;
  confirmTrip(origin: string, destination: string, riders: string): string;
  whoTravels(screen: string, text: string): string;
  /** Who travels could not be read for sure from the words: the counter, or the reading offered. */
  whoTravelsUnsure(): string;
  notFound(place: string, org: string): string;
  dontKnow(org: string): string;
  /** Who rides free as a child, and that the others pay the adult fare (from the fare table's rule). */
  childBand(limit: ChildLimit): string;
}

export { childLimitOf, type ChildLimit } from "../../tools/fares/child-rule.ts";

const en: Messages = {
  whichStation: (field, names) => `Which ${field === "origin" ? "station are you starting from" : "station do you want to go to"}: ${names.join(" or ")}?`,
  startFrom: (d) => `Which station are you starting from for your trip to ${d}? Please choose it on the screen.`,
  whereFrom: () => "Which station are you starting from? Please choose it on the screen.",
  whereTo: (o) => `Which station are you going to from ${o}? Please choose it on the screen.`,
  confirmTrip: (o, d, r) => `Please confirm: ${o} to ${d} for ${r}.`,
  whoTravels: (s, t) => `The passenger counter shows ${s}, but you wrote ${t}. Who is travelling?`,
  whoTravelsUnsure: () => "Who is travelling? Please set the passengers on the counter.",
  childBand: (l) => ("age" in l ? `Children under ${l.age} ride free; older children pay the adult fare.` : `Children under ${l.cm} cm ride free; taller children pay the adult fare.`),
  notFound: (p, org) => `I could not find "${p}" on the ${org} network. Please pick a station from the list.`,
  dontKnow: (org) => `I don't know that — please ask a member of ${org} staff.`,
};

const es: Messages = {
  whichStation: (field, names) => `¿${field === "origin" ? "Desde qué estación sale" : "A qué estación quiere ir"}: ${names.join(" o ")}?`,
  startFrom: (d) => `¿Desde qué estación sale para ir a ${d}? Elíjala en la pantalla.`,
  whereFrom: () => "¿Desde qué estación sale? Elíjala en la pantalla.",
  whereTo: (o) => `¿A qué estación va desde ${o}? Elíjala en la pantalla.`,
  confirmTrip: (o, d, r) => `Confirme, por favor: de ${o} a ${d} para ${r}.`,
  whoTravels: (s, t) => `El contador indica ${s}, pero usted escribió ${t}. ¿Quién viaja?`,
  whoTravelsUnsure: () => "¿Quién viaja? Indique los pasajeros en el contador.",
  childBand: (l) => ("age" in l ? `Los niños menores de ${l.age} años viajan gratis; los mayores pagan la tarifa de adulto.` : `Los niños de menos de ${l.cm} cm viajan gratis; los más altos pagan la tarifa de adulto.`),
  notFound: (p, org) => `No encontré "${p}" en la red de ${org}. Elija una estación de la lista.`,
  dontKnow: (org) => `No lo sé; por favor pregunte al personal de ${org}.`,
};

const zhHans: Messages = {
  whichStation: (field, names) => `请问您${field === "origin" ? "从哪个站出发" : "要去哪个站"}：${names.join("还是")}？`,
  startFrom: (d) => `您去${d}，从哪个站出发？请在屏幕上选择。`,
  whereFrom: () => "您从哪个站出发？请在屏幕上选择。",
  whereTo: (o) => `您从${o}出发，要去哪个站？请在屏幕上选择。`,
  confirmTrip: (o, d, r) => `请确认：${o}到${d}，${r}。`,
  whoTravels: (s, t) => `乘客计数显示${s}，但您写的是${t}。请问几位乘车？`,
  whoTravelsUnsure: () => "请问几位乘车？请在乘客计数中设置。",
  childBand: (l) => ("age" in l ? `${l.age}岁以下儿童免费乘车，年龄更大的儿童按成人票价。` : `身高${l.cm}厘米以下儿童免费乘车，更高的儿童按成人票价。`),
  notFound: (p, org) => `在${org}线网中找不到"${p}"。请从列表中选择车站。`,
  dontKnow: (org) => `这个我不清楚，请询问${org}工作人员。`,
};

const zhHant: Messages = {
  whichStation: (field, names) => `請問您${field === "origin" ? "從哪一站出發" : "要去哪一站"}：${names.join("還是")}？`,
  startFrom: (d) => `您要去${d}，從哪一站出發？請在螢幕上選擇。`,
  whereFrom: () => "您從哪一站出發？請在螢幕上選擇。",
  whereTo: (o) => `您從${o}出發，要去哪一站？請在螢幕上選擇。`,
  confirmTrip: (o, d, r) => `請確認：${o}到${d}，${r}。`,
  whoTravels: (s, t) => `乘客計數顯示${s}，但您寫的是${t}。請問幾位搭乘？`,
  whoTravelsUnsure: () => "請問幾位搭乘？請在乘客計數中設定。",
  childBand: (l) => ("age" in l ? `${l.age}歲以下兒童免費搭乘，年齡較大的兒童按成人票價。` : `身高${l.cm}公分以下兒童免費搭乘，較高的兒童按成人票價。`),
  notFound: (p, org) => `在${org}路網中找不到「${p}」。請從清單中選擇車站。`,
  dontKnow: (org) => `這個我不清楚，請詢問${org}站務人員。`,
};

const ar: Messages = {
  whichStation: (field, names) => `${field === "origin" ? "من أي محطة تبدأ رحلتك" : "إلى أي محطة تريد الذهاب"}: ${names.join(" أو ")}؟`,
  startFrom: (d) => `من أي محطة تبدأ رحلتك إلى ${d}؟ يرجى اختيارها على الشاشة.`,
  whereFrom: () => "من أي محطة تبدأ رحلتك؟ يرجى اختيارها على الشاشة.",
  whereTo: (o) => `إلى أي محطة تذهب من ${o}؟ يرجى اختيارها على الشاشة.`,
  confirmTrip: (o, d, r) => `يرجى التأكيد: من ${o} إلى ${d} لـ ${r}.`,
  whoTravels: (s, t) => `يظهر العداد ${s}، لكنك كتبت ${t}. من سيسافر؟`,
  whoTravelsUnsure: () => "من سيسافر؟ يرجى تحديد عدد الركاب في العداد.",
  childBand: (l) => ("age" in l ? `الأطفال دون ${l.age} سنوات يركبون مجانًا، ويدفع الأكبر سنًا أجرة البالغ.` : `الأطفال الأقصر من ${l.cm} سم يركبون مجانًا، ويدفع الأطول أجرة البالغ.`),
  notFound: (p, org) => `لم أجد "${p}" في شبكة ${org}. يرجى اختيار محطة من القائمة.`,
  dontKnow: (org) => `لا أعرف ذلك — يرجى سؤال موظفي ${org}.`,
};

const TABLE: Record<PassengerLanguage, Messages> = { en, es, "zh-Hans": zhHans, "zh-Hant": zhHant, ar };

export function messages(language: PassengerLanguage | undefined): Messages {
  return TABLE[language ?? "en"];
}
