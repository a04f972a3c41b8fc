// The PostgreSQL test harness (test/postgres.ts) finds Debian's server binaries, and where there
// are none the PostgreSQL tests fail saying what to install — they never skip silently.
import { describe, expect, it } from "vitest";
import { postgresBinDir } from "../../test/postgres.ts";

describe("test PostgreSQL harness", () => {
  it("finds initdb and postgres (pg_config --bindir, else /usr/lib/postgresql/<newest>/bin)", () => {
    expect(postgresBinDir()).toMatch(/bin$/);
  });

  it("without PostgreSQL, fails naming the package to install", () => {
    expect(() => postgresBinDir({ pgConfig: "/nonexistent/pg_config", root: "/nonexistent/postgresql" })).toThrow(/apt-get install postgresql/);
  });
});
