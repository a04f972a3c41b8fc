// `kiosk framebook …`: the operator's tools to check, preview, apply and roll back framebooks.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { SystemIdSchema, type SystemId } from "../tools/data/schemas.ts";
import { importReview, noteText } from "../host/network/import.ts";
import { FRAMEBOOKS_DIR_ENV, FramebookRejectedError, FramebookStore, type AuditEntry } from "../runtime/framebook/store.ts";
import { formatIssues, type FramebookValidation } from "../runtime/framebook/validate.ts";
import { farePolicyReadingJson, farePolicyReadingText } from "../runtime/framebook/policy-reading.ts";
import { renderTable } from "../bench/report/table.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";
import { confirm, operatorName } from "./operator-name.ts";
import { addPreviewOptions, storedSessions } from "./preview.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import { replayBeforeApply, replayReportText, type ReplayReport } from "../runtime/replay/replay.ts";
import { framebookDraft } from "../runtime/replay/drafts.ts";
import { commandDescription } from "./commands.ts";

interface FramebookOptions extends GlobalOptions {
  system?: string;
  framebooks?: string;
  operator?: string;
  json?: boolean;
  preview?: boolean;
  sessions?: string;
  auditDb?: string;
}

/** Replay the last sessions of `system` from the session audit against a validated draft. */
function previewDraft(fbStore: FramebookStore, pack: DataPack, system: SystemId, validation: FramebookValidation, opts: FramebookOptions): Promise<ReplayReport> {
  const draft = pack.system(system).withFramebook(validation.framebook!, validation.framebookPy);
  return replayBeforeApply({ pack, sessions: storedSessions(opts, system), ...framebookDraft((s) => fbStore.systemData(s), system, draft) });
}

export function framebooksDir(flag?: string): string {
  return path.resolve(flag ?? process.env[FRAMEBOOKS_DIR_ENV] ?? "framebooks");
}

function systemOf(opts: FramebookOptions): SystemId {
  const parsed = SystemIdSchema.safeParse(opts.system);
  if (!parsed.success) throw new UsageError(`--system is required: ${parsed.error.issues[0]?.message ?? "not a system id"} (got '${opts.system ?? ""}')`);
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

/** `framebook history` for people: what is active, what rollback would restore, and who changed what when. */
export function historyText(
  system: SystemId,
  active: { source: string; version: string; file: string; problem?: string | null | undefined },
  versions: readonly string[],
  audit: readonly AuditEntry[],
  skippedAuditLines = 0,
): string {
  const lines = [
    `${system}: active framebook ${active.version} (${active.source === "operator" ? "applied by an operator" : "the data pack's default"}) · ${active.file}`,
    ...(active.problem ? [`warning: ${active.problem}`] : []),
    ...(skippedAuditLines > 0 ? [`warning: ${skippedAuditLines} unreadable audit line(s) skipped (see --json)`] : []),
    versions.length > 0 ? `rollback restores ${versions[versions.length - 1]} (${versions.length} previous version${versions.length === 1 ? "" : "s"} kept)` : "no previous version: nothing to roll back to",
    "",
  ];
  if (audit.length === 0) lines.push("no changes recorded");
  else {
    const header = ["when (UTC)", "who", "action", "version", "previous"];
    const rows = [...audit].reverse().map((a) => [a.at.replace("T", " ").replace(/\.\d+Z$/, ""), a.who, a.action, a.version, a.previous ?? "–"]);
    lines.push(renderTable(header.map(() => ({ align: "l" as const })), header, rows));
  }
  return `${lines.join("\n")}\n`;
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
      const review = importReview(dataPack(opts), systemOf(opts));
      if (opts.json) printJson({ ok: validation.ok, issues: validation.issues, review: review?.notes ?? [] });
      else {
        process.stdout.write(validation.issues.length ? `${formatIssues(validation)}\n` : `${file}: valid\n`);
        // A valid draft of an imported system still holds what no feed says.
        if (review && review.notes.length > 0) process.stdout.write(`still to review (from the network import, ${review.file}):\n${review.notes.map((n) => `  - ${noteText(n)}`).join("\n")}\n`);
      }
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

  addPreviewOptions(
    fb
      .command("preview <file>")
      .description("replay the last stored passenger sessions against a framebook and show which answers would change")
      .requiredOption("--system <id>", "the system the framebook is for"),
  )
    .option("--json", "print the replay report and the fare policies as the kiosk reads them, as JSON")
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const system = systemOf(opts);
      const validation = s.validate(system, readText(file), file);
      if (!validation.ok) {
        process.stdout.write(`${formatIssues(validation)}\n`);
        process.exitCode = 1;
        return;
      }
      const report = await previewDraft(s, dataPack(opts), system, validation, opts);
      if (opts.json) printJson({ ...report, fare_policies: farePolicyReadingJson(validation.framebook!) });
      else process.stdout.write(replayReportText(report, `against ${file}`) + farePolicyReadingText(validation.framebook!));
    });

  addPreviewOptions(
    fb
      .command("apply <file>")
      .description("validate, then atomically activate a framebook for the next passenger session")
      .requiredOption("--system <id>", "the system the framebook is for")
      .option("--preview", "first replay the last stored sessions against it and show what would change (asks to confirm on a terminal)"),
    "with --preview: ",
  )
    .option("--operator <name>", "who is applying it (recorded in the audit log; asked on a terminal when missing)")
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const system = systemOf(opts);
      const text = readText(file);
      const { validation, changes } = s.diff(system, text, file);
      if (validation.ok && opts.preview) process.stdout.write(replayReportText(await previewDraft(s, dataPack(opts), system, validation, opts), `against ${file}`));
      // What the kiosk will price, in words, before it takes effect.
      if (validation.ok) process.stdout.write(farePolicyReadingText(validation.framebook!));
      if (validation.ok && opts.preview && process.stdin.isTTY && !(await confirm(`Apply ${file} to ${system}?`))) {
        process.stdout.write("not applied: the active framebook is unchanged\n");
        return;
      }
      try {
        const who = validation.ok ? await operatorName(opts.operator, "applied the framebook") : "";
        const entry = s.apply(system, text, file, who);
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
    .option("--operator <name>", "who is rolling back (audit log; asked on a terminal when missing)")
    .action(async (_o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const system = systemOf(opts);
      if (s.history(system).length === 0) throw new UsageError(`No previous framebook version to roll back to for ${system}`);
      const who = await operatorName(opts.operator, "rolled the framebook back");
      try {
        const entry = s.rollback(system, who);
        process.stdout.write(`rolled back ${entry.system} to version ${entry.version}\n`);
      } catch (err) {
        if (err instanceof FramebookRejectedError) {
          process.stdout.write(`${formatIssues(err.validation)}\nrejected: the previous version is not valid; the active framebook is unchanged\n`);
          process.exitCode = 1;
          return;
        }
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
    });

  fb.command("history")
    .description("list the active framebook, previous versions and the audit log")
    .requiredOption("--system <id>", "the system")
    .option("--json", "print as JSON")
    .action((_o: unknown, cmd: Command) => {
      const { store: s, opts } = store(cmd);
      const system = systemOf(opts);
      const active = s.inForce(system);
      const versions = s.history(system).map((v) => v.version);
      const report = s.auditReport();
      const audit = report.entries.filter((a) => a.system === system);
      if (opts.json) {
        printJson({
          active: { source: active.source, version: active.version, file: active.file, problem: active.problem },
          versions,
          audit,
          ...(report.skipped.length > 0 ? { auditSkipped: report.skipped } : {}),
        });
        return;
      }
      process.stdout.write(historyText(system, active, versions, audit, report.skipped.length));
    });
}
