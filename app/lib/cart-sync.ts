import { CART_OWNER_KEY, cartStore, onLocalCartChange, parseStoredCart, type CartItem } from "./cart";
import { saveCartNotice } from "./cart-notice";
import { describeCartDrops, MAX_SAVED_CART_LINES, type SavedCartAnswer, type SavedCartReply } from "./saved-cart-view";
import { toast } from "./toast";

/**
 * The cart follows a signed-in shopper (docs/rules/after-sale.md, The cart of a signed-in
 * shopper). Loaded with import() only when someone is signed in, so a guest's first visit carries
 * none of it. Every change made here is saved (POST /api/cart) a moment after the last one, and at
 * once when the page is left. On each start:
 * - a guest's cart on this device is merged into the saved one (POST /api/cart, mode "merge");
 * - a device already following this shopper takes the saved cart (GET), unless its own cart
 *   changed since it last saved (a change made before this code loaded, a save that failed or
 *   whose answer the page left before): then its cart is saved.
 */

const SAVE_DELAY_MS = 400;
const ENDPOINT = "/api/cart";

type Line = { id: string; quantity: number; name?: string };
/** Stored under CART_OWNER_KEY: the shopper followed, and the cart as last saved from this device. */
type Owner = { user: string; synced: string };

const linesOf = (items: CartItem[]): Line[] => items.map((i) => ({ id: i.id, quantity: i.quantity })).slice(0, MAX_SAVED_CART_LINES);
const signature = (items: CartItem[]) => JSON.stringify(linesOf(items));

function readOwner(): Owner | null {
  try {
    const raw = window.localStorage.getItem(CART_OWNER_KEY);
    if (raw === null) return null;
    const owner = JSON.parse(raw) as Partial<Owner>;
    return { user: typeof owner.user === "string" ? owner.user : "", synced: typeof owner.synced === "string" ? owner.synced : "" };
  } catch {
    return { user: "", synced: "" };
  }
}

function writeOwner(owner: Owner) {
  try {
    window.localStorage.setItem(CART_OWNER_KEY, JSON.stringify(owner));
  } catch {
    // Without storage each page merges again, which changes nothing.
  }
}

type Answer = { ok: true; cart: SavedCartReply | null } | { ok: false };

/** GET reads the saved cart; "save" replaces it; "merge" joins this device's cart to it. */
async function request(mode: "read" | "save" | "merge", lines?: Line[], keepalive = false): Promise<Answer> {
  try {
    const res = await fetch(ENDPOINT, {
      method: mode === "read" ? "GET" : "POST",
      keepalive,
      credentials: "same-origin",
      headers: lines ? { "content-type": "application/json" } : undefined,
      body: lines ? JSON.stringify({ mode, lines }) : undefined,
    });
    if (!res.ok) return { ok: false };
    return { ok: true, cart: mode === "save" ? null : ((await res.json()) as SavedCartReply) };
  } catch {
    // Offline or the shop restarting: the cart stays in the browser and is saved on the next start.
    return { ok: false };
  }
}

function tellDrops(answer: SavedCartAnswer) {
  const lines = describeCartDrops(answer.dropped);
  if (lines.length === 0) return;
  saveCartNotice(lines);
  const more = lines.length > 3 ? ` And ${lines.length - 3} more: see your cart.` : "";
  toast.error("Some items in your cart changed", { description: lines.slice(0, 3).join(" ") + more });
}

/**
 * Starts following the signed-in shopper's saved cart; the function returned stops (saving what
 * is pending first). Whose cart it is comes from the server's first answer: the page itself is
 * the same for every signed-in customer.
 */
export function startCartSync(): () => void {
  let stopped = false;
  /** No change is saved before the saved cart has been read (or merged), or a save could overwrite it. */
  let ready = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let userId = "";
  const synced = (sig: string) => writeOwner({ user: userId, synced: sig });

  const save = (keepalive = false) => {
    clearTimeout(timer);
    timer = undefined;
    const items = cartStore.getItems();
    const sig = signature(items);
    if (sig === readOwner()?.synced) return;
    // Counted as saved once answered. The save sent as the page goes (keepalive) is never
    // answered to this page, and the next page's read can reach the server before it does: that
    // page then finds this cart unsaved and saves it again, rather than taking the older copy.
    void request("save", linesOf(items), keepalive).then((r) => {
      if (r.ok) synced(sig);
    });
  };
  const later = () => {
    if (stopped || !ready) return;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  const onHide = () => {
    if (timer !== undefined) save(true);
  };

  const take = (answer: SavedCartAnswer, before: string) => {
    const items = parseStoredCart(JSON.stringify(answer.items));
    const sig = signature(items);
    if (sig !== before) cartStore.replace(items);
    tellDrops(answer);
    return sig;
  };

  const start = async () => {
    const owner = readOwner();
    const before = signature(cartStore.getItems());
    const read = await request("read");
    // Unreachable: the cart stays in the browser and is merged or saved on the next page.
    if (stopped || !read.ok || !read.cart) return;
    userId = read.cart.owner;
    if (owner?.user === userId) {
      ready = true;
      // This device changed its cart since it last saved: its cart is the newest.
      if (before !== owner.synced) return save();
      if (signature(cartStore.getItems()) !== before) return later();
      const sig = take(read.cart, before);
      // The saved cart still holds what was dropped on reading it: save what is left.
      synced(read.cart.dropped.length > 0 ? "" : sig);
      if (read.cart.dropped.length > 0) save();
      return;
    }
    // A guest's cart joins the saved one; a cart left by another account does not.
    const local = owner === null ? cartStore.getItems().map((i) => ({ id: i.id, quantity: i.quantity, name: i.name })) : [];
    const answer = await request("merge", local);
    // Unreachable: the cart waits for the next page to be merged.
    if (stopped || !answer.ok || !answer.cart) return;
    ready = true;
    if (signature(cartStore.getItems()) !== before) {
      // Changed here while the merge was on its way: what was just done is saved over it.
      synced("");
      return later();
    }
    synced(take(answer.cart, before));
  };

  const unsubscribe = onLocalCartChange(later);
  window.addEventListener("pagehide", onHide);
  void start();
  return () => {
    stopped = true;
    onHide();
    unsubscribe();
    window.removeEventListener("pagehide", onHide);
  };
}
