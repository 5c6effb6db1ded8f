import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShop } from "./harness";

// Behind a reverse proxy (TRUST_PROXY=true) the client address is the X-Forwarded-For entry the
// proxy appended; whatever the client wrote before it must not reset its rate limits.
let shop: Awaited<ReturnType<typeof startShop>>;
beforeAll(async () => {
  shop = await startShop({ env: { TRUST_PROXY: "true" } });
}, 60_000);
afterAll(async () => {
  await shop?.stop();
  await shop?.test.drop();
});

async function subscribe(n: number, forwardedFor: string) {
  const res = await fetch(`${shop.baseUrl}/resources/newsletter`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: shop.baseUrl, "x-forwarded-for": forwardedFor },
    body: new URLSearchParams({ email: `proxy${n}@example.test`, js: "1" }),
  });
  return res.status;
}

describe("behind one reverse proxy", () => {
  it("limits the client the proxy saw, however it varies the X-Forwarded-For it sends itself", async () => {
    for (let n = 0; n < 5; n++) expect(await subscribe(n, `10.9.${n}.1, 203.0.113.77`)).toBe(200);
    expect(await subscribe(5, "10.9.99.1, 203.0.113.77")).toBe(429);
    // Another client behind the same proxy is not held back.
    expect(await subscribe(6, "203.0.113.78")).toBe(200);
  });
});
