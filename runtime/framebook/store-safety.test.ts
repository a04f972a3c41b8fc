// The framebook store under the outside review (issue 13): a torn audit line (finding 10), a
// rollback to an invalid version and an invalid active file (finding 11), planted symlinks (12).
import { appendFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { OperatorConsole } from "../operator/console.ts";
import { hashPin, PinGate } from "../operator/pin.ts";
import { FramebookRejectedError, FramebookStore } from "./store.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const edited = original.replace("cultural_notes: []", 'cultural_notes:\n    - "Breeze Cards are sold at every station."');
const fresh = (): string => mkdtempSync(path.join(tmpdir(), "kiosk-store-"));

async function loggedIn(store: FramebookStore): Promise<{ operator: OperatorConsole; token: string }> {
  const operator = new OperatorConsole({ framebooks: store, pin: new PinGate({ hash: await hashPin("4826", { N: 1024, r: 8, p: 1 }) }), systems: pack.systemIds, bench: null, log: () => undefined });
  const login = await operator.login({ operator: "Alice", pin: "4826" });
  if (!login.ok) throw new Error("login failed");
  return { operator, token: login.token };
}

describe("audit log with a torn line (finding 10)", () => {
  it("skips and reports bad lines, and the next entry starts on a new line", () => {
    const dir = fresh();
    const store = new FramebookStore(pack, dir);
    store.apply("marta", edited, "a.yaml", "alice");
    // A torn write (power cut mid-append) and a hand edit.
    appendFileSync(path.join(dir, "audit.jsonl"), '{"at":"2026-03-09T10:00:00Z","who":"bo');
    store.apply("bart", readFileSync(path.join(SHARED_DATA_DIR, "data/systems/bart/framebook.yaml"), "utf8").replace("cultural_notes: []", 'cultural_notes:\n    - "x"'), "b.yaml", "bob");
    appendFileSync(path.join(dir, "audit.jsonl"), '{"hello": "world"}\n');
    const report = store.auditReport();
    expect(report.entries.map((e) => [e.system, e.who])).toEqual([["marta", "alice"], ["bart", "bob"]]);
    expect(report.skipped).toEqual([
      { line: 2, reason: "not JSON (a torn or edited line)" },
      { line: 4, reason: expect.stringMatching(/^not an audit entry/) },
    ]);
  });

  it("every system's operator status still works and lists the skipped lines", async () => {
    const dir = fresh();
    const store = new FramebookStore(pack, dir);
    store.apply("marta", edited, "a.yaml", "alice");
    appendFileSync(path.join(dir, "audit.jsonl"), "garbage");
    const { operator, token } = await loggedIn(store);
    for (const system of pack.systemIds) {
      const status = operator.framebookStatus({ token, system });
      expect(status.auditProblems, system).toEqual(["audit.jsonl line 2: not JSON (a torn or edited line) (skipped)"]);
    }
    expect(operator.framebookStatus({ token, system: "marta" }).audit).toHaveLength(1);
  });
});

describe("rollback and the active file (finding 11)", () => {
  it("validates a version before restoring it: an invalid one changes nothing", () => {
    const dir = fresh();
    const store = new FramebookStore(pack, dir);
    store.apply("marta", edited, "a.yaml", "alice");
    const [version] = store.history("marta");
    // The kept version is damaged on disk.
    writeFileSync(version!.file, original.replace('currency_code: "USD"', 'currency_code: "EUR"'));
    const before = store.active("marta");
    expect(() => store.rollback("marta", "alice")).toThrow(FramebookRejectedError);
    expect(store.active("marta")).toEqual(before);
    expect(store.history("marta")).toHaveLength(1);
  });

  it("an invalid active operator file is not in force, and the operator is told", () => {
    const dir = fresh();
    const logs: string[] = [];
    const store = new FramebookStore(pack, dir, { log: (m) => logs.push(m) });
    mkdirSync(path.join(dir, "marta"), { recursive: true });
    writeFileSync(path.join(dir, "marta", "framebook.yaml"), original.replace('currency_code: "USD"', 'currency_code: "EUR"'));
    expect(store.active("marta").source).toBe("operator");
    const inForce = store.inForce("marta");
    expect(inForce).toMatchObject({ source: "data-pack", text: original, problem: expect.stringMatching(/invalid: currency_code 'EUR'.*not in use/) });
    expect(store.systemData("marta").framebook.currency_code).toBe("USD");
    expect(logs.join("\n")).toMatch(/is invalid .* data pack's framebook/);
  });

  it("the operator status shows the framebook really in force, and a refused rollback says why", async () => {
    const dir = fresh();
    const store = new FramebookStore(pack, dir);
    store.apply("marta", edited, "a.yaml", "alice");
    const { operator, token } = await loggedIn(store);
    writeFileSync(path.join(dir, "marta", "framebook.yaml"), "framebook: [not a framebook");
    const status = operator.framebookStatus({ token, system: "marta" });
    expect(status).toMatchObject({ source: "data-pack", text: original, problem: expect.stringMatching(/is invalid/) });
    writeFileSync(store.history("marta")[0]!.file, "framebook: {}");
    expect(() => operator.rollbackFramebook({ token, system: "marta" })).toThrow(/previous framebook .* is not valid.*Nothing was changed/);
  });
});

describe("no symlink following (finding 12)", () => {
  it.skipIf(process.platform === "win32")("apply does not write through a symlink planted at the old predictable temp name", () => {
    const dir = fresh();
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "precious");
    mkdirSync(path.join(dir, "marta", "versions"), { recursive: true });
    symlinkSync(victim, path.join(dir, "marta", `framebook.yaml.tmp-${process.pid}`));
    const store = new FramebookStore(pack, dir);
    store.apply("marta", edited, "a.yaml", "alice");
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(lstatSync(path.join(dir, "marta", "framebook.yaml")).isSymbolicLink()).toBe(false);
    expect(store.active("marta").text).toBe(edited);
    expect(readdirSync(path.join(dir, "marta")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
