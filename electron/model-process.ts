// The shell's model process: an Electron utilityProcess running the bundled model worker
// (dist/electron/model-worker.cjs, built from models/worker/main.ts by electron/build.ts), behind the
// same port the supervisor (models/worker/supervisor.ts) uses for `kiosk serve`'s child process.
import path from "node:path";
import { utilityProcess } from "electron";
import type { WorkerPort, WorkerSpawner } from "../models/worker/spawn.ts";

/** The bundled model worker beside the main bundle. */
export function bundledWorkerEntry(bundleDir: string): string {
  return path.join(bundleDir, "model-worker.cjs");
}

type UtilityProcessLike = Pick<Electron.UtilityProcess, "pid" | "postMessage" | "on" | "once" | "kill">;

export function utilityProcessSpawner(entry: string, fork?: (modulePath: string, args: string[], options: Electron.ForkOptions) => UtilityProcessLike): WorkerSpawner {
  return (): WorkerPort => {
    const child = (fork ?? utilityProcess.fork)(entry, [], { serviceName: "Kiosk model", stdio: "inherit" });
    let alive = true;
    child.once("exit", () => (alive = false));
    return {
      get pid() {
        return child.pid;
      },
      send: (message) => {
        if (alive) child.postMessage(message);
      },
      onMessage: (listener) => void child.on("message", listener),
      // A utility process reports only its exit code; a kill shows as a non-zero code.
      onExit: (listener) => void child.once("exit", (code) => listener(code, null)),
      // SIGKILL, not the utility process's own SIGTERM: a hung (or stopped) process must go now.
      kill: () => {
        try {
          if (child.pid !== undefined) process.kill(child.pid, "SIGKILL");
          else child.kill();
        } catch {
          child.kill();
        }
      },
    };
  };
}
