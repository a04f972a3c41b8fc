// `kiosk framebook` as an operator meets it: validate names what is wrong (another system's file, a
// severity outside the vocabulary), apply and rollback record a named operator, history is readable.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { runKiosk } from "../test/cli.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { SessionAuditStore } from "../runtime/audit/store.ts";
import { recordSession, trip } from "../runtime/audit/testing.ts";

const dir = mkdtempSync(path.join(tmpdir(), "framebook-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

const kiosk = runKiosk;

const packFramebook = (system: string): string => readFileSync(path.join(SHARED_DATA_DIR, `data/systems/${system}/framebook.yaml`), "utf8");
function file(name: string, text: string): string {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
}

describe("kiosk framebook: fare policies in words before they take effect", () => {
  const withPolicy = (entry: string): string => packFramebook("marta").replace("cultural_notes: []", `cultural_notes: []\n  fare_policies:\n${entry}`);
  const MIXED = '    - policy_id: "mixed"\n      text: "Seniors ride free. Pay by card and save 10% on all fares."\n      valid_from: "2026-03-09T00:00"\n';

  it("apply prints the reading, with what it did not read and what the kiosk does about it", async () => {
    const framebooks = path.join(dir, "fbs-reading");
    const ignored = file("ignored.yaml", withPolicy(`${MIXED}      if_unread: ignore\n`));
    const applied = await kiosk("framebook", "--framebooks", framebooks, "apply", ignored, "--system", "marta", "--operator", "Ada");
    expect(applied.stdout).toMatch(
      /^fare policies as the kiosk reads them:\n {2}mixed: seniors travel free; from 2026-03-09 00:00\n {2}mixed: NOT READ: "Pay by card and save 10% on all fares\." \u2014 ignored: tickets are sold as if it were not there[^\n]*\n1 change\(s\) applied to marta/,
    );
    const referred = file("referred.yaml", withPolicy(`${MIXED}      if_unread: refer\n`));
    const again = await kiosk("framebook", "--framebooks", framebooks, "apply", referred, "--system", "marta", "--operator", "Ada");
    expect(again.stdout).toContain('  mixed: NOT READ: "Pay by card and save 10% on all fares." \u2014 while in force, sales are referred to staff\n');
  });

  it("apply refuses a text it cannot read without the operator's decision, naming file, line and field", async () => {
    const undecided = file("undecided.yaml", withPolicy(MIXED));
    const refused = await kiosk("framebook", "--framebooks", path.join(dir, "fbs-undecided"), "apply", undecided, "--system", "marta", "--operator", "Ada");
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toMatch(/^error: .*undecided\.yaml:\d+:\d+ at framebook\.fare_policies\[0\]\.text: the kiosk cannot read "Pay by card and save 10% on all fares\."; .*if_unread: refer.*if_unread: ignore/m);
    expect(refused.stdout).toMatch(/rejected: the active framebook is unchanged\n$/);
  });
});

describe("kiosk framebook", () => {
  it("validate rejects a severity outside critical/warning/info and another system's framebook", async () => {
    const purple = file("purple.yaml", packFramebook("bart").replace("major_delay: warning", "major_delay: purple"));
    const r1 = await kiosk("framebook", "validate", purple, "--system", "bart");
    expect(r1.exitCode).toBe(1);
    expect(r1.stdout).toMatch(/^error: .*purple\.yaml:\d+:\d+ at framebook\.advisory_severity_mapping\.major_delay: severity 'purple' for major_delay is not one of critical, warning, info$/m);
    const marta = file("marta.yaml", packFramebook("marta"));
    const r2 = await kiosk("framebook", "validate", marta, "--system", "bart");
    expect(r2.exitCode).toBe(1);
    expect(r2.stdout).toMatch(/at framebook\.org_name: org_name 'MARTA' is not bart's operator 'BART': is this the framebook of another system\?/);
    expect((await kiosk("framebook", "validate", marta, "--system", "marta")).stdout).toBe(`${marta}: valid\n`);
  });

  it("apply and rollback need a named operator; history is a table (JSON with --json)", async () => {
    const framebooks = path.join(dir, "fbs");
    const edited = file("edited.yaml", packFramebook("marta").replace("late_night_headway_min: 20", "late_night_headway_min: 15"));
    const anonymous = await kiosk("framebook", "--framebooks", framebooks, "apply", edited, "--system", "marta");
    expect(anonymous.error?.message).toMatch(/--operator NAME is required: the audit log records who applied the framebook/);
    expect((await kiosk("framebook", "--framebooks", framebooks, "history", "--system", "marta")).stdout).toMatch(/no changes recorded/);

    const applied = await kiosk("framebook", "--framebooks", framebooks, "apply", edited, "--system", "marta", "--operator", "Ada");
    expect(applied.stdout).toMatch(/^1 change\(s\) applied to marta: version \w{12}/);
    expect((await kiosk("framebook", "--framebooks", framebooks, "rollback", "--system", "marta")).error?.message).toMatch(/--operator NAME is required/);
    const history = await kiosk("framebook", "--framebooks", framebooks, "history", "--system", "marta");
    expect(history.stdout).toMatch(/^marta: active framebook \w{12} \(applied by an operator\)/);
    expect(history.stdout).toMatch(/rollback restores \w{12} \(1 previous version kept\)/);
    expect(history.stdout).toMatch(/when \(UTC\)\s+who\s+action\s+version\s+previous\n[─ ]+\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+Ada\s+apply\s+\w{12}\s+\w{12}\n$/);
    expect(() => JSON.parse(history.stdout)).toThrow();
    const json = JSON.parse((await kiosk("framebook", "--framebooks", framebooks, "history", "--system", "marta", "--json")).stdout) as { audit: { who: string }[] };
    expect(json.audit.map((a) => a.who)).toEqual(["Ada"]);
    expect((await kiosk("framebook", "--framebooks", framebooks, "rollback", "--system", "marta", "--operator", "Bea")).stdout).toMatch(/^rolled back marta/);
  });

  it("preview replays the stored sessions against a draft; apply --preview shows the same before applying", async () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const auditDb = path.join(dir, "audit.sqlite");
    // Today, in service hours (older sessions would be past the audit's retention period).
    const today = new Date();
    const now = new Date(today.getFullYear(), today.getMonth(), today.getDate(), 14, 0);
    const audit = SessionAuditStore.open(auditDb, { clock: () => now });
    audit.put(await recordSession(pack, { sessionId: "adult", system: "marta", turns: [trip("MARTA-AP", "MARTA-FP")], now }));
    audit.put(await recordSession(pack, { sessionId: "senior", system: "marta", turns: [trip("MARTA-AP", "MARTA-FP", { adults: 1, seniors: 1 })], now: new Date(now.getTime() + 60_000) }));
    audit.close();
    const draft = file("seniors.yaml", packFramebook("marta").replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."'));
    const framebooks = path.join(dir, "fbs-preview");
    const preview = await kiosk("framebook", "--framebooks", framebooks, "preview", draft, "--system", "marta", "--audit-db", auditDb);
    expect(preview.stdout).toMatch(/^Replay of the last 2 passenger session\(s\) \(2 answers\) against .*seniors\.yaml: 2 answer\(s\) in 2 session\(s\) would change\.\nBy field: fare 1, banners 2\n/);
    expect(preview.stdout).toContain("  fare: 3.75 USD  →  2.50 USD");
    expect(preview.stdout).toMatch(/\nfare policies as the kiosk reads them:\n {2}seniors_free: seniors travel free; always in force\n$/);
    const json = JSON.parse((await kiosk("framebook", "--framebooks", framebooks, "preview", draft, "--system", "marta", "--audit-db", auditDb, "--json")).stdout) as { changedTurns: number; fare_policies: unknown };
    expect(json.changedTurns).toBe(2);
    // The reading the operator confirms is in the JSON too.
    expect(json.fare_policies).toEqual([
      {
        policy_id: "seniors_free",
        source: "text",
        effects: ["seniors travel free"],
        valid_from: null,
        valid_until: null,
        asks_passenger: false,
        unread: [],
        if_unread: null,
        in_words: ["seniors_free: seniors travel free; always in force"],
      },
    ]);
    const applied = await kiosk("framebook", "--framebooks", framebooks, "apply", draft, "--system", "marta", "--preview", "--audit-db", auditDb, "--operator", "Ada");
    expect(applied.stdout).toMatch(/^Replay of the last 2 passenger session\(s\)[\s\S]*\nfare policies as the kiosk reads them:\n {2}seniors_free: seniors travel free; always in force\n1 change\(s\) applied to marta: version \w{12}/);
    // Applied: the same draft now changes nothing.
    expect((await kiosk("framebook", "--framebooks", framebooks, "preview", draft, "--system", "marta", "--audit-db", auditDb)).stdout).toMatch(/: 0 answer\(s\) in 0 session\(s\) would change\./);
  });
});
