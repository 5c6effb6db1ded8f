import type { AppLoadContext, EntryContext } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * A page whose rendering has not started when the stream's time is up: the shop was too busy
 * (a burst of renderings queued behind each other). React's renderer is replaced by one the test
 * drives, so "not started yet" and "already streaming" are decided here, not by the machine's
 * load (tests/e2e/burst.test.ts meets the real thing when the machine is slow enough).
 */
type Callbacks = { onAllReady?: () => void; onShellReady?: () => void; onShellError?: (e: unknown) => void; onError?: (e: unknown) => void };
const render = vi.hoisted(() => ({ callbacks: {} as Callbacks, abort: vi.fn(), holdOpen: false }));

vi.mock("react-dom/server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("react-dom/server")>()),
  renderToPipeableStream: (_element: unknown, options: Callbacks) => {
    render.callbacks = options;
    return {
      // A streaming page's rest (its deferred data) may still be on its way.
      pipe: (target: NodeJS.WritableStream) => (render.holdOpen ? target.write("<p>shell</p>") : target.end("<p>rendered</p>")),
      abort: (reason?: unknown) => {
        render.abort(reason);
        // React reports an abort before the shell as a shell error.
        options.onShellError?.(new Error("The render was aborted by the server without a reason."));
      },
    };
  },
}));

const { default: handleRequest, streamTimeout } = await import("./entry.server");

const context: AppLoadContext = { requestId: "r", cspNonce: "n" };
/** A storefront page with nothing to stream, or an admin page handing a promise to <Await>. */
const routerContext = (streams: boolean) =>
  ({
    isSpaMode: false,
    staticHandlerContext: { loaderData: { "routes/admin/x": streams ? { later: Promise.resolve(1) } : { now: 1 } }, matches: [] },
  }) as unknown as EntryContext;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  render.abort.mockClear();
  render.holdOpen = false;
});
afterEach(() => vi.useRealTimers());

describe("a page the shop was too busy to render in time", () => {
  it("answers 503 with Retry-After and the shop's own unavailable page, keeps a loader's cookie, and stops the rendering", async () => {
    const loaderHeaders = new Headers({ "Set-Cookie": "cart=1; Path=/" });
    const answer = handleRequest(new Request("http://shop.test/shop?search=linen"), 200, loaderHeaders, routerContext(false), context);
    vi.advanceTimersByTime(streamTimeout + 1000);
    const res = await answer;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("set-cookie")).toBe("cart=1; Path=/");
    const body = await res.text();
    expect(body).toContain("<title>The shop is briefly unavailable</title>");
    expect(render.abort).toHaveBeenCalledTimes(1);
  });

  it("renders as before when the page is ready in time", async () => {
    const answer = handleRequest(new Request("http://shop.test/admin/x"), 200, new Headers(), routerContext(false), context);
    render.callbacks.onAllReady!();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("<p>rendered</p>");
    vi.advanceTimersByTime(streamTimeout + 1000);
    expect(render.abort).not.toHaveBeenCalled();
  });

  it("only stops a page that has started streaming: its status was sent", async () => {
    render.holdOpen = true;
    const answer = handleRequest(new Request("http://shop.test/admin/x"), 200, new Headers(), routerContext(true), context);
    render.callbacks.onShellReady!();
    const res = await answer;
    expect(res.status).toBe(200);
    vi.advanceTimersByTime(streamTimeout + 1000);
    expect(render.abort).toHaveBeenCalledTimes(1);
  });

  it("leaves a rendering that failed on its own to React Router (the error page, 500)", async () => {
    const answer = handleRequest(new Request("http://shop.test/shop"), 200, new Headers(), routerContext(false), context);
    const bug = new TypeError("a bug in a component");
    render.callbacks.onShellError!(bug);
    await expect(answer).rejects.toBe(bug);
  });
});
