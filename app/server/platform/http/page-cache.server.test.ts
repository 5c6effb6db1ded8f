import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { nonceScriptHashes, PageStore, type CachedPage } from "./page-cache.server";

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

function page(bytes: number): CachedPage {
  return { html: Buffer.alloc(bytes), headers: [], scriptHashes: [], productId: null, generation: 1, storedAt: Date.now() };
}

describe("nonceScriptHashes", () => {
  it("hashes the inline scripts the rendering's nonce vouched for, and nothing else", () => {
    const html = [
      `<script nonce="abc+/=">window.__ctx = {"a":"é"};</script>`,
      `<script type="module" nonce="abc+/=" async>import "/assets/x.js";</script>`,
      // Stored markup that slipped through: no nonce, so no hash, so the browser refuses it.
      `<script>alert(1)</script>`,
      `<script nonce="other">alert(2)</script>`,
      // External scripts are allowed by 'self', not by hash.
      `<script nonce="abc+/=" src="/assets/y.js"></script>`,
    ].join("\n");
    expect(nonceScriptHashes(html, "abc+/=")).toEqual([sha(`window.__ctx = {"a":"é"};`), sha(`import "/assets/x.js";`)]);
  });
});

describe("PageStore", () => {
  it("keeps pages until their bytes pass the limit, then drops the least recently used", () => {
    const store = new PageStore(300);
    store.set("/a", page(100));
    store.set("/b", page(100));
    store.set("/c", page(100));
    expect(store.get("/a")).toBeDefined(); // now the most recently used
    store.set("/d", page(100));
    expect(store.get("/b")).toBeUndefined();
    expect(["/a", "/c", "/d"].map((k) => store.get(k) !== undefined)).toEqual([true, true, true]);
    expect(store.bytes).toBe(300);
  });

  it("replaces a page under the same key and never keeps one larger than the whole store", () => {
    const store = new PageStore(300);
    store.set("/a", page(100));
    store.set("/a", page(200));
    expect(store.bytes).toBe(200);
    store.set("/huge", page(301));
    expect(store.get("/huge")).toBeUndefined();
    expect(store.size).toBe(1);
    store.delete("/a");
    expect(store.bytes).toBe(0);
  });

  it("adds a compressed copy to the page it was made from, counting its bytes, and to no page that replaced it", () => {
    const store = new PageStore(300);
    const first = page(100);
    store.set("/a", first);
    store.addCopy("/a", first, "gzip", Buffer.alloc(40));
    expect(store.get("/a")?.gzip?.byteLength).toBe(40);
    expect(store.bytes).toBe(140);
    // Rendered again while the copy of the old page was being made: the copy is dropped.
    const second = page(100);
    store.set("/a", second);
    store.addCopy("/a", first, "br", Buffer.alloc(30));
    expect(store.get("/a")?.br).toBeUndefined();
    expect(store.bytes).toBe(100);
    // A copy that takes the store over its limit drops the least recently used pages.
    store.set("/b", page(150));
    store.get("/a"); // now the most recently used
    store.addCopy("/a", second, "gzip", Buffer.alloc(60));
    expect(store.get("/b")).toBeUndefined();
    expect(store.bytes).toBe(160);
  });
});
