// The others' passenger corpus (cases/others/passengers/): requests written by other people (public
// dialogue data sets), adapted only in names to a pack system, each with what a correct kiosk sells
// or "no sale". The YAML never holds a price: every sale's route and total are computed here with the
// pack's own route planner and fare calculator, so a fare change in the pack changes the expectation.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { DataPack } from "../../tools/data/datapack.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { permanentClosures } from "../../runtime/kiosk/interlock/service.ts";
import { BenchError } from "../errors.ts";

export const CORPUS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../cases/others/passengers");
/**
 * tune and report: split by the id's hash when the entry was created. fresh, fresh2 … fresh8: texts gathered
 * after the halves before them had been graded once (and so spent); each is graded once, none tuned on.
 */
export const HALVES = ["tune", "report", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8"] as const;
/** The halves gathered whole, after the split ones were spent: not split by hash. */
const GATHERED_WHOLE: ReadonlySet<Half> = new Set(["fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8"]);
export type Half = (typeof HALVES)[number];
export const LANGUAGES = ["en", "es", "zh-Hans", "zh-Hant", "ar"] as const;
export const MAY_ASK = ["origin", "destination", "riders"] as const;

const count = z.number().int().min(0);
export const RidersSchema = z.strictObject({ adults: count.optional(), children: count.optional(), seniors: count.optional(), disabled: count.optional() });

export const SaleSchema = z.strictObject({ origin: z.string().min(1), destination: z.string().min(1), riders: RidersSchema });

export const EntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+-p-\d{3,}$/),
  source: z.strictObject({ name: z.string().min(1), url: z.string().url(), licence: z.string().min(1), original: z.string().min(1) }),
  text: z.string().min(1),
  language: z.enum(LANGUAGES),
  // exactly one of sale / no_sale
  expect: z.union([z.strictObject({ sale: SaleSchema }), z.strictObject({ no_sale: z.string().min(1) })]),
  /** The text is truly ambiguous there: asking (with tappable choices) is right; the sale says what the passenger taps. */
  may_ask: z.array(z.enum(MAY_ASK)).min(1).optional(),
  /** Local time of the request, where the text depends on it. */
  at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/).optional(),
  /** Kinds of phrasing the text shows (reported per kind). */
  kinds: z.array(z.string().min(1)).optional(),
});
export type Entry = z.infer<typeof EntrySchema>;
export type Riders = Required<z.infer<typeof RidersSchema>>;

/** The half an id belongs to, decided when the entry was created: sha256(id) even → tune, odd → report. */
export function halfOf(id: string): "tune" | "report" {
  const last = createHash("sha256").update(id).digest()[31]!;
  return last % 2 === 0 ? "tune" : "report";
}

export interface ComputedSale {
  origin: string;
  destination: string;
  riders: Riders;
  route: { path: string[]; line_sequence: string[]; transfers: number };
  total: number;
  currency: string;
}

export interface CorpusEntry {
  entry: Entry;
  system: string;
  half: Half;
  file: string;
  index: number;
  /** null for a no-sale entry. */
  sale: ComputedSale | null;
}

export interface RawFile {
  system: string;
  half: Half;
  file: string;
  entries: Entry[];
}

/**
 * The YAML files of each half, with the system each is for: `<system>.yaml`, or `<system>.<batch>.yaml`
 * where several people add texts for one system. A half with no folder has no files.
 */
export function corpusFiles(dir: string, halves: readonly Half[]): { half: Half; system: string; file: string }[] {
  const out: { half: Half; system: string; file: string }[] = [];
  for (const half of halves) {
    const folder = path.join(dir, half);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).filter((f) => f.endsWith(".yaml")).sort()) {
      out.push({ half, system: name.slice(0, name.indexOf(".")), file: path.join(folder, name) });
    }
  }
  return out;
}

/** Refuses an entry outside the half its id's hash names (the fresh halves are not split by hash). */
export function checkHalf(id: string, half: Half, where: string): void {
  if (!GATHERED_WHOLE.has(half) && halfOf(id) !== half) throw new BenchError(`${where}: field id: its hash puts it in the ${halfOf(id)} half, not ${half}`);
}

/** Parses every corpus file; an error names the file, the entry index and the field. */
export function loadFiles(dir = CORPUS_DIR, halves: readonly Half[] = HALVES): RawFile[] {
  return corpusFiles(dir, halves).map(({ half, system, file }) => ({ system, half, file, entries: parseFile(file, readFileSync(file, "utf8")) }));
}

export function parseFile(file: string, text: string): Entry[] {
  return parseEntries(EntrySchema, file, text);
}

/** A corpus file's entries under `schema`; an error names the file, the entry index and the field. */
export function parseEntries<T extends z.ZodType>(schema: T, file: string, text: string): z.infer<T>[] {
  const raw: unknown = parseYaml(text);
  const parsed = z.array(schema).safeParse(raw ?? []);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const [index, ...field] = issue?.path ?? [];
  throw new BenchError(`${file}: entry ${String(index ?? "?")}${field.length > 0 ? `, field ${field.join(".")}` : ""}: ${issue?.message ?? "invalid"}`);
}

function fullRiders(r: z.infer<typeof RidersSchema>): Riders {
  return { adults: r.adults ?? 0, children: r.children ?? 0, seniors: r.seniors ?? 0, disabled: r.disabled ?? 0 };
}

/** What a notice closes, in route_planner's own request fields (the operators' corpus passes them). */
export interface RouteClosures {
  station_restrictions?: { station: string; restriction: "closed" | "skip" }[];
  line_closures?: { line: string; from_station?: string; to_station?: string }[];
}

/**
 * Route and total of a sale, from the pack's own tools (route_planner, then fare_calculator);
 * under `closures` when a notice is in force.
 */
export function computeSale(pack: DataPack, system: string, sale: z.infer<typeof SaleSchema>, where: string, closures: RouteClosures = {}): ComputedSale {
  const data = pack.system(system);
  for (const field of ["origin", "destination"] as const) {
    if (!data.hasStationId(sale[field])) throw new BenchError(`${where}: field expect.sale.${field}: unknown station ${sale[field]} in ${system}`);
  }
  if (sale.origin === sale.destination) throw new BenchError(`${where}: field expect.sale: origin and destination are the same station`);
  for (const field of ["origin", "destination"] as const) {
    const closed = permanentClosures(data, null).get(sale[field]);
    if (closed) throw new BenchError(`${where}: field expect.sale.${field}: ${sale[field]} is permanently closed (the pack's knowledge base: "${closed}")`);
  }
  const riders = fullRiders(sale.riders);
  if (riders.adults + riders.children + riders.seniors + riders.disabled === 0) throw new BenchError(`${where}: field expect.sale.riders: nobody rides`);
  const tools = new ToolSession(data);
  const route = tools.call("route_planner", { origin: sale.origin, destination: sale.destination, ...closures });
  if (!route.ok) throw new BenchError(`${where}: no route ${sale.origin} → ${sale.destination}: ${route.status}`);
  const r = route.result as { route_id: string; stops: { station_id: string }[]; transfers: number; line_sequence: string[] };
  const fare = tools.call("fare_calculator", { route_id: r.route_id, passengers: riders });
  if (!fare.ok) throw new BenchError(`${where}: no fare for ${sale.origin} → ${sale.destination}: ${fare.status}`);
  const f = fare.result as { total: number; currency: string };
  return {
    origin: sale.origin,
    destination: sale.destination,
    riders,
    route: { path: r.stops.map((s) => s.station_id), line_sequence: r.line_sequence, transfers: r.transfers },
    total: f.total,
    currency: f.currency,
  };
}

/** Every entry, validated against the pack, with its sale's route and total computed. */
export function loadCorpus(pack: DataPack, dir = CORPUS_DIR, halves: readonly Half[] = HALVES): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  const seen = new Map<string, string>();
  for (const f of loadFiles(dir, halves)) {
    f.entries.forEach((entry, index) => {
      const where = `${f.file}: entry ${index} (${entry.id})`;
      const before = seen.get(entry.id);
      if (before) throw new BenchError(`${where}: field id: duplicate of ${before}`);
      seen.set(entry.id, where);
      if (!entry.id.startsWith(`${f.system}-`)) throw new BenchError(`${where}: field id: does not start with the file's system "${f.system}-"`);
      checkHalf(entry.id, f.half, where);
      const sale = "sale" in entry.expect ? computeSale(pack, f.system, entry.expect.sale, where) : null;
      out.push({ entry, system: f.system, half: f.half, file: f.file, index, sale });
    });
  }
  return out;
}
