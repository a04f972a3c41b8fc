// Settings every connection to a bench database needs (SQLite keeps them per connection; WAL and
// the page size belong to the file): the main connection (BenchStore) and the case writer thread's.
import type Database from "better-sqlite3";

export function applyConnectionSettings(db: Database.Database): void {
  // WAL with NORMAL: a power cut can lose the last commits but never corrupts the file.
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
}
