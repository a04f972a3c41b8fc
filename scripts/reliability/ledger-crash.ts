// Figure 4 — crash safety of the ledger. A child process (ledger-child.ts) sells tickets through
// KioskApp into a SQLite ledger (WAL, synchronous=FULL); this parent SIGKILLs it at random moments
// — during start-up and migration, between sales, in the middle of a purchase — restarts it, and
// repeats until enough sales have been committed. After every kill and at the end it opens the
// ledger and checks:
//   - committed sales lost: a sale the child reported as committed (recordSale returned) that is
//     not in the ledger;
//   - corruption: PRAGMA integrity_check not "ok" (or the file will not open);
//   - tickets shown without a committed sale: a ticket the child printed (after purchase()
//     returned ok) with no row in the ledger, or with its sale voided.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { DataPack } from "../../tools/data/datapack.ts";
import { Examples, figure, info, Rng, type RunOptions, type SectionResult } from "./common.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, "ledger-child.ts");

interface Check {
  integrity: string;
  sales: Map<string, string | null>;
}

function inspect(file: string): Check {
  const db = new Database(file);
  try {
    const integrity = (db.pragma("integrity_check") as { integrity_check: string }[]).map((r) => r.integrity_check).join("; ");
    let rows: { ticket_id: string; voided_at: string | null }[] = [];
    try {
      rows = db.prepare("SELECT ticket_id, voided_at FROM sales").all() as typeof rows;
    } catch {
      // Killed before the first migration committed: no table yet (checked as "no sales").
    }
    return { integrity, sales: new Map(rows.map((r) => [r.ticket_id, r.voided_at])) };
  } finally {
    db.close();
  }
}

interface Generation {
  lines: string[];
  killedAt: "startup" | "idle" | "in-sale";
  exitedOnItsOwn: boolean;
  stderr: string;
}

/** Run one child and kill it after `afterMs` (measured from spawn, or from READY). */
function runChild(file: string, dataDir: string, generation: number, killAfterMs: number, fromReady: boolean): Promise<Generation> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, file, dataDir, String(generation)], { stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let buffer = "";
    let stderr = "";
    let timer: NodeJS.Timeout | undefined;
    let killed = false;
    let ready = false;
    let inSale = false;
    let killedAt: Generation["killedAt"] = "startup";
    const kill = (): void => {
      if (killed) return;
      killed = true;
      killedAt = !ready ? "startup" : inSale ? "in-sale" : "idle";
      child.kill("SIGKILL");
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        if (line.startsWith("BEGIN ")) inSale = true;
        else if (line.startsWith("TICKET ") || line.startsWith("REFUSED ")) inSale = false;
        if (line === "READY") {
          ready = true;
          if (fromReady) timer = setTimeout(kill, killAfterMs);
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    if (!fromReady) timer = setTimeout(kill, killAfterMs);
    // A child that never gets ready is killed anyway.
    const guard = setTimeout(kill, 60_000);
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(timer);
      clearTimeout(guard);
      if (buffer) lines.push(buffer);
      resolve({ lines, killedAt, exitedOnItsOwn: !killed, stderr });
    });
  });
}

export async function ledgerCrash(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const target = options.quick ? 60 : 500;
  const rng = new Rng(`${options.seed}:ledger`);
  const dir = mkdtempSync(path.join(tmpdir(), "ledger-crash-"));
  const file = path.join(dir, "ledger.sqlite");
  const committed = new Set<string>();
  const shown = new Set<string>();
  let kills = 0;
  const killedAt: Record<string, number> = { startup: 0, idle: 0, "in-sale": 0 };
  let corruptChecks = 0;
  let checks = 0;
  let lostCommitted = 0;
  let ticketsWithoutSale = 0;
  let unexpectedExits = 0;
  const problems = new Examples<Record<string, unknown>>(10);

  const verify = (when: string): void => {
    checks++;
    let state: Check;
    try {
      state = inspect(file);
    } catch (err) {
      corruptChecks++;
      problems.add({ when, problem: `cannot open: ${(err as Error).message}` });
      return;
    }
    if (state.integrity !== "ok") {
      corruptChecks++;
      problems.add({ when, problem: `integrity_check: ${state.integrity}` });
    }
    const lost = [...committed].filter((id) => !state.sales.has(id));
    const orphan = [...shown].filter((id) => !state.sales.has(id) || state.sales.get(id) !== null);
    if (lost.length > 0) problems.add({ when, problem: "committed sales missing", tickets: lost.slice(0, 5) });
    if (orphan.length > 0) problems.add({ when, problem: "tickets shown without a committed sale", tickets: orphan.slice(0, 5) });
    lostCommitted = Math.max(lostCommitted, lost.length);
    ticketsWithoutSale = Math.max(ticketsWithoutSale, orphan.length);
  };

  try {
    let generation = 0;
    while (committed.size < target) {
      generation++;
      // Mostly mid-run (most sales take a few ms); sometimes during start-up and migration.
      const early = rng.chance(0.12);
      const delay = early ? rng.int(1_500) : rng.int(options.quick ? 500 : 1_000);
      const run = await runChild(file, pack.root, generation, delay, !early);
      if (run.exitedOnItsOwn) {
        unexpectedExits++;
        problems.add({ generation, problem: "child exited without being killed", stderr: run.stderr.slice(-500) });
        if (unexpectedExits > 3) throw new Error(`ledger child keeps exiting: ${run.stderr.slice(-500)}`);
      } else {
        kills++;
        killedAt[run.killedAt] = (killedAt[run.killedAt] ?? 0) + 1;
      }
      for (const line of run.lines) {
        const [kind, id] = line.split(" ");
        if (kind === "COMMIT" && id) committed.add(id);
        else if (kind === "TICKET" && id) shown.add(id);
      }
      verify(`after kill ${generation}`);
      if (generation % 10 === 0) options.log(`ledger: ${kills} kills, ${committed.size}/${target} committed sales`);
    }
    verify("final");
    const final = inspect(file);
    return {
      id: "ledger",
      title: "4. Ledger crash safety",
      figures: [
        info("ledger.sales", "sales committed under random SIGKILLs", committed.size, { of: `${kills} kills (${killedAt["in-sale"]} in a sale, ${killedAt.idle} between sales, ${killedAt.startup} in start-up); ${final.sales.size} rows` }),
        figure("ledger.lost_committed", "committed sales lost", lostCommitted, { op: "eq", value: 0 }),
        figure("ledger.corruption", "ledger corruption (integrity_check failures)", corruptChecks, { op: "eq", value: 0 }, { of: `${checks} checks` }),
        figure("ledger.tickets_without_sale", "tickets shown without a committed sale", ticketsWithoutSale, { op: "eq", value: 0 }, { of: `${shown.size} tickets shown` }),
        figure("ledger.unexpected_exits", "writer exits that were not our kill", unexpectedExits, { op: "eq", value: 0 }),
      ],
      details: { target, kills, killedAt, committed: committed.size, shown: shown.size, rows: final.sales.size, checks, problems: problems.items },
      ms: performance.now() - t0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
