import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { getEnv } from "./env.server";

type RequestScope = {
  requestId: string;
  log: pino.Logger;
  /** The storefront change log's check this request's reads rely on (storefront-changes.server.ts). */
  changesChecked?: { by: object; done: Promise<boolean> };
};

const g = globalThis as unknown as {
  __shopLogger?: pino.Logger;
  __shopRequestScope?: AsyncLocalStorage<RequestScope>;
};

/** Holds the request id for everything a request does, so each log line can name its request. */
export const requestScope = (g.__shopRequestScope ??= new AsyncLocalStorage<RequestScope>());

export function getRootLogger(): pino.Logger {
  if (!g.__shopLogger) {
    let level = "info";
    try {
      level = getEnv().LOG_LEVEL;
    } catch {
      // A bad environment is reported by the boot sequence; logging must still work to say so.
    }
    g.__shopLogger = pino({
      level,
      base: undefined,
      redact: {
        paths: ["password", "*.password", "headers.cookie", "headers.authorization", "*.headers.cookie"],
        remove: true,
      },
    });
  }
  return g.__shopLogger;
}

/** The current request's logger (with its request id) or the root logger outside a request. */
export function getLogger(): pino.Logger {
  return requestScope.getStore()?.log ?? getRootLogger();
}

export const logger: Pick<pino.Logger, "info" | "warn" | "error" | "debug" | "fatal" | "trace"> = {
  info: (...args: Parameters<pino.LogFn>) => getLogger().info(...args),
  warn: (...args: Parameters<pino.LogFn>) => getLogger().warn(...args),
  error: (...args: Parameters<pino.LogFn>) => getLogger().error(...args),
  debug: (...args: Parameters<pino.LogFn>) => getLogger().debug(...args),
  fatal: (...args: Parameters<pino.LogFn>) => getLogger().fatal(...args),
  trace: (...args: Parameters<pino.LogFn>) => getLogger().trace(...args),
} as never;
