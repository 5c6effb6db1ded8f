import { describe, expect, it } from "vitest";
import { BodyTooLargeError, DEFAULT_DRAIN_BYTES, readBodyBytes, readBodyText, readFormWithLimit, readJsonBody } from "./read-body.server";

const KB = 1024;

/** A body of `total` bytes in 16 KB chunks; `pulled` counts what the reader asked for. */
function streamed(total: number, headers: Record<string, string> = {}) {
  const counter = { pulled: 0 };
  const chunk = new Uint8Array(16 * KB).fill(120);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const request = new Request("http://localhost:3000/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, counter };
}

describe("readBodyBytes", () => {
  it("returns a body within the limit whole", async () => {
    const { request } = streamed(64 * KB);
    expect((await readBodyBytes(request, 64 * KB)).byteLength).toBe(64 * KB);
    expect(await readBodyText(new Request("http://localhost:3000/x", { method: "POST", body: "\uFEFFhello" }), 100)).toBe(
      "hello",
    );
  });

  it("without a drain of its own, reads a body a little over the limit to the end (the default drain), so the client gets the answer", async () => {
    const declared = streamed(1024 * KB, { "content-length": String(1024 * KB) });
    await expect(readBodyBytes(declared.request, 64 * KB)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(declared.counter.pulled).toBe(1024 * KB);

    const undeclared = streamed(1024 * KB);
    await expect(readBodyBytes(undeclared.request, 64 * KB)).rejects.toThrow("The request body is larger than 65536 bytes.");
    expect(undeclared.counter.pulled).toBe(1024 * KB);
  });

  it("leaves a body declared larger than the drain unread, and stops an endless one at the drain, without cancelling it", async () => {
    const huge = streamed(Number.POSITIVE_INFINITY, { "content-length": String(DEFAULT_DRAIN_BYTES + 1) });
    await expect(readBodyBytes(huge.request, 64 * KB)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(huge.counter.pulled).toBeLessThanOrEqual(16 * KB);

    // Cancelling the stream of a request that React Router's Express adapter made destroys the
    // socket at once, before the 413 can be written: the reader is released instead.
    let cancelled = false;
    const chunk = new Uint8Array(16 * KB);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const endless = new Request("http://localhost:3000/x", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readBodyBytes(endless, 64 * KB)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(pulled).toBeGreaterThan(DEFAULT_DRAIN_BYTES);
    expect(pulled).toBeLessThanOrEqual(DEFAULT_DRAIN_BYTES + 48 * KB);
    expect(cancelled).toBe(false);
  });

  it("with a drain, reads the rest to the end, or up to the drain cap and no further", async () => {
    for (const headers of <Record<string, string>[]>[{ "content-length": String(512 * KB) }, {}]) {
      const short = streamed(512 * KB, headers);
      await expect(readBodyBytes(short.request, 64 * KB, { drainUpTo: 1024 * KB })).rejects.toBeInstanceOf(BodyTooLargeError);
      expect(short.counter.pulled).toBe(512 * KB);
    }
    const endless = streamed(Number.POSITIVE_INFINITY);
    await expect(readBodyBytes(endless.request, 64 * KB, { drainUpTo: 1024 * KB })).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(endless.counter.pulled).toBeGreaterThan(1024 * KB);
    expect(endless.counter.pulled).toBeLessThanOrEqual(1024 * KB + 48 * KB);
  });
});

describe("readJsonBody", () => {
  it("says when a body was too large, so routes answer 413 rather than 400", async () => {
    const big = new Request("http://localhost:3000/x", { method: "POST", body: JSON.stringify({ x: "y".repeat(2 * KB) }) });
    expect(await readJsonBody(big, KB)).toEqual({ ok: false, error: "The request is too large.", tooLarge: true });
    const bad = new Request("http://localhost:3000/x", { method: "POST", body: "{ nope" });
    expect(await readJsonBody(bad, KB)).toEqual({ ok: false, error: "The request body must be JSON." });
  });
});

describe("readFormWithLimit", () => {
  it("parses a form within the limit", async () => {
    const request = new Request("http://localhost:3000/x", { method: "POST", body: new URLSearchParams({ intent: "delete", id: "7" }) });
    const form = await readFormWithLimit(request, KB);
    expect([form.get("intent"), form.get("id")]).toEqual(["delete", "7"]);
  });
});
