// The kiosk host: the one place the running kiosk is assembled — for the Electron shell
// (electron/main.ts) and for `kiosk serve` (cli/serve.ts), which only add their own transport (IPC,
// HTTP) on top. From a config it opens the sales ledger, the operator framebooks, the passenger
// assistant's model, the kiosk app (KioskApp, behind the KioskBridge), the technician's bench and
// the PIN-protected operator console, and closes them again in reverse order.
//
// Service alerts (live conditions) plug in here beside the ledger; a session audit and fleet
// replication will too — each one more resource opened in createKioskRuntime and closed by close().
import { createKioskMetrics, type KioskMetrics } from "./metrics.ts";
import { technicianLatencyProbe } from "../bench/probe/index.ts";
import { BenchStore } from "../bench/store/store.ts";
import { BenchTechnician } from "../bench/technician.ts";
import { FramebookStore } from "../runtime/framebook/store.ts";
import { KioskApp, type LiveConditionsInput } from "../runtime/kiosk/app.ts";
import type { KioskBackend } from "../runtime/kiosk/dispatch.ts";
import { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { packExtras } from "../runtime/kiosk/node/pack-extras.ts";
import { Replicator, type ReplicatorOptions } from "../runtime/kiosk/node/replicator.ts";
import { DEFAULT_HEARTBEAT_SECONDS, HeartbeatSender } from "../runtime/kiosk/node/heartbeat-sender.ts";
import { DEFAULT_OUTBOX_RETENTION_DAYS } from "../runtime/kiosk/node/outbox.ts";
import type { AlertStore } from "../runtime/alerts/store.ts";
import { collectHeartbeat } from "./heartbeat.ts";
import { Distribution } from "../runtime/kiosk/node/distribution.ts";
import type { KeyObject } from "node:crypto";
import path from "node:path";
import { SimulatedPaymentTerminal, type PaymentTerminal } from "../runtime/kiosk/payment.ts";
import { OperatorConsole } from "../runtime/operator/console.ts";
import { OperatorLive } from "../runtime/operator/live.ts";
import { loadPinHash, PinGate, pinStateFileFor } from "../runtime/operator/pin.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import type { SystemId } from "../tools/data/schemas.ts";
import type { WorkerSpawner } from "../models/worker/spawn.ts";
import { ModelBreaker } from "../runtime/answer/breaker.ts";
import { openAlertConditions } from "../runtime/alerts/conditions.ts";
import type { SessionAuditStore } from "../runtime/audit/store.ts";
import { openSessionAudit } from "./session-audit.ts";
import type { SpeechEngineChoice } from "../runtime/speech/engines.ts";
import { createSpeechService } from "../runtime/speech/service.ts";
import { floorToMinute } from "../runtime/kiosk/service.ts";
import { PromptWarmer } from "./prompt-warmer.ts";
import { startPassengerAssistant, type PassengerAssistant, type PassengerAssistantOptions, type PassengerAssistantSpec } from "./assistant.ts";
import { startEndpointAssistant, type EndpointAssistant, type EndpointAssistantSpec } from "./endpoint-assistant.ts";

export interface KioskRuntimeConfig {
  pack: DataPack;
  /** The sales ledger file (":memory:" for tests). */
  ledger: string;
  /** The operator data folder (<system>/local-names.yaml). */
  operatorDir: string;
  /** Where framebooks applied from the operator screen are kept (versions and audit log); default operatorDir. */
  framebookStore?: string;
  /**
   * The operator PIN: its scrypt hash (null: none set up, the operator screen stays locked), or the
   * operator config file written by `kiosk operator set-pin` ($KIOSK_OPERATOR_PIN_HASH wins).
   */
  pin: { hash: string | null } | { file?: string | undefined; defaultFile?: string };
  /**
   * Where the PIN lockout (failed tries, lock expiry) is kept so a restart gives no fresh guesses:
   * default operator-lockout.json beside the operator config when the PIN comes from it; with a
   * PIN hash handed in directly (tests, embedding) this file, else memory only.
   */
  pinStateFile?: string;
  /** The technician's bench database; null: this kiosk has no bench. */
  benchDb: string | null;
  /** The model the technician may bench with llm/hybrid (a .gguf path or catalog id). */
  benchModel?: string | null;
  /** Who answers passengers besides `rule`: a local model, or one behind an OpenAI-compatible endpoint (hybrid or model). */
  assistant?: PassengerAssistantSpec | EndpointAssistantSpec | null;
  /** Live conditions per system (disruptions, a fixed time). */
  conditions?: (system: SystemId) => LiveConditionsInput;
  /** The service alert store (`kiosk alerts`): its alerts in force join every new session's conditions; null: none. */
  alertsDb?: string | null;
  /** The session audit: every passenger session answered is kept here (retention applied at start); null: none. */
  auditDb?: string | null;
  /** How many days audited sessions are kept (default 30). */
  auditRetentionDays?: number;
  /**
   * Store and forward to the fleet's back office (`kiosk backoffice serve`): this kiosk's id, the
   * back office's URL and the fleet token. Absent or null: the kiosk is not part of a fleet (its
   * ledger still keeps the outbox, so joining later sends its history).
   */
  replication?: (Pick<ReplicatorOptions, "kioskId" | "url" | "token"> & Partial<Pick<ReplicatorOptions, "batchSize" | "backoff" | "idleMs">>) | null;
  /** Seconds between heartbeats to the back office (with `replication`; default 30). */
  heartbeatSeconds?: number;
  /** Sent outbox rows older than this many days are deleted, at start and daily (default 30; unsent rows never). */
  outboxRetentionDays?: number;
  /**
   * Signed distribution (needs `replication`): the back office's ed25519 public key; framebooks and
   * alert sets it signed are fetched every `intervalMs`, verified, validated and applied. Absent: off.
   */
  distribution?: { publicKey: KeyObject; intervalMs?: number; stateFile?: string } | null;
  /** Time limit of one answer by the deterministic policy. */
  deadlineMs?: number;
  /** The kiosk's wall clock (default: the real time). */
  clock?: () => Date;
  /** The headset output's label pattern for headset mode (the screen's default when absent). */
  headsetPattern?: string;
  /** Which speech engine renders headset readings: "auto" (default: the platform's, probed at start), "none", or one engine. */
  speechEngine?: SpeechEngineChoice;
  payment?: PaymentTerminal;
  /** How the model process is started (the Electron shell: a utilityProcess; default: a Node child process). */
  spawnModel?: WorkerSpawner;
  /** Model process settings (tests: restart delays; the tiny model's engine options). */
  modelProcess?: PassengerAssistantOptions["process"];
  log?: (message: string) => void;
}

export interface KioskRuntime {
  pack: DataPack;
  app: KioskApp;
  /** What the transports (IPC, HTTP) call. */
  backend: KioskBackend;
  /** The PIN-protected operator and technician tools. */
  operator: OperatorConsole;
  technician: BenchTechnician | null;
  framebooks: FramebookStore;
  /** Null when the ledger could not be opened (information works, sales are refused). */
  ledger: Ledger | null;
  ledgerFile: string;
  /** The session audit, when configured and it could be opened. */
  audit: SessionAuditStore | null;
  /** Replication to the back office, when configured and the ledger is open. */
  replication: Replicator | null;
  /** The heartbeat to the back office, when replication is configured. */
  heartbeat: HeartbeatSender | null;
  /** The service alert store, when configured and it could be opened. */
  alerts: AlertStore | null;
  /** The technician's bench database, when configured and it could be opened. */
  bench: BenchStore | null;
  /** Signed framebooks and alerts from the back office, when configured. */
  distribution: Distribution | null;
  /** The passenger model, when one is configured and loaded (in its own process, or behind an endpoint). */
  assistant: PassengerAssistant | EndpointAssistant | null;
  /** A local model's prompt warmer (prefills the next passenger's system turn), null without one. */
  warmer: PromptWarmer | null;
  /** The kiosk's health in the Prometheus text format (`GET /metrics`). */
  metrics: KioskMetrics;
  close(): Promise<void>;
}

/** Build the kiosk from its config. Throws (after closing what it opened) when the kiosk cannot start. */
export async function createKioskRuntime(config: KioskRuntimeConfig): Promise<KioskRuntime> {
  const log = config.log ?? ((m: string) => console.error(`kiosk: ${m}`));
  const { pack } = config;
  // Closed in reverse order by close(), or right away when a later step fails.
  const closers: (() => void | Promise<void>)[] = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        log(`shutdown: ${(err as Error).message}`);
      }
    }
  };
  try {
    let ledger: Ledger | null = null;
    let ledgerProblem: string | undefined;
    try {
      ledger = Ledger.open(config.ledger);
      const opened = ledger;
      closers.push(() => opened.close());
    } catch (err) {
      ledgerProblem = (err as Error).message;
      log(`${ledgerProblem} — ticket sales are disabled until this is fixed`);
    }

    const replication = ledger && config.replication ? new Replicator({ outbox: ledger.outbox, ...config.replication, log }) : null;
    if (replication) {
      replication.start();
      closers.push(() => replication.stop());
    }
    if (ledger) {
      const outbox = ledger.outbox;
      const retentionMs = (config.outboxRetentionDays ?? DEFAULT_OUTBOX_RETENTION_DAYS) * 86_400_000;
      const prune = (): void => {
        try {
          const deleted = outbox.pruneSent(new Date((config.clock ?? (() => new Date()))().getTime() - retentionMs).toISOString());
          if (deleted > 0) log(`outbox: deleted ${deleted} sent record(s) older than ${config.outboxRetentionDays ?? DEFAULT_OUTBOX_RETENTION_DAYS} days`);
        } catch (err) {
          log(`outbox pruning failed: ${(err as Error).message}`);
        }
      };
      prune();
      const daily = setInterval(prune, 86_400_000);
      daily.unref();
      closers.push(() => clearInterval(daily));
    }

    const pinHash = "hash" in config.pin ? config.pin.hash : (loadPinHash({ file: config.pin.file, ...(config.pin.defaultFile ? { defaultFile: config.pin.defaultFile } : {}) })?.hash ?? null);
    if (pinHash === null) log("no operator PIN is set up: the operator screen stays locked (set one with `kiosk operator set-pin`)");

    const framebooks = new FramebookStore(pack, config.framebookStore ?? config.operatorDir);
    const alerts = config.alertsDb
      ? openAlertConditions(config.alertsDb, { system: (s) => framebooks.systemData(s), base: (s) => config.conditions?.(s), clock: config.clock ?? (() => new Date()), log })
      : null;
    if (alerts) closers.push(() => alerts.close());
    const conditions = alerts?.conditions ?? config.conditions;
    const audit = config.auditDb
      ? openSessionAudit(config.auditDb, { ...(config.auditRetentionDays !== undefined ? { retentionDays: config.auditRetentionDays } : {}), ...(config.clock ? { clock: config.clock } : {}), log })
      : null;
    if (audit) closers.push(() => audit.close());
    // One breaker for the model: the answer pipeline opens it on failures, the model process's supervisor holds it while it is down.
    const breaker = new ModelBreaker(config.clock ? { now: () => (config.clock as () => Date)().getTime() } : {});
    const spec = config.assistant;
    const assistant = !spec
      ? null
      : "endpoint" in spec
        ? await startEndpointAssistant(spec, { breaker, log })
        : await startPassengerAssistant(pack, spec, {
            breaker,
            log,
            ...(config.spawnModel ? { spawn: config.spawnModel } : {}),
            ...(config.modelProcess ? { process: config.modelProcess } : {}),
          });
    if (assistant) closers.push(() => assistant.close());

    const speech = createSpeechService({ engine: config.speechEngine ?? "auto", log });
    closers.push(() => speech.close());

    // The metrics read the app's status, and the app reports its sessions to them: joined after both exist.
    const sessionSinks: { metrics?: KioskMetrics } = {};
    // A local model's kiosk prefills the next passenger's system turn while nobody is at the screen.
    let warmer: PromptWarmer | null = null;
    const app = new KioskApp({
      pack,
      extras: packExtras(pack, config.operatorDir),
      framebooks,
      ledger,
      ...(ledgerProblem ? { ledgerProblem } : {}),
      ...(replication ? { replication } : {}),
      payment: config.payment ?? new SimulatedPaymentTerminal(),
      ...(assistant ? { assistant: assistant.assistant, modelHealth: assistant.health } : {}),
      breaker,
      ...(conditions ? { conditions } : {}),
      ...(config.deadlineMs !== undefined ? { deadlineMs: config.deadlineMs } : {}),
      ...(config.clock ? { clock: config.clock } : {}),
      ...(assistant && "prefill" in assistant ? { promptTime: (now: Date) => warmer?.promptTime(now) ?? floorToMinute(now) } : {}),
      ...(config.headsetPattern ? { headsetPattern: config.headsetPattern } : {}),
      speech,
      // The session audit and the /metrics counters read the same session events.
      onSession: (event) => {
        audit?.record(event);
        sessionSinks.metrics?.record(event);
      },
      log,
    });
    if (assistant && "prefill" in assistant) {
      const local = assistant;
      warmer = new PromptWarmer({
        nextSetup: (stated) => app.nextSessionSetup(stated),
        prefill: (setup) => local.prefill(setup),
        idle: () => app.idle && local.process.status.state === "ready",
        ...(config.clock ? { now: config.clock } : {}),
        log,
      });
      const started = warmer;
      started.start();
      closers.push(() => started.stop());
    }
    const metrics = createKioskMetrics(() => app.status());
    sessionSinks.metrics = metrics;
    // Every system's data and operator files are checked now: fail at start-up, not mid-sale.
    app.preload();

    let benchStore: BenchStore | null = null;
    if (config.benchDb) {
      try {
        benchStore = BenchStore.open(config.benchDb);
        const opened = benchStore;
        closers.push(() => opened.close());
      } catch (err) {
        log(`the bench database ${config.benchDb} cannot be opened (${(err as Error).message}) — the technician's bench is unavailable`);
      }
    }
    const technician = benchStore
      ? new BenchTechnician({
          pack,
          store: benchStore,
          setBenchRunning: (running) => app.setBenchRunning(running),
          model: config.benchModel ?? null,
          probe: technicianLatencyProbe(pack),
          log,
        })
      : null;
    if (technician) {
      closers.push(async () => {
        technician.stop();
        await technician.idle();
      });
    }
    const pinFile = "hash" in config.pin ? undefined : (config.pin.file ?? config.pin.defaultFile);
    const stateFile = config.pinStateFile ?? (pinFile !== undefined ? pinStateFileFor(pinFile) : undefined);
    const pin = new PinGate({ hash: pinHash, ...(stateFile ? { stateFile } : {}), log });
    const live = alerts || audit ? new OperatorLive({ pack, systemData: (s) => framebooks.systemData(s), names: (s) => app.systemView(s), alerts: alerts?.store ?? null, audit: audit?.store ?? null, ...(config.clock ? { clock: config.clock } : {}) }) : null;
    const distribution =
      config.distribution && config.replication
        ? Distribution.open({
            kioskId: config.replication.kioskId,
            url: config.replication.url,
            token: config.replication.token,
            publicKey: config.distribution.publicKey,
            systems: pack.systemIds,
            framebooks,
            alerts: alerts?.store ?? null,
            stateFile: config.distribution.stateFile ?? path.join(framebooks.dir, "distribution.sqlite"),
            ...(config.distribution.intervalMs !== undefined ? { intervalMs: config.distribution.intervalMs } : {}),
            log,
          })
        : null;
    if (distribution) {
      distribution.start();
      closers.push(() => distribution.stop());
    }
    const operator = new OperatorConsole({ framebooks, pin, systems: pack.systemIds, bench: technician, live, log });
    const parts = { pack, app, framebooks, alerts: alerts?.store ?? null, ledger, bench: benchStore };
    const heartbeat = config.replication
      ? new HeartbeatSender({
          url: config.replication.url,
          token: config.replication.token,
          collect: () => collectHeartbeat(parts, config.replication!.kioskId, (config.clock ?? (() => new Date()))()),
          intervalMs: (config.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000,
          log,
        })
      : null;
    if (heartbeat) {
      heartbeat.start();
      closers.push(() => heartbeat.stop());
    }

    return {
      pack,
      app,
      backend: app,
      operator,
      technician,
      framebooks,
      ledger,
      ledgerFile: config.ledger,
      audit: audit?.store ?? null,
      replication,
      heartbeat,
      alerts: alerts?.store ?? null,
      bench: benchStore,
      distribution,
      assistant,
      warmer,
      metrics,
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
