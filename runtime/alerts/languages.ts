// The languages an operator writes an alert's passenger text in, per system: English always (the
// text every screen language falls back to) and the system's local one — simplified Chinese for
// Beijing, traditional for Taipei, Arabic for Doha, Spanish for the US systems. The framebooks'
// primary_language says "en" for Doha and the US systems, so this is the kiosk's own table (the
// operator's local-names files in framebooks/ name the same languages for the non-US systems).
import type { SystemId } from "../../tools/data/schemas.ts";
import type { PassengerLanguage } from "../language/types.ts";

export const ALERT_LOCAL_LANGUAGE: Readonly<Record<SystemId, PassengerLanguage>> = {
  beijing: "zh-Hans",
  taipei: "zh-Hant",
  doha: "ar",
  bart: "es",
  cta: "es",
  marta: "es",
};

/** English first, then the system's local language. */
export function alertLanguages(system: SystemId): PassengerLanguage[] {
  return ["en", ALERT_LOCAL_LANGUAGE[system]];
}
