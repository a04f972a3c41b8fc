// `kiosk tool NAME`: run one transit tool in a fresh session and print its result, or its error
// (HTTP status + body, exactly as the reference server answers) on stderr with exit code 1.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { LINE_ORDERS, type LineOrder } from "../tools/network/expanded.ts";
import { parseJsonKeepingFloats } from "../tools/py/json.ts";
import { TOOL_INPUT_SCHEMAS, TOOL_NAMES, TOOL_SUMMARIES, ToolSession, isToolName, type ToolName } from "../tools/tools/index.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";
import { commandDescription } from "./commands.ts";

interface ToolCommandOptions extends GlobalOptions {
  system?: string;
  args: string;
  disruptions?: string;
  currentTime?: string;
  lineOrder: string;
}

const HIDDEN_FIELDS = new Set(["case_id", "current_time"]);

/** One line per request field: name, whether it is required, and its description. */
function describeFields(name: ToolName): string[] {
  const shape = TOOL_INPUT_SCHEMAS[name].shape as Record<string, { description?: string; _zod: { def: { type: string } } }>;
  const rows = Object.entries(shape)
    .filter(([field]) => !HIDDEN_FIELDS.has(field))
    .map(([field, schema]) => {
      const required = !["optional", "default"].includes(schema._zod.def.type);
      return [`${field}${required ? " (required)" : ""}`, schema.description ?? ""] as const;
    });
  const width = Math.max(...rows.map(([f]) => f.length));
  return rows.map(([f, d]) => `      ${f.padEnd(width)}  ${d}`);
}

function toolHelp(): string {
  const width = Math.max(...TOOL_NAMES.map((n) => n.length));
  const lines = ["", "Tools (arguments as a JSON object; unknown keys are ignored):"];
  for (const name of TOOL_NAMES) {
    lines.push(`  ${name.padEnd(width)}  ${TOOL_SUMMARIES[name]}`, ...describeFields(name));
  }
  lines.push(
    "",
    "Examples:",
    `  kiosk tool route_planner --system marta --args '{"origin":"Airport","destination":"Five Points"}'`,
    `  kiosk tool line_info --system beijing --args '{"lines":["2","Line 10"]}'`,
    `  kiosk tool disruption_feed --system cta --disruptions case-disruptions.json --current-time 2026-04-06T08:00:00`,
    "",
    "A fresh session has an empty route cache: fare_calculator then prices without route context",
    "(flat systems answer; distance systems return 422).",
  );
  return lines.join("\n");
}

function parseArgsJson(text: string): Record<string, unknown> {
  let args: unknown;
  try {
    args = parseJsonKeepingFloats(text);
  } catch (err) {
    throw new UsageError(`--args is not valid JSON (${err instanceof Error ? err.message : String(err)}): ${text}`);
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new UsageError(`--args must be a JSON object, e.g. '{"origin":"Airport","destination":"Five Points"}'; got: ${text}`);
  }
  return args as Record<string, unknown>;
}

/** A JSON list of disruptions, or an object holding one under `disruptions` / `active_disruptions`. */
function readDisruptions(file: string): unknown[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`--disruptions ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const list = Array.isArray(data)
    ? data
    : data !== null && typeof data === "object"
      ? ((data as Record<string, unknown>).disruptions ?? (data as Record<string, unknown>).active_disruptions)
      : undefined;
  if (!Array.isArray(list)) {
    throw new UsageError(`--disruptions ${file}: expected a JSON list of disruptions, or an object with a "disruptions" list`);
  }
  if (!list.every((d) => d !== null && typeof d === "object" && !Array.isArray(d))) {
    throw new UsageError(`--disruptions ${file}: every disruption must be a JSON object`);
  }
  return list;
}

export function registerToolCommand(program: Command): void {
  program
    .command("tool")
    .description(commandDescription("tool"))
    .argument("<name>", `tool name: ${TOOL_NAMES.join(", ")}`)
    .option("--system <id>", "metro system id (a benchmark system or an imported one)")
    .option("--args <json>", "tool arguments as a JSON object", "{}")
    .option("--disruptions <file>", "JSON file with the case's active disruptions (set_disruptions)")
    .option("--current-time <iso>", "hidden current time passed to disruption_feed (ISO 8601, e.g. 2026-04-06T08:00:00)")
    .option("--line-order <order>", `tie-break between equal-cost parallel lines: ${LINE_ORDERS.join(" | ")}`, "python-hash-13")
    .addHelpText("after", toolHelp())
    .action((name: string, _opts: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ToolCommandOptions>();
      if (!isToolName(name)) throw new UsageError(`unknown tool '${name}'. Tools: ${TOOL_NAMES.join(", ")}`);
      if (!opts.system) throw new UsageError("--system is required (marta, bart, cta, taipei, beijing or doha)");
      if (!(LINE_ORDERS as readonly string[]).includes(opts.lineOrder)) {
        throw new UsageError(`--line-order must be one of ${LINE_ORDERS.join(", ")}; got '${opts.lineOrder}'`);
      }
      const args = parseArgsJson(opts.args);
      const disruptions = opts.disruptions ? readDisruptions(opts.disruptions) : [];
      const pack = dataPack(opts);
      let system;
      try {
        system = pack.system(opts.system);
      } catch (err) {
        throw new UsageError(err instanceof Error ? err.message : String(err));
      }
      const session = new ToolSession(system, { lineOrder: opts.lineOrder as LineOrder });
      session.setDisruptions(disruptions);
      const outcome = session.call(name, args, { current_time: opts.currentTime ?? null });
      if (outcome.ok) {
        printJson(outcome.result);
      } else {
        process.stderr.write(`${outcome.status} ${outcome.body}\n`);
        process.exitCode = 1;
      }
    });
}
