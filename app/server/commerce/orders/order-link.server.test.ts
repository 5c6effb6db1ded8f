import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../platform/env.server";
import { isOrderLinkToken, orderLinkToken, orderPageUrl } from "./order-link.server";

const order = { orderNumber: "ORD-20261122-7F3K", email: "Casey@Example.test" };
const secret = process.env.BETTER_AUTH_SECRET!;

afterEach(() => {
  process.env.BETTER_AUTH_SECRET = secret;
  resetEnvCache();
});

describe("the signed order-page link", () => {
  it("is /profile/orders/<number>?t=<HMAC-SHA256 of the number and email, with a key derived from the auth secret>", () => {
    const key = createHmac("sha256", secret).update("order-page-link/v1").digest();
    const expected = createHmac("sha256", key).update("ORD-20261122-7F3K\ncasey@example.test").digest("base64url");
    expect(orderLinkToken(order)).toBe(expected);
    expect(orderPageUrl(order)).toBe(`/profile/orders/ORD-20261122-7F3K?t=${expected}`);
    // The email's case and spaces do not matter; the same order always gets the same link.
    expect(orderLinkToken({ ...order, email: " casey@example.TEST " })).toBe(expected);
  });

  it("accepts its own token only", () => {
    const token = orderLinkToken(order);
    expect(isOrderLinkToken(order, token)).toBe(true);
    expect(isOrderLinkToken({ ...order, orderNumber: "ORD-20261122-7F3L" }, token)).toBe(false);
    expect(isOrderLinkToken({ ...order, email: "someone@example.test" }, token)).toBe(false);
    const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const bad of [flipped, token.slice(1), `${token}A`, token.toUpperCase(), "", null, undefined, "é".repeat(43)]) {
      expect(isOrderLinkToken(order, bad)).toBe(false);
    }
  });

  it("is void once the auth secret changes", () => {
    const token = orderLinkToken(order);
    process.env.BETTER_AUTH_SECRET = "another-secret-another-secret-another-0123";
    resetEnvCache();
    expect(isOrderLinkToken(order, token)).toBe(false);
    expect(orderLinkToken(order)).not.toBe(token);
  });
});
