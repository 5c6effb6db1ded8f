import express from "express";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { markDatabaseUnavailable, metDatabaseOutage, outageAs503, withOutageMark } from "./outage.server";

/** A resource route's uncaught error as React Router's Express adapter answers it, after handleError ran (or not). */
async function answer(status: number, outage: boolean) {
  const app = express();
  app.use(outageAs503());
  app.get("/api", async (_req, res) => {
    await new Promise((r) => setTimeout(r, 1));
    if (outage) markDatabaseUnavailable();
    res.status(status).type("text/plain").send("Unexpected Server Error");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, { headers: { connection: "close" } });
    return { status: res.status, retryAfter: res.headers.get("retry-after") };
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

describe("outageAs503", () => {
  it("turns a 500 from a request that met a database outage into a 503 with Retry-After", async () => {
    expect(await answer(500, true)).toEqual({ status: 503, retryAfter: "5" });
  });

  it("leaves a bug's 500 and every other status alone", async () => {
    expect(await answer(500, false)).toEqual({ status: 500, retryAfter: null });
    expect(await answer(404, true)).toEqual({ status: 404, retryAfter: null });
  });

  it("keeps each request's mark to itself", async () => {
    const seen = await Promise.all([
      withOutageMark(async () => {
        await new Promise((r) => setTimeout(r, 5));
        markDatabaseUnavailable();
        return metDatabaseOutage();
      }),
      withOutageMark(async () => {
        await new Promise((r) => setTimeout(r, 10));
        return metDatabaseOutage();
      }),
    ]);
    expect(seen).toEqual([true, false]);
    expect(metDatabaseOutage()).toBe(false);
  });
});
