// The kiosk runtime the Electron shell talks to. Today it runs in the main process; everything the
// shell uses goes through the KioskBackend interface (the same one `kiosk serve` uses), so the
// runtime — and with it node-llama-cpp — can move into an Electron utilityProcess behind a
// MessagePort RPC that implements KioskBackend, without touching ipc.ts or the window code.
// A model-process crash is reported with `modelCrashed` (→ KioskApp.primaryCrashed): passengers
// then see "assistant unavailable" while the deterministic `rule` policy keeps selling.
import { DataPack } from "../tools/data/datapack.ts";
import { KioskApp, type PrimaryPolicy } from "../runtime/kiosk/app.ts";
import { Ledger } from "../runtime/kiosk/ledger.ts";
import { SimulatedPaymentTerminal, type PaymentTerminal } from "../runtime/kiosk/payment.ts";
import type { KioskBackend } from "../runtime/kiosk/server.ts";
import type { ShellConfig } from "./config.ts";

export interface KioskRuntime {
  backend: KioskBackend;
  /** The model process died (utilityProcess "exit" with a non-zero code). */
  modelCrashed(reason: string): void;
  /** The model process is serving again. */
  modelRestored(): void;
  close(): void;
}

export interface RuntimeHostOptions {
  primary?: PrimaryPolicy;
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
  const app = new KioskApp({
    pack,
    operatorDir: config.operatorDir,
    ledger,
    ...(ledgerProblem ? { ledgerProblem } : {}),
    payment: options.payment ?? new SimulatedPaymentTerminal(),
    ...(options.primary ? { primary: options.primary } : {}),
    log,
  });
  app.preload();
  return {
    backend: app,
    modelCrashed: (reason) => app.primaryCrashed(reason),
    modelRestored: () => app.primaryRestored(),
    close: () => ledger?.close(),
  };
}
