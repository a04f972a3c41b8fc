// Text helpers of the purchase interlock. Deliberately its own: the interlock must not read the
// passenger's words with the same code a policy used to answer them (issue 13), so a reading
// mistake in a policy cannot also be the interlock's. Pure.

/**
 * Lower-case, accents stripped, full-width forms and Arabic-Indic digits folded, every run of
 * punctuation or space turned into one space (apostrophes are dropped: "O'Hare" → "ohare").
 */
export function normalize(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .toLowerCase()
    .replace(/['’‘`´]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const EN_NUMBERS: Record<string, number> = {
  zero: 0, no: 0, none: 0, a: 1, an: 1, one: 1, single: 1, two: 2, couple: 2, pair: 2, three: 3, four: 4, five: 5,
  six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15,
  sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};

const ES_NUMBERS: Record<string, number> = {
  cero: 0, ningun: 0, ninguna: 0, ninguno: 0, un: 1, una: 1, uno: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6,
  siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12, veinte: 20, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90,
};

const AR_NUMBERS: Record<string, number> = {
  واحد: 1, واحدة: 1, اثنان: 2, اثنين: 2, اثنتين: 2, ثلاثة: 3, ثلاث: 3, اربعة: 4, أربعة: 4, اربع: 4, أربع: 4,
  خمسة: 5, خمس: 5, ستة: 6, سبعة: 7, ثمانية: 8, تسعة: 9, عشرة: 10,
};

/** A number written as digits or as a word (English, Spanish, Arabic), or undefined. */
export function numberWord(token: string): number | undefined {
  if (/^\d{1,3}$/.test(token)) return Number(token);
  return EN_NUMBERS[token] ?? ES_NUMBERS[token] ?? AR_NUMBERS[token];
}

const ZH_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A Chinese numeral of up to 99 ("三", "十二", "二十") or digits, or undefined. */
export function chineseNumber(text: string): number | undefined {
  if (/^\d{1,3}$/.test(text)) return Number(text);
  if (text === "十") return 10;
  const m = /^([一二两兩三四五六七八九])?十([一二三四五六七八九])?$/u.exec(text);
  if (m) return (m[1] ? (ZH_DIGITS[m[1]] ?? 1) : 1) * 10 + (m[2] ? (ZH_DIGITS[m[2]] ?? 0) : 0);
  return text.length === 1 ? ZH_DIGITS[text] : undefined;
}

/** Words of a normalized text (split on the single spaces normalize() leaves). */
export function words(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}
