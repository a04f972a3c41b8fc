// The Electron shell's settings, from command-line switches and environment variables. Pure.
import path from "node:path";

export interface ShellConfig {
  /** Full-screen kiosk mode (no window chrome, no way out but the operator's). Default on. */
  kiosk: boolean;
  /** Developer tools (never in kiosk mode). */
  devTools: boolean;
  /** The data pack (else the DataPack defaults: $METRO_DATA_DIR, ./data/metrollm-bench, ../shared). */
  dataDir: string | undefined;
  /** Sales ledger file (else $METRO_LEDGER, else <userData>/ledger.sqlite). */
  ledger: string;
  /** The built renderer. */
  rendererDir: string;
  /** Operator data folder (<system>/local-names.yaml). */
  operatorDir: string;
}

function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === `--${name}`) return argv[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

function truthy(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return !["0", "false", "no", "off", ""].includes(value.toLowerCase());
}

/**
 * Switches: --no-kiosk / --kiosk, --devtools, --data DIR, --ledger FILE, --renderer DIR,
 * --framebooks DIR. Environment: KIOSK_MODE=0|1, KIOSK_DEVTOOLS=1, METRO_DATA_DIR, METRO_LEDGER,
 * KIOSK_RENDERER_DIR, KIOSK_FRAMEBOOKS_DIR. Switches win over the environment.
 */
export function shellConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  defaults: { appRoot: string; userData: string },
): ShellConfig {
  const kiosk = argv.includes("--no-kiosk") ? false : argv.includes("--kiosk") ? true : (truthy(env.KIOSK_MODE) ?? true);
  const devTools = !kiosk && (argv.includes("--devtools") || truthy(env.KIOSK_DEVTOOLS) === true);
  return {
    kiosk,
    devTools,
    dataDir: flagValue(argv, "data") ?? env.METRO_DATA_DIR,
    ledger: flagValue(argv, "ledger") ?? env.METRO_LEDGER ?? path.join(defaults.userData, "ledger.sqlite"),
    rendererDir: flagValue(argv, "renderer") ?? env.KIOSK_RENDERER_DIR ?? path.join(defaults.appRoot, "renderer", "dist"),
    operatorDir: flagValue(argv, "framebooks") ?? env.KIOSK_FRAMEBOOKS_DIR ?? path.join(defaults.appRoot, "framebooks"),
  };
}
