// Opening a small SQLite store of the kiosk (alerts, session audit): create the folder, WAL (not for
// ":memory:"), the durability asked for, a busy timeout for the other processes sharing the file,
// and numbered migrations tracked in PRAGMA user_version, each in one transaction. A database
// written by a newer kiosk is refused.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export function openMigrated(file: string, migrations: readonly string[], options: { synchronous: "FULL" | "NORMAL" }): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    db = new Database(file);
    if (file !== ":memory:") db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${options.synchronous}`);
    db.pragma("busy_timeout = 5000");
    const current = Number(db.pragma("user_version", { simple: true }));
    if (current > migrations.length) throw new Error(`schema version ${current} is newer than this kiosk understands (${migrations.length})`);
    for (let v = current; v < migrations.length; v++) {
      const conn = db;
      conn.transaction(() => {
        conn.exec(migrations[v]!);
        conn.pragma(`user_version = ${v + 1}`);
      }).immediate();
    }
    return db;
  } catch (err) {
    db?.close();
    throw err;
  }
}
