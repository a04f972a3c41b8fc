// Flat ESLint config. Besides style, it enforces the dependency direction of the layers:
// tools/ ← runtime/ ← bench/, electron/, models/ ← cli/, and a renderer that never touches Node.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    "no-restricted-imports": [
      "error",
      { patterns: forbidden.map((group) => ({ group: [group], message })) },
    ],
  },
});

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
    },
  },
  layer(["tools/**/*.ts"], ["**/runtime/**", "**/bench/**", "**/electron/**", "**/renderer/**", "**/models/**", "**/cli/**"],
    "tools/ is the pure domain layer: it must not import from the layers above it."),
  layer(["runtime/**/*.ts"], ["**/bench/**", "**/electron/**", "**/renderer/**", "**/cli/**"],
    "runtime/ may use tools/ (and models/ adapters) only."),
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
              regex: "^(\\.\\./)+(tools|bench|models|electron|cli)/|^(\\.\\./)+runtime/(?!kiosk/bridge\\.ts$)",
              message: "renderer/ talks to the runtime only through runtime/kiosk/bridge.ts (the KioskBridge contract).",
            },
          ],
        },
      ],
    },
  },
);
