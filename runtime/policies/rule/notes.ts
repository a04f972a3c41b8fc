// Matching a passenger's question to the framebook's notes by shared content words
// ("Can I drink coffee on the train?" ↔ "No eating or drinking is allowed on trains.").

const STOP_WORDS = new Set(
  "the a an and or but to of in on at for with from by is are was be can could i my me do does did it this that there their they you your we our will would should may might not no yes what when where which who how any all some have has had get got go going take use using ride riding train trains station stations line lines metro kiosk please".split(" "),
);

/** A crude stem: lower case, letters only, first five letters (drink/drinking, bike/bikes). */
function stems(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}]+/gu) ?? []) {
    if (word.length < 3 || STOP_WORDS.has(word)) continue;
    out.add(word.slice(0, 5));
  }
  return out;
}

/** Notes sharing at least one content word with the question, best matches first. */
export function relevantNotes(notes: readonly string[], question: string): string[] {
  const asked = stems(question);
  if (asked.size === 0) return [];
  return notes
    .map((note) => ({ note, hits: [...stems(note)].filter((s) => asked.has(s)).length }))
    .filter((n) => n.hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .map((n) => n.note);
}
