// node-llama-cpp's values, loaded on first use. The package is an ES module with top-level await,
// which the CLI's CommonJS bundle (dist/node/kiosk.cjs, scripts/build-node.ts) cannot require():
// every module here takes its values through this import(), and its types with `import type`
// (erased at build time). Lint keeps it so (eslint.config.js).
import type * as LlamaCppModule from "node-llama-cpp";

export type LlamaCpp = typeof LlamaCppModule;

/**
 * The ES module import() of bin/kiosk.js, which it hands to the CommonJS bundle: an import() in
 * code that V8 restored from a code cache has no loader to call in Node 20
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). Undefined everywhere else.
 */
declare const __kioskImport: ((specifier: string) => Promise<unknown>) | undefined;

let loading: Promise<LlamaCpp> | undefined;

/** node-llama-cpp's module namespace (imported once). */
export function llamaCpp(): Promise<LlamaCpp> {
  loading ??= typeof __kioskImport === "function" ? (__kioskImport("node-llama-cpp") as Promise<LlamaCpp>) : import("node-llama-cpp");
  return loading;
}
