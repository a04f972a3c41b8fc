import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { KioskService } from "../kiosk/service.ts";
import { AnswerPipeline } from "../answer/pipeline.ts";
import { FramebookRejectedError, FramebookStore } from "./store.ts";
import { formatIssues, framebookPolicyChange, validateFramebook } from "./validate.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const marta = pack.system("marta");
const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");

describe("framebook validation: every broken file names what is wrong and where", () => {
  const broken: [string, (t: string) => string, RegExp][] = [
    ["bad YAML", (t) => t.replace('org_name: "MARTA"', 'org_name: "MARTA'), /:\d+:\d+: invalid YAML/],
    ["wrong type", (t) => t.replace("late_night_headway_min: 20", "late_night_headway_min: twenty"), /:\d+:\d+ at framebook\.operating_hours\.late_night_headway_min: expected number, got string/],
    ["missing currency", (t) => t.replace(/^ {2}currency_symbol: .*\n/m, ""), /at framebook\.currency_symbol: expected string, got nothing \(missing\)/],
    ["currency that does not match the fares", (t) => t.replace('currency_code: "USD"', 'currency_code: "EUR"'), /:7:\d+ at framebook\.currency_code: currency_code 'EUR' does not match/],
    ["hours that do not parse", (t) => t.replace('weekday: "05:00-01:00"', 'weekday: "5am-1am"'), /at framebook\.operating_hours\.weekday: operating hours '5am-1am'/],
    ["impossible time", (t) => t.replace('sunday: "05:00-01:00"', 'sunday: "05:00-24:30"'), /operating_hours\.sunday/],
    ["unknown station in a note", (t) => t.replace("cultural_notes: []", 'cultural_notes:\n    - "Use MARTA-ZZZ for the stadium."'), /:\d+:\d+ at framebook\.cultural_notes\[0\]: unknown station 'MARTA-ZZZ'/],
    ["unknown 24-hour line", (t) => t.replace("late_night_headway_min: 20", 'late_night_headway_min: 20\n    twenty_four_hour_lines: ["Purple Line"]'), /twenty_four_hour_lines\[0\]: unknown line 'Purple Line'/],
    ["empty fare policy", (t) => t.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "x"\n      text: ""'), /:\d+:\d+ at framebook\.fare_policies\[0\]\.text: Too small/],
    ["display format without amount", (t) => t.replace('fare_display_format: "$X.XX"', 'fare_display_format: "dollars"'), /fare_display_format 'dollars' has no 'X'/],
    ["blank currency symbol", (t) => t.replace('currency_symbol: "$"', 'currency_symbol: "   "'), /at framebook\.currency_symbol: currency_symbol is blank/],
    ["headway of zero minutes", (t) => t.replace("late_night_headway_min: 20", "late_night_headway_min: 0"), /:\d+:\d+ at framebook\.operating_hours\.late_night_headway_min: late_night_headway_min 0 is not a number of minutes/],
    ["headway longer than a day", (t) => t.replace("late_night_headway_min: 20", "late_night_headway_min: 1e9"), /late_night_headway_min 1000000000 is not/],
    ["alias bomb", (t) => `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n${t}`, /invalid YAML: Excessive alias count/],
  ];
  it.each(broken)("%s", (_name, edit, expected) => {
    const v = validateFramebook(edit(original), "candidate.yaml", marta);
    expect(v.ok).toBe(false);
    expect(formatIssues(v)).toMatch(expected);
  });

  it("accepts the data pack's own framebooks", () => {
    for (const system of pack.systemIds) {
      const text = readFileSync(path.join(SHARED_DATA_DIR, `data/systems/${system}/framebook.yaml`), "utf8");
      expect(validateFramebook(text, "fb.yaml", pack.system(system)).issues.filter((i) => i.severity === "error")).toEqual([]);
    }
  });
});

describe("framebook store: atomic apply, history, rollback, audit", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "framebooks-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const withPolicy = original.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."');

  it("applies a valid framebook, keeps the previous version, audits it, and rolls back", () => {
    const store = new FramebookStore(pack, dir);
    expect(store.active("marta").source).toBe("data-pack");
    const entry = store.apply("marta", withPolicy, "candidate.yaml", "alice");
    expect(entry).toMatchObject({ who: "alice", system: "marta", action: "apply" });
    expect(store.active("marta")).toMatchObject({ source: "operator", text: withPolicy });
    expect(store.history("marta")).toHaveLength(1);
    expect(framebookPolicyChange(store.systemData("marta").framebook)?.text).toContain("ride free");
    const back = store.rollback("marta", "bob");
    expect(back).toMatchObject({ who: "bob", action: "rollback" });
    expect(store.active("marta").text).toBe(original);
    expect(store.audit().map((a) => a.action)).toEqual(["apply", "rollback"]);
  });

  it("rejects an invalid framebook and the active one keeps working", () => {
    const store = new FramebookStore(pack, dir);
    store.apply("marta", withPolicy, "good.yaml", "alice");
    const before = store.active("marta");
    expect(() => store.apply("marta", "framebook: [", "bad.yaml", "mallory")).toThrow(FramebookRejectedError);
    expect(store.active("marta")).toEqual(before);
    expect(store.audit()).toHaveLength(1);
  });

  it("a crash between write and rename leaves the previous framebook active and intact", () => {
    const store = new FramebookStore(pack, dir);
    store.apply("marta", withPolicy, "good.yaml", "alice");
    const crashing = new FramebookStore(pack, dir, {
      beforeRename: () => {
        throw new Error("power cut");
      },
    });
    const changed = withPolicy.replace("Senior citizens (65+) ride free", "Children ride free");
    expect(() => crashing.apply("marta", changed, "next.yaml", "alice")).toThrow("power cut");
    expect(store.active("marta").text).toBe(withPolicy);
    expect(validateFramebook(store.active("marta").text, "active", marta).ok).toBe(true);
    // The temp file of a failed write is removed; one left by a real crash is never mistaken for the framebook.
    expect(readdirSync(path.join(dir, "marta")).filter((f) => f.endsWith(".tmp"))).toHaveLength(0);
    expect(existsSync(path.join(dir, "marta", "framebook.yaml"))).toBe(true);
  });

  it("the next passenger session uses the new fare rule, a running one keeps its framebook", async () => {
    const store = new FramebookStore(pack, dir);
    // A Monday afternoon: inside service hours whenever the test runs.
    const service = new KioskService({ pack, pipeline: new AnswerPipeline({ rule: rulePolicy, profile: pack.promptProfile() }), systemData: (s) => store.systemData(s), clock: () => new Date(2026, 2, 9, 14) });
    const events = [
      { type: "station_selected" as const, field: "origin" as const, value: "Airport", station_id: "MARTA-AP" },
      { type: "station_selected" as const, field: "destination" as const, value: "Five Points", station_id: "MARTA-FP" },
      { type: "passenger_count_changed" as const, adults: 1, seniors: 1 },
    ];
    const total = (r: Awaited<ReturnType<KioskService["start"]>>): unknown => (r.record.kiosk.state.fare_quote as { total?: number } | undefined)?.total;
    const before = await service.start({ system: "marta", events });
    expect(total(before)).toBe(3.75);
    store.apply("marta", withPolicy, "candidate.yaml", "alice");
    const after = await service.start({ system: "marta", events });
    expect(total(after)).toBe(2.5);
    // The session that started before the change still answers with its own framebook.
    const followUp = await service.continue(before.sessionId, [{ type: "passenger_count_changed", adults: 1, seniors: 1 }]);
    expect(total(followUp)).toBe(3.75);
  });

  it("tells listeners (e.g. the model's prompt cache) when a framebook changes", () => {
    const store = new FramebookStore(pack, dir);
    const seen: string[] = [];
    store.onChange((system, version) => seen.push(`${system}:${version}`));
    const entry = store.apply("marta", withPolicy, "x.yaml", "alice");
    expect(seen).toEqual([`marta:${entry.version}`]);
  });
});
