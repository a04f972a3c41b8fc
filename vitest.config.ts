import { defineConfig } from "vitest/config";

// Tests are split by cost: `unit` needs nothing but the data pack; `model` loads the tiny
// generated GGUF (one worker, one model at a time); `e2e` drives Debian's Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{tools,runtime,bench,models,electron,renderer,cli,scripts}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.model.test.ts", "**/*.e2e.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
