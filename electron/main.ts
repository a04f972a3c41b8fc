// The Electron shell: one full-screen kiosk window showing the renderer from kiosk://app/, the
// bridge over IPC (ipc.ts), and the kiosk runtime (host/runtime.ts, as `kiosk serve` builds it). Bundled to CommonJS by
// electron/build.ts (dist/electron/main.cjs); run with `electron dist/electron/main.cjs`.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { app, BrowserWindow, ipcMain, Menu, protocol, session } from "electron";
import { appRootOf, chromiumSwitches, kioskRuntimeConfig, shellConfig } from "./config.ts";
import { lockKioskWindow, removeApplicationMenu } from "./kiosk-lock.ts";
import { rendererResponse } from "./app-protocol.ts";
import { forwardPushes, registerKioskIpc, registerOperatorIpc } from "./ipc.ts";
import { createKioskRuntime, type KioskRuntime } from "../host/runtime.ts";
import { serveMetrics } from "../host/metrics.ts";
import { metricsPortOf, shellFleet } from "./fleet.ts";
import { bundledWorkerEntry, utilityProcessSpawner } from "./model-process.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { APP_SCHEME, APP_URL, hardenSession, kioskWindowOptions, lockWebContents } from "./security.ts";

// A packaged app's optional model ships in resources/models (electron-builder extraResources); a
// single shipped model is the one the technician's bench may use.
const shippedModels = path.join(process.resourcesPath ?? "", "models");
if (app.isPackaged && !process.env.METRO_MODELS_DIR && existsSync(shippedModels)) {
  process.env.METRO_MODELS_DIR = shippedModels;
  const ggufs = readdirSync(shippedModels).filter((f) => f.endsWith(".gguf"));
  if (ggufs.length === 1 && !process.env.KIOSK_BENCH_MODEL) process.env.KIOSK_BENCH_MODEL = path.join(shippedModels, ggufs[0]!);
}

// The bundle sits in dist/electron/; the app root (renderer/, framebooks/) two levels up.
const bundleDir = typeof __dirname === "string" ? __dirname : process.cwd();
const appRoot = appRootOf(process.env, bundleDir, app.isPackaged);
const config = shellConfig(process.argv, process.env, {
  appRoot,
  userData: app.getPath("userData"),
  // Packaged: the data pack (and an optional model) ship as extra resources beside app.asar.
  resourcesDir: app.isPackaged ? process.resourcesPath : undefined,
  packaged: app.isPackaged,
});
let quitting = false;
for (const name of chromiumSwitches(process.platform)) app.commandLine.appendSwitch(name);

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);

// Every web contents (including any the page might try to create) is locked down.
app.on("web-contents-created", (_event, contents) => lockWebContents(contents, { devTools: config.devTools }));

let runtime: KioskRuntime | undefined;
let metricsServer: { close(): Promise<void> } | undefined;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow(kioskWindowOptions(path.join(bundleDir, "preload.cjs"), config));
  lockKioskWindow(win, { kiosk: config.kiosk, quitting: () => quitting, log: (m) => console.error(`kiosk: ${m}`) });
  const stopPushes = forwardPushes(runtime!.backend, win.webContents);
  win.on("closed", stopPushes);
  win.once("ready-to-show", () => win.show());
  void win.loadURL(APP_URL);
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on("second-instance", () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  void app.whenReady().then(async () => {
    hardenSession(session.defaultSession);
    removeApplicationMenu(Menu);
    protocol.handle(APP_SCHEME, (request) => rendererResponse(config.rendererDir, request.url));
    // The passenger assistant's model, when one is configured; without it (or if it cannot be
    // loaded) the rule policy answers and the kiosk sells as usual.
    try {
      const pack = DataPack.locate({ ...(config.dataDir ? { flag: config.dataDir } : {}), systemsDir: config.systemsDir });
      // The model runs in a utility process (the bundled model worker), never in this main process.
      runtime = await createKioskRuntime({ ...kioskRuntimeConfig(config, pack), ...shellFleet(config), spawnModel: utilityProcessSpawner(bundledWorkerEntry(bundleDir)) });
      const metricsPort = metricsPortOf(config);
      // A port already taken must not keep the kiosk from selling: logged, and the kiosk runs without it.
      if (metricsPort !== undefined) {
        metricsServer = await serveMetrics(runtime.metrics, metricsPort).catch((err: unknown) => {
          console.error(`kiosk: /metrics not served on 127.0.0.1:${metricsPort}: ${(err as Error).message}`);
          return undefined;
        });
      }
    } catch (err) {
      console.error(`kiosk: cannot start the kiosk runtime: ${(err as Error).message}`);
      app.exit(2);
      return;
    }
    registerKioskIpc(ipcMain, runtime.backend);
    registerOperatorIpc(ipcMain, runtime.operator);
    createWindow();
  });

  app.on("window-all-closed", () => app.quit());
  app.on("before-quit", () => {
    quitting = true;
    void metricsServer?.close();
    void runtime?.close();
  });
}
