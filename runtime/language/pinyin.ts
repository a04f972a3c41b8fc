// Pinyin keys: one spelling for a name however it is written — Chinese in either script
// ("天安门东", "台北車站") or pinyin with or without tones, apostrophes, spaces and capitals
// ("Tiān'ānmén Dōng", "tian an men dong", "TIANANMENDONG") — so typed pinyin finds Chinese names.
// Traditional text is read as simplified first (OpenCC): pinyin-pro reads 車 in 台北車站 as the
// chess piece "ju" but 车 as "che". Shared by the lexicon and the screen's view (runtime/kiosk/view.ts).
import type * as PinyinPro from "pinyin-pro";
import type * as OpenCC from "opencc-js/t2cn";
import { lazyPackage } from "./lazy-package.ts";
import { foldLatin, hasCjk } from "./text.ts";

const pinyinPro = lazyPackage<typeof PinyinPro>("pinyin-pro");
const openCC = lazyPackage<typeof OpenCC>("opencc-js/t2cn");
let toSimplified: ((text: string) => string) | undefined;

/** Chinese text in simplified characters ("松山機場" → "松山机场"); other text as it is. */
export function simplifiedChinese(text: string): string {
  return hasCjk(text) ? (toSimplified ??= openCC().Converter({ from: "tw", to: "cn" }))(text) : text;
}

/** A name's pinyin key: toneless, lower case, letters and digits only ("首都机场T3航站楼" → "shoudujichangt3hangzhanlou"). */
export function pinyinKey(text: string): string {
  if (!hasCjk(text)) return foldLatin(text).replace(/[^a-z0-9]/g, "");
  const simplified = simplifiedChinese(text);
  return (pinyinPro().pinyin(simplified, { toneType: "none", type: "array" }) as string[]).join("").toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Compass words a pinyin station name ends with ("Tian'anmendong", "Tian'anmenxi"): the part before names them all. */
const COMPASS_END = /^([a-z0-9]{4,}?)(dong|xi|nan|bei)$/;

/** The shared stem of a key ending in a compass word ("tiananmendong" → "tiananmen"), if any. */
export function compassStem(key: string): string | undefined {
  return COMPASS_END.exec(key)?.[1];
}
