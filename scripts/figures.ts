// Stored performance runs. A perf script run with --record writes what it measured, with where and
// when, to docs/figures/<name>.json; the README's performance section is written from these files
// (scripts/readme-facts.ts), so its figures are always a real run's and name the machine they came
// from, never typed by hand.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { gitRevision, hardwareInfo } from "../bench/run/environment.ts";

export const FIGURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "docs", "figures");

/** The stored runs the README draws on: one file each. */
export const FIGURE_NAMES = ["perf-tools", "perf-bench", "latency", "perf-llm", "perf-live", "perf-anchor"] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];

export const FigureRecordSchema = z.strictObject({
  /** The command that measured it, as a person would type it. */
  command: z.string().min(1),
  recorded_at: z.iso.datetime(),
  commit: z.string().nullable(),
  /** Tracked files differed from the commit when it ran. */
  dirty: z.boolean().nullable(),
  machine: z.strictObject({
    cpu_model: z.string(),
    cpu_cores: z.number().int().positive(),
    memory_gb: z.number().positive(),
    platform: z.string(),
    node: z.string(),
    /** Load average over the minute before recording: the figures swing with it. */
    load_1m: z.number().nonnegative(),
  }),
  figures: z.record(z.string(), z.union([z.number(), z.string()])),
});
export type FigureRecord = z.infer<typeof FigureRecordSchema>;

export function figureFile(name: FigureName, dir = FIGURES_DIR): string {
  return path.join(dir, `${name}.json`);
}

/** Write one script's figures with the machine, time and commit they came from. */
export async function recordFigures(name: FigureName, command: string, figures: FigureRecord["figures"], dir = FIGURES_DIR): Promise<string> {
  const hw = hardwareInfo();
  const git = await gitRevision();
  // Earlier stored runs are the files being rewritten: they make no difference to what was measured.
  const dirty = git.dirty === null ? null : codeChanged();
  const record: FigureRecord = {
    command,
    recorded_at: new Date().toISOString(),
    commit: git.commit === null ? null : git.commit.slice(0, 12),
    dirty,
    machine: {
      cpu_model: hw.cpuModel,
      cpu_cores: hw.cpuCores,
      memory_gb: Math.round(hw.memoryBytes / 2 ** 30),
      platform: `${hw.platform}-${hw.arch}`,
      node: hw.node,
      load_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    },
    figures,
  };
  FigureRecordSchema.parse(record);
  mkdirSync(dir, { recursive: true });
  const file = figureFile(name, dir);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

/** Tracked files other than the stored runs differ from the commit. */
function codeChanged(): boolean {
  const status = execFileSync("git", ["-C", path.resolve(FIGURES_DIR, "..", ".."), "status", "--porcelain"], { encoding: "utf8" });
  return status.split("\n").some((line) => line.trim() !== "" && !line.slice(3).startsWith("docs/figures/"));
}

/** A stored run, checked; undefined when the script was never recorded. */
export function readFigures(name: FigureName, dir = FIGURES_DIR): FigureRecord | undefined {
  const file = figureFile(name, dir);
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`, { cause: e });
  }
  const parsed = FigureRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join(".") || "(top)"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** A named number of a stored run; an error naming the file and field when it is missing. */
export function figure(record: FigureRecord, name: FigureName, key: string): number {
  const v = record.figures[key];
  if (typeof v !== "number") throw new Error(`${figureFile(name)}: figures.${key} is missing or not a number; rerun ${record.command}`);
  return v;
}
