// Lines and cart items for the 'Buy again' and reminder-restore tests.
import type { CartItem } from "./cart";
import type { BuyAgainLine } from "./shopper-order-view";

export const line = (over: Partial<BuyAgainLine> = {}): BuyAgainLine => ({
  id: "p1",
  name: "Linen Sheet",
  priceCents: 4000,
  imageUrl: "/media/sheet.webp",
  unlimitedStock: false,
  stockQuantity: 10,
  quantity: 2,
  maxQuantity: 10,
  notes: [],
  ...over,
});

export const item = (over: Partial<CartItem> = {}): CartItem => ({
  id: "p1",
  name: "Old name",
  priceCents: 3000,
  imageUrl: "",
  unlimitedStock: false,
  stockQuantity: 10,
  quantity: 1,
  ...over,
});
