import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { useDatabase, type Database } from "~/server/platform/db/client.server";
import { freePort, launchShop } from "../../scripts/shop-process";
import { createTestDatabase, type TestDatabase } from "../setup/database";
import { E2E_AUTH_SECRET } from "../setup/e2e-secret";
import { reportIfFailed, watchPage } from "./failure-report";

/**
 * Debian's Chromium headless shell when it is installed: the same Chromium release without the
 * full browser's UI process, about a third less CPU for the suite (docs/decisions/0044). The full
 * browser otherwise; `CHROMIUM_PATH` names another.
 */
export const HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : "/usr/bin/chromium");
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
];

export { E2E_AUTH_SECRET };

export type Shop = {
  baseUrl: string;
  db: Database;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
};

export { freePort };

export const NOT_BUILT = "The shop is not built: run `npm run build` before the browser tests (npm test does).";

/** Starts the built shop (`node server.js`) on a free port against a fresh test database. */
export async function startShop(opts: { env?: Record<string, string>; db?: TestDatabase } = {}): Promise<Shop & { test: TestDatabase }> {
  // Checked before a database is made for nothing.
  if (!fs.existsSync(path.resolve(process.env.SHOP_BUILD_DIR || "build", "server/index.js"))) throw new Error(NOT_BUILT);
  const test = opts.db ?? (await createTestDatabase());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-data-"));
  const child = await launchShop({
    databaseUrl: test.url,
    dataDir,
    authSecret: E2E_AUTH_SECRET,
    notBuiltMessage: NOT_BUILT,
    env: { LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn", ...opts.env },
  });
  return {
    baseUrl: child.baseUrl,
    db: test.db,
    test,
    dataDir,
    output: child.output,
    stop: async () => {
      await child.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a teardown step; one that takes over 10 s is named on the console, with its time. */
async function slowStepSaid(step: string, run: () => Promise<unknown> | undefined) {
  const started = Date.now();
  const warn = setTimeout(() => console.warn(`Browser test teardown: ${step} has taken over 10 s`), 10_000);
  try {
    await run();
  } finally {
    clearTimeout(warn);
    if (Date.now() - started > 10_000) console.warn(`Browser test teardown: ${step} took ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}. The browser tests need it: run \`apt-get install -y chromium-headless-shell\` (or \`chromium\`), as root.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

/**
 * For browser test files: one shop server and one browser for the file, a fresh context per
 * test via `newPage()`. The shop's database is also installed in this process for factories.
 */
export function useShop(opts: { env?: Record<string, string>; /** For every page; 10 s unless given. */ pageTimeout?: number } = {}) {
  const state = {} as { shop: Shop & { test: TestDatabase }; browser: Browser; contexts: BrowserContext[] };
  beforeAll(async () => {
    state.shop = await startShop({ env: opts.env });
    useDatabase(state.shop.db, state.shop.test.url);
    state.browser = await launchBrowser();
    state.contexts = [];
  }, 90_000);
  afterEach(async (ctx) => {
    const contexts = state.contexts ?? [];
    state.contexts = [];
    await reportIfFailed(ctx, contexts, state.shop);
    // A test's pages end with it: left open, they keep using the machine the next tests need.
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  });
  afterAll(async () => {
    // Which step of the teardown is slow, when one is (a teardown once outlived the hook's 90 s).
    await slowStepSaid("closing the browser", () => state.browser?.close());
    await slowStepSaid("stopping the shop", () => state.shop?.stop());
    await slowStepSaid("dropping the test database", () => state.shop?.test.drop());
  });
  return {
    get baseUrl() {
      return state.shop.baseUrl;
    },
    get db() {
      return state.shop.db;
    },
    get shop() {
      return state.shop;
    },
    async newPage(): Promise<Page> {
      const context = await state.browser.newContext({ baseURL: state.shop.baseUrl });
      state.contexts.push(context);
      const page = await context.newPage();
      watchPage(page);
      page.setDefaultTimeout(opts.pageTimeout ?? 10_000);
      return page;
    },
  };
}
