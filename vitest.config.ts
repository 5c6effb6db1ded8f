import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/env.ts"],
    environment: "node",
    pool: "forks",
    // A worker runs file after file; tests/setup/env.ts gives each file fresh shop modules and
    // environment, while packages stay loaded (docs/decisions/0038).
    isolate: false,
    // Two files at a time, each with its own database cloned from the run's template. Vitest's default on 2 cores is one (cores − 1), which leaves a core idle while an
    // integration test waits for PostgreSQL (docs/decisions/0038).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
