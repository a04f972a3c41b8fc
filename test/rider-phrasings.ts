// Our own phrasings of who travels (not the benchmark's wording, not the robustness suite's texts),
// for the one rider reader (runtime/language/riders.ts), graded twice: as the rule policy quotes from
// it, and as the purchase interlock checks a quote against it (runtime/kiosk/interlock/riders.ts,
// which blocks where the reading is unsure). Each phrasing names the system whose fare table sets the
// age thresholds (BART, MARTA: children under 5; CTA: under 7) and the whole party the text states —
// the quote a right answer sells — or null where the text says nothing about riders.
//
// TUNE is what the readers were developed against. HELD_OUT was written at the same time and never
// used to change either reader: its pass rates are the honest figure.

export interface Party {
  adults?: number;
  children?: number;
  seniors?: number;
  disabled?: number;
}

export interface RiderPhrasing {
  system: "bart" | "marta" | "cta" | "taipei" | "beijing";
  text: string;
  /** The whole party the text states, or null when it states no riders. */
  party: Party | null;
}

const p = (system: RiderPhrasing["system"], text: string, party: Party | null): RiderPhrasing => ({ system, text, party });

export const TUNE: readonly RiderPhrasing[] = [
  // People first, the age told afterwards or in brackets.
  p("bart", "me and my son (he's 4)", { adults: 1, children: 1 }),
  p("bart", "my mum and I, she's 70", { adults: 1, seniors: 1 }),
  p("marta", "my dad and me — he is 68", { adults: 1, seniors: 1 }),
  p("cta", "me plus my daughter who is 4", { adults: 1, children: 1 }),
  p("bart", "my husband (72) and I", { adults: 1, seniors: 1 }),
  p("bart", "my grandpa (80) and me, Embarcadero to Daly City", { adults: 1, seniors: 1 }),
  p("bart", "Me and my mother, who is 75", { adults: 1, seniors: 1 }),
  p("marta", "just my husband and me, he's 66", { adults: 1, seniors: 1 }),
  p("bart", "me and my granddaughter, she's three", { adults: 1, children: 1 }),
  p("marta", "me and my dad, he's 70, and my 3 year old", { adults: 1, seniors: 1, children: 1 }),
  p("marta", "I am 67 and my wife is 63", { adults: 1, seniors: 1 }),
  p("marta", "my son is 3 and my daughter is 2, plus me", { adults: 1, children: 2 }),
  // The speaker's own age.
  p("bart", "I'm 70", { seniors: 1 }),
  p("bart", "I'm seventy two, one ticket to SFO", { seniors: 1 }),
  p("bart", "i'm 71 yrs old", { seniors: 1 }),
  p("cta", "just me, I'm 66", { seniors: 1 }),
  // Couples and groups of seniors.
  p("bart", "two of us, both seniors", { seniors: 2 }),
  p("cta", "tickets for me and my wife, we're both over 65", { seniors: 2 }),
  p("bart", "my wife and I (both 70)", { seniors: 2 }),
  p("cta", "we're two seniors", { seniors: 2 }),
  // Counts, corrections, typos.
  p("bart", "for my wife, me and our 2 kids", { adults: 2, children: 2 }),
  p("bart", "3 adults and 2 children, no wait, just 2 adults", { adults: 2 }),
  p("cta", "2 adults, 1 kid, actually make that 2 kids", { adults: 2, children: 2 }),
  p("bart", "Three adults. Sorry, four adults.", { adults: 4 }),
  p("bart", "me and my three kids", { adults: 1, children: 3 }),
  p("marta", "two adults and one child", { adults: 2, children: 1 }),
  p("bart", "two adults, one senior", { adults: 2, seniors: 1 }),
  p("bart", "one adult, two seniors", { adults: 1, seniors: 2 }),
  p("bart", "two seniors and a toddler", { seniors: 2, children: 1 }),
  p("marta", "me, my husband and our baby", { adults: 2, children: 1 }),
  p("bart", "family of four: two adults, two kids", { adults: 2, children: 2 }),
  p("marta", "3 adluts from Airport to Five Points", { adults: 3 }),
  p("bart", "4 people", { adults: 4 }),
  // Spanish.
  p("bart", "mi madre y yo, ella tiene 70", { adults: 1, seniors: 1 }),
  p("bart", "dos adultos y dos niños", { adults: 2, children: 2 }),
  p("marta", "somos tres adultos", { adults: 3 }),
  p("bart", "yo y mi hijo de 4 años", { adults: 1, children: 1 }),
  // Chinese.
  p("beijing", "我和我妈妈，她70岁", { adults: 1, seniors: 1 }),
  p("taipei", "我和我媽媽，她70歲", { adults: 1, seniors: 1 }),
  p("beijing", "两个大人和一个小孩", { adults: 2, children: 1 }),
  p("taipei", "兩個大人一個小孩", { adults: 2, children: 1 }),
  // Relatives in the plural, companions who are disabled, grown up or elderly, ages after a group.
  p("bart", "me and both my parents", { adults: 3 }),
  p("marta", "my mom and dad and me", { adults: 3 }),
  p("bart", "I'm with my sister, she uses a wheelchair", { adults: 1, disabled: 1 }),
  p("bart", "me and my husband, he's disabled", { adults: 1, disabled: 1 }),
  p("marta", "my grown son and I", { adults: 2 }),
  p("bart", "me and my adult son, I'm 67", { adults: 1, seniors: 1 }),
  p("cta", "me + my two little ones", { adults: 1, children: 2 }),
  p("bart", "my kids are 2 and 4, plus me", { adults: 1, children: 2 }),
  p("bart", "my wife, me and our two kids aged 1 and 3", { adults: 2, children: 2 }),
  p("bart", "an elderly couple", { seniors: 2 }),
  p("cta", "my wife and I, we're in our seventies", { seniors: 2 }),
  p("marta", "my elderly father and I", { adults: 1, seniors: 1 }),
  p("bart", "I'm 75, my husband is 77", { seniors: 2 }),
  p("marta", "my friend and I", { adults: 2 }),
  p("bart", "I'm with a friend", { adults: 2 }),
  p("bart", "me and my teenage daughter", { adults: 2 }),
  p("marta", "twin girls (3) and their mom", { adults: 1, children: 2 }),
  p("bart", "mi mamá, mi papá y yo", { adults: 3 }),
  p("bart", "yo con mis dos niños de 1 y 3 años", { adults: 1, children: 2 }),
  p("beijing", "我带三个孩子", { adults: 1, children: 3 }),
  p("bart", "my son works near Embarcadero", null),
  p("bart", "I have 2 kids at home, just me today", { adults: 1 }),
  // Numbers that are not riders.
  p("bart", "Is line 70 running today?", null),
  p("marta", "which train leaves from platform 2", null),
  p("bart", "does it really take 70 minutes?", null),
  p("marta", "I need to be there at 9", null),
  p("bart", "16th St Mission to 24th St Mission", null),
  p("bart", "Embarcadero to 12th St Oakland City Center", null),
  p("cta", "Line 2 towards 95th/Dan Ryan", null),
  p("marta", "I'll be back by 5 pm", null),
  p("bart", "my flight is at 7", null),
  p("beijing", "2号线到西直门", null),
];

export const HELD_OUT: readonly RiderPhrasing[] = [
  p("bart", "me and my daughter (she's 3)", { adults: 1, children: 1 }),
  p("marta", "my grandma and I — she is 81", { adults: 1, seniors: 1 }),
  p("bart", "I am seventy", { seniors: 1 }),
  p("cta", "my wife (66) and me", { adults: 1, seniors: 1 }),
  p("bart", "two grown-ups and three kids", { adults: 2, children: 3 }),
  p("marta", "me + my 2 kids", { adults: 1, children: 2 }),
  p("bart", "4 adults, no, 3 adults", { adults: 3 }),
  p("bart", "mi papá y yo, él tiene 72", { adults: 1, seniors: 1 }),
  p("beijing", "我和我爸爸，他75岁", { adults: 1, seniors: 1 }),
  p("bart", "my husband and me, both seniors", { seniors: 2 }),
  p("cta", "me and my nephew who's 5", { adults: 1, children: 1 }),
  p("marta", "three of us, all adults", { adults: 3 }),
  p("bart", "I'm 69 and travelling with my 4 yr old grandson", { seniors: 1, children: 1 }),
  p("marta", "dos adultos y un niño de 3 años", { adults: 2, children: 1 }),
  p("bart", "one adlt and two chidren", { adults: 1, children: 2 }),
  p("taipei", "我和我爺爺，他80歲", { adults: 1, seniors: 1 }),
  p("bart", "how long does it take, like 45 minutes?", null),
  p("marta", "leaving at 8:15 from Five Points", null),
  p("bart", "platform 3 at 19th St Oakland", null),
  p("bart", "I'm 5 minutes away from the station", null),
  p("beijing", "我在10号线", null),
];

/**
 * Written after both readers were finished, and graded once before any change: interlock 19/21
 * (two wrong quotes let through: "3 ppl", "las dos personas mayores de 65"), language 14/21 right,
 * 5 ask, 2 wrong. The readers were then fixed for what it showed, so it is tuned now — the next
 * never-seen figure needs a new table. (HELD_OUT's failures were visible during the work, but no
 * rule was written for its texts.)
 */
export const HELD_OUT_FINAL: readonly RiderPhrasing[] = [
  p("bart", "my father and I; he's 77", { adults: 1, seniors: 1 }),
  p("marta", "grandma (she is 70) and me", { adults: 1, seniors: 1 }),
  p("cta", "me & my little girl, she is 6", { adults: 1, children: 1 }),
  p("bart", "Tickets for my wife and me. We're both 68.", { seniors: 2 }),
  p("marta", "two adults plus one kid, oh wait, two kids", { adults: 2, children: 2 }),
  p("bart", "I'm sixty-seven", { seniors: 1 }),
  p("cta", "3 ppl", { adults: 3 }),
  p("bart", "me and my 2 year old", { adults: 1, children: 1 }),
  p("marta", "my son (2) and me", { adults: 1, children: 1 }),
  p("bart", "mi esposa y yo, las dos personas mayores de 65", { seniors: 2 }),
  p("bart", "voy con mi abuela, ella tiene 80 años", { adults: 1, seniors: 1 }),
  p("beijing", "我和我奶奶，她八十岁", { adults: 1, seniors: 1 }),
  p("taipei", "我跟我兒子，他4歲", { adults: 1, children: 1 }),
  p("bart", "five adults, sorry, I meant six adults", { adults: 6 }),
  p("marta", "one senior ticket please, I'm 72", { seniors: 1 }),
  p("bart", "two senoirs", { seniors: 2 }),
  p("cta", "Howard to 95th, exit 3", null),
  p("bart", "the 7:45 train from 16th St Mission", null),
  p("marta", "is gate 65 near the station?", null),
  p("bart", "I'm 10 minutes late, which platform?", null),
  p("beijing", "4号线几点到", null),
];

/**
 * Written on 2026-12-01 before the readers learnt relatives in the plural, companions who are
 * disabled or grown up, and ages listed after a group — and never used to change either reader: its
 * pass rates are the honest figure for that work. Graded before the work: interlock 10/23 (a wrong
 * quote let through on 13), language 7/23 right, 6 wrong. Seen once part-way (interlock 20/23) and
 * two bugs it showed fixed in general form (an adjective read as a rider count; relatives who do
 * not travel), so it is no longer wholly unseen. After: interlock 23/23, language 17/23 right, 2 wrong.
 */
export const HELD_OUT_2: readonly RiderPhrasing[] = [
  p("bart", "my parents and I", { adults: 3 }),
  p("marta", "the twins (4) and me", { adults: 1, children: 2 }),
  p("cta", "me with my twin boys, they're 5", { adults: 1, children: 2 }),
  p("bart", "my disabled brother and I", { adults: 1, disabled: 1 }),
  p("bart", "one for me and one for my friend in a wheelchair", { adults: 1, disabled: 1 }),
  p("bart", "my son is grown up, he's 30, and I'm 70", { adults: 1, seniors: 1 }),
  p("cta", "me and my adult daughter", { adults: 2 }),
  p("bart", "my 2 little ones and me", { adults: 1, children: 2 }),
  p("marta", "my three kids, aged 2, 3 and 4, and me", { adults: 1, children: 3 }),
  p("bart", "my husband and me with our kids (1 and 3)", { adults: 2, children: 2 }),
  p("cta", "a couple in our seventies", { seniors: 2 }),
  p("bart", "my elderly mother and me", { adults: 1, seniors: 1 }),
  p("marta", "I'm 80 and my wife is 79", { seniors: 2 }),
  p("cta", "me and a friend", { adults: 2 }),
  p("bart", "the four of us: two grown-ups, two toddlers", { adults: 2, children: 2 }),
  p("marta", "my granddad, who is eighty, and me", { adults: 1, seniors: 1 }),
  p("bart", "I'm travelling with my teenage son", { adults: 2 }),
  p("bart", "mis padres y yo", { adults: 3 }),
  p("bart", "yo y mis dos hijos pequeños, de 2 y 4 años", { adults: 1, children: 2 }),
  p("beijing", "我和两个孩子", { adults: 1, children: 2 }),
  p("bart", "going to see my daughter in Daly City", null),
  p("marta", "I pick up my kids at 3 from school", null),
  p("cta", "is the 22 bus near Clark/Lake?", null),
];

/**
 * Written on 2026-12-01 part-way through the relatives work (after HELD_OUT_2 had been graded once
 * mid-work and two bugs it showed were fixed in general form), and not looked at until the work was
 * finished: the honest figure for it. Graded once at the end: interlock 12/15 (a wrong quote let
 * through on 2: "buddy" is not a companion word; "twins aged 3" before the speaker counts one
 * child), language 10/15 right, 4 ask, 1 wrong. Left as found — the next fix needs a new table.
 */
export const HELD_OUT_3: readonly RiderPhrasing[] = [
  p("bart", "both my grandparents and me", { adults: 3 }),
  p("marta", "my sister and her 2 little ones", { adults: 1, children: 2 }),
  p("bart", "me and my buddy", { adults: 2 }),
  p("cta", "my blind father and I", { adults: 1, disabled: 1 }),
  p("bart", "my grown-up daughter and me", { adults: 2 }),
  p("bart", "my kids (2 and 4) and me", { adults: 1, children: 2 }),
  p("marta", "I'm with my elderly aunt", { adults: 1, seniors: 1 }),
  p("bart", "twins aged 3 and me", { adults: 1, children: 2 }),
  p("cta", "my mother, who uses a wheelchair, and I", { adults: 1, disabled: 1 }),
  p("bart", "my partner and me", { adults: 2 }),
  p("marta", "me, my wife and our three kids, aged 1, 3 and 4", { adults: 2, children: 3 }),
  p("bart", "mis abuelos y yo", { adults: 3 }),
  p("bart", "an old couple, both 80", { seniors: 2 }),
  p("bart", "I'm meeting my parents at Powell St", null),
  p("marta", "my daughter left her phone on the train", null),
];

/** The party as the four counts a quote carries. */
export function counts(party: Party): { adults: number; children: number; seniors: number; disabled: number } {
  return { adults: party.adults ?? 0, children: party.children ?? 0, seniors: party.seniors ?? 0, disabled: party.disabled ?? 0 };
}

/**
 * Quotes that disagree with the stated party: one adult (what a model that ignores the words sells,
 * or two adults where the party is one adult), and the same head count with one rider of another
 * type sold as an adult or one more adult (the wrong types a lying model gives).
 */
export function wrongQuotes(party: Party): ReturnType<typeof counts>[] {
  const right = counts(party);
  const same = (q: ReturnType<typeof counts>): boolean => q.adults === right.adults && q.children === right.children && q.seniors === right.seniors && q.disabled === right.disabled;
  const one = { adults: 1, children: 0, seniors: 0, disabled: 0 };
  const first = same(one) ? { ...one, adults: 2 } : one;
  const retyped = right.disabled > 0 ? { ...right, disabled: right.disabled - 1, adults: right.adults + 1 } : right.seniors > 0 ? { ...right, seniors: right.seniors - 1, adults: right.adults + 1 } : right.children > 0 ? { ...right, children: right.children - 1, adults: right.adults + 1 } : { ...right, adults: right.adults + 1 };
  return same(retyped) ? [first] : [first, retyped];
}

/**
 * Written on 2026-12-02 for the next rider work — twins and triplets with their age told anywhere,
 * and companions named by words the readers did not know (mate, pal, coworker, roommate, partner
 * words) — and developed against, like TUNE.
 */
export const TUNE_2: readonly RiderPhrasing[] = [
  p("bart", "twins aged 2 and me", { adults: 1, children: 2 }),
  p("marta", "me and the twins, they're three", { adults: 1, children: 2 }),
  p("bart", "my triplets (4) and I", { adults: 1, children: 3 }),
  p("bart", "my wife and I with our twins, both 2", { adults: 2, children: 2 }),
  p("cta", "a mom, a dad and twins of 3", { adults: 2, children: 2 }),
  p("bart", "twins, age 1, plus us two parents", { adults: 2, children: 2 }),
  p("bart", "me and my mate", { adults: 2 }),
  p("marta", "me and a pal", { adults: 2 }),
  p("cta", "my coworker and I", { adults: 2 }),
  p("bart", "me and my roommate", { adults: 2 }),
  p("bart", "my girlfriend and me", { adults: 2 }),
  p("marta", "my neighbour and I, she's 70", { adults: 1, seniors: 1 }),
  p("bart", "my colleague and I", { adults: 2 }),
  p("bart", "me and two mates", { adults: 3 }),
  p("cta", "my boyfriend, his 4 year old and me", { adults: 2, children: 1 }),
  p("bart", "me + 2 buddies", { adults: 3 }),
  p("bart", "my fiancé and I", { adults: 2 }),
  p("marta", "me and my classmate", { adults: 2 }),
  p("bart", "my mate lives near Fremont", null),
];

/**
 * Written on 2026-12-02 together with TUNE_2, before any of that work, and never used to change
 * either reader: its pass rates are the honest figure for it. Graded once at the end of that work:
 * interlock 14/14 (no wrong quote let through), language 10/14 right, 1 ask, 3 wrong (each read
 * only the children: "both of us parents plus twins aged 2", "my twin daughters (age 5) and I",
 * "mom, dad and the twins (3)").
 */
export const HELD_OUT_4: readonly RiderPhrasing[] = [
  p("bart", "both of us parents plus twins aged 2", { adults: 2, children: 2 }),
  p("marta", "me and my pal", { adults: 2 }),
  p("cta", "my twin daughters (age 5) and I", { adults: 1, children: 2 }),
  p("bart", "me and three friends", { adults: 4 }),
  p("bart", "my flatmate and me", { adults: 2 }),
  p("bart", "me with triplets, all 3 years old", { adults: 1, children: 3 }),
  p("cta", "my buddy and I, he's 70", { adults: 1, seniors: 1 }),
  p("bart", "my wife, our twins (4) and me", { adults: 2, children: 2 }),
  p("marta", "a colleague and myself", { adults: 2 }),
  p("bart", "my boyfriend and I", { adults: 2 }),
  p("cta", "mom, dad and the twins (3)", { adults: 2, children: 2 }),
  p("marta", "my twin brother and me", { adults: 2 }),
  p("bart", "the twins are 3, traveling with me and my husband", { adults: 2, children: 2 }),
  p("bart", "my buddy's kid is visiting Oakland", null),
];
