import { canonicalProductId, mergeCartLines } from "~/lib/cart-lines";
import type { CartReview, ReviewedLine } from "~/lib/pricing-view";
import { firstImageUrl } from "~/lib/product";
import type { Db } from "../../platform/index.server";
import type { CodeRow } from "../pricing/discount-codes.server";
import { priceCart, startPricingReads, type CartPricingLine, type Destination } from "../pricing/rules.server";
import { judgeLine } from "../settlement/stock.server";
import { loadCartProducts } from "./cart-products.server";

export type CartRequestLine = { id: string; quantity: number };

/** What, besides its lines, prices a cart: the address, the code, the chosen rate, the email. */
export type CartContext = {
  destination?: Destination | null;
  code?: string | null;
  rateId?: string | null;
  email?: string | null;
};

/** A review with the priced lines and the code's row, for the checkout that will store them. */
export type CartReviewResult = CartReview & {
  buyable: CartPricingLine[];
  code: CodeRow | null;
  /** The address names no region where the shop taxes by region (pricing's `regionMissing`). */
  regionMissing: boolean;
  /** Names of products that exist but are no longer for sale, for the checkout's message. */
  withdrawnNames: Map<string, string>;
};

/**
 * The cart as the shop sees it now: each line's live name, price and stock with whether it can
 * be bought (the stock rule is settlement's), and the quote of the lines that are still for sale
 * (pricing's). The cart page, the checkout page and the checkout itself all ask here. The
 * answer has one line per product, under its canonical id, in the order first asked.
 */
export async function reviewCart(db: Db, requested: CartRequestLine[], context: CartContext = {}): Promise<CartReviewResult> {
  const reads = startPricingReads(db, { destination: context.destination ?? null, code: context.code });
  // Canonical ids, one line per product, before anything is judged (lib/cart-lines.ts).
  const request = mergeCartLines(requested);
  const products = await loadCartProducts(db, request.map((l) => l.id));
  const byId = new Map(products.map((p) => [canonicalProductId(p.id), p]));
  const lines: ReviewedLine[] = [];
  const buyable: CartPricingLine[] = [];
  const withdrawnNames = new Map<string, string>();
  for (const { id, quantity } of request) {
    const product = byId.get(id);
    const verdict = judgeLine(product, quantity);
    if (!product || verdict.problem === "unavailable") {
      if (product) withdrawnNames.set(id, product.name);
      lines.push({ id, available: false, problem: "unavailable" });
      continue;
    }
    const imageUrl = firstImageUrl(product.imageUrl);
    lines.push({
      id,
      available: true,
      name: product.name,
      priceCents: product.priceCents,
      imageUrl,
      unlimitedStock: product.unlimitedStock,
      stockQuantity: product.stockQuantity,
      maxQuantity: verdict.maxQuantity,
      quantity,
      problem: verdict.problem,
    });
    buyable.push({
      productId: product.id,
      name: product.name,
      imageUrl,
      unitPriceCents: product.priceCents,
      quantity,
      category: product.category,
      weightGrams: product.weightGrams,
    });
  }
  const priced = await priceCart(db, {
    lines: buyable,
    destination: context.destination ?? null,
    code: context.code,
    rateId: context.rateId,
    email: context.email,
  }, reads);
  return {
    lines,
    quote: priced.quote,
    shipping: priced.shipping,
    taxPending: priced.taxPending,
    regionMissing: priced.regionMissing,
    discount: priced.discount,
    buyable,
    code: priced.code,
    withdrawnNames,
  };
}
