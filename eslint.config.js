// Flat ESLint config. Besides style, it enforces the dependency direction of the layers (below, and
// docs/CONVENTIONS.md), a pure runtime/kiosk domain, and a renderer that never touches Node.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers, bottom up, and what each may import (besides npm packages and the shared test/ helpers):
//   tools ← runtime ← models ← bench ← host ← electron, cli ← scripts;  renderer → runtime/kiosk/bridge.ts only.
// Every other top-level folder is off limits; the renderer and the scripts are imported by no one.
const TOP = ["tools", "runtime", "models", "bench", "host", "electron", "cli", "renderer", "scripts"];
const MAY_IMPORT = {
  tools: [],
  runtime: ["tools"],
  models: ["tools", "runtime"],
  bench: ["tools", "runtime", "models"],
  host: ["tools", "runtime", "models", "bench"],
  electron: ["tools", "runtime", "models", "host"],
  cli: ["tools", "runtime", "models", "bench", "host"],
  scripts: ["tools", "runtime", "models", "bench", "host", "electron", "cli"],
};
const WHY = {
  tools: "tools/ is the pure domain layer: it imports no other layer.",
  runtime: "runtime/ may use tools/ only.",
  models: "models/ may use tools/ and runtime/ only.",
  bench: "bench/ may use tools/, runtime/ and models/ only (the command line lives in cli/).",
  host: "host/ may use tools/, runtime/, models/ and bench/ only (electron/ and cli/ use it, not the reverse).",
  electron: "electron/ may use tools/, runtime/, models/ and host/ only (the kiosk is assembled in host/).",
  cli: "cli/ may use tools/, runtime/, models/, bench/ and host/ only.",
  scripts: "nothing imports scripts/ or renderer/.",
};
const forbiddenFor = (layer, extra = []) => TOP.filter((f) => f !== layer && !MAY_IMPORT[layer].includes(f) && !extra.includes(f));
/** Relative specifiers that climb to one of `folders` (../cli/…, ../../cli/…). */
const reaching = (folders) => `^(\\.\\./)+(${folders.join("|")})/`;
/** Native and model packages belong in the layers that run them. */
const NATIVE = {
  "node-llama-cpp": { allowed: ["models"], message: "node-llama-cpp is loaded in models/ only (the model process)." },
};
const layerPatterns = (layer, extra = []) => [
  { regex: reaching(forbiddenFor(layer, extra)), message: WHY[layer] },
  ...Object.entries(NATIVE)
    .filter(([, rule]) => !rule.allowed.includes(layer))
    .map(([name, rule]) => ({ group: [name, `${name}/*`], message: rule.message })),
];
const restrict = (files, patterns, ignores = []) => ({
  files,
  ...(ignores.length > 0 ? { ignores } : {}),
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

/** runtime/kiosk is pure domain; its Node adapters (HTTP server, SQLite ledger, files) live in runtime/kiosk/node/. */
const KIOSK_DOMAIN = {
  group: ["node:*", "fs", "path", "http", "better-sqlite3", "ws", "./node/*", "./node/**"],
  message: "runtime/kiosk/ is pure domain: Node, SQLite, HTTP and files belong in runtime/kiosk/node/ (adapters).",
};

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "data/", "var/", "renderer/dist/", ".tmp/", "test-results/", "models/cache/", "**/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
      // The compiled CLI is ASCII-only (scripts/ascii-output.ts): a tagged template's raw text is
      // what its tag reads, so the build cannot escape a non-ASCII character there.
      "no-restricted-syntax": [
        "error",
        {
          selector: "TaggedTemplateExpression TemplateElement[value.raw=/[^\\u0000-\\u007f]/]",
          message: "write non-ASCII characters in a tagged template (String.raw) as \\u escapes: the compiled CLI is ASCII-only (scripts/ascii-output.ts).",
        },
      ],
    },
  },
  // The launcher is CommonJS (bin/package.json): it starts no ES module loader for the commands it runs from the CommonJS bundle.
  { files: ["bin/kiosk.js"], languageOptions: { sourceType: "commonjs" }, rules: { "@typescript-eslint/no-require-imports": "off" } },
  ...Object.keys(MAY_IMPORT).map((layer) => restrict([`${layer}/**/*.ts`], layerPatterns(layer), [`${layer}/**/*.test.ts`])),
  // Tests keep their folder's layer, and may also import the scripts/ they check (a script's exports).
  ...Object.keys(MAY_IMPORT).map((layer) => restrict([`${layer}/**/*.test.ts`], layerPatterns(layer, ["scripts"]))),
  restrict(["runtime/kiosk/*.ts"], [...layerPatterns("runtime"), KIOSK_DOMAIN], ["runtime/kiosk/*.test.ts", "runtime/kiosk/testing.ts"]),
  // node-llama-cpp (an ES module with top-level await) cannot be require()d by the CLI's CommonJS
  // bundle: its values come through models/llama-cpp.ts's import(); its types may be imported anywhere.
  {
    files: ["models/**/*.ts"],
    ignores: ["models/llama-cpp.ts", "models/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [{ name: "node-llama-cpp", allowTypeImports: true, message: "take node-llama-cpp's values from llamaCpp() (models/llama-cpp.ts): the CLI's CommonJS bundle cannot require() it." }] },
      ],
    },
  },
  {
    files: ["renderer/**/*.ts", "renderer/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "fs", "path", "child_process", "better-sqlite3", "node-llama-cpp", "electron"],
              message: "renderer/ never runs Node code.",
            },
            {
              // The only runtime module the screen may import is the bridge contract (pure zod).
              regex: "^(\\.\\./)+(tools|bench|models|host|electron|cli|scripts)/|^(\\.\\./)+runtime/(?!kiosk/bridge\\.ts$)",
              message: "renderer/ talks to the runtime only through runtime/kiosk/bridge.ts (the KioskBridge contract).",
            },
          ],
        },
      ],
    },
  },
);
