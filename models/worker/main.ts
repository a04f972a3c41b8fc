// The kiosk's model process: node-llama-cpp and the model live here, never in the kiosk's own
// process, so a native crash or a hang in llama.cpp takes down only this process (the kiosk keeps
// selling with `rule`, and ModelProcess restarts it). Started by ModelProcess (supervisor.ts)
// through a spawner: a Node child process (`kiosk serve`, the bench's hybrid; from TypeScript with
// tsx in development and tests) or an Electron utilityProcess (the shell). One file, so a compiled
// build bundles it as its own entry (electron/build.ts does: dist/electron/model-worker.cjs).
import { serveModelWorker, type WorkerChannel } from "./serve.ts";
import type { WorkerMessage } from "./protocol.ts";

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: "message", listener: (event: { data: unknown }) => void): void;
}

function channel(): WorkerChannel | null {
  const parentPort = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (parentPort) {
    return { send: (message: WorkerMessage) => parentPort.postMessage(message), onMessage: (listener) => parentPort.on("message", (event) => listener(event.data)) };
  }
  if (process.send) {
    const send = process.send.bind(process);
    return { send: (message: WorkerMessage) => void send(message), onMessage: (listener) => process.on("message", listener) };
  }
  return null;
}

const port = channel();
if (!port) {
  process.stderr.write("models/worker/main.ts is the kiosk's model process: it is started by ModelProcess (models/worker/supervisor.ts), not by hand\n");
  process.exit(2);
}
serveModelWorker(port, { onUnloaded: () => process.exit(0) });
// The kiosk went away (its IPC channel closed): nothing is left to serve.
process.on("disconnect", () => process.exit(0));
