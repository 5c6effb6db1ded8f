import { afterEach, describe, expect, it } from "vitest";
import { getEnv, resetEnvCache } from "./env.server";

describe("environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });

  it("uses the documented defaults", () => {
    delete process.env.PORT;
    delete process.env.DATABASE_URL;
    resetEnvCache();
    const env = getEnv();
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.S3_BUCKET).toBe("site-assets");
  });

  it("names the variable when a value is bad", () => {
    process.env.PORT = "eighty";
    resetEnvCache();
    expect(() => getEnv()).toThrow(/PORT/);
    process.env.PORT = "3000";
    process.env.DATABASE_URL = "mysql://nope";
    resetEnvCache();
    expect(() => getEnv()).toThrow(/DATABASE_URL/);
  });
});
