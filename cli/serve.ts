// `kiosk serve`: the kiosk screen and its API on a local HTTP server (a browser instead of the
// Electron shell — for development, demos and the end-to-end tests).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { z } from "zod";
import type { DataPack } from "../tools/data/datapack.ts";
import { DisruptionSchema, SystemIdSchema, type SystemId } from "../tools/data/schemas.ts";
import { benchDbPath } from "../bench/store/store.ts";
import type { PassengerAssistantSpec } from "../host/assistant.ts";
import type { EndpointAssistantSpec } from "../host/endpoint-assistant.ts";
import { DEFAULT_ENDPOINT_MODEL, parseAssistantMode } from "../host/assistant-mode.ts";
import { createKioskRuntime, type KioskRuntime, type KioskRuntimeConfig } from "../host/runtime.ts";
import type { LiveConditionsInput } from "../runtime/kiosk/app.ts";
import { ledgerPath } from "../runtime/kiosk/node/ledger.ts";
import { checkRendererBuilt, startKioskServer, type RunningKioskServer } from "../runtime/kiosk/node/server.ts";
import { PinConfigError } from "../runtime/operator/pin.ts";
import { parseSpeechEngineChoice, SPEECH_ENGINE_CHOICES, type SpeechEngineChoice } from "../runtime/speech/engines.ts";
import { alertsDbPath } from "../runtime/alerts/store.ts";
import { auditDbPath } from "../runtime/audit/store.ts";
import { dataPack, UsageError, type GlobalOptions } from "./context.ts";
import { publicationsConfig, replicationTarget } from "./fleet-token.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_RENDERER_DIR = path.join(REPO_ROOT, "renderer", "dist");
export const DEFAULT_OPERATOR_DIR = "framebooks";
/** Where `kiosk operator set-pin` writes the PIN hash by default (else $KIOSK_OPERATOR_CONFIG). */
export const DEFAULT_OPERATOR_CONFIG = path.join("var", "operator.json");

/** --conditions FILE: live conditions per system, `{ "bart": { "disruptions": [...], "now": "2026-03-09T14:00:00" } }`. */
export const ConditionsFileSchema = z.partialRecord(
  SystemIdSchema,
  z.object({ disruptions: z.array(DisruptionSchema).default([]), now: z.string().optional() }),
);

export type ConditionsMap = Partial<Record<SystemId, LiveConditionsInput>>;

/** Local wall-clock ISO time without zone (as the cases write it) → Date in local time. */
function localDate(text: string, what: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new UsageError(`${what}: not a date/time: '${text}'`);
  return date;
}

export function conditionsFromFile(file: string, systems: readonly SystemId[]): ConditionsMap {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`--conditions ${file}: ${(err as Error).message}`);
  }
  const parsed = ConditionsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--conditions ${file}: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  const unknown = Object.keys(parsed.data).find((id) => !systems.includes(id));
  if (unknown !== undefined) throw new UsageError(`--conditions ${file}: ${unknown}: this kiosk runs no system '${unknown}' (it runs ${systems.join(", ")})`);
  const out: ConditionsMap = {};
  for (const [system, c] of Object.entries(parsed.data) as [SystemId, { disruptions: z.infer<typeof DisruptionSchema>[]; now?: string }][]) {
    out[system] = { disruptions: c.disruptions, ...(c.now ? { now: localDate(c.now, `--conditions ${file}: ${system}.now`) } : {}) };
  }
  return out;
}

/** --replay-conditions CASE_ID: a benchmark case's disruptions and time become its system's live conditions. */
export function conditionsFromCase(pack: DataPack, caseId: string): ConditionsMap {
  const kase = pack.caseById(caseId);
  if (!kase) throw new UsageError(`--replay-conditions: no case '${caseId}' in the data pack`);
  const current = kase.system_context.temporal_context?.current_time || kase.system_context.current_time;
  return { [kase.system]: { disruptions: kase.system_context.active_disruptions, now: localDate(current, caseId) } };
}

export interface ServeOptions {
  pack: DataPack;
  port?: number;
  host?: string;
  /** With a non-loopback host: the host names (besides IP literals) the server answers to. */
  allowedHosts?: string[];
  /** Ledger file (":memory:" for tests); undefined: $METRO_LEDGER or ./var/ledger.sqlite. */
  ledger?: string;
  /** The built renderer; null serves the API only. */
  rendererDir?: string | null;
  operatorDir?: string;
  conditions?: ConditionsMap;
  deadlineMs?: number;
  /** Wall clock of the kiosk (default: the real time); a fixed one for demos and tests. */
  clock?: () => Date;
  /** Headset mode's audio output: a label pattern (the screen's default when absent). */
  headsetPattern?: string;
  /** Which speech engine renders headset readings (default auto: the platform's). */
  speechEngine?: SpeechEngineChoice;
  log?: (message: string) => void;
  /**
   * The operator PIN hash (scrypt$…): undefined reads $KIOSK_OPERATOR_PIN_HASH or the operator
   * config file (`operatorConfig`, $KIOSK_OPERATOR_CONFIG, ./var/operator.json); null: no PIN set up
   * (the operator screen stays locked).
   */
  pinHash?: string | null;
  operatorConfig?: string;
  /** Where the PIN lockout is kept (default: operator-lockout.json beside the operator config when the PIN comes from it). */
  pinStateFile?: string;
  /** The technician's bench database; absent or null: no bench (the command passes --bench-db, $METRO_BENCH_DB or ./var/bench.sqlite). */
  benchDb?: string | null;
  /** The model the technician may bench with llm/hybrid (a .gguf path or catalog id). */
  benchModel?: string;
  /**
   * Who answers passengers: `rule` (default), or a local model — `model` (the model answers every
   * request; rule is the fallback) or `hybrid` (rule answers structured requests at once; the
   * model checks the ones that need judgement). A model that fails to load leaves the kiosk on rule.
   */
  assistant?: PassengerAssistantSpec | EndpointAssistantSpec;
  /** The service alert store (`kiosk alerts`); its alerts in force join every new session's conditions. */
  alertsDb?: string | null;
  /** The session audit every passenger session is kept in (the command passes --audit-db, $METRO_AUDIT_DB or ./var/audit.sqlite). */
  auditDb?: string | null;
  /** Store and forward to the fleet's back office (--backoffice, --kiosk-id); absent: not part of a fleet. */
  replication?: KioskRuntimeConfig["replication"];
  /** Seconds between heartbeats to the back office (default 30). */
  heartbeatSeconds?: number;
  /** Days sent outbox rows are kept (default 30). */
  outboxRetentionDays?: number;
  /** Signed framebooks and alerts from the back office (--publications-key); needs `replication`. */
  distribution?: KioskRuntimeConfig["distribution"];
}

export interface RunningServe extends Omit<KioskRuntime, "close"> {
  server: RunningKioskServer;
  close(): Promise<void>;
}

/** Build the kiosk (host/runtime.ts) and start the HTTP server in front of it. */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const log = options.log ?? ((m: string) => console.error(`kiosk serve: ${m}`));
  const rendererDir = options.rendererDir === undefined ? DEFAULT_RENDERER_DIR : options.rendererDir;
  if (rendererDir !== null) checkRendererBuilt(rendererDir);
  const conditions = options.conditions ?? {};
  let runtime: KioskRuntime;
  try {
    runtime = await createKioskRuntime({
      pack: options.pack,
      ledger: ledgerPath({ flag: options.ledger }),
      operatorDir: options.operatorDir ?? DEFAULT_OPERATOR_DIR,
      pin: options.pinHash !== undefined ? { hash: options.pinHash } : { file: options.operatorConfig, defaultFile: DEFAULT_OPERATOR_CONFIG },
      benchDb: options.benchDb ?? null,
      benchModel: options.benchModel ?? null,
      assistant: options.assistant ?? null,
      conditions: (system) => conditions[system] ?? { disruptions: [] },
      alertsDb: options.alertsDb ?? null,
      ...(options.pinStateFile !== undefined ? { pinStateFile: options.pinStateFile } : {}),
      auditDb: options.auditDb ?? null,
      replication: options.replication ?? null,
      ...(options.heartbeatSeconds !== undefined ? { heartbeatSeconds: options.heartbeatSeconds } : {}),
      ...(options.outboxRetentionDays !== undefined ? { outboxRetentionDays: options.outboxRetentionDays } : {}),
      distribution: options.distribution ?? null,
      ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.headsetPattern ? { headsetPattern: options.headsetPattern } : {}),
      ...(options.speechEngine ? { speechEngine: options.speechEngine } : {}),
      log,
    });
  } catch (err) {
    if (err instanceof PinConfigError) throw new UsageError(err.message);
    throw err;
  }
  let server: RunningKioskServer;
  try {
    server = await startKioskServer({
      backend: runtime.backend,
      operator: runtime.operator,
      metrics: runtime.metrics,
      staticDir: rendererDir,
      host: options.host ?? "127.0.0.1",
      port: options.port ?? 8787,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      log,
    });
  } catch (err) {
    await runtime.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new UsageError(`port ${options.port ?? 8787} is already in use (choose another with --port)`);
    if (code === "EACCES" || code === "EADDRNOTAVAIL") throw new UsageError(`cannot listen on ${options.host ?? "127.0.0.1"}:${options.port ?? 8787} (${code})`);
    throw err;
  }
  return {
    ...runtime,
    server,
    close: async () => {
      await server.close();
      await runtime.close();
    },
  };
}

export interface ServeCommandOptions extends GlobalOptions {
  port: string;
  host: string;
  allowedHost?: string[];
  ledger?: string;
  renderer?: string;
  framebooks: string;
  conditions?: string;
  replayConditions?: string;
  deadlineMs?: string;
  now?: string;
  operatorConfig?: string;
  benchDb?: string;
  benchModel?: string;
  model?: string;
  modelEndpoint?: string;
  endpointModel?: string;
  endpointKeyEnv?: string;
  assistant?: string;
  threads?: string;
  modelDeadlineMs?: string;
  warmState?: string;
  alertsDb?: string;
  auditDb?: string;
  backoffice?: string;
  kioskId?: string;
  fleetTokenFile?: string;
  heartbeatSeconds?: string;
  outboxRetentionDays?: string;
  publicationsKey?: string;
  publicationsEvery?: string;
  headsetPattern?: string;
  speechEngine?: string;
}

function positiveOption(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`${flag}: not a positive number: '${text}'`);
  return n;
}

function portNumber(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port: not a port number: '${text}'`);
  return n;
}

/** The passenger assistant `kiosk serve` was asked for: a local --model or a --model-endpoint (usage errors name the flag). */
export function assistantSpec(opts: ServeCommandOptions): NonNullable<ServeOptions["assistant"]> {
  const mode = parseAssistantMode(opts.assistant ?? "hybrid");
  if (mode === null) throw new UsageError(`--assistant must be hybrid or model (got '${opts.assistant}')`);
  const deadline = opts.modelDeadlineMs !== undefined ? Number(opts.modelDeadlineMs) : undefined;
  if (deadline !== undefined && !(deadline > 0)) throw new UsageError(`--model-deadline-ms: not a positive number: '${opts.modelDeadlineMs}'`);
  const deadlineOption = deadline !== undefined ? { modelDeadlineMs: deadline } : {};
  if (opts.modelEndpoint !== undefined) {
    if (opts.model !== undefined) throw new UsageError("--model and --model-endpoint: give one (a local model, or the endpoint that serves it)");
    for (const [flag, given] of [["--threads", opts.threads], ["--warm-state", opts.warmState]] as const) {
      if (given !== undefined) throw new UsageError(`${flag} applies to a local --model, not to --model-endpoint`);
    }
    let url: URL;
    try {
      url = new URL(opts.modelEndpoint);
    } catch {
      throw new UsageError(`--model-endpoint: not a URL: '${opts.modelEndpoint}' (e.g. http://127.0.0.1:8080/v1)`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--model-endpoint: must be an http or https URL: '${opts.modelEndpoint}'`);
    return {
      mode,
      endpoint: { baseUrl: opts.modelEndpoint, model: opts.endpointModel ?? DEFAULT_ENDPOINT_MODEL, ...(opts.endpointKeyEnv ? { apiKeyEnv: opts.endpointKeyEnv } : {}) },
      ...deadlineOption,
    };
  }
  const threads = opts.threads !== undefined ? Number(opts.threads) : undefined;
  if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) throw new UsageError(`--threads: not a positive whole number: '${opts.threads}'`);
  return {
    mode,
    model: opts.model as string,
    ...(threads !== undefined ? { threads } : {}),
    ...deadlineOption,
    ...(opts.warmState ? { warmStateFile: opts.warmState } : {}),
  };
}

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the kiosk screen (renderer/dist) and its API over HTTP + WebSocket, for a browser")
    .option("--port <n>", "TCP port (0 = any free port)", "8787")
    .option("--host <addr>", "address to listen on (keep it local unless you mean to expose the kiosk)", "127.0.0.1")
    .option("--allowed-host <name...>", "with --host 0.0.0.0: host names the kiosk answers to besides IP addresses (DNS-rebinding guard)")
    .option("--ledger <file>", "sales ledger SQLite file (else $METRO_LEDGER, else ./var/ledger.sqlite)")
    .option("--renderer <dir>", "built renderer folder", DEFAULT_RENDERER_DIR)
    .option("--framebooks <dir>", "operator data folder (<system>/local-names.yaml, framebooks applied from the operator screen)", DEFAULT_OPERATOR_DIR)
    .option("--conditions <file>", 'live conditions JSON: {"bart": {"disruptions": [...], "now": "2026-03-09T14:00:00"}}')
    .option("--replay-conditions <case>", "use a benchmark case's disruptions and time as its system's live conditions (demos, tests)")
    .option("--deadline-ms <ms>", "time limit of one assistant answer")
    .option("--now <time>", "pretend the local time is this, e.g. 2026-03-09T14:00:00 (demos, tests; the clock then stands still)")
    .option("--operator-config <file>", `operator PIN config written by 'kiosk operator set-pin' (else $KIOSK_OPERATOR_PIN_HASH, $KIOSK_OPERATOR_CONFIG, ./${DEFAULT_OPERATOR_CONFIG})`)
    .option("--bench-db <file>", "the technician's bench database (else $METRO_BENCH_DB, else ./var/bench.sqlite)")
    .option("--bench-model <name>", "model the technician may bench with llm/hybrid (a .gguf path or catalog id)")
    .option("--model <name>", "a language model for the passenger assistant (a .gguf path or 2b/4b/9b/27b); without it the rule policy answers")
    .option("--model-endpoint <url>", "the passenger model behind an OpenAI-compatible endpoint instead (a llama-server beside the kiosk, a depot vLLM), e.g. http://127.0.0.1:8080/v1")
    .option("--endpoint-model <name>", "with --model-endpoint: the model name it serves (llama-server takes any; vLLM its served name)", DEFAULT_ENDPOINT_MODEL)
    .option("--endpoint-key-env <var>", "with --model-endpoint: environment variable holding its API key (default OPENAI_API_KEY, sent when set)")
    .option("--assistant <mode>", "with --model or --model-endpoint: hybrid (rule at once, the model checks what needs judgement) or model (the model answers everything; llm is its old name)", "hybrid")
    .option("--threads <n>", "CPU threads for the model (default: measured on first use, cached per machine and model)")
    .option("--model-deadline-ms <ms>", "hybrid: how long the model may take to check an answer (default 20000)")
    .option("--warm-state <file>", "warm boot: restore the model's shared prompt prefix from this file (saved there on first start)")
    .option("--alerts-db <file>", "service alerts written by 'kiosk alerts' (else $METRO_ALERTS_DB, else ./var/alerts.sqlite)")
    .option("--audit-db <file>", "session audit: every passenger session is kept here for the operator screen and previews (else $METRO_AUDIT_DB, else ./var/audit.sqlite)")
    .option("--backoffice <url>", "fleet: replicate sales, voids and session lines to this back office ('kiosk backoffice serve'); with --kiosk-id")
    .option("--kiosk-id <id>", "fleet: this kiosk's id in the fleet (letters, digits, '.', '_', '-')")
    .option("--fleet-token-file <file>", "fleet: file holding the fleet token (else $KIOSK_FLEET_TOKEN)")
    .option("--heartbeat-seconds <n>", "fleet: seconds between heartbeats to the back office (default 30)")
    .option("--outbox-retention-days <n>", "days replicated outbox rows are kept before they are deleted (default 30; unsent rows are always kept)")
    .option("--publications-key <file>", "fleet: the back office's public key (kiosk backoffice keygen): apply the framebooks and alerts it signs; off without it")
    .option("--publications-every <seconds>", "fleet: how often to look for new publications", "30")
    .option("--headset-pattern <regex>", "headset mode: the audio output whose label matches this (case-insensitive; default headset|headphone|earphone|earbud)")
    .option("--speech-engine <engine>", `headset speech: ${SPEECH_ENGINE_CHOICES.join(", ")} (auto: the platform's own engine, else an installed espeak-ng)`, "auto")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  kiosk serve                                   # http://127.0.0.1:8787/",
        "  kiosk serve --port 0 --ledger /tmp/demo.sqlite",
        "  kiosk serve --replay-conditions BART-C-006    # Transbay Tube closed, as in that case",
        "",
        "Operator and technician tools: open the screen's operator login (long-press the top corner of the",
        "start screen, or add #operator to the address); the PIN is set with 'kiosk operator set-pin'.",
        "",
        "The screen must be built first: npx vite build --config renderer/vite.config.ts",
      ].join("\n"),
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ServeCommandOptions>();
      const pack = dataPack(opts);
      let conditions: ConditionsMap = {};
      if (opts.conditions) conditions = { ...conditions, ...conditionsFromFile(opts.conditions, pack.systemIds) };
      if (opts.replayConditions) conditions = { ...conditions, ...conditionsFromCase(pack, opts.replayConditions) };
      const deadline = opts.deadlineMs !== undefined ? Number(opts.deadlineMs) : undefined;
      if (deadline !== undefined && !(deadline > 0)) throw new UsageError(`--deadline-ms: not a positive number: '${opts.deadlineMs}'`);
      const fixedNow = opts.now !== undefined ? localDate(opts.now, "--now") : undefined;
      const replication = replicationTarget({ ...(opts.backoffice ? { backoffice: opts.backoffice } : {}), ...(opts.kioskId ? { kioskId: opts.kioskId } : {}), ...(opts.fleetTokenFile ? { tokenFile: opts.fleetTokenFile } : {}) });
      const heartbeatSeconds = positiveOption(opts.heartbeatSeconds, "--heartbeat-seconds");
      const outboxRetentionDays = positiveOption(opts.outboxRetentionDays, "--outbox-retention-days");
      const distribution = publicationsConfig(opts.publicationsKey, opts.publicationsEvery, replication !== null);
      const speechEngine = parseSpeechEngineChoice(opts.speechEngine ?? "auto");
      if (speechEngine === null) throw new UsageError(`--speech-engine must be one of ${SPEECH_ENGINE_CHOICES.join(", ")} (got '${opts.speechEngine}')`);
      let running: RunningServe;
      try {
        running = await startServe({
          ...(distribution ? { distribution } : {}),
          pack,
          port: portNumber(opts.port),
          host: opts.host,
          ...(opts.allowedHost ? { allowedHosts: opts.allowedHost } : {}),
          ...(opts.ledger ? { ledger: opts.ledger } : {}),
          rendererDir: opts.renderer ?? DEFAULT_RENDERER_DIR,
          operatorDir: opts.framebooks,
          conditions,
          ...(deadline !== undefined ? { deadlineMs: deadline } : {}),
          ...(fixedNow ? { clock: () => new Date(fixedNow) } : {}),
          ...(opts.operatorConfig ? { operatorConfig: opts.operatorConfig } : {}),
          benchDb: benchDbPath(opts.benchDb),
          alertsDb: alertsDbPath(opts.alertsDb),
          auditDb: auditDbPath(opts.auditDb),
          ...(opts.benchModel ? { benchModel: opts.benchModel } : {}),
          ...(opts.model || opts.modelEndpoint ? { assistant: assistantSpec(opts) } : {}),
          ...(replication ? { replication } : {}),
          ...(heartbeatSeconds !== undefined ? { heartbeatSeconds } : {}),
          ...(outboxRetentionDays !== undefined ? { outboxRetentionDays } : {}),
          ...(opts.headsetPattern ? { headsetPattern: opts.headsetPattern } : {}),
          speechEngine,
        });
      } catch (err) {
        if (err instanceof Error && err.name === "RendererNotBuiltError") throw new UsageError(err.message);
        throw err;
      }
      process.stderr.write(`kiosk serve: ${running.server.url} (ledger ${running.ledger ? running.ledgerFile : "unavailable"})\n`);
      const stop = (): void => {
        void running.close().then(() => process.exit(0));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
