import type { CartItem } from "./cart-item";
import type { OrderMoney } from "./order-money";

/**
 * What the shopper's order page shows (docs/rules/after-sale.md, The shopper's order page).
 * Plain types, safe to import anywhere; app/server/commerce/orders/shopper-order.server.ts builds them.
 * Times are ISO 8601 strings, money integer cents.
 */

export type ShopperOrderLine = {
  id: string;
  /** Null once the product was deleted: the line is kept as sold, without a link. */
  productId: string | null;
  name: string;
  imageUrl: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
};

export type ShopperShipment = {
  /** 'UPS', 'Other'; null when the admin picked none. */
  carrierName: string | null;
  trackingNumber: string | null;
  /** The carrier's tracking page for this parcel. */
  trackingUrl: string | null;
};

export type TimelineStepKey = "placed" | "paid" | "shipped" | "delivered" | "cancelled" | "refunded";

/** One step of the order's life; `done` false is a step still to come (no date). */
export type TimelineStep = { key: TimelineStepKey; label: string; done: boolean; at: string | null; note?: string };

export type ShopperOrder = OrderMoney & {
  orderNumber: string;
  createdAt: string;
  status: string;
  paymentStatus: string;
  /** The status in the shopper's words: 'Awaiting payment', 'Shipped', 'Cancelled and refunded'. */
  statusText: string;
  lines: ShopperOrderLine[];
  address: { name: string; phone: string; address: string; city: string; state: string; zipCode: string; country: string };
  shipment: ShopperShipment | null;
  timeline: TimelineStep[];
};

/** A line 'Buy again' put back in the cart: the product as it is sold now; `quantity` is what was ordered, capped by the stock. */
export type BuyAgainLine = CartItem & {
  /** The most one cart line can hold now. */
  maxQuantity: number;
  /** Why it differs from the order: 'Only 2 left in stock.', 'Now $30.00 (you paid $25.00).' */
  notes: string[];
};

/** What 'Buy again' found: the lines it can add and, for the others, why not. */
export type BuyAgainResult = { added: BuyAgainLine[]; skipped: { name: string; reason: string }[] };
