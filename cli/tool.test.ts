import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { UsageError } from "./context.ts";
import { registerToolCommand } from "./tool.ts";

function program(): Command {
  const p = new Command("kiosk").option("--data <dir>").exitOverride();
  registerToolCommand(p);
  return p;
}

/** Run `kiosk tool …` and capture what it writes. */
async function run(...argv: string[]): Promise<{ stdout: string; stderr: string; exitCode: number | undefined }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    await program().parseAsync(["tool", ...argv, "--data", SHARED_DATA_DIR], { from: "user" });
    return { stdout, stderr, exitCode: process.exitCode === undefined ? undefined : Number(process.exitCode) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

describe("kiosk tool", () => {
  it("prints the tool's result as JSON", async () => {
    const { stdout, stderr, exitCode } = await run("route_planner", "--system", "marta", "--args", '{"origin":"Airport","destination":"Five Points"}');
    expect(stderr).toBe("");
    expect(exitCode).toBeUndefined();
    const result = JSON.parse(stdout) as { route_id: string; transfers: number; estimated_minutes: number; line_sequence: string[] };
    expect(result).toMatchObject({ route_id: "route_0270621855ef", transfers: 0, estimated_minutes: 17.6, line_sequence: ["red"] });
    expect(stdout).toContain('\n  "stops": [');
  });

  it("prints an error's status and body on stderr and exits 1", async () => {
    const { stdout, stderr, exitCode } = await run("route_planner", "--system", "marta", "--args", '{"origin":"Nowhere","destination":"Airport"}');
    expect(stdout).toBe("");
    expect(stderr).toBe(`404 {"detail":"Unknown station: 'Nowhere'"}\n`);
    expect(exitCode).toBe(1);
  });

  it("passes disruptions and the hidden current time to disruption_feed", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "kiosk-tool-")), "disruptions.json");
    writeFileSync(
      file,
      JSON.stringify({
        disruptions: [
          { id: "old", type: "delay", severity: "warning", message: "expired", valid_until: "2026-01-01T00:00:00" },
          { id: "new", type: "delay", severity: "warning", message: "current" },
        ],
      }),
    );
    const { stdout } = await run("disruption_feed", "--system", "cta", "--disruptions", file, "--current-time", "2026-04-06T08:00:00");
    expect((JSON.parse(stdout) as { disruptions: { id: string }[] }).disruptions.map((d) => d.id)).toEqual(["new"]);
  });

  it("rejects bad flags and JSON with a UsageError that says what is wrong", async () => {
    await expect(run("route_planner", "--system", "marta", "--args", "{origin:")).rejects.toThrow(/--args is not valid JSON/);
    await expect(run("route_planner", "--system", "marta", "--args", "[1]")).rejects.toThrow(/--args must be a JSON object/);
    await expect(run("route_planner", "--args", "{}")).rejects.toThrow(/--system is required/);
    await expect(run("route_planner", "--system", "london")).rejects.toThrow(UsageError);
    await expect(run("teleport", "--system", "marta")).rejects.toThrow(/unknown tool 'teleport'. Tools: route_planner, fare_calculator/);
  });

  it("describes every tool in --help", () => {
    const tool = program().commands.find((c) => c.name() === "tool") as Command;
    let help = "";
    tool.configureOutput({ writeOut: (s) => (help += s) });
    tool.outputHelp();
    for (const name of ["route_planner", "fare_calculator", "station_info", "line_info", "disruption_feed", "knowledge_base"]) {
      expect(help).toContain(`  ${name}`);
    }
    expect(help).toMatch(/origin \(required\)\s+origin station name or id/);
    expect(help).not.toContain("case_id");
  });
});
