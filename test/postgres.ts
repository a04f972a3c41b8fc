// A throw-away PostgreSQL cluster for integration tests (issue 18): Debian's own server binaries,
// initdb into a temporary folder, one postgres process on a free port of 127.0.0.1 (trust auth,
// no fsync: test data only), stopped and removed again by stop() — and on process exit, should a
// test runner die first. initdb refuses to run as root, so as root (CI) the cluster is made and
// run as the `postgres` OS user, in a folder handed to it. No PostgreSQL: a clear error naming the
// package to install, never a silent skip.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** A fresh database in the cluster (its own schema for one test). */
  createDatabase(name: string): Promise<string>;
  /** Stop the server and remove its folder (idempotent). */
  stop(): Promise<void>;
}

const INSTALL_HINT = "PostgreSQL is needed for this test: install it with `apt-get install postgresql` (Debian/Ubuntu; CI's .ci/run does)";

/** The folder with initdb and postgres: `pg_config --bindir`, else /usr/lib/postgresql/<newest>/bin. */
export function postgresBinDir(where: { pgConfig?: string; root?: string } = {}): string {
  const fromConfig = spawnSync(where.pgConfig ?? "pg_config", ["--bindir"], { encoding: "utf8" });
  const candidates: string[] = [];
  if (fromConfig.status === 0) candidates.push(fromConfig.stdout.trim());
  const root = where.root ?? "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(root, v, "bin")));
  }
  const found = candidates.find((dir) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "postgres")));
  if (!found) throw new Error(`${INSTALL_HINT}; looked for initdb and postgres in ${candidates.join(", ") || "pg_config --bindir and /usr/lib/postgresql/*/bin"}`);
  return found;
}

/** uid/gid of the `postgres` OS user (from /etc/passwd), for running the server when we are root. */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`running as root, but there is no 'postgres' OS user to run the server as; ${INSTALL_HINT}`);
  return { uid: Number(uid), gid: Number(gid) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode} before accepting connections:\n${output()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${timeoutMs} ms:\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Create and start a cluster. Call stop() in teardown (afterAll), also when the test failed. */
export async function startTestPostgres(options: { timeoutMs?: number } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const asUser = process.getuid?.() === 0 ? postgresUser() : null;
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-pg-"));
  const dataDir = path.join(dir, "data");
  let child: ChildProcess | null = null;
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  const killOnExit = (): void => {
    child?.kill("SIGKILL");
    removeDir();
  };
  try {
    if (asUser) chownSync(dir, asUser.uid, asUser.gid);
    const init = spawnSync(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"], {
      encoding: "utf8",
      ...(asUser ?? {}),
    });
    if (init.status !== 0) throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr || init.stdout || init.error?.message}`);
    const port = await freePort();
    let output = "";
    child = spawn(
      path.join(bin, "postgres"),
      ["-D", dataDir, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"],
      { stdio: ["ignore", "pipe", "pipe"], ...(asUser ?? {}) },
    );
    child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    process.once("exit", killOnExit);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await waitReady(url, child, () => output.slice(-2000), options.timeoutMs ?? 30_000);
    const running = child;
    let stopped = false;
    return {
      url,
      port,
      async createDatabase(name) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE "${name.replaceAll('"', "")}"`);
        } finally {
          await client.end();
        }
        return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        process.removeListener("exit", killOnExit);
        if (running.exitCode === null) {
          const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
          running.kill("SIGINT"); // fast shutdown
          const timer = setTimeout(() => running.kill("SIGKILL"), 10_000);
          await exited;
          clearTimeout(timer);
        }
        removeDir();
      },
    };
  } catch (err) {
    process.removeListener("exit", killOnExit);
    child?.kill("SIGKILL");
    removeDir();
    throw err;
  }
}
