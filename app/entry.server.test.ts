import type { AppLoadContext, EntryContext } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { logger } from "~/server/platform/logger.server";
import { metDatabaseOutage, withOutageMark } from "~/server/platform/http/outage.server";
import handleRequest, { handleDataRequest, handleError } from "./entry.server";

const context: AppLoadContext = { requestId: "r", cspNonce: "n" };
const request = () => new Request("http://shop.test/shop?search=linen");
/** What node-postgres throws when the pool has no connection to give in time. */
const poolTimeout = () => new Error("timeout exceeded when trying to connect");
const outage = () => ({ databaseUnavailable: true });

describe("a database outage that escapes a loader", () => {
  it("is marked on the request by handleError, and a bug is not", () => {
    expect(
      withOutageMark(() => {
        handleError(poolTimeout(), { request: request() });
        return metDatabaseOutage();
      }),
    ).toBe(true);
    expect(
      withOutageMark(() => {
        handleError(new TypeError("a bug"), { request: request() });
        return metDatabaseOutage();
      }),
    ).toBe(false);
  });

  it("makes the page render again as a 503 (React Router catches the thrown response and shows it in the error boundary)", async () => {
    let thrown: unknown;
    try {
      await withOutageMark(() => handleRequest(request(), 500, new Headers(), {} as EntryContext, context), outage());
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
    expect(await (thrown as Response).text()).toBe("The shop is briefly unavailable");
    // Thrown by us: handleError neither logs it nor takes it for an outage of its own.
    withOutageMark(() => handleError(thrown, { request: request() }));
  });

  it("adds Retry-After to that second rendering", async () => {
    const headers = new Headers();
    const res = await withOutageMark(() => handleRequest(new Request("http://shop.test/", { method: "HEAD" }), 503, headers, {} as EntryContext, context), outage());
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
  });

  it("answers a data request with a plain 503 and Retry-After, and leaves other data requests alone", async () => {
    const failed = new Response("turbo-stream", { status: 500 });
    const res = withOutageMark(() => handleDataRequest(failed), outage());
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.text()).toBe("The shop is briefly unavailable");
    const ok = new Response("turbo-stream", { status: 200 });
    expect(withOutageMark(() => handleDataRequest(ok), outage())).toBe(ok);
    expect(withOutageMark(() => handleDataRequest(failed))).toBe(failed);
  });
});

describe("what handleError logs", () => {
  it("a router refusal (405 for a POST to a page without an action) at info, never as an unhandled error; a bug as an error", async () => {
    const { UNSAFE_ErrorResponseImpl: ErrorResponseImpl } = await import("react-router");
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const info = vi.spyOn(logger, "info").mockImplementation(() => undefined);
    try {
      handleError(new ErrorResponseImpl(405, "Method Not Allowed", null), { request: new Request("http://shop.test/contact-us", { method: "POST" }) });
      expect(error).not.toHaveBeenCalled();
      expect(info).toHaveBeenCalledWith(expect.objectContaining({ status: 405, method: "POST" }), "request refused by the router");
      handleError(new TypeError("a bug"), { request: request() });
      expect(error).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
      info.mockRestore();
    }
  });
});
