// The others' operator corpus (cases/others/operators/): service alerts and fare notices that real
// transit operators published, adapted only in names (and dates) to a pack system. Each entry holds
// the notice as the kiosk receives it, a typed twin of what it means (`reading`, written by hand),
// and 2–4 trips asked under it. The YAML never holds a price: a sale probe's route and total are
// computed here with the pack's route planner (under the twin's closures) and fare calculator, then
// the twin's fare effect is applied.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { allNightLines, serviceHours } from "../../runtime/kiosk/interlock/service.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { BenchError } from "../errors.ts";
import { checkHalf, computeSale, corpusFiles, HALVES, LANGUAGES, parseEntries, RidersSchema, type ComputedSale, type Half, type RouteClosures } from "./corpus.ts";

export const OPERATORS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../cases/others/operators");

export const EFFECTS = [
  "closed",
  "suspended",
  "skips",
  "delays",
  "single_tracking",
  "reroute",
  "replacement_bus",
  "elevator_out",
  "fare_free",
  "fare_discount",
  "fare_surcharge",
  "fare_cap",
  "no_effect_on_sales",
] as const;
export type Effect = (typeof EFFECTS)[number];
export const OUTCOMES = ["sale", "no_sale", "ask", "refer"] as const;

const localTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "local time YYYY-MM-DDTHH:MM");

/** A disruption-feed entry (tools/data/schemas.ts DisruptionSchema), only with the fields the real feed had. */
const DisruptionNoticeSchema = z.strictObject({
  type: z.string().min(1),
  severity: z.string().min(1),
  message: z.string().min(1),
  line: z.string().min(1).optional(),
  segment: z.tuple([z.string(), z.string()]).optional(),
  station_id: z.string().min(1).optional(),
  alternative: z.string().min(1).optional(),
  valid_from: z.string().optional(),
  valid_until: z.string().optional(),
  /** The original was prose only: no structured fields beyond the text. */
  text_only: z.literal(true).optional(),
});

const FareSchema = z.strictObject({
  /** Total × multiplier (0.5 = half fare). */
  multiplier: z.number().min(0).optional(),
  /** Taken off each rider's fare (not below 0). */
  amount_off: z.number().positive().optional(),
  /** Added to each rider's fare. */
  surcharge: z.number().positive().optional(),
  /** No rider pays more than this. */
  cap: z.number().min(0).optional(),
  /** Who or which condition the fare effect needs ("a Clipper START card"); absent = everyone. */
  eligible: z.string().min(1).optional(),
  /** Only trips entering at these station ids get the fare effect ("enter at Taipei Arena, ride free"). */
  origins: z.array(z.string().min(1)).min(1).optional(),
});

const clock = z.string().regex(/^\d{2}:\d{2}$/);

export const ReadingSchema = z.strictObject({
  effect: z.enum(EFFECTS),
  /** Station ids the notice closes (closed, and stations a suspension stops), skips (skips) or names (others). */
  stations: z.array(z.string().min(1)).optional(),
  /** Line ids the notice is about. */
  lines: z.array(z.string().min(1)).optional(),
  /** Stretches of a line out of service, from/to station ids inclusive (suspensions, bus bridges); whole lines go in `lines`. */
  sections: z.array(z.strictObject({ line: z.string().min(1), from: z.string().min(1), to: z.string().min(1) })).optional(),
  /** Words of the notice about direction ("southbound", "toward Airport"); skips then hold one way only. */
  direction: z.string().min(1).optional(),
  /** When the notice is in force (local time); absent ends = open. */
  applies: z.strictObject({ from: localTime.optional(), until: localTime.optional() }).optional(),
  fare: FareSchema.optional(),
  /** The notice runs trains later than the framebook's close, to this local clock time ("00:30", "03:00": before noon is the next morning), on `lines` or, naming none, on every line. */
  service_until: clock.optional(),
  /** The notice opens service earlier than the framebook, from this local morning clock time ("09:00"), on `lines` or every line. */
  service_from: clock.optional(),
});
export type Reading = z.infer<typeof ReadingSchema>;

const ProbeSchema = z.strictObject({
  origin: z.string().min(1),
  destination: z.string().min(1),
  riders: RidersSchema,
  at: localTime,
  expect: z.enum(OUTCOMES),
  /** The passenger meets the fare effect's `eligible` condition (said in the trip); a sale pays the plain fare otherwise. */
  eligible: z.boolean().optional(),
  /** Why, in a few words (for ask / refer / no_sale). */
  why: z.string().min(1).optional(),
});
export type Probe = z.infer<typeof ProbeSchema>;

export const OperatorEntrySchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9]+-o-\d{3,}$/),
    source: z.strictObject({ name: z.string().min(1), url: z.string().url(), licence: z.string().min(1), original: z.string().min(1) }),
    kind: z.enum(["service_alert", "fare_notice"]),
    language: z.enum(LANGUAGES),
    // exactly one of disruption / policy_change
    notice: z.union([z.strictObject({ disruption: DisruptionNoticeSchema }), z.strictObject({ policy_change: z.strictObject({ text: z.string().min(1) }) })]),
    reading: ReadingSchema,
    probes: z.array(ProbeSchema).min(2).max(4),
  })
  .superRefine((e, ctx) => {
    const fareEffect = e.reading.effect.startsWith("fare_");
    if (fareEffect !== (e.reading.fare !== undefined) && e.reading.effect !== "fare_free") {
      ctx.addIssue({ code: "custom", path: ["reading", "fare"], message: `effect ${e.reading.effect} ${fareEffect ? "needs" : "takes no"} fare` });
    }
    if ((e.reading.effect === "suspended" || e.reading.effect === "replacement_bus") && !e.reading.sections?.length && !e.reading.lines?.length) {
      ctx.addIssue({ code: "custom", path: ["reading", "sections"], message: `effect ${e.reading.effect} needs sections or lines` });
    }
    if ((e.reading.effect === "closed" || e.reading.effect === "skips") && !e.reading.stations?.length) {
      ctx.addIssue({ code: "custom", path: ["reading", "stations"], message: `effect ${e.reading.effect} needs stations` });
    }
  });
export type OperatorEntry = z.infer<typeof OperatorEntrySchema>;

export interface ComputedProbe {
  probe: Probe;
  /** Whether the notice is in force at the probe's time. */
  inForce: boolean;
  /** The sale with its route under the twin and its total after the fare effect; null unless expect is sale. */
  sale: ComputedSale | null;
}

export interface OperatorCorpusEntry {
  entry: OperatorEntry;
  system: string;
  half: Half;
  file: string;
  index: number;
  probes: ComputedProbe[];
}

export function parseOperatorFile(file: string, text: string): OperatorEntry[] {
  return parseEntries(OperatorEntrySchema, file, text);
}

/** Whether `at` lies in the twin's `applies` window (string order is time order for YYYY-MM-DDTHH:MM). */
export function inForce(reading: Reading, at: string): boolean {
  const { from, until } = reading.applies ?? {};
  return (from === undefined || at >= from) && (until === undefined || at < until);
}

/** The twin's closures in route_planner's request fields. */
export function closuresOf(reading: Reading): RouteClosures {
  const out: RouteClosures = {};
  const stationsStop = reading.effect === "closed" || reading.effect === "suspended" || reading.effect === "replacement_bus";
  if ((stationsStop || reading.effect === "skips") && reading.stations?.length) {
    // a suspension's `stations` are ones it stops outright (a branch terminus the sections cannot name)
    const restriction = stationsStop ? "closed" : "skip";
    out.station_restrictions = (reading.stations ?? []).map((station) => ({ station, restriction }));
  }
  if (reading.effect === "suspended" || reading.effect === "replacement_bus") {
    // with sections, `lines` only names the lines concerned; without, the whole lines stop
    out.line_closures = reading.sections?.length
      ? reading.sections.map((s) => ({ line: s.line, from_station: s.from, to_station: s.to }))
      : (reading.lines ?? []).map((line) => ({ line }));
  }
  return out;
}

/** The total after the twin's fare effect (rounded to cents); `riders` is the head count. */
export function applyFare(reading: Reading, total: number, riders: number): number {
  const f = reading.fare ?? {};
  let t = total;
  if (reading.effect === "fare_free") t = 0;
  if (f.multiplier !== undefined) t = t * f.multiplier;
  if (f.amount_off !== undefined) t = Math.max(0, t - f.amount_off * riders);
  if (f.surcharge !== undefined) t = t + f.surcharge * riders;
  if (f.cap !== undefined) t = Math.min(t, f.cap * riders);
  return Math.round(t * 100) / 100;
}

/** The lines of the trip's route under the closures (route_planner's answer), or undefined where there is none. */
export function plannedLines(pack: DataPack, system: string, origin: string, destination: string, closures: RouteClosures): string[] | undefined {
  const planned = new ToolSession(pack.system(system)).call("route_planner", { origin, destination, ...closures });
  return planned.ok ? (planned.result as { line_sequence: string[] }).line_sequence : undefined;
}

function check(pack: DataPack, system: string, e: OperatorEntry, where: string): void {
  const data = pack.system(system);
  const lineIds = new Set(data.lines.map((l) => l.id));
  const r = e.reading;
  for (const [i, s] of (r.stations ?? []).entries()) if (!data.hasStationId(s)) throw new BenchError(`${where}: field reading.stations.${i}: unknown station ${s} in ${system}`);
  for (const [i, s] of (r.fare?.origins ?? []).entries()) if (!data.hasStationId(s)) throw new BenchError(`${where}: field reading.fare.origins.${i}: unknown station ${s} in ${system}`);
  for (const [i, l] of (r.lines ?? []).entries()) if (!lineIds.has(l)) throw new BenchError(`${where}: field reading.lines.${i}: unknown line ${l} in ${system}`);
  for (const [i, sec] of (r.sections ?? []).entries()) {
    const line = data.lines.find((l) => l.id === sec.line);
    if (!line) throw new BenchError(`${where}: field reading.sections.${i}.line: unknown line ${sec.line} in ${system}`);
    for (const end of ["from", "to"] as const) {
      if (!line.stations.includes(sec[end])) throw new BenchError(`${where}: field reading.sections.${i}.${end}: ${sec[end]} is not on line ${sec.line}`);
    }
  }
  if ("disruption" in e.notice) {
    const d = e.notice.disruption;
    if (d.station_id !== undefined && !data.hasStationId(d.station_id)) throw new BenchError(`${where}: field notice.disruption.station_id: unknown station ${d.station_id}`);
    if (d.line !== undefined && !lineIds.has(d.line)) throw new BenchError(`${where}: field notice.disruption.line: unknown line ${d.line}`);
  }
}

const clockMinutes = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/**
 * Why no train runs at `at` on a route over `lines` by the pack's framebook hours (its 24-hour lines
 * aside), unless the twin's own hours run trains then (`service_from` in the morning, `service_until`
 * at night, on its `lines` or every line); undefined when trains run.
 */
export function outsideServiceHours(system: SystemData, reading: Reading, live: boolean, at: string, lines: readonly string[]): string | undefined {
  const hours = serviceHours(system, { iso: at });
  if (hours.open) return undefined;
  const night = allNightLines(system);
  if (lines.length > 0 && lines.every((l) => night.has(l))) return undefined;
  const named = reading.lines ?? [];
  if (live && (named.length === 0 || lines.every((l) => named.includes(l)))) {
    const now = clockMinutes(at.slice(11, 16));
    // the early hours belong to the night before; a close before noon is the next morning's
    const late = now < 5 * 60 ? now + 1440 : now;
    const until = reading.service_until === undefined ? undefined : clockMinutes(reading.service_until);
    const end = until === undefined ? undefined : until < 12 * 60 ? until + 1440 : until;
    if (end !== undefined && late >= 12 * 60 && late < end) return undefined;
    // an earlier start runs to the twin's own end, else through the day
    const from = reading.service_from === undefined ? undefined : clockMinutes(reading.service_from);
    if (from !== undefined && now >= from && now < (end ?? 18 * 60)) return undefined;
  }
  return hours.detail;
}

/** Every entry, validated against the pack, with every sale probe's route and total computed under its twin. */
export function loadOperators(pack: DataPack, dir = OPERATORS_DIR, halves: readonly Half[] = HALVES): OperatorCorpusEntry[] {
  const out: OperatorCorpusEntry[] = [];
  const seen = new Map<string, string>();
  for (const { half, system, file } of corpusFiles(dir, halves)) {
    parseOperatorFile(file, readFileSync(file, "utf8")).forEach((entry, index) => {
      const where = `${file}: entry ${index} (${entry.id})`;
      const before = seen.get(entry.id);
      if (before) throw new BenchError(`${where}: field id: duplicate of ${before}`);
      seen.set(entry.id, where);
      if (!entry.id.startsWith(`${system}-`)) throw new BenchError(`${where}: field id: does not start with the file's system "${system}-"`);
      checkHalf(entry.id, half, where);
      check(pack, system, entry, where);
      const probes = entry.probes.map((probe, i): ComputedProbe => {
        const at = `${where}: probe ${i}`;
        const live = inForce(entry.reading, probe.at);
        const closures = live ? closuresOf(entry.reading) : {};
        for (const field of ["origin", "destination"] as const) {
          if (!pack.system(system).hasStationId(probe[field])) throw new BenchError(`${at}: field probes.${i}.${field}: unknown station ${probe[field]} in ${system}`);
        }
        const route = plannedLines(pack, system, probe.origin, probe.destination, closures);
        // the outcome follows from the twin: a sale needs a route under it; no_sale and refer are
        // claimed only where the twin leaves no route (a closure the kiosk must not sell through),
        // or, for no_sale, where no train runs then by the pack's hours
        if (probe.expect === "sale" && !route) throw new BenchError(`${at}: field probes.${i}.expect: sale, but no route ${probe.origin} → ${probe.destination} under the twin`);
        const dark = route && outsideServiceHours(pack.system(system), entry.reading, live, probe.at, route);
        if (probe.expect === "sale" && dark) throw new BenchError(`${at}: field probes.${i}.at: sale, but ${dark}: the kiosk sells by the pack's hours (expect no_sale, a time inside them, or the twin's service_from / service_until)`);
        if ((probe.expect === "no_sale" && route && !dark) || (probe.expect === "refer" && route)) {
          throw new BenchError(`${at}: field probes.${i}.expect: ${probe.expect}, but the twin leaves a route ${probe.origin} → ${probe.destination}`);
        }
        // a question the notice makes necessary needs the notice in force
        if (probe.expect === "ask" && !live) throw new BenchError(`${at}: field probes.${i}.at: ask, but the notice does not apply at ${probe.at}`);
        if (probe.expect !== "sale") return { probe, inForce: live, sale: null };
        const sale = computeSale(pack, system, { origin: probe.origin, destination: probe.destination, riders: probe.riders }, at, closures);
        const heads = sale.riders.adults + sale.riders.children + sale.riders.seniors + sale.riders.disabled;
        const fare = entry.reading.fare;
        const fareApplies = live && (fare?.eligible === undefined || probe.eligible === true) && (fare?.origins === undefined || fare.origins.includes(probe.origin));
        const total = fareApplies ? applyFare(entry.reading, sale.total, heads) : sale.total;
        return { probe, inForce: live, sale: { ...sale, total } };
      });
      out.push({ entry, system, half, file, index, probes });
    });
  }
  return out;
}
