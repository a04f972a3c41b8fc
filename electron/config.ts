// The Electron shell's settings, from command-line switches and environment variables, and the
// kiosk runtime's config they make (host/runtime.ts). Pure.
import path from "node:path";
import { DEFAULT_ENDPOINT_MODEL, parseAssistantMode, type AssistantMode } from "../host/assistant-mode.ts";
import type { KioskRuntimeConfig } from "../host/runtime.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import { parseSpeechEngineChoice, SPEECH_ENGINE_CHOICES, type SpeechEngineChoice } from "../runtime/speech/engines.ts";

export interface ShellConfig {
  /** Full-screen kiosk mode (no window chrome, no way out but the operator's). Default on. */
  kiosk: boolean;
  /** Developer tools (never in kiosk mode). */
  devTools: boolean;
  /** The data pack (else the DataPack defaults: $METRO_DATA_DIR, ./data/metrollm-bench, ../shared). */
  dataDir: string | undefined;
  /** Imported systems (`kiosk network import --systems-dir`; else $METRO_SYSTEMS_DIR, else <userData>/systems). */
  systemsDir: string;
  /** Sales ledger file (else $METRO_LEDGER, else <userData>/ledger.sqlite). */
  ledger: string;
  /** The built renderer. */
  rendererDir: string;
  /** Operator data folder (<system>/local-names.yaml). */
  operatorDir: string;
  /** Where framebooks applied from the operator screen are kept (writable; versions and audit log). */
  framebookStore: string;
  /** The operator PIN config (`kiosk operator set-pin --config FILE`); $KIOSK_OPERATOR_PIN_HASH wins. */
  operatorConfig: string;
  /** The technician's bench database. */
  benchDb: string;
  /** Service alerts the operator screen adds (else $METRO_ALERTS_DB, else <userData>/alerts.sqlite). */
  alertsDb: string;
  /** The session audit (else $METRO_AUDIT_DB, else <userData>/audit.sqlite). */
  auditDb: string;
  /** The model the technician may bench with llm/hybrid (a .gguf path or catalog id), if any. */
  benchModel: string | undefined;
  /** The passenger assistant's model (a .gguf path or catalog id); none: the rule policy answers. */
  model: string | undefined;
  /** Or the passenger model behind an OpenAI-compatible endpoint (a llama-server beside the shell, a depot vLLM). */
  modelEndpoint: string | undefined;
  /** The model name that endpoint serves (default "default": llama-server takes any). */
  endpointModel: string | undefined;
  /** With a model: hybrid (rule at once, the model checks what needs judgement) or model (the model answers everything). */
  assistant: AssistantMode;
  /** Warm boot: the model's saved shared-prefix state (restored at start, saved on first start). */
  warmState: string | undefined;
  /** Headset mode's audio output: a label pattern (regular expression, case-insensitive); none: the screen's default. */
  headsetPattern: string | undefined;
  /** Which speech engine renders headset readings (auto, none, say, sapi, espeak-ng); none given: auto. */
  speechEngine: string | undefined;
  /** Fleet (issue 18): the back office's URL and this kiosk's id (both or neither; electron/fleet.ts reads them). */
  backoffice?: string | undefined;
  kioskId?: string | undefined;
  /** The file holding this kiosk's token for the back office (else $KIOSK_FLEET_TOKEN). */
  fleetTokenFile?: string | undefined;
  /** The back office's public key: apply the framebooks and alerts it signs (off without it). */
  publicationsKey?: string | undefined;
  /** `GET /metrics` on 127.0.0.1 at this port (default 9464; "off": not served). */
  metricsPort?: string | undefined;
}

function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === `--${name}`) return argv[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/** `{ [key]: value }` when set, else nothing (so an unset fleet option is absent, not undefined). */
function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function truthy(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return !["0", "false", "no", "off", ""].includes(value.toLowerCase());
}

/**
 * Switches: --no-kiosk / --kiosk, --devtools, --data DIR, --ledger FILE, --renderer DIR,
 * --framebooks DIR, --framebook-store DIR, --operator-config FILE, --bench-db FILE,
 * --bench-model NAME, --model NAME, --model-endpoint URL, --endpoint-model NAME, --assistant hybrid|model (llm: model),
 * --warm-state FILE. Environment: KIOSK_MODE=0|1,
 * KIOSK_DEVTOOLS=1, METRO_DATA_DIR, METRO_LEDGER, KIOSK_RENDERER_DIR, KIOSK_FRAMEBOOKS_DIR,
 * KIOSK_FRAMEBOOK_STORE, KIOSK_OPERATOR_CONFIG, METRO_BENCH_DB, KIOSK_BENCH_MODEL, KIOSK_MODEL,
 * KIOSK_MODEL_ENDPOINT, KIOSK_ENDPOINT_MODEL, KIOSK_ASSISTANT, KIOSK_WARM_STATE, KIOSK_HEADSET_PATTERN (--headset-pattern). Fleet: --backoffice URL,
 * --kiosk-id ID, --fleet-token-file F, --publications-key F, --metrics-port N (KIOSK_BACKOFFICE,
 * KIOSK_ID, KIOSK_FLEET_TOKEN_FILE, KIOSK_PUBLICATIONS_KEY, KIOSK_METRICS_PORT). Switches win over the environment.
 *
 * A packaged app (`resourcesDir`: Electron's process.resourcesPath) finds the data pack in
 * resources/metrollm-bench and keeps applied framebooks in userData (the app itself is read-only);
 * with `packaged`, --renderer and KIOSK_RENDERER_DIR are ignored (see also appRootOf).
 */
export function shellConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  defaults: { appRoot: string; userData: string; resourcesDir?: string | undefined; packaged?: boolean },
): ShellConfig {
  const kiosk = argv.includes("--no-kiosk") ? false : argv.includes("--kiosk") ? true : (truthy(env.KIOSK_MODE) ?? true);
  const devTools = !kiosk && (argv.includes("--devtools") || truthy(env.KIOSK_DEVTOOLS) === true);
  const operatorDir = flagValue(argv, "framebooks") ?? env.KIOSK_FRAMEBOOKS_DIR ?? path.join(defaults.appRoot, "framebooks");
  return {
    kiosk,
    devTools,
    dataDir: flagValue(argv, "data") ?? env.METRO_DATA_DIR ?? (defaults.resourcesDir ? path.join(defaults.resourcesDir, "metrollm-bench") : undefined),
    systemsDir: flagValue(argv, "systems-dir") ?? env.METRO_SYSTEMS_DIR ?? path.join(defaults.userData, "systems"),
    ledger: flagValue(argv, "ledger") ?? env.METRO_LEDGER ?? path.join(defaults.userData, "ledger.sqlite"),
    // A packaged kiosk shows its own screen only: no switch or variable can point it at other files.
    rendererDir: (defaults.packaged ? undefined : (flagValue(argv, "renderer") ?? env.KIOSK_RENDERER_DIR)) ?? path.join(defaults.appRoot, "renderer", "dist"),
    operatorDir,
    framebookStore:
      flagValue(argv, "framebook-store") ?? env.KIOSK_FRAMEBOOK_STORE ?? (defaults.resourcesDir ? path.join(defaults.userData, "framebooks") : operatorDir),
    operatorConfig: flagValue(argv, "operator-config") ?? env.KIOSK_OPERATOR_CONFIG ?? path.join(defaults.userData, "operator.json"),
    benchDb: flagValue(argv, "bench-db") ?? env.METRO_BENCH_DB ?? path.join(defaults.userData, "bench.sqlite"),
    alertsDb: flagValue(argv, "alerts-db") ?? env.METRO_ALERTS_DB ?? path.join(defaults.userData, "alerts.sqlite"),
    auditDb: flagValue(argv, "audit-db") ?? env.METRO_AUDIT_DB ?? path.join(defaults.userData, "audit.sqlite"),
    benchModel: flagValue(argv, "bench-model") ?? env.KIOSK_BENCH_MODEL,
    model: flagValue(argv, "model") ?? env.KIOSK_MODEL,
    modelEndpoint: flagValue(argv, "model-endpoint") ?? env.KIOSK_MODEL_ENDPOINT,
    endpointModel: flagValue(argv, "endpoint-model") ?? env.KIOSK_ENDPOINT_MODEL,
    assistant: parseAssistantMode(flagValue(argv, "assistant") ?? env.KIOSK_ASSISTANT ?? "hybrid") ?? "hybrid",
    headsetPattern: flagValue(argv, "headset-pattern") ?? env.KIOSK_HEADSET_PATTERN,
    speechEngine: flagValue(argv, "speech-engine") ?? env.KIOSK_SPEECH_ENGINE,
    ...optional("backoffice", flagValue(argv, "backoffice") ?? env.KIOSK_BACKOFFICE),
    ...optional("kioskId", flagValue(argv, "kiosk-id") ?? env.KIOSK_ID),
    ...optional("fleetTokenFile", flagValue(argv, "fleet-token-file") ?? env.KIOSK_FLEET_TOKEN_FILE),
    ...optional("publicationsKey", flagValue(argv, "publications-key") ?? env.KIOSK_PUBLICATIONS_KEY),
    ...optional("metricsPort", flagValue(argv, "metrics-port") ?? env.KIOSK_METRICS_PORT),
    warmState: flagValue(argv, "warm-state") ?? env.KIOSK_WARM_STATE ?? (flagValue(argv, "model") ?? env.KIOSK_MODEL ? path.join(defaults.userData, "model-warm.state") : undefined),
  };
}

/** The kiosk the shell runs (host/runtime.ts builds it, as it does for `kiosk serve`). */
export function kioskRuntimeConfig(shell: ShellConfig, pack: DataPack, log: (message: string) => void = (m) => console.error(`kiosk: ${m}`)): KioskRuntimeConfig {
  // An unattended kiosk starts rather than stop on the clash (kiosk serve refuses it), but says which one it ignores.
  if (shell.model && shell.modelEndpoint) log(`a local model (${shell.model}) and a model endpoint (${shell.modelEndpoint}) are both configured: using the local model, ignoring the endpoint`);
  return {
    pack,
    ledger: shell.ledger,
    operatorDir: shell.operatorDir,
    framebookStore: shell.framebookStore,
    pin: { file: shell.operatorConfig },
    benchDb: shell.benchDb,
    alertsDb: shell.alertsDb,
    auditDb: shell.auditDb,
    benchModel: shell.benchModel ?? null,
    assistant: shell.model
      ? { mode: shell.assistant, model: shell.model, ...(shell.warmState ? { warmStateFile: shell.warmState } : {}) }
      : shell.modelEndpoint
        ? { mode: shell.assistant, endpoint: { baseUrl: shell.modelEndpoint, model: shell.endpointModel ?? DEFAULT_ENDPOINT_MODEL } }
        : null,
    ...(shell.headsetPattern ? { headsetPattern: shell.headsetPattern } : {}),
    speechEngine: speechEngineOf(shell.speechEngine, log),
    log,
  };
}

/** An unattended kiosk starts with the platform's engines rather than stop on a mistyped name, but says so. */
function speechEngineOf(given: string | undefined, log: (message: string) => void): SpeechEngineChoice {
  if (given === undefined) return "auto";
  const choice = parseSpeechEngineChoice(given);
  if (choice === null) log(`--speech-engine ${given}: not one of ${SPEECH_ENGINE_CHOICES.join(", ")}; using auto`);
  return choice ?? "auto";
}

/**
 * Chromium switches the shell sets before the app is ready. On Linux the browser's speechSynthesis
 * (the loudspeaker's voice) reaches Speech Dispatcher — the engine behind spd-say — only when asked to.
 */
export function chromiumSwitches(platform: string): string[] {
  return platform === "linux" ? ["enable-speech-dispatcher"] : [];
}

/**
 * The app root (renderer/, framebooks/): two levels above the bundle in dist/electron/, or
 * $KIOSK_APP_ROOT in development. A packaged app ignores the variable: it loads its own files only.
 */
export function appRootOf(env: NodeJS.ProcessEnv, bundleDir: string, packaged: boolean): string {
  const own = path.resolve(bundleDir, "..", "..");
  return packaged ? own : (env.KIOSK_APP_ROOT ?? own);
}
