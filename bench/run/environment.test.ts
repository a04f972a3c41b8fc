// What a run records of the source revision: one `git status --porcelain=v2 --branch` read.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../test/paths.ts";
import { gitRevision, parseGitStatus } from "./environment.ts";

const OID = "2228d0fd8d339b7e3f7ea3e7b0eb19c991a7725e";

describe("parseGitStatus", () => {
  it("takes the commit from the branch.oid line and calls any other line a change", () => {
    expect(parseGitStatus(`# branch.oid ${OID}\n# branch.head main\n`)).toEqual({ commit: OID, dirty: false });
    expect(parseGitStatus(`# branch.oid ${OID}\n# branch.head (detached)\n1 .M N... 100644 100644 100644 a b bench/run/environment.ts\n`)).toEqual({ commit: OID, dirty: true });
    expect(parseGitStatus(`# branch.oid ${OID}\n2 R. N... 100644 100644 100644 a b R100 new.ts\told.ts\n`)).toEqual({ commit: OID, dirty: true });
  });

  it("knows no commit in a repository without one, or in output it does not recognise", () => {
    expect(parseGitStatus("# branch.oid (initial)\n# branch.head main\n")).toEqual({ commit: null, dirty: null });
    expect(parseGitStatus("")).toEqual({ commit: null, dirty: null });
  });
});

describe("gitRevision", () => {
  it("gives this checkout's commit and whether tracked files changed, as git's own commands say", async () => {
    const git = (...args: string[]): string | null => {
      try {
        return execFileSync("git", ["-C", REPO_ROOT, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
      } catch {
        return null; // not a git checkout (an unpacked copy)
      }
    };
    const revision = await gitRevision();
    const head = git("rev-parse", "HEAD");
    expect(revision.commit).toBe(head);
    expect(revision.dirty).toBe(head === null ? null : (git("status", "--porcelain", "--untracked-files=no") ?? "").length > 0);
  });
});
