// Figures: crash/restart cycles (issue 13, findings 4 and 8, part 3).
//   PIN: an attacker at the screen guesses, and restarts (SIGKILLs) the kiosk between guesses and in
//   the middle of checks, hoping each restart forgets the failures. Each trial: 10 wrong guesses,
//   each in a new process (killed at a random moment half the time), then the right PIN. Counted:
//   guesses checked beyond the free attempts (with the lockout state the kiosk stores, target 0;
//   and, for comparison, with it kept in memory only as before).
//   Ledger: ledgers with sales, then pages of the file overwritten (random count and place); the
//   kiosk starts on it as its hosts do (Ledger.open, or no ledger and sales off) and tries to sell.
//   Counted: sales committed into a file SQLite's integrity_check calls corrupt (target 0).
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { DataPack } from "../../tools/data/datapack.ts";
import { KioskApp } from "../../runtime/kiosk/app.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import { packExtras } from "../../runtime/kiosk/node/pack-extras.ts";
import { SimulatedPaymentTerminal } from "../../runtime/kiosk/payment.ts";
import { existsSync, readFileSync } from "node:fs";
import { hashPin, LOCAL_PIN_SOURCE, PinGate } from "../../runtime/operator/pin.ts";
import { Examples, figure, info, Rng, type RunOptions, type SectionResult } from "./common.ts";

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), "pin-child.ts");
const FREE_ATTEMPTS = 3;
const PIN = "731946";

/** One guess in a child process; killed `killAfterMs` after it is ready (null: let it answer). */
function guess(hash: string, pin: string, stateFile: string | null, killAfterMs: number | null): Promise<{ answered: boolean; checked: boolean; ok: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, hash, pin, stateFile ?? "-", String(FREE_ATTEMPTS)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (killAfterMs !== null && out.includes("READY") && !child.killed) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", () => {
      const m = /RESULT (\{.*\}) ([01])/.exec(out);
      if (!m) {
        if (killAfterMs === null) reject(new Error(`pin child gave no result: ${err.slice(0, 300)}`));
        resolve({ answered: false, checked: false, ok: false });
        return;
      }
      resolve({ answered: true, checked: m[2] === "1", ok: (JSON.parse(m[1]!) as { ok: boolean }).ok });
    });
  });
}

/**
 * The attack with restarts inside this process: every guess goes to a new PinGate (what a restarted
 * kiosk builds from its files), and half the time the previous one is abandoned mid-check.
 */
async function pinAttackInProcess(rng: Rng, hash: string, dir: string, trial: string, stored: boolean): Promise<number> {
  const stateFile = stored ? path.join(dir, `lockout-${trial}.json`) : undefined;
  const failures = (): number => (stateFile && existsSync(stateFile) ? ((JSON.parse(readFileSync(stateFile, "utf8")) as { sources?: Record<string, { failures: number }> }).sources?.[LOCAL_PIN_SOURCE]?.failures ?? 0) : 0);
  let checked = 0;
  const pending: Promise<unknown>[] = [];
  for (let g = 0; g <= 10; g++) {
    const gate = new PinGate({ hash, freeAttempts: FREE_ATTEMPTS, lockoutMs: 3_600_000, maxLockoutMs: 3_600_000, ...(stateFile ? { stateFile } : {}) });
    const before = failures();
    const attempt = gate.check(g === 10 ? PIN : `00000${g}`);
    if (g < 10 && rng.chance(0.5)) {
      // Killed mid-check: the attacker gets no answer (the abandoned check finishes unseen).
      pending.push(attempt);
      await new Promise((r) => setImmediate(r));
      continue;
    }
    const result = await attempt;
    const wasChecked = result.ok || (stateFile ? failures() > before : result.reason === "wrong_pin" || result.retryAfterMs === 3_600_000);
    if (wasChecked) checked++;
  }
  await Promise.all(pending);
  return Math.max(0, checked - FREE_ATTEMPTS);
}

async function pinAttack(rng: Rng, hash: string, dir: string, trial: number, stored: boolean): Promise<number> {
  const stateFile = stored ? path.join(dir, `lockout-${trial}.json`) : null;
  let checked = 0;
  // In memory only, each restart starts from nothing: model that by one process per guess too.
  for (let g = 0; g < 10; g++) {
    const r = await guess(hash, `00000${g}`, stateFile, rng.chance(0.5) ? rng.range(0, 60) : null);
    if (r.answered && r.checked) checked++;
  }
  const right = await guess(hash, PIN, stateFile, null);
  if (right.checked) checked++;
  return Math.max(0, checked - FREE_ATTEMPTS);
}

async function corruptLedgerTrial(pack: DataPack, rng: Rng, dir: string, trial: number): Promise<{ corrupt: boolean; opened: boolean; sales: number }> {
  const file = path.join(dir, `ledger-${trial}.sqlite`);
  const seedSales = rng.range(15, 40);
  const make = (ledger: Ledger | null, problem?: string): KioskApp =>
    new KioskApp({ pack, extras: packExtras(pack), ledger, ...(problem ? { ledgerProblem: problem } : {}), payment: new SimulatedPaymentTerminal(), clock: () => new Date(2026, 2, 9, 14), log: () => undefined });
  const ledger = Ledger.open(file);
  const app = make(ledger);
  for (let i = 0; i < seedSales; i++) {
    const a = await app.ask({ system: "marta", events: [{ type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" }, { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" }, { type: "passenger_count_changed", adults: 1 }] });
    await app.purchase({ sessionId: a.sessionId, paymentMethod: "breeze_card" });
  }
  ledger.db.pragma("wal_checkpoint(TRUNCATE)");
  ledger.close();
  // Overwrite pages (never the header page: a file that is not a database at all is the easy case).
  const pageSize = 4096;
  const pages = Math.floor(statSync(file).size / pageSize);
  const count = rng.range(1, Math.min(20, pages - 1));
  const fd = openSync(file, "r+");
  for (let k = 0; k < count; k++) {
    const page = rng.range(1, pages - 1);
    const bytes = Buffer.alloc(pageSize);
    for (let b = 0; b < pageSize; b++) bytes[b] = rng.chance(0.5) ? rng.int(256) : 0;
    writeSync(fd, bytes, 0, pageSize, page * pageSize);
  }
  closeSync(fd);
  let corrupt: boolean;
  try {
    const db = new Database(file, { readonly: true });
    const rows = db.pragma("integrity_check(1)") as { integrity_check: string }[];
    corrupt = rows[0]?.integrity_check !== "ok";
    db.close();
  } catch {
    corrupt = true;
  }
  // The kiosk starts on it as its hosts do.
  let opened: Ledger | null = null;
  let problem: string | undefined;
  try {
    opened = Ledger.open(file);
  } catch (err) {
    problem = (err as Error).message;
  }
  const kiosk = make(opened, problem);
  let sales = 0;
  for (let i = 0; i < 10; i++) {
    try {
      const a = await kiosk.ask({ system: "marta", events: [{ type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" }, { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" }, { type: "passenger_count_changed", adults: 1 }] });
      if ((await kiosk.purchase({ sessionId: a.sessionId, paymentMethod: "breeze_card" })).ok) sales++;
    } catch {
      // a read failing on a damaged file is not a sale
    }
  }
  opened?.close();
  return { corrupt, opened: opened !== null, sales };
}

export async function restartCycles(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const rng = new Rng(`${options.seed}:restart`);
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-restart-"));
  // A real-cost hash where a kill must land mid-check; a cheap one for the many in-process restarts.
  const hash = await hashPin(PIN, { N: 16384, r: 8, p: 1 });
  const cheap = await hashPin(PIN, { N: 1024, r: 8, p: 1 });
  // Restarts in this process (many), and real processes SIGKILLed at random moments (full run).
  const inProcessTrials = options.quick ? 20 : 100;
  const pinTrials = options.quick ? 0 : 3;
  const ledgerTrials = options.quick ? 4 : 40;
  let gainedStored = 0;
  let gainedMemory = 0;
  let gainedInProcess = 0;
  let corruptFiles = 0;
  let salesOnCorrupt = 0;
  let refusedAtStart = 0;
  const leaks = new Examples<Record<string, unknown>>(10);
  try {
    for (let t = 0; t < inProcessTrials; t++) gainedInProcess += await pinAttackInProcess(rng.fork(`pin-inproc-${t}`), cheap, dir, `inproc-${t}`, true);
    // The same attack on a gate that keeps its count in memory only (as before issue 13).
    gainedMemory += await pinAttackInProcess(rng.fork("pin-memory"), cheap, dir, "memory", false);
    for (let t = 0; t < pinTrials; t++) {
      gainedStored += await pinAttack(rng.fork(`pin-stored-${t}`), hash, dir, t, true);
      options.log(`restart: PIN trial with real processes ${t + 1}/${pinTrials}`);
    }
    for (let t = 0; t < ledgerTrials; t++) {
      const r = await corruptLedgerTrial(pack, rng.fork(`ledger-${t}`), dir, t);
      if (r.corrupt) {
        corruptFiles++;
        if (!r.opened) refusedAtStart++;
        salesOnCorrupt += r.sales;
        if (r.sales > 0) leaks.add({ trial: t, sales: r.sales, opened: r.opened });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    id: "restart",
    title: "Crash/restart cycles: PIN lockout, corrupt ledgers",
    figures: [
      figure("restart.extra_pin_guesses", "extra PIN guesses gained by restarting", gainedStored + gainedInProcess, { op: "eq", value: 0 }, {
        of: `${inProcessTrials} attacks restarting the PIN gate${pinTrials > 0 ? ` + ${pinTrials} restarting the process (SIGKILL at random moments)` : ""}, each 10 wrong guesses + the right PIN`,
      }),
      info("restart.extra_pin_guesses_in_memory", "the same attack with the lockout kept in memory only", gainedMemory, { of: "1 attack" }),
      figure("restart.sales_on_corrupt", "sales committed into a corrupt ledger", salesOnCorrupt, { op: "eq", value: 0 }, { of: `${corruptFiles} corrupt files (integrity_check) of ${ledgerTrials}, ${refusedAtStart} refused at start by quick_check` }),
    ],
    details: { leaks: leaks.items },
    ms: performance.now() - t0,
  };
}
