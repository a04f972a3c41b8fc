// The languages an operator writes an alert's passenger text in, per system: English always (the
// text every screen language falls back to) and the system's local one. For the pack's systems that
// is the kiosk's own table — simplified Chinese for Beijing, traditional for Taipei, Arabic for Doha,
// Spanish for the US systems — because their framebooks say "en"; any other system (an imported
// feed) names its local language in its framebook.
import type { Framebook, SystemId } from "../../tools/data/schemas.ts";
import type { PassengerLanguage } from "../language/types.ts";

const PACK_LOCAL_LANGUAGE: Readonly<Record<string, PassengerLanguage>> = {
  beijing: "zh-Hans",
  taipei: "zh-Hant",
  doha: "ar",
  bart: "es",
  cta: "es",
  marta: "es",
};

const SCREEN_LANGUAGES: readonly PassengerLanguage[] = ["en", "zh-Hans", "zh-Hant", "ar", "es"];

/** A framebook's language tag as a screen language ("zh-CN" → zh-Hans, "es-MX" → es), if the screen has one. */
function screenLanguage(tag: string): PassengerLanguage | undefined {
  const lower = tag.toLowerCase();
  if (lower === "zh-tw" || lower === "zh-hk" || lower.startsWith("zh-hant")) return "zh-Hant";
  if (lower.startsWith("zh")) return "zh-Hans";
  return SCREEN_LANGUAGES.find((l) => l === lower.split("-")[0]);
}

/** English first, then the system's local language where the screen has one. */
export function alertLanguages(system: SystemId, framebook?: Pick<Framebook, "primary_language" | "secondary_languages">): PassengerLanguage[] {
  const local =
    PACK_LOCAL_LANGUAGE[system] ??
    [framebook?.primary_language, ...(framebook?.secondary_languages ?? [])]
      .flatMap((tag) => (tag === undefined ? [] : [screenLanguage(tag)]))
      .find((l) => l !== undefined && l !== "en");
  return local === undefined ? ["en"] : ["en", local];
}
