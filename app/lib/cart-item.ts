/** A cart line (docs/rules/cart-and-checkout.md, The cart). Prices are cents here too; the server re-prices everything at checkout. */
export type CartItem = {
  id: string;
  name: string;
  priceCents: number;
  imageUrl: string;
  unlimitedStock: boolean;
  stockQuantity: number;
  quantity: number;
};

export const MAX_LINE_QUANTITY = 99;
