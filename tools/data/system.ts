// One metro system's validated data with typed accessors. Pure: built from parsed files, no I/O.
import type { Fares, Framebook, GraphEdge, Line, Policy, Station, SystemId } from "./schemas.ts";

export interface SystemFiles {
  id: SystemId;
  stations: Station[];
  lines: Line[];
  edges: GraphEdge[];
  /** graph.json's `directed`: each edge one way only (absent: both ways, as in the pack). */
  directed?: boolean;
  fares: Fares;
  /** fares.json with Python's int/float distinction kept (for prompt text). */
  faresPy: unknown;
  policies: Policy[];
  framebook: Framebook;
  /** framebook with Python's int/float distinction kept (for prompt text). */
  framebookPy: unknown;
}

export class SystemData {
  readonly id: SystemId;
  readonly stations: readonly Station[];
  readonly lines: readonly Line[];
  readonly edges: readonly GraphEdge[];
  readonly directed: boolean;
  readonly fares: Fares;
  readonly faresPy: unknown;
  readonly policies: readonly Policy[];
  readonly framebook: Framebook;
  readonly framebookPy: unknown;

  private readonly stationsById = new Map<string, Station>();
  private readonly linesById = new Map<string, Line>();
  private readonly lineAliases = new Map<string, string>();
  private readonly servingLines = new Map<string, Set<string>>();

  constructor(files: SystemFiles) {
    this.id = files.id;
    this.stations = files.stations;
    this.lines = files.lines;
    this.edges = files.edges;
    this.directed = files.directed ?? false;
    this.fares = files.fares;
    this.faresPy = files.faresPy;
    this.policies = files.policies;
    this.framebook = files.framebook;
    this.framebookPy = files.framebookPy;
    for (const s of files.stations) if (!this.stationsById.has(s.id)) this.stationsById.set(s.id, s);
    for (const line of files.lines) {
      this.linesById.set(line.id, line);
      this.lineAliases.set(line.id.toLowerCase(), line.id);
      this.lineAliases.set(line.name.toLowerCase(), line.id);
    }
    for (const e of files.edges) {
      for (const sid of [e.from, e.to]) {
        let set = this.servingLines.get(sid);
        if (!set) this.servingLines.set(sid, (set = new Set()));
        set.add(e.line);
      }
    }
  }

  /** The same system with an operator's framebook (the network and fares are unchanged). */
  withFramebook(framebook: Framebook, framebookPy: unknown): SystemData {
    return new SystemData({
      id: this.id,
      stations: [...this.stations],
      lines: [...this.lines],
      edges: [...this.edges],
      directed: this.directed,
      fares: this.fares,
      faresPy: this.faresPy,
      policies: [...this.policies],
      framebook,
      framebookPy,
    });
  }

  get currency(): string {
    return this.fares.currency;
  }

  stationById(id: string): Station | undefined {
    return this.stationsById.get(id);
  }

  hasStationId(id: string): boolean {
    return this.stationsById.has(id);
  }

  lineById(id: string): Line | undefined {
    return this.linesById.get(id);
  }

  /** Lines that have a graph edge at the station (the reference's notion of "serves"). */
  linesServing(stationId: string): ReadonlySet<string> {
    return this.servingLines.get(stationId) ?? new Set();
  }

  /**
   * The reference's station resolution: an exact id wins; otherwise the first station (file order)
   * whose lowercased name equals the lowercased, trimmed input, or whose name's part before "(" or
   * inside the parentheses does.
   */
  resolveStation(input: string): Station | undefined {
    const exact = this.stationsById.get(input);
    if (exact) return exact;
    const q = input.toLowerCase().trim();
    for (const station of this.stations) {
      const full = station.name.toLowerCase();
      if (full === q) return station;
      const open = full.indexOf("(");
      if (open >= 0) {
        const base = full.slice(0, open).trim();
        const afterOpen = full.slice(open + 1);
        const nextOpen = afterOpen.indexOf("(");
        const paren = stripTrailing(nextOpen >= 0 ? afterOpen.slice(0, nextOpen) : afterOpen, ")").trim();
        if (q === base || q === paren) return station;
      }
    }
    return undefined;
  }

  /** Line id for an id or name (case-insensitive); unknown input comes back unchanged. */
  aliasLine(input: string): string {
    return this.lineAliases.get(input.toLowerCase()) ?? input;
  }

  policyById(policyId: string): Policy | undefined {
    return this.policies.find((p) => p.policy_id === policyId);
  }
}

/** Python str.rstrip(chars) for a single character class. */
function stripTrailing(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1] as string)) end--;
  return s.slice(0, end);
}
