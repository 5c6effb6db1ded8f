import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/env.ts"],
    environment: "node",
    pool: "forks",
    // A worker runs file after file; tests/setup/env.ts gives each file fresh shop modules and
    // environment, while packages stay loaded (docs/decisions/0038).
    isolate: false,
    // Each file runs its own shop server and browser; two at a time suits a 2-core machine.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
