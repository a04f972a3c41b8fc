import { defineConfig } from "vitest/config";

// Tests are split by cost: `unit` needs nothing but the data pack (renderer tests pick happy-dom
// per file); `model` loads the tiny generated GGUF, one model at a time in one worker; `e2e`
// drives Debian's Chromium against `kiosk serve` and the built renderer, one file at a time; `pg`
// starts a throw-away PostgreSQL (Debian's package) for the fleet back office.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{tools,runtime,bench,models,host,electron,renderer,cli,scripts}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.model.test.ts", "**/*.e2e.test.ts", "**/*.pg.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "model",
          include: ["{tools,runtime,bench,models,host,cli,scripts}/**/*.model.test.ts"],
          environment: "node",
          pool: "forks",
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["**/*.e2e.test.ts"],
          exclude: ["node_modules/**"],
          environment: "node",
          pool: "forks",
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          // Integration tests against a throw-away PostgreSQL cluster (test/postgres.ts), one file at a time.
          name: "pg",
          include: ["**/*.pg.test.ts"],
          exclude: ["node_modules/**"],
          environment: "node",
          pool: "forks",
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The shipped-fonts test reads the @fontsource stylesheets as text (`?raw`).
    css: { include: [/@fontsource[\\/]/] },
  },
});
