// The command table: `kiosk` registers exactly the table's commands, each module registers the
// command it is listed for (with the table's description), and only the named command's module
// is loaded for a run.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMANDS, commandNamed } from "./commands.ts";
import { buildProgram, registerCommands } from "./main.ts";

describe("cli/commands.ts", () => {
  it("each module registers the command of its row, described as the row says", async () => {
    for (const entry of COMMANDS) {
      const program = new Command("kiosk");
      (await entry.load())(program);
      expect(program.commands.map((c) => c.name())).toEqual([entry.name]);
      expect(program.commands[0]?.description(), entry.name).toBe(entry.description);
    }
  });

  it("finds the command an argument list names, past global options and `help`", () => {
    expect(commandNamed(["bench", "run", "--policy", "rule"])?.name).toBe("bench");
    expect(commandNamed(["--data", "/pack", "tool", "route_planner"])?.name).toBe("tool");
    expect(commandNamed(["--data=/pack", "prompt", "MARTA-A-001"])?.name).toBe("prompt");
    expect(commandNamed(["--systems-dir", "/systems", "network", "import", "feed"])?.name).toBe("network");
    expect(commandNamed(["help", "serve"])?.name).toBe("serve");
    expect(commandNamed(["--help"])).toBeUndefined();
    expect(commandNamed(["bnch"])).toBeUndefined();
    expect(commandNamed([])).toBeUndefined();
  });

  it("registers only the named command for a run, and every command by name for the program's help", async () => {
    const run = buildProgram();
    await registerCommands(run, ["node", "kiosk", "bench", "list"]);
    expect(run.commands.map((c) => c.name())).toEqual(["bench"]);
    expect(run.commands[0]?.commands.map((c) => c.name())).toContain("run");

    const help = buildProgram();
    await registerCommands(help, ["node", "kiosk", "--help"]);
    expect(help.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    expect(help.commands.every((c) => c.commands.length === 0 && c.options.length === 0)).toBe(true);
    expect(help.helpInformation()).toContain(COMMANDS[0].description);

    const all = buildProgram();
    await registerCommands(all, "all");
    expect(all.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    expect(all.commands.find((c) => c.name() === "bench")?.commands.length).toBeGreaterThan(0);
  });
});
