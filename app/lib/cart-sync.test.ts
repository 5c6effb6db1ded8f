import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The browser's side of the saved cart, on a stand-in window: localStorage, events and fetch.
 * Each "page" is one startCartSync() until its stop (what leaving the page does).
 */
class MemoryStorage {
  private data = new Map<string, string>();
  getItem = (k: string) => this.data.get(k) ?? null;
  setItem = (k: string, v: string) => void this.data.set(k, String(v));
  removeItem = (k: string) => void this.data.delete(k);
}

type Sent = { method: string; body: { mode: string; lines: { id: string; quantity: number }[] } | null; keepalive: boolean };
const ID = "0b9c1a52-1f0e-4c4f-9d55-1a2b3c4d5e6f";
const TOWEL = { id: ID, name: "Late Save Towel", priceCents: 1500, imageUrl: "/media/t.webp", unlimitedStock: true, stockQuantity: 0 };
const savedCart = (lines: { id: string; quantity: number }[]) => ({
  owner: "user-1",
  items: lines.map((l) => ({ ...TOWEL, id: l.id, quantity: l.quantity })),
  dropped: [],
});

let sent: Sent[];
/** What the shop holds. */
let server: { id: string; quantity: number }[];
let keepaliveArrives: boolean;

beforeEach(() => {
  vi.resetModules();
  sent = [];
  server = [];
  keepaliveArrives = true;
  const win = Object.assign(new EventTarget(), { localStorage: new MemoryStorage() });
  vi.stubGlobal("window", win);
  vi.stubGlobal("localStorage", win.localStorage);
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit = {}) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Sent["body"]) : null;
    sent.push({ method: init.method ?? "GET", body, keepalive: init.keepalive === true });
    // Sent as the page went: it reaches the shop only after the next page's read, and its answer
    // goes to no page.
    if (init.keepalive && !keepaliveArrives) return new Promise<Response>(() => {});
    if (init.method === "POST" && body) {
      server = body.mode === "merge" ? [...server, ...body.lines] : body.lines;
      return new Response(JSON.stringify(savedCart(server)), { status: 200, headers: { "content-type": "application/json" } });
    }
    return new Response(JSON.stringify(savedCart(server)), { status: 200, headers: { "content-type": "application/json" } });
  });
});

afterEach(() => vi.unstubAllGlobals());

const settle = () => new Promise((done) => setTimeout(done, 20));

describe("startCartSync", () => {
  it("keeps a product added just before leaving the page when the save sent on leaving has not reached the shop by the next page's read", async () => {
    const { startCartSync } = await import("./cart-sync");
    const { cartStore } = await import("./cart");
    // Page 1: the shopper's first page on this device, then Add to Cart and away at once.
    const stopFirst = startCartSync();
    await settle();
    cartStore.add(TOWEL);
    keepaliveArrives = false;
    stopFirst();
    expect(sent.at(-1)).toMatchObject({ method: "POST", keepalive: true, body: { mode: "save" } });
    expect(server).toEqual([]);

    // Page 2 reads the saved cart (still empty): the towel stays, and is saved again.
    const stopSecond = startCartSync();
    await settle();
    expect(cartStore.getItems().map((i) => [i.id, i.quantity])).toEqual([[ID, 1]]);
    expect(server).toEqual([{ id: ID, quantity: 1 }]);
    stopSecond();
  });

  it("takes the saved cart on the next page when the save sent on leaving arrived and another device changed it since", async () => {
    const { startCartSync } = await import("./cart-sync");
    const { cartStore } = await import("./cart");
    const stopFirst = startCartSync();
    await settle();
    cartStore.add(TOWEL);
    await new Promise((done) => setTimeout(done, 500));
    stopFirst();
    expect(server).toEqual([{ id: ID, quantity: 1 }]);
    // Another device sets three.
    server = [{ id: ID, quantity: 3 }];
    const stopSecond = startCartSync();
    await settle();
    expect(cartStore.getItems().map((i) => [i.id, i.quantity])).toEqual([[ID, 3]]);
    stopSecond();
  });
});
