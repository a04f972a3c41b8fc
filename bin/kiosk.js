#!/usr/bin/env node
// Launcher for the `kiosk` CLI: registers the TypeScript loader, then runs cli/main.ts.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
await main(process.argv);
