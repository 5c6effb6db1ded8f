import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable.server";

const withCode = (code: string, message = "boom") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["a server shutting down", withCode("57P01", "terminating connection due to administrator command")],
    ["a server starting up", withCode("57P03", "the database system is starting up")],
    ["too many connections", withCode("53300")],
    ["a socket that died mid-query", new Error("Connection terminated unexpectedly")],
    ["a pool that could not connect in time", new Error("timeout exceeded when trying to connect")],
    ["any of these wrapped by Drizzle", new Error("Failed query: select 1", { cause: withCode("ECONNREFUSED") })],
  ])("is true for %s", (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ["a unique violation", withCode("23505", "duplicate key value")],
    ["a syntax error", withCode("42601")],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    ["nothing", undefined],
  ])("is false for %s", (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
