// The kiosk runtime the Electron shell talks to. Today it runs in the main process; everything the
// shell uses goes through the KioskBackend interface (the same one `kiosk serve` uses), so the
// runtime — and with it node-llama-cpp — can move into an Electron utilityProcess behind a
// MessagePort RPC that implements KioskBackend, without touching ipc.ts or the window code.
// A model-process crash is reported with `modelCrashed` (→ KioskApp.primaryCrashed): passengers
// then see "assistant unavailable" while the deterministic `rule` policy keeps selling.
// The operator console (PIN from the operator config, framebooks through the FramebookStore) and
// the technician's bench (its own SQLite database) are served over their own IPC channels.
import { BenchStore } from "../bench/store/store.ts";
import { technicianLatencyProbe } from "../bench/probe/index.ts";
import { BenchTechnician } from "../bench/technician.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { FramebookStore } from "../runtime/framebook/store.ts";
import { KioskApp } from "../runtime/kiosk/app.ts";
import type { ModelAssistant } from "../runtime/answer/pipeline.ts";
import { OperatorConsole } from "../runtime/operator/console.ts";
import { loadPinHash, PinGate } from "../runtime/operator/pin.ts";
import { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { SimulatedPaymentTerminal, type PaymentTerminal } from "../runtime/kiosk/payment.ts";
import type { KioskBackend } from "../runtime/kiosk/dispatch.ts";
import type { ShellConfig } from "./config.ts";
import { packExtras } from "../runtime/kiosk/node/pack-extras.ts";

export interface KioskRuntime {
  backend: KioskBackend;
  /** The PIN-protected operator/technician tools. */
  operator: OperatorConsole;
  /** The model process died (utilityProcess "exit" with a non-zero code). */
  modelCrashed(reason: string): void;
  /** The model process is serving again. */
  modelRestored(): void;
  close(): void;
}

export interface RuntimeHostOptions {
  assistant?: ModelAssistant;
  payment?: PaymentTerminal;
  log?: (message: string) => void;
}

export function createKioskRuntime(config: ShellConfig, options: RuntimeHostOptions = {}): KioskRuntime {
  const log = options.log ?? ((m: string) => console.error(`kiosk: ${m}`));
  const pack = DataPack.locate(config.dataDir ? { flag: config.dataDir } : {});
  let ledger: Ledger | null = null;
  let ledgerProblem: string | undefined;
  try {
    ledger = Ledger.open(config.ledger);
  } catch (err) {
    ledgerProblem = (err as Error).message;
    log(`${ledgerProblem} — ticket sales are disabled`);
  }
  const framebooks = new FramebookStore(pack, config.framebookStore);
  const app = new KioskApp({
    pack,
    extras: packExtras(pack.root, config.operatorDir),
    framebooks,
    ledger,
    ...(ledgerProblem ? { ledgerProblem } : {}),
    payment: options.payment ?? new SimulatedPaymentTerminal(),
    ...(options.assistant ? { assistant: options.assistant } : {}),
    log,
  });
  app.preload();
  const pin = loadPinHash({ file: config.operatorConfig });
  if (!pin) log(`no operator PIN is set up (${config.operatorConfig}): the operator screen stays locked`);
  let benchStore: BenchStore | null = null;
  try {
    benchStore = BenchStore.open(config.benchDb);
  } catch (err) {
    log(`the bench database ${config.benchDb} cannot be opened (${(err as Error).message}): the technician's bench is unavailable`);
  }
  const technician = benchStore
    ? new BenchTechnician({ pack, store: benchStore, setBenchRunning: (running) => app.setBenchRunning(running), model: config.benchModel ?? null, probe: technicianLatencyProbe(pack), log })
    : null;
  const operator = new OperatorConsole({ framebooks, pin: new PinGate({ hash: pin?.hash ?? null }), systems: pack.systemIds, bench: technician, log });
  return {
    backend: app,
    operator,
    modelCrashed: (reason) => app.modelCrashed(reason),
    modelRestored: () => app.modelRestored(),
    close: () => {
      technician?.stop();
      benchStore?.close();
      ledger?.close();
    },
  };
}
