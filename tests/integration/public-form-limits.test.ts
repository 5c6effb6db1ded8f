import { describe, expect, it } from "vitest";
import { action as authAction } from "~/routes/account/auth";
import { action as forgotAction } from "~/routes/account/forgot-password";
import { action as newsletterAction } from "~/routes/resources/newsletter";
import { action as testPaymentAction } from "~/routes/resources/test-payment";
import { action as contactAction } from "~/routes/store/contact";
import { useTestDatabase } from "../setup/database";
import { args } from "./route-args";

useTestDatabase();

const MB = 1024 * 1024;

/**
 * A form post of `total` bytes sent chunked, so no Content-Length announces its size, counting
 * how much of it the server pulled.
 */
function chunkedForm(url: string, total = 8 * MB) {
  const pulled = { bytes: 0 };
  const chunk = new TextEncoder().encode("message=" + "x".repeat(64 * 1024 - 8));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const request = new Request(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", "x-shop-client-ip": "198.51.100.99" },
    duplex: "half",
  } as RequestInit);
  return { request, pulled };
}

/** The status of what an action returned or threw (React Router's data() or a Response). */
async function statusOf(run: () => Promise<unknown>) {
  const outcome = await run().then(
    (v) => v,
    (e: unknown) => e,
  );
  const o = outcome as { init?: { status?: number }; status?: number };
  return o.init?.status ?? o.status;
}

describe("forms anyone can post", () => {
  it.each([
    ["/auth", authAction],
    ["/auth/forgot-password", forgotAction],
    ["/api/newsletter", newsletterAction],
    ["/contact", contactAction],
    ["/pay/test/test_cs_unknown", testPaymentAction],
  ] as const)("%s refuses an endless chunked body with 413 and stops reading it", async (path, action) => {
    const { request, pulled } = chunkedForm(`http://localhost:3000${path}`);
    const params: Record<string, string> = path.startsWith("/pay/test/") ? { sessionId: "test_cs_unknown" } : {};
    expect(await statusOf(() => (action as (a: unknown) => Promise<unknown>)(args(request, params)))).toBe(413);
    // Read up to the limit and a short drain (so a browser sees the answer), never the whole body.
    expect(pulled.bytes).toBeLessThan(2 * MB);
  });
});
