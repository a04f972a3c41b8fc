// Runs the reliability sections and collects their figures (scripts/reliability/index.ts prints and
// saves them; reliability.test.ts runs the quick version and asserts every target).
import { availableParallelism, cpus } from "node:os";
import type { DataPack } from "../../tools/data/datapack.ts";
import { adversarialPassengers } from "./adversarial.ts";
import type { Figure, RunOptions, SectionResult } from "./common.ts";
import { electronHardening } from "./electron.ts";
import { failClosed } from "./fail-closed.ts";
import { farePolicyFuzz } from "./fare-policy-fuzz.ts";
import { rawHttp } from "./raw-http.ts";
import { restartCycles } from "./restart.ts";
import { sessionGrowth } from "./session-growth.ts";
import { framebookFuzz } from "./framebook-fuzz.ts";
import { interlockAudit } from "./interlock-audit.ts";
import { ledgerCrash } from "./ledger-crash.ts";
import { modelFaults } from "./model-faults.ts";
import { sessionFuzz } from "./session-fuzz.ts";
import { trustBoundaries } from "./trust-boundaries.ts";

export const DEFAULT_SEED = "issue-8";

export const SECTIONS = ["fuzz", "interlock", "adversarial", "ledger", "model", "electron", "framebook", "failclosed", "http", "farepolicy", "growth", "restart", "trust"] as const;
export type SectionId = (typeof SECTIONS)[number];

export interface ReliabilityOptions extends RunOptions {
  /** Run only these sections (default: all). */
  only?: readonly SectionId[];
  /** Run the Electronegativity scan (npx); default: in the full run only. */
  scanner?: boolean;
}

export interface ReliabilityResults {
  version: 1;
  generatedAt: string;
  mode: "quick" | "full";
  seed: string;
  environment: { node: string; platform: string; cpus: number; cpuModel: string };
  wallMs: number;
  allTargetsMet: boolean;
  /** Every figure with a target that missed it (empty when all are met). */
  missed: string[];
  sections: SectionResult[];
}

const RUNNERS: Record<SectionId, (pack: DataPack, o: ReliabilityOptions) => Promise<SectionResult>> = {
  fuzz: sessionFuzz,
  interlock: interlockAudit,
  adversarial: adversarialPassengers,
  ledger: ledgerCrash,
  model: modelFaults,
  electron: (_pack, o) => electronHardening({ ...o, scanner: o.scanner ?? !o.quick }),
  framebook: framebookFuzz,
  failclosed: failClosed,
  http: rawHttp,
  farepolicy: farePolicyFuzz,
  growth: sessionGrowth,
  restart: restartCycles,
  trust: trustBoundaries,
};

export async function runReliability(pack: DataPack, options: ReliabilityOptions): Promise<ReliabilityResults> {
  const t0 = performance.now();
  const sections: SectionResult[] = [];
  for (const id of options.only && options.only.length > 0 ? options.only : SECTIONS) {
    options.log(`— ${id}`);
    const result = await RUNNERS[id](pack, options);
    options.log(`— ${id}: ${(result.ms / 1000).toFixed(1)} s`);
    sections.push(result);
  }
  const missed = sections.flatMap((s) => s.figures.filter((f) => !f.ok).map((f) => `${f.id} = ${f.value} (target ${targetText(f)})`));
  return {
    version: 1,
    generatedAt: new Date().toISOString(),
    mode: options.quick ? "quick" : "full",
    seed: options.seed,
    environment: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: availableParallelism(), cpuModel: cpus()[0]?.model ?? "?" },
    wallMs: Math.round(performance.now() - t0),
    allTargetsMet: missed.length === 0,
    missed,
    sections,
  };
}

export function targetText(f: Figure): string {
  if (!f.target) return "";
  const op = { eq: "=", le: "≤", lt: "<", ge: "≥" }[f.target.op];
  return `${op} ${f.target.value}${f.unit ? ` ${f.unit}` : ""}`;
}

function valueText(f: Figure): string {
  return `${Number.isInteger(f.value) ? f.value : f.value.toFixed(1)}${f.unit ? ` ${f.unit}` : ""}`;
}

/** The figures as an aligned table (targets and whether each is met). */
export function formatTable(results: ReliabilityResults): string {
  const rows: string[][] = [];
  for (const s of results.sections) {
    rows.push([`${s.title}  (${(s.ms / 1000).toFixed(1)} s)`, "", "", ""]);
    for (const f of s.figures) rows.push([`  ${f.label}`, valueText(f), targetText(f), f.target ? (f.ok ? "ok" : "MISSED") : ""]);
  }
  const head = ["figure", "value", "target", ""];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  const out = [
    `Reliability figures — ${results.mode} run, seed "${results.seed}", ${(results.wallMs / 1000).toFixed(1)} s on ${results.environment.cpus} CPU(s), Node ${results.environment.node}`,
    "",
    line(head),
    line(widths.map((w) => "-".repeat(w))),
  ];
  for (const r of rows) out.push(line(r));
  out.push("");
  out.push(results.allTargetsMet ? "All targets met." : `Targets missed: ${results.missed.join("; ")}`);
  // The "of" context of each figure, for the report.
  out.push("");
  for (const s of results.sections) for (const f of s.figures) if (f.of) out.push(`  ${f.id}: ${f.of}`);
  return out.join("\n");
}
