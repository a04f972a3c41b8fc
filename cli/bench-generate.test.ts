// `kiosk bench generate` from the command line: its refusals, one file per seed, and a real
// imported network (Hyderabad Metro, from ../shared/gtfs): the generated answer keys checked
// against the raw feed files (graph, fare_rules.txt, stop_times.txt), then replayed with the
// kiosk's `rule` policy through `kiosk bench run --cases-file` and scored (Tier 1 and strict).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR, SHARED_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { CasesFileSchema, type Case, type GraphEdge, type KioskEvent } from "../tools/data/schemas.ts";
import { caseTurns } from "../runtime/session/case.ts";
import { strictScore } from "../bench/robustness/strict.ts";
import { BenchStore } from "../bench/store/store.ts";
import { importNetwork } from "../host/network/import.ts";
import { forgetDataPack, UsageError } from "./context.ts";
import { runKioskWithSystems } from "../test/cli.ts";

const dir = mkdtempSync(path.join(tmpdir(), "cli-bench-generate-"));
const systemsDir = path.join(dir, "systems");
const HYDERABAD = path.join(SHARED_DIR, "gtfs", "hyderabad");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
});

const kiosk = (...argv: string[]): Promise<{ stdout: string; stderr: string }> => runKioskWithSystems(systemsDir, ...argv);

describe("kiosk bench generate", () => {
  it("refuses an unknown system and counts that are not positive integers, clearly", async () => {
    await expect(kiosk("bench", "generate", "--system", "atlantis")).rejects.toThrow(UsageError);
    await expect(kiosk("bench", "generate", "--system", "atlantis")).rejects.toThrow(/^unknown system 'atlantis': known systems are marta, doha, bart, taipei, cta, beijing/);
    await expect(kiosk("bench", "generate")).rejects.toThrow("--system is required (one of: marta, doha, bart, taipei, cta, beijing");
    for (const bad of ["0", "-2", "1.5", "ten", ""]) await expect(kiosk("bench", "generate", "--system", "marta", "--per-category", bad)).rejects.toThrow(`--per-category must be a positive integer, got '${bad}'`);
    await expect(kiosk("bench", "generate", "--system", "marta", "--seed", "-1")).rejects.toThrow("--seed must be an integer from 0 to 4294967295, got '-1'");
    await expect(kiosk("bench", "generate", "--system", "marta", "--category", "Z")).rejects.toThrow(/^--category: unknown category 'Z'/);
  });

  it("writes the cases to stdout (the report to stderr), the same for a seed, and only the categories asked for", async () => {
    const first = await kiosk("bench", "generate", "--system", "MARTA", "--per-category", "2", "--seed", "42", "--category", "A..D");
    const again = await kiosk("bench", "generate", "--system", "marta", "--per-category", "2", "--seed", "42", "--category", "A..D");
    const other = await kiosk("bench", "generate", "--system", "marta", "--per-category", "2", "--seed", "43", "--category", "A..D");
    const cases = CasesFileSchema.parse(JSON.parse(first.stdout));
    expect(cases.map((c) => c.id)).toEqual(["MARTA_GEN-A-001", "MARTA_GEN-A-002", "MARTA_GEN-B-001", "MARTA_GEN-B-002", "MARTA_GEN-C-001", "MARTA_GEN-C-002", "MARTA_GEN-D-001", "MARTA_GEN-D-002"]);
    expect(first.stderr).toMatch(/^8 cases for marta \(seed 42\)\n {2}A · Routing: 2\/2\n/);
    expect(again.stdout).toBe(first.stdout);
    expect(other.stdout).not.toBe(first.stdout);
  });
});

type Row = Record<string, string>;
const csv = (file: string): Row[] => parse(readFileSync(path.join(HYDERABAD, file), "utf8"), { columns: true, bom: true, skip_empty_lines: true }) as Row[];
const minutesOf = (t: string): number => {
  const [h, m] = t.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

describe("kiosk bench generate on an imported network (Hyderabad Metro)", () => {
  const file = path.join(dir, "hyderabad-cases.json");
  const db = path.join(dir, "bench.sqlite");
  let cases: Case[];
  let report: string;

  beforeAll(async () => {
    importNetwork({ feed: HYDERABAD, id: "hyderabad", systemsDir, pack: new DataPack(SHARED_DATA_DIR) });
    // The CLI keeps the pack it loaded; its list of systems just changed on disk.
    forgetDataPack();
    report = (await kiosk("bench", "generate", "--system", "hyderabad", "--per-category", "10", "--seed", "1", "--out", file)).stdout;
    cases = CasesFileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  });

  it("writes nine categories of ten, skipping E and K with the reason, and notes what the network lacks", () => {
    expect(report).toContain("90 cases for hyderabad (seed 1)");
    expect(report).toContain("E · Cultural: skipped: cultural questions are answered from the framebook's cultural notes");
    expect(report).toContain("note: no payment methods in the fare table: no payment-switch scenario");
    expect(report).toContain(`wrote 90 cases to ${file}`);
    expect(report).toContain(`run them: kiosk --systems-dir ${systemsDir} bench run --cases-file ${file} --policy rule`);
    const perCategory = Object.fromEntries(["A", "B", "C", "D", "F", "G", "H", "I", "J"].map((c) => [c, cases.filter((k) => k.category === c).length]));
    expect(perCategory).toEqual({ A: 10, B: 10, C: 10, D: 10, F: 10, G: 10, H: 10, I: 10, J: 10 });
  });

  it("rides every answer key's route along the feed's one-way track", () => {
    const graph = JSON.parse(readFileSync(path.join(systemsDir, "hyderabad", "graph.json"), "utf8")) as { directed: boolean; edges: GraphEdge[] };
    expect(graph.directed).toBe(true);
    const hop = new Set(graph.edges.map((e) => `${e.from}>${e.to}`));
    let routes = 0;
    for (const c of cases) {
      const gt = c.ground_truth as Record<string, unknown>;
      const post = gt.post_disruption as { alternative_route?: { path: string[] } | null } | undefined;
      for (const route of [gt.route, gt.original_route, post?.alternative_route] as ({ path: string[] } | null | undefined)[]) {
        if (!route) continue;
        routes++;
        route.path.slice(1).forEach((s, i) => expect(hop.has(`${route.path[i]}>${s}`), `${c.id} ${route.path[i]}>${s}`).toBe(true));
      }
      // A suspended line's track is ridden by no alternative.
      const disruption = c.system_context.active_disruptions[0];
      if (disruption?.type === "line_suspension" && post?.alternative_route) {
        const closed = new Set(graph.edges.filter((e) => e.line === disruption.line).flatMap((e) => [`${e.from}>${e.to}`, `${e.to}>${e.from}`]));
        const alt = post.alternative_route.path;
        expect(alt.slice(1).some((s, i) => closed.has(`${alt[i]}>${s}`)), c.id).toBe(false);
      }
      if (disruption?.type === "station_closure") {
        const ends = (gt.route as { path: string[] }).path;
        if (gt.expected_outcome === "route_and_fare_ready") expect([ends[0], ends[ends.length - 1]]).not.toContain(disruption.station_id);
      }
    }
    expect(routes).toBeGreaterThan(60);
  });

  it("prices every trip as the feed's fare_rules.txt does, for every rider (the feed has no reduced fares)", () => {
    const stops = csv("stops.txt");
    const parentOf = (id: string): string => stops.find((s) => s.stop_id === id)?.parent_station || id;
    const price = new Map(csv("fare_attributes.txt").map((f) => [f.fare_id as string, Number(f.price)]));
    const rule = new Map(csv("fare_rules.txt").map((r) => [`${r.origin_id}>${r.destination_id}`, price.get(r.fare_id as string) as number]));
    const zones = new Map<string, Set<string>>();
    for (const s of stops) {
      if (!s.zone_id || (s.location_type !== "0" && s.location_type !== "1")) continue;
      const root = parentOf(s.stop_id as string);
      zones.set(root, (zones.get(root) ?? new Set()).add(s.zone_id));
    }
    const feedFare = (a: string, b: string): number => {
      const found = new Set([...(zones.get(a) ?? [])].flatMap((za) => [...(zones.get(b) ?? [])].flatMap((zb) => rule.get(`${za}>${zb}`) ?? [])));
      expect(found.size, `${a}>${b}`).toBe(1);
      return [...found][0] as number;
    };
    const ridersOf = (c: Case): number => {
      const final = (c.ground_truth as { final_state?: { passengers: Record<string, number> } }).final_state;
      if (final) return Object.values(final.passengers).reduce((a, b) => a + b, 0);
      const pax = c.events.filter((e): e is Extract<KioskEvent, { type: "passenger_count_changed" }> => e.type === "passenger_count_changed").pop();
      return pax ? (pax.adults ?? 0) + (pax.children ?? 0) + (pax.seniors ?? 0) + (pax.disabled ?? 0) : 1;
    };
    const NEW_FARE: Record<string, (old: number, one: number) => number> = {
      half_price: (old) => old / 2,
      group_discount: (old) => old * 0.75,
      seniors_free: (old, one) => old - one,
      disabled_free: (old, one) => old - one,
      first_ride_free: () => 0,
      mask_required: (old) => old,
      free_wifi: (old) => old,
    };
    let priced = 0;
    for (const c of cases) {
      const gt = c.ground_truth as { route?: { path: string[] } | null; fare?: { total: number; currency: string } | null; policy?: { old_fare: number; new_fare: number; policy_id: string } };
      if (!gt.route || !gt.fare) continue;
      const one = feedFare(gt.route.path[0] as string, gt.route.path[gt.route.path.length - 1] as string);
      const total = one * ridersOf(c);
      if (gt.policy) {
        expect(gt.policy.old_fare, c.id).toBe(total);
        expect(gt.policy.new_fare, c.id).toBe((NEW_FARE[gt.policy.policy_id] as (o: number, p: number) => number)(total, one));
        expect(gt.fare.total).toBe(gt.policy.new_fare);
      } else expect(gt.fare.total, c.id).toBe(total);
      expect(gt.fare.currency).toBe("INR");
      priced++;
    }
    expect(priced).toBeGreaterThanOrEqual(60);
  });

  it("sells no step-free trip on stations whose accessibility the feed does not give, and sets service-hours cases clear of the timetable", () => {
    for (const c of cases.filter((k) => k.category === "D")) {
      const gt = c.ground_truth as { route: { path: string[] }; accessibility: { issues_on_route: { station_id: string; issue: string }[] }; expected_outcome: string; expected_reason_code: string };
      expect(gt.accessibility.issues_on_route.map((i) => i.station_id)).toEqual(gt.route.path);
      expect(new Set(gt.accessibility.issues_on_route.map((i) => i.issue))).toEqual(new Set(["accessibility unknown"]));
      expect([gt.expected_outcome, gt.expected_reason_code]).toEqual(["advisory_only", "accessibility_issue"]);
    }
    // The timetable's first departure and last arrival, from the raw stop_times.txt (61,000 rows
    // without quoting: read as plain lines, which is ten times faster than the CSV parser).
    const [header, ...rows] = readFileSync(path.join(HYDERABAD, "stop_times.txt"), "utf8").trim().split(/\r?\n/);
    const columns = (header as string).split(",");
    const at = [columns.indexOf("arrival_time"), columns.indexOf("departure_time")];
    let first = Infinity;
    let last = -Infinity;
    for (const row of rows) {
      const fields = row.split(",");
      for (const i of at) {
        const m = minutesOf(fields[i] as string);
        first = Math.min(first, m);
        last = Math.max(last, m);
      }
    }
    expect([first, last]).toEqual([6 * 60, 23 * 60 + 50]);
    const hours = cases.filter((k) => k.category === "I");
    expect(hours.length).toBe(10);
    for (const c of hours) {
      const time = minutesOf((c.system_context.temporal_context?.current_time ?? "").slice(11, 16));
      const gt = c.ground_truth as { route: { estimated_minutes: number } | null; temporal: { service_available: boolean } };
      if (gt.temporal.service_available) {
        expect(last - time, c.id).toBeLessThanOrEqual(60);
        expect(time + gt.route!.estimated_minutes, c.id).toBeLessThanOrEqual(last);
      } else {
        // Half an hour clear of any train, the night's last one included.
        expect(time < first - 30 || time > last + 30, c.id).toBe(true);
        expect(gt.route).toBeNull();
      }
    }
  });

  it("is replayed and scored by `kiosk bench run --cases-file` with the rule policy", async () => {
    const { stdout } = await kiosk("bench", "run", "--cases-file", file, "--policy", "rule", "--db", db, "--json");
    const summary = JSON.parse(stdout) as { run_id: number; status: string; cases: { scored: number }; overall: { full: { n: number; tier1: number } } };
    expect(summary.status).toBe("finished");
    expect(summary.cases.scored).toBe(90);
    // Measured at seed 1: Tier 1 100.0 and 90/90 strict passes. The bounds leave a case or two of
    // room for a deliberate change in `rule`, not for a broken answer key or a broken rule.
    expect(summary.overall.full.tier1).toBeGreaterThanOrEqual(97);
    const store = BenchStore.open(db);
    try {
      const pack = new DataPack(SHARED_DATA_DIR, { systemsDir });
      const byId = new Map(cases.map((c) => [c.id, c]));
      const stored = store.casesWithRecords(summary.run_id);
      const strict = stored.filter((s) => {
        const kase = byId.get(s.caseId) as Case;
        return strictScore(kase, s.record, pack.system("hyderabad"), caseTurns(kase)).pass;
      });
      expect(strict.length / stored.length).toBeGreaterThanOrEqual(0.95);
      // Every sale the key expects is offered at the key's total.
      for (const s of stored) {
        const gt = byId.get(s.caseId)?.ground_truth as { expected_kiosk_action: string; fare: { total: number } | null };
        if (gt.expected_kiosk_action === "prompt_purchase") expect(s.record.kiosk.state.fare_quote?.total, s.caseId).toBe(gt.fare?.total);
      }
    } finally {
      store.close();
    }
  });
});
