import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { noJudge } from "../scorer/index.ts";
import { BenchStore } from "../store/store.ts";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gitRevision } from "./environment.ts";
import { resumeRun, startRun } from "./execute.ts";
import { runCases, type CaseResult } from "./runner.ts";
import { parseCategories, parseSystems, selectCases } from "./select.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const cases = pack.cases("cta").slice(0, 12);

/** A record without its timings, for comparing runs. */
function comparable(r: CaseResult): unknown {
  return JSON.parse(JSON.stringify({ record: r.record, score: r.score }, (k, v: unknown) => (k === "ms" || k.endsWith("_ms") || k.endsWith("Ms") || k === "startedAt" ? undefined : v)));
}

describe("runCases", () => {
  it("gives the same results with a pool of 4 as one at a time", async () => {
    const serial: CaseResult[] = [];
    const pooled: CaseResult[] = [];
    await runCases({ pack, cases, policy: rulePolicy, scoring: { judge: noJudge }, onResult: (r) => void serial.push(r) });
    const outcome = await runCases({ pack, cases, policy: rulePolicy, concurrency: 4, scoring: { judge: noJudge }, onResult: (r) => void pooled.push(r) });
    expect(outcome).toEqual({ completed: 12, aborted: false, dropped: 0 });
    const byId = new Map(pooled.map((r) => [r.kase.id, comparable(r)]));
    for (const r of serial) expect(byId.get(r.kase.id)).toEqual(comparable(r));
  });

  it("stops scheduling on abort and never reports a session the abort cut short", async () => {
    const controller = new AbortController();
    const seen: CaseResult[] = [];
    const outcome = await runCases({
      pack,
      cases,
      policy: rulePolicy,
      concurrency: 3,
      signal: controller.signal,
      scoring: null,
      onResult: (r) => {
        seen.push(r);
        if (seen.length === 2) controller.abort();
      },
    });
    expect(outcome.aborted).toBe(true);
    expect(outcome.completed).toBe(seen.length);
    expect(outcome.completed + outcome.dropped).toBeLessThan(cases.length);
    expect(seen.every((r) => r.record.kiosk.termination !== "aborted")).toBe(true);
    expect(seen.every((r) => r.score === null && r.scoreNote === "not scored: the run was started with --no-score")).toBe(true);
  });

  it("rethrows a failure to store a result and stops the other workers", async () => {
    let calls = 0;
    await expect(
      runCases({
        pack,
        cases,
        policy: rulePolicy,
        concurrency: 2,
        scoring: null,
        onResult: () => {
          if (++calls === 3) throw new Error("disk full");
        },
      }),
    ).rejects.toThrow("disk full");
    expect(calls).toBeLessThan(cases.length);
  });
});

describe("startRun", () => {
  it("marks the run failed with the error when storing breaks, and keeps what was stored", async () => {
    const store = BenchStore.open(":memory:");
    const insert = store.insertCase.bind(store);
    let n = 0;
    store.insertCase = (runId, c) => {
      if (++n === 3) throw new Error("database is locked");
      return insert(runId, c);
    };
    await expect(startRun({ pack, store, policy: "rule", selection: { caseIds: cases.map((c) => c.id) } })).rejects.toThrow("database is locked");
    const run = store.requireRun();
    expect(run).toMatchObject({ status: "failed", error: "database is locked" });
    expect(store.cases(run.id)).toHaveLength(2);
    expect(store.sessions(run.id).map((s) => s.status)).toEqual(["failed"]);
    store.close();
  });

  it("records an operator's case file by the checksum of the bytes its cases came from, and resumes only from those bytes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-cases-file-"));
    const file = path.join(dir, "cases.json");
    const text = JSON.stringify(cases.slice(0, 4));
    writeFileSync(file, text);
    const store = BenchStore.open(":memory:");
    try {
      const controller = new AbortController();
      const first = await startRun({ pack, store, policy: "rule", selection: { casesFile: file }, signal: controller.signal, onProgress: (p) => void (p.done === 2 && controller.abort()) });
      expect(first.status).toBe("interrupted");
      const sha = createHash("sha256").update(text).digest("hex");
      expect(store.requireRun(first.runId).selection).toMatchObject({ casesFile: file, casesFileSha256: sha });
      expect(store.requireRun(first.runId).casesChecksums).toEqual({ [file]: sha.slice(0, 12) });
      // Other bytes, even valid cases: refused before they are read as cases.
      writeFileSync(file, JSON.stringify(cases.slice(0, 3)));
      await expect(resumeRun({ pack, store, runId: first.runId })).rejects.toThrow(`cannot resume: the run's case file ${file} changed since the run started`);
      rmSync(file);
      await expect(resumeRun({ pack, store, runId: first.runId })).rejects.toThrow(`cannot resume: the run's case file ${file} is gone`);
      writeFileSync(file, text);
      expect((await resumeRun({ pack, store, runId: first.runId })).status).toBe("finished");
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("records the source revision of the run and of each session, as git gives it, when the session ends", async () => {
    const store = BenchStore.open(":memory:");
    const controller = new AbortController();
    const selection = { caseIds: cases.slice(0, 4).map((c) => c.id) };
    const first = await startRun({ pack, store, policy: "rule", selection, signal: controller.signal, onProgress: (p) => void (p.done === 2 && controller.abort()) });
    expect(first.status).toBe("interrupted");
    await resumeRun({ pack, store, runId: first.runId });
    const git = await gitRevision();
    expect(store.requireRun(first.runId)).toMatchObject({ status: "finished", gitCommit: git.commit, gitDirty: git.dirty });
    expect(store.sessions(first.runId).map((s) => s.gitCommit)).toEqual([git.commit, git.commit]);
    store.close();
  });
});

describe("a run's outcome (RunOutcome.storedCases)", () => {
  const selection = { caseIds: cases.map((c) => c.id) };

  it("holds every stored case as the store reads it back, in run order, from the direct writer and from a writer thread", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "stored-cases-"));
    try {
      for (const [file, storeInBackground] of [[":memory:", false], [path.join(dir, "b.sqlite"), true]] as const) {
        const store = BenchStore.open(file);
        // A pool of 4 finishes cases out of order; the outcome is still in run order.
        const outcome = await startRun({ pack, store, policy: "rule", selection, concurrency: 4, storeInBackground });
        expect(outcome.storedCases.map((c) => c.caseId)).toEqual(selection.caseIds);
        expect(outcome.storedCases).toEqual(store.cases(outcome.runId));
        expect(outcome.storedCases.every((c) => c.scored)).toBe(true);
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("holds the cases stored before a resume too", async () => {
    const store = BenchStore.open(":memory:");
    const controller = new AbortController();
    const first = await startRun({ pack, store, policy: "rule", selection, signal: controller.signal, onProgress: (p) => void (p.done === 5 && controller.abort()) });
    expect(first.status).toBe("interrupted");
    expect(first.storedCases).toEqual(store.cases(first.runId));
    expect(first.storedCases).toHaveLength(5);
    const resumed = await resumeRun({ pack, store, runId: first.runId });
    expect(resumed.storedCases.map((c) => c.caseId)).toEqual(selection.caseIds);
    expect(resumed.storedCases).toEqual(store.cases(first.runId));
    // A finished run resumed again runs nothing and still says what is stored.
    expect((await resumeRun({ pack, store, runId: first.runId })).storedCases).toEqual(store.cases(first.runId));
    store.close();
  });
});

describe("case selection", () => {
  it("filters by system, category and partition in the pack's order", () => {
    const { cases: picked, selection } = selectCases(pack, { systems: ["bart", "marta"], categories: ["K"], split: "holdout" });
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.every((c) => (c.system === "marta" || c.system === "bart") && c.category === "K" && pack.holdoutIds().has(c.id))).toBe(true);
    expect(selection.selectedSystems).toEqual(["marta", "bart"]);
    expect(picked.map((c) => c.id)).toEqual(pack.allCases().filter((c) => picked.includes(c)).map((c) => c.id));
  });

  it("parses category lists and ranges, and systems case-insensitively", () => {
    expect(parseCategories("a,C")).toEqual(["A", "C"]);
    expect(parseCategories("B..E")).toEqual(["B", "C", "D", "E"]);
    expect(parseCategories("J-K,A")).toEqual(["A", "J", "K"]);
    expect(() => parseCategories("L")).toThrow("unknown category 'L'");
    expect(parseSystems("CTA, marta")).toEqual(["marta", "cta"]);
    expect(parseCategories(undefined)).toBeUndefined();
  });

  it("takes any system id, and names the systems that have cases when one has none", () => {
    expect(parseSystems("Hyderabad,marta")).toEqual(["marta", "hyderabad"]);
    expect(() => parseSystems("new york")).toThrow("'new york' is not a system id");
    expect(() => selectCases(pack, { systems: ["london"] })).toThrow("unknown system 'london': the data pack has cases for marta, doha, bart, taipei, cta, beijing");
  });

  it("refuses an empty selection", () => {
    expect(() => selectCases(pack, { systems: ["marta"], caseIds: ["DOHA-A-001"] })).toThrow("the selection matches no cases");
  });
});
