// A worker thread started from the TypeScript sources (tests, tsx) begins here: Node 20 ignores
// `--import tsx` in a worker's execArgv, so the worker's source (argv[2]) is loaded through tsx's API.
import { tsImport } from "tsx/esm/api";

const source = process.argv[2];
if (!source) throw new Error("tsx-worker.mjs: the worker's source URL is missing (argv[2])");
await tsImport(source, source);
