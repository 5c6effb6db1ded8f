import { describe, expect, it } from "vitest";
import { rethrowIfDatabaseUnavailable } from "./errors.server";

const withCode = (code: string, message = "boom") => Object.assign(new Error(message), { code });

describe("rethrowIfDatabaseUnavailable", () => {
  it("turns an outage into a 503 response that asks to retry in 5 seconds", () => {
    let thrown: unknown;
    try {
      rethrowIfDatabaseUnavailable(withCode("ECONNREFUSED"));
    } catch (err) {
      thrown = err;
    }
    const response = thrown as { type: string; init: ResponseInit; data: unknown };
    expect(response.type).toBe("DataWithResponseInit");
    expect(response.init.status).toBe(503);
    expect(new Headers(response.init.headers).get("Retry-After")).toBe("5");
  });

  it("lets any other error through unchanged", () => {
    const bug = new TypeError("bug");
    expect(() => rethrowIfDatabaseUnavailable(bug)).toThrow(bug);
  });
});
