// Prints where tools/util/node-entry.ts finds the `kiosk` entry point from here: compiled (a
// dist/node chunk) or from the sources. Used by scripts/build-node.test.ts.
import { nodeEntry } from "../tools/util/node-entry.ts";

const entry = nodeEntry("kiosk", new URL("../cli/main.ts", import.meta.url));
process.stdout.write(JSON.stringify({ url: entry.url.href, execArgv: entry.execArgv }));
