import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { vi } from "vitest";

// Each worker runs many test files one after another (`isolate: false` in the Vitest configs,
// docs/decisions/0038): the packages in node_modules are loaded once per worker, which was most
// of every file's start. What a file may rely on being fresh is made fresh here, before each file:
// - the shop's own modules are evaluated again, so no cache, singleton or setting read at import
//   (the environment, the storage, remembered reads) carries over from the file before;
// - what the shop keeps process-wide on globalThis (the `__shop…` keys: the database, the change
//   log's reader, the shutdown signal, the visit counter) is forgotten;
// - the environment is the one the worker started with, so a variable a file set is gone.
const started = ((globalThis as { __testEnvAtStart?: NodeJS.ProcessEnv }).__testEnvAtStart ??= { ...process.env });
for (const key of Object.keys(process.env)) if (!(key in started)) delete process.env[key];
Object.assign(process.env, started);
vi.resetModules();
for (const key of Object.keys(globalThis)) if (key.startsWith("__shop")) delete (globalThis as Record<string, unknown>)[key];

// Tests never touch the shop's own ./data: uploads, secrets and the outbox live in a temp folder.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-data-"));
process.env.DATA_DIR = dir;
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL ??= "silent";
process.env.PUBLIC_URL = "http://localhost:3000";
process.env.BETTER_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
delete process.env.SMTP_URL;
delete process.env.STRIPE_SECRET_KEY;
