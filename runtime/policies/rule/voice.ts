// In which language, and with which names, the rule policy words its terminal message. Bench mode
// (no passenger locale in the setup) always speaks the benchmark's English, so its output stays
// byte-identical; a live kiosk answers in the language the passenger typed in, else the one chosen
// on screen, with station and line names in that language where the pack or the operator has them.
import type { Framebook } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { answers, formatAmount, type Answers } from "../../language/answers.ts";
import type { PassengerLanguage } from "../../language/types.ts";
import type { SessionSetup } from "../../session/policy.ts";
import { formatFare } from "./compose.ts";

export interface Voice {
  language: PassengerLanguage;
  say: Answers;
  station(id: string, name: string): string;
  line(id: string): string;
  /** A payment name from the framebook's terminology ("EasyCard" → "悠遊卡"). */
  term(english: string): string;
  fare(amount: number, currency: string): string;
}

export function voiceFor(setup: Pick<SessionSetup, "system" | "passenger">, typed: PassengerLanguage | undefined): Voice {
  const system: SystemData = setup.system;
  const framebook: Framebook = system.framebook;
  const locale = setup.passenger;
  const language: PassengerLanguage = locale ? (typed ?? locale.language ?? "en") : "en";
  const englishLine = (id: string): string => system.lineById(id)?.name ?? id;
  if (language === "en" || !locale) {
    return { language: "en", say: answers("en"), station: (_id, name) => name, line: englishLine, term: (english) => english, fare: (amount) => formatFare(framebook, amount) };
  }
  return {
    language,
    say: answers(language),
    station: (id, name) => locale.stationNames.get(id)?.[language] ?? name,
    line: (id) => locale.lineNames.get(id)?.[language] ?? englishLine(id),
    term: (english) => locale.paymentNames?.get(english)?.[language] ?? english,
    fare: (amount, currency) => formatAmount(language, amount, currency),
  };
}
