// Serving parity with the paper's setup: the same GGUF served by llama.cpp's own `llama-server`
// (built offline from the source node-llama-cpp ships, models/anchors/llama-cpp.ts) and driven
// through `--policy openai`, against the in-process engine through `--policy llm`. With greedy
// decoding both must make the same tool calls and the same submissions, case by case.
//
// The llama-server built here is llama.cpp v0.4.0, whose chat handler for this template is the
// Qwen3-Coder one: the in-process side runs the matching "v0.4.0" protocol profile (runtime/model/
// profile.ts). Both sides get parallel_tool_calls off (the paper's b8642 default), so a round is
// one call.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case } from "../../tools/data/schemas.ts";
import type { LlamaEngine } from "../../models/engine.ts";
import { LlmPolicy } from "../../runtime/policies/llm.ts";
import { OpenAiPolicy } from "../../runtime/policies/openai.ts";
import { runCase } from "../../runtime/session/case.ts";
import type { SessionRecord } from "../../runtime/session/record.ts";

export interface LlamaServer {
  baseUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
  /** The server's log so far (for a failure message). */
  log(): string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Start `llama-server` on a free local port with the paper's server settings; resolves when healthy. */
export async function startLlamaServer(
  binary: string,
  model: string,
  options: { threads: number; contextSize: number; timeoutMs?: number; extraArgs?: readonly string[] },
): Promise<LlamaServer> {
  const port = await freePort();
  const args = ["-m", model, "--host", "127.0.0.1", "--port", String(port), "-c", String(options.contextSize), "-np", "1", "-t", String(options.threads), "--jinja", "--reasoning-format", "deepseek", ...(options.extraArgs ?? [])];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString("utf8")).slice(-2_000_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`llama-server exited with code ${child.exitCode}:\n${log.slice(-3000)}`);
    try {
      const health = await fetch(`${baseUrl}/health`);
      if (health.ok) return { baseUrl: `${baseUrl}/v1`, process: child, stop, log: () => log };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`llama-server did not become healthy within ${options.timeoutMs ?? 120_000} ms:\n${log.slice(-3000)}`);
}

export interface CallRecord {
  name: string;
  arguments: unknown;
}

export interface CaseParity {
  id: string;
  identical: boolean;
  engine: { calls: CallRecord[]; submissions: CallRecord[]; termination: string };
  server: { calls: CallRecord[]; submissions: CallRecord[]; termination: string };
  /** The first difference, for the report. */
  difference?: string;
}

function calls(record: SessionRecord): CallRecord[] {
  return record.messages.flatMap((m) =>
    m.role === "assistant"
      ? (m.tool_calls ?? []).map((c) => {
          let args: unknown = c.function.arguments;
          try {
            args = JSON.parse(c.function.arguments);
          } catch {
            // compared as the raw string
          }
          return { name: c.function.name, arguments: args };
        })
      : [],
  );
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function compare(id: string, engine: SessionRecord, server: SessionRecord): CaseParity {
  const side = (r: SessionRecord) => {
    const all = calls(r);
    return { calls: all, submissions: all.filter((c) => c.name === "submit_assistant_state"), termination: r.kiosk.termination };
  };
  const e = side(engine);
  const s = side(server);
  let difference: string | undefined;
  const n = Math.max(e.calls.length, s.calls.length);
  for (let i = 0; i < n && !difference; i++) {
    if (!same(e.calls[i], s.calls[i])) difference = `call ${i + 1}: engine ${JSON.stringify(e.calls[i])} vs server ${JSON.stringify(s.calls[i])}`;
  }
  if (!difference && e.termination !== s.termination) difference = `termination: engine ${e.termination} vs server ${s.termination}`;
  if (!difference && !same(engine.kiosk.state, server.kiosk.state)) difference = "final kiosk state differs";
  return { id, identical: difference === undefined, engine: e, server: s, ...(difference ? { difference } : {}) };
}

export interface ParityOptions {
  pack: DataPack;
  cases: readonly Case[];
  engine: LlamaEngine;
  serverBaseUrl: string;
  /** Tool-call rounds per session (the paper: 20). */
  maxRounds?: number;
  onCase?: (result: CaseParity, index: number) => void;
}

/** Run every case through both paths and compare the tool calls, submissions and outcomes. */
export async function runServingParity(options: ParityOptions): Promise<CaseParity[]> {
  const profile = { profile: "v0.4.0" as const, parallelToolCalls: false };
  const local = new LlmPolicy({ backend: options.engine, ...profile });
  const remote = new OpenAiPolicy({ baseUrl: options.serverBaseUrl, model: "student", extraBody: { parallel_tool_calls: false }, maxAttempts: 1 });
  const results: CaseParity[] = [];
  for (const [i, kase] of options.cases.entries()) {
    const runOptions = { maxRounds: options.maxRounds ?? 20 };
    const engine = await runCase(options.pack, kase, local, runOptions);
    const server = await runCase(options.pack, kase, remote, runOptions);
    const result = compare(kase.id, engine, server);
    results.push(result);
    options.onCase?.(result, i);
  }
  return results;
}
