/**
 * Raised when the shop starts to stop (SIGTERM/SIGINT), before it waits for requests in flight:
 * answers that would otherwise never end (server-sent events) end now, and their browsers
 * reconnect to a running server or fall back to polling.
 */
const g = globalThis as unknown as { __shopShutdown?: AbortController };
// On globalThis so the dev server's reloaded modules and the server build share one.
const controller = (g.__shopShutdown ??= new AbortController());

export const shutdownSignal: AbortSignal = controller.signal;

export function beginShutdown() {
  controller.abort();
}
