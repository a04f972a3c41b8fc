// Stations the passenger named in their own words — the interlock's own finder (no policy code).
// A station counts as named only when the words name it unambiguously: its full name, its name
// without a parenthetical ("Western" of "Western (Blue)") when no other station shares that
// short name, or its id, as whole words; overlapping matches keep the longest ("Clark/Lake" is
// not also "Lake"). Each mention notes whether the words mark it as where the trip starts
// ("from X", "desde X", "从X") or ends ("to X", "hasta X", "到X").
import type { SystemData } from "../../../tools/data/system.ts";
import { normalize } from "./text.ts";

export interface StationMention {
  stationId: string;
  /** The words mark it as the start ("from") or the end ("to") of the trip, or neither. */
  role: "origin" | "destination" | null;
  /** Word positions of the mention in normalize(text) (Chinese matches: -1). */
  start: number;
  end: number;
}

/** Extra names per station id (local-language names from the kiosk's system view). */
export type StationNames = ReadonlyMap<string, readonly string[]>;

interface NameIndex {
  /** Normalized name → the station ids it denotes (more than one: ambiguous). */
  names: Map<string, Set<string>>;
  /** Most words in one name. */
  longest: number;
  /** Names written without spaces (Chinese), longest first: found as substrings. */
  han: string[];
}

const indexes = new WeakMap<SystemData, Map<StationNames | null, NameIndex>>();
const HAN = /\p{Script=Han}/u;

function nameIndex(system: SystemData, extra: StationNames | null): NameIndex {
  let bySystem = indexes.get(system);
  if (!bySystem) indexes.set(system, (bySystem = new Map()));
  const cached = bySystem.get(extra);
  if (cached) return cached;
  const names = new Map<string, Set<string>>();
  const add = (name: string, id: string): void => {
    const key = normalize(name);
    if (key.length < 3 && !/\p{Script=Han}|\p{Script=Arabic}/u.test(key)) return;
    (names.get(key) ?? names.set(key, new Set()).get(key)!).add(id);
  };
  for (const s of system.stations) {
    add(s.name, s.id);
    add(s.id, s.id);
    const open = s.name.indexOf("(");
    if (open > 0) {
      add(s.name.slice(0, open), s.id);
      const inside = /\(([^)]*)\)/.exec(s.name)?.[1];
      // "3 Hao Hangzhanlou (Terminal 3)": the parenthetical is a name of its own when it is one.
      if (inside && !/^(red|blue|green|brown|orange|pink|purple|yellow|gold|line|\d)/i.test(inside.trim())) add(inside, s.id);
    }
    for (const local of extra?.get(s.id) ?? []) add(local, s.id);
  }
  const keys = [...names.keys()];
  const longest = Math.max(0, ...keys.map((k) => k.split(" ").length));
  const han = keys.filter((k) => HAN.test(k) && k.length >= 2).sort((a, b) => b.length - a.length);
  const index = { names, longest, han };
  if (bySystem.size > 8) bySystem.clear();
  bySystem.set(extra, index);
  return index;
}

const FROM = new Set(["from", "desde", "de", "leaving", "departing", "من"]);
const TO = new Set(["to", "towards", "hasta", "a", "para", "reach", "الى"]);

/**
 * The unambiguous station mentions of one text, in order. `everyCandidate`: a name several
 * stations share ("Belmont" in Chicago) yields each of them — for reading closures, where closing
 * too many only ever refuses a sale.
 */
export function mentionedStations(system: SystemData, text: string, extra: StationNames | null = null, everyCandidate = false): StationMention[] {
  const { names, longest, han } = nameIndex(system, extra);
  const w = normalize(text).split(" ").filter(Boolean);
  const out: StationMention[] = [];
  let i = 0;
  while (i < w.length) {
    let matched = 0;
    for (let len = Math.min(longest, w.length - i); len >= 1; len--) {
      const ids = names.get(w.slice(i, i + len).join(" "));
      if (!ids) continue;
      matched = len;
      if (ids.size === 1 || everyCandidate) {
        const before = w[i - 1] ?? "";
        const role = FROM.has(before) ? "origin" : TO.has(before) ? "destination" : null;
        for (const stationId of ids) out.push({ stationId, role, start: i, end: i + len });
      }
      break;
    }
    i += matched > 0 ? matched : 1;
  }
  // Chinese names are not separated by spaces ("从西单到国贸"): longest names first, no overlaps.
  if (han.length > 0 && HAN.test(text)) {
    const flat = normalize(text).replace(/ /g, "");
    const taken: boolean[] = [];
    for (const name of han) {
      for (let at = flat.indexOf(name); at >= 0; at = flat.indexOf(name, at + 1)) {
        if (taken.slice(at, at + name.length).some(Boolean)) continue;
        for (let k = at; k < at + name.length; k++) taken[k] = true;
        const ids = names.get(name);
        if (ids?.size !== 1) continue;
        const before = flat[at - 1] ?? "";
        const role = /[从從由]/u.test(before) ? "origin" : /[到去往至]/u.test(before) ? "destination" : null;
        out.push({ stationId: [...ids][0]!, role, start: -1, end: -1 });
      }
    }
  }
  return out;
}
