import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { MAX_LINE_QUANTITY } from "./cart";
import { MAX_SAVED_CART_LINES } from "./saved-cart-view";

const QUANTITY = `Quantities must be whole numbers from 1 to ${MAX_LINE_QUANTITY}.`;

const Line = z.object({
  id: z.guid("A product id is not valid."),
  quantity: z.number(QUANTITY).int(QUANTITY).min(1, QUANTITY).max(MAX_LINE_QUANTITY, QUANTITY),
  // Only for telling the shopper which product was dropped when the shop no longer has it.
  name: z.string().max(500, "A product name is too long.").optional(),
});
export type SavedCartLine = z.output<typeof Line>;

/** POST /api/cart: the whole cart as it stands in the browser (it replaces the saved one). */
export const SaveCartInput = z.object({
  mode: z.literal("save").optional(),
  lines: z.array(Line).max(MAX_SAVED_CART_LINES, `A saved cart holds at most ${MAX_SAVED_CART_LINES} products.`),
});

/** Far more than a browser's cart holds (200 lines at most), far below anything costly. */
export const MAX_MERGE_LINES = 1000;

/** POST /api/cart with mode "merge": this device's cart, merged into the saved one on signing in. */
export const MergeCartInput = z.object({
  mode: z.literal("merge"),
  lines: z.array(Line).max(MAX_MERGE_LINES, `At most ${MAX_MERGE_LINES} products can be merged at once.`),
});
