// A small GBNF toolkit: grammars are built as data (rules → alternatives → elements, repetition
// already expanded into rules the way llama.cpp expands it), printed as GBNF for llama.cpp, and run
// here by a matcher with llama.cpp's semantics (a set of pushdown stacks advanced one code point at
// a time). The matcher gives the probe's accept/reject verdicts and byte offsets, and derives the
// grammar that remains after a given text — the two-phase emulation of llama.cpp's lazy grammar
// needs that to continue under the grammar from the middle of a trigger token.

export type CharRange = readonly [number, number];
export type GElem =
  | { readonly t: "chars"; readonly ranges: readonly CharRange[]; readonly negated: boolean }
  | { readonly t: "ref"; readonly name: string };
export type GAlt = readonly GElem[];

export interface Gbnf {
  readonly root: string;
  readonly rules: ReadonlyMap<string, readonly GAlt[]>;
}

const cp = (ch: string): number => ch.codePointAt(0) as number;

export const G = {
  lit(text: string): GElem[] {
    return Array.from(text, (ch) => ({ t: "chars", ranges: [[cp(ch), cp(ch)]], negated: false }) as const);
  },
  cls(spec: string, negated = false): GElem {
    // spec: characters and a-b ranges, e.g. "0-9a-fA-F" (a literal "-" goes last).
    const chars = Array.from(spec);
    const ranges: CharRange[] = [];
    for (let i = 0; i < chars.length; i++) {
      const a = cp(chars[i] as string);
      if (chars[i + 1] === "-" && i + 2 < chars.length) {
        ranges.push([a, cp(chars[i + 2] as string)]);
        i += 2;
      } else ranges.push([a, a]);
    }
    return { t: "chars", ranges, negated };
  },
  ref(name: string): GElem {
    return { t: "ref", name };
  },
};

/** Builds a grammar; repetition helpers create rules like llama.cpp's GBNF parser does. */
export class GrammarBuilder {
  readonly rules = new Map<string, GAlt[]>();
  private counter = 0;

  /** Add (or reuse, when the name exists) a rule; returns a reference to it. */
  rule(name: string, alts: GAlt[]): GElem {
    const clean = sanitizeRuleName(name);
    if (!this.rules.has(clean)) this.rules.set(clean, alts);
    return G.ref(clean);
  }

  /** A fresh rule name with the given prefix. */
  fresh(prefix: string): string {
    let name: string;
    do name = `${sanitizeRuleName(prefix)}-${++this.counter}`;
    while (this.rules.has(name));
    return name;
  }

  alt(...alts: GAlt[]): GElem {
    return this.rule(this.fresh("alt"), alts);
  }
  opt(seq: GAlt): GElem {
    return this.rule(this.fresh("opt"), [seq, []]);
  }
  /** seq* as a right-recursive rule (constant stack depth in llama.cpp). */
  star(seq: GAlt): GElem {
    const name = this.fresh("star");
    this.rules.set(name, [[...seq, G.ref(name)], []]);
    return G.ref(name);
  }
  /** seq{min,max}; max undefined = unbounded. Nested optionals like llama.cpp. */
  repeat(seq: GAlt, min: number, max?: number): GElem[] {
    const out: GElem[] = [];
    for (let i = 0; i < min; i++) out.push(...seq);
    if (max === undefined) {
      out.push(this.star(seq));
      return out;
    }
    let tail: GElem[] = [];
    for (let i = max; i > min; i--) tail = [this.opt([...seq, ...tail])];
    out.push(...tail);
    return out;
  }

  /**
   * Any text up to and including the first occurrence of `delimiter` (a KMP automaton as rules):
   * the value of a free-text parameter followed by its closing tag.
   */
  until(delimiter: string, name = "until"): GElem {
    const d = Array.from(delimiter);
    const n = d.length;
    const alphabet = [...new Set(d)];
    const fail: number[] = new Array<number>(n).fill(0);
    for (let i = 1, k = 0; i < n; i++) {
      while (k > 0 && d[i] !== d[k]) k = fail[k - 1] as number;
      if (d[i] === d[k]) k++;
      fail[i] = k;
    }
    const next = (state: number, ch: string): number => {
      let k = state;
      while (k > 0 && d[k] !== ch) k = fail[k - 1] as number;
      return d[k] === ch ? k + 1 : 0;
    };
    const base = this.fresh(name);
    const stateName = (k: number) => `${base}-s${k}`;
    for (let k = 0; k < n; k++) {
      const byTarget = new Map<number, string[]>();
      for (const ch of alphabet) {
        const to = next(k, ch);
        byTarget.set(to, [...(byTarget.get(to) ?? []), ch]);
      }
      const alts: GAlt[] = [[{ t: "chars", ranges: alphabet.map((c) => [cp(c), cp(c)] as const), negated: true }, G.ref(stateName(0))]];
      for (const [to, chars] of byTarget) {
        const elem: GElem = { t: "chars", ranges: chars.map((c) => [cp(c), cp(c)] as const), negated: false };
        alts.push(to === n ? [elem] : [elem, G.ref(stateName(to))]);
      }
      this.rules.set(stateName(k), alts);
    }
    return G.ref(stateName(0));
  }

  build(root: GAlt[] | string): Gbnf {
    if (typeof root === "string") return { root, rules: this.rules };
    this.rules.set("root", root);
    return { root: "root", rules: this.rules };
  }
}

export function sanitizeRuleName(name: string): string {
  return name.replace(/[^a-zA-Z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "r";
}

// ---------------------------------------------------------------------------------------------
// GBNF text

function escapeCode(code: number, inClass: boolean): string {
  if (code === 0x0a) return "\\n";
  if (code === 0x0d) return "\\r";
  if (code === 0x09) return "\\t";
  if (code === 0x5c) return "\\\\";
  if (!inClass && code === 0x22) return '\\"';
  if (inClass && (code === 0x5d || code === 0x5b || code === 0x5e || code === 0x2d)) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code > 0xffff) return `\\U${code.toString(16).padStart(8, "0")}`;
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return String.fromCodePoint(code);
}

function printAlt(alt: GAlt): string {
  if (alt.length === 0) return '""';
  const parts: string[] = [];
  let literal = "";
  const flush = () => {
    if (literal) parts.push(`"${literal}"`);
    literal = "";
  };
  for (const el of alt) {
    if (el.t === "chars" && !el.negated && el.ranges.length === 1 && el.ranges[0]?.[0] === el.ranges[0]?.[1]) {
      literal += escapeCode(el.ranges[0]?.[0] as number, false);
      continue;
    }
    flush();
    if (el.t === "ref") parts.push(el.name);
    else {
      const body = el.ranges
        .map(([a, b]) => (a === b ? escapeCode(a, true) : `${escapeCode(a, true)}-${escapeCode(b, true)}`))
        .join("");
      parts.push(`[${el.negated ? "^" : ""}${body}]`);
    }
  }
  flush();
  return parts.join(" ");
}

/** GBNF text for llama.cpp (the root rule first). */
export function toGbnfText(grammar: Gbnf): string {
  const names = [grammar.root, ...[...grammar.rules.keys()].filter((n) => n !== grammar.root)];
  return names.map((name) => `${name} ::= ${(grammar.rules.get(name) ?? []).map(printAlt).join(" | ")}`).join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// Matcher (llama.cpp semantics)

interface Frame {
  readonly rule: string;
  readonly alt: number;
  readonly pos: number;
}
type Stack = readonly Frame[];

function utf8Length(ch: string): number {
  const c = cp(ch);
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

function charsMatch(el: GElem & { t: "chars" }, code: number): boolean {
  const inside = el.ranges.some(([a, b]) => code >= a && code <= b);
  return el.negated ? !inside : inside;
}

export type FeedResult =
  | { ok: true; bytes: number }
  /** `atByte`: offset (UTF-8 bytes from the start of the fed text) of the first rejected character. */
  | { ok: false; atByte: number; piece: string };

export class GrammarMatcher {
  private stacks: Stack[];
  private readonly rules: ReadonlyMap<string, readonly GAlt[]>;
  private fedBytes = 0;

  constructor(readonly grammar: Gbnf) {
    this.rules = grammar.rules;
    const rootAlts = this.alts(grammar.root);
    this.stacks = this.dedupe(rootAlts.flatMap((_, i) => this.advance([{ rule: grammar.root, alt: i, pos: 0 }])));
  }

  private alts(rule: string): readonly GAlt[] {
    const alts = this.rules.get(rule);
    if (!alts) throw new Error(`Grammar has no rule '${rule}'`);
    return alts;
  }

  private elem(frame: Frame): GElem | undefined {
    return this.alts(frame.rule)[frame.alt]?.[frame.pos];
  }

  /** Expand references until a terminal is on top (or the stack is empty). */
  private advance(stack: Stack, depth = 0): Stack[] {
    if (depth > 10_000) throw new Error("Grammar recursion too deep");
    const top = stack[stack.length - 1];
    if (!top) return [stack];
    const el = this.elem(top);
    if (!el) return this.advance(stack.slice(0, -1), depth + 1); // empty alternative
    if (el.t === "chars") return [stack];
    const rest = stack.slice(0, -1);
    const altLen = (this.alts(top.rule)[top.alt] as GAlt).length;
    const below = top.pos + 1 < altLen ? [...rest, { ...top, pos: top.pos + 1 }] : rest;
    const out: Stack[] = [];
    this.alts(el.name).forEach((alt, i) => {
      out.push(...(alt.length === 0 ? this.advance(below, depth + 1) : this.advance([...below, { rule: el.name, alt: i, pos: 0 }], depth + 1)));
    });
    return out;
  }

  private dedupe(stacks: Stack[]): Stack[] {
    const seen = new Map<string, Stack>();
    for (const s of stacks) seen.set(s.map((f) => `${f.rule}/${f.alt}/${f.pos}`).join(" "), s);
    return [...seen.values()];
  }

  /** Feed one character (code point). */
  acceptChar(ch: string): boolean {
    const code = cp(ch);
    const next: Stack[] = [];
    for (const stack of this.stacks) {
      const top = stack[stack.length - 1];
      if (!top) continue;
      const el = this.elem(top) as GElem & { t: "chars" };
      if (!charsMatch(el, code)) continue;
      const altLen = (this.alts(top.rule)[top.alt] as GAlt).length;
      const moved = top.pos + 1 < altLen ? [...stack.slice(0, -1), { ...top, pos: top.pos + 1 }] : stack.slice(0, -1);
      next.push(...this.advance(moved));
    }
    if (next.length === 0) return false;
    this.stacks = this.dedupe(next);
    this.fedBytes += utf8Length(ch);
    return true;
  }

  /** Feed text; stops at the first rejected character. */
  feed(text: string): FeedResult {
    const start = this.fedBytes;
    for (const ch of text) {
      if (!this.acceptChar(ch)) return { ok: false, atByte: this.fedBytes - start, piece: ch };
    }
    return { ok: true, bytes: this.fedBytes - start };
  }

  /** The grammar is satisfied (end of generation allowed). */
  isComplete(): boolean {
    return this.stacks.some((s) => s.length === 0);
  }

  /** More characters can follow. */
  canContinue(): boolean {
    return this.stacks.some((s) => s.length > 0);
  }

  /** A grammar for exactly the continuations still allowed after what was fed. */
  derive(rootName = "continue"): Gbnf {
    const rules = new Map(this.rules);
    let name = rootName;
    while (rules.has(name)) name = `${name}-x`;
    const alts: GAlt[] = this.stacks.map((stack) => {
      const seq: GElem[] = [];
      for (let i = stack.length - 1; i >= 0; i--) {
        const frame = stack[i] as Frame;
        seq.push(...(this.alts(frame.rule)[frame.alt] as GAlt).slice(frame.pos));
      }
      return seq;
    });
    rules.set(name, alts);
    return { root: name, rules };
  }
}

/** Does the grammar accept the whole text (and is it complete there)? */
export function matchGrammar(grammar: Gbnf, text: string): { accepted: boolean; complete: boolean; rejectedAtByte?: number } {
  const matcher = new GrammarMatcher(grammar);
  const result = matcher.feed(text);
  if (!result.ok) return { accepted: false, complete: false, rejectedAtByte: result.atByte };
  return { accepted: true, complete: matcher.isComplete() };
}
