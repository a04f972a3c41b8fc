// `kiosk framebook …`: the operator's tools to check, preview, apply and roll back framebooks.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { SystemIdSchema, type SystemId } from "../tools/data/schemas.ts";
import { FRAMEBOOKS_DIR_ENV, FramebookRejectedError, FramebookStore } from "../runtime/framebook/store.ts";
import { formatIssues } from "../runtime/framebook/validate.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";
import { commandDescription } from "./commands.ts";

interface FramebookOptions extends GlobalOptions {
  system?: string;
  framebooks?: string;
  operator?: string;
  json?: boolean;
}

export function framebooksDir(flag?: string): string {
  return path.resolve(flag ?? process.env[FRAMEBOOKS_DIR_ENV] ?? "framebooks");
}

function systemOf(opts: FramebookOptions): SystemId {
  const parsed = SystemIdSchema.safeParse(opts.system);
  if (!parsed.success) throw new UsageError(`--system is required and must be one of ${SystemIdSchema.options.join(", ")} (got '${opts.system ?? ""}')`);
  return parsed.data;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`cannot read framebook file '${file}'`);
  }
}

function store(cmd: Command): { store: FramebookStore; opts: FramebookOptions } {
  const opts = cmd.optsWithGlobals<FramebookOptions>();
  return { store: new FramebookStore(dataPack(opts), framebooksDir(opts.framebooks)), opts };
}

function show(value: unknown): string {
  return value === undefined ? "(absent)" : JSON.stringify(value);
}

export function registerFramebookCommands(program: Command): void {
  const fb = program
    .command("framebook")
    .description(commandDescription("framebook"))
    .option("--framebooks <dir>", `operator framebook directory (else $${FRAMEBOOKS_DIR_ENV}, else ./framebooks)`);

  fb.command("validate <file>")
    .description("check a framebook: YAML syntax, schema and consistency with the system's data")
    .requiredOption("--system <id>", "the system the framebook is for")
    .option("--json", "print the result as JSON")
    .action((file: string, _o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const validation = s.validate(systemOf(opts), readText(file), file);
      if (opts.json) printJson({ ok: validation.ok, issues: validation.issues });
      else process.stdout.write(validation.issues.length ? `${formatIssues(validation)}\n` : `${file}: valid\n`);
      if (!validation.ok) process.exitCode = 1;
    });

  fb.command("diff <file>")
    .description("show what a framebook would change compared with the active one")
    .requiredOption("--system <id>", "the system the framebook is for")
    .action((file: string, _o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const { validation, changes } = s.diff(systemOf(opts), readText(file), file);
      if (!validation.ok) {
        process.stdout.write(`${formatIssues(validation)}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(changes.length === 0 ? "no changes\n" : changes.map((c) => `~ ${c.path}\n  - ${show(c.before)}\n  + ${show(c.after)}`).join("\n") + "\n");
    });

  fb.command("apply <file>")
    .description("validate, then atomically activate a framebook for the next passenger session")
    .requiredOption("--system <id>", "the system the framebook is for")
    .option("--operator <name>", "who is applying it (recorded in the audit log)", os.userInfo().username)
    .action((file: string, _o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const system = systemOf(opts);
      const text = readText(file);
      const { changes } = s.diff(system, text, file);
      try {
        const entry = s.apply(system, text, file, opts.operator ?? "operator");
        process.stdout.write(`${changes.length} change(s) applied to ${system}: version ${entry.version} (previous ${entry.previous}); recorded in the audit log\n`);
      } catch (err) {
        if (err instanceof FramebookRejectedError) {
          process.stdout.write(`${formatIssues(err.validation)}\nrejected: the active framebook is unchanged\n`);
          process.exitCode = 1;
          return;
        }
        throw err;
      }
    });

  fb.command("rollback")
    .description("restore the previous framebook version")
    .requiredOption("--system <id>", "the system")
    .option("--operator <name>", "who is rolling back (audit log)", os.userInfo().username)
    .action((_o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      try {
        const entry = s.rollback(systemOf(opts), opts.operator ?? "operator");
        process.stdout.write(`rolled back ${entry.system} to version ${entry.version}\n`);
      } catch (err) {
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
    });

  fb.command("history")
    .description("list the active framebook, previous versions and the audit log")
    .requiredOption("--system <id>", "the system")
    .action((_o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const system = systemOf(opts);
      const active = s.active(system);
      printJson({
        active: { source: active.source, version: active.version, file: active.file },
        versions: s.history(system).map((v) => v.version),
        audit: s.audit().filter((a) => a.system === system),
      });
    });
}
