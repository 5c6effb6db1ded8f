import { NO_SHIPPING_MESSAGE, type DiscountReview, type Quote, type ShippingReview } from "~/lib/pricing-view";
import { sql } from "drizzle-orm";
import { builtOnce, type Db, discountCodes } from "../../platform/index.server";
import { checkCode, codeKey, findCode, type CodeRow } from "./discount-codes.server";
import { DEFAULT_PRICING, priceQuote, type DiscountRule, type PricingLine } from "./quote.server";
import { loadZonesWithoutAddress, shippingOptions, zoneForColumns, zoneForRead, zoneForValues, type Destination, type ZoneRead } from "./shipping.server";
import { loadTax, taxColumns, taxRead, taxValues, type TaxSettings } from "./tax.server";

export type { Destination } from "./shipping.server";

/** A cart line with what shipping and discounts need to know of its product. */
export type CartPricingLine = PricingLine & { category: string; weightGrams: number | null };

export type PricingRequest = {
  lines: CartPricingLine[];
  /** Where the order goes; null on the cart page, before an address is typed. */
  destination: Destination | null;
  /** A discount code as typed; null or "" for none. */
  code?: string | null;
  /** The shipping rate the shopper picked; ignored unless it is one of the address's options. */
  rateId?: string | null;
  /**
   * Not consulted: a price never tells whether an address has used a once-per-email code; the
   * checkout's hold of the use is the only word on it (docs/rules/cart-and-checkout.md).
   */
  email?: string | null;
  now?: Date;
};

/**
 * What pricing reads that does not depend on the cart's lines: the code's row, the address's
 * zones and rates, the tax settings and rate. Started before the products are loaded, so the
 * reads run side by side.
 */
export type PricingReads = {
  code: Promise<CodeRow | null> | null;
  /**
   * The address's zone (or, without an address, the one zone serving everyone) and its rates, and
   * whether the address lacks a region one of its country's zones names.
   */
  zone: Promise<ZoneRead>;
  tax: Promise<{ settings: TaxSettings; rate: number | null; regionMissing: boolean }>;
};

export function startPricingReads(db: Db, request: Pick<PricingRequest, "destination" | "code">): PricingReads {
  const typed = request.code?.trim();
  const { destination } = request;
  let reads: PricingReads;
  if (destination) {
    // One statement for all three, so a quote waits on one backend rather than three.
    const read = addressReadsStatement(db)
      .execute({ code: typed ? codeKey(typed) : null, ...zoneForValues(destination), ...taxValues(destination) })
      .then(([row]) => row);
    reads = {
      code: typed ? read.then((row) => row?.code ?? null) : null,
      zone: read.then((row) => zoneForRead(row, destination)),
      tax: read.then((row) => taxRead(row, destination)),
    };
  } else {
    reads = { code: typed ? findCode(db, typed) : null, zone: loadZonesWithoutAddress(db), tax: loadTax(db, null) };
  }
  // Awaited later; a failure is seen there, not as an unhandled rejection now.
  for (const p of [reads.code, reads.zone, reads.tax]) p?.catch(() => {});
  return reads;
}

/** The code's row (none when `code` is null), the address's zone and its tax, in one round trip. */
const addressReadsStatement = builtOnce("pricing-reads", (db) =>
  db
    .select({ code: discountCodes, ...zoneForColumns(), ...taxColumns() })
    .from(sql`(select 1) as one`)
    .leftJoin(discountCodes, sql`lower(${discountCodes.code}) = ${sql.placeholder("code")}::text`),
);

export type PricedCart = {
  quote: Quote;
  shipping: ShippingReview;
  taxPending: boolean;
  /**
   * The address names none of its country's regions while the shop taxes or ships by region
   * there: the checkout refuses it ('Choose a state or region from the list.') rather than tax it
   * at 0 or ship it at the country's rate.
   */
  regionMissing: boolean;
  discount: DiscountReview | null;
  /** The code's row when it applies (the checkout takes a use of it). */
  code: CodeRow | null;
};

/**
 * Prices a cart with the shop's rules (docs/money-path.md): the discount code first (its
 * minimum is on the subtotal), then the shipping options for what the goods come to after the
 * discount and the cart's weight, then tax for the address. Everything the quote needs comes
 * from ids, the address and the code; nothing from the browser's figures.
 */
export async function priceCart(db: Db, request: PricingRequest, reads: PricingReads = startPricingReads(db, request)): Promise<PricedCart> {
  const { lines } = request;
  const subtotalCents = lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);

  let discountRule: DiscountRule | null = null;
  let discount: DiscountReview | null = null;
  let code: CodeRow | null = null;
  const typed = request.code?.trim();
  if (typed) {
    const checked = await checkCode(db, typed, { lines, subtotalCents, now: request.now }, reads.code ?? undefined);
    if (checked.ok) {
      discountRule = checked.rule;
      code = checked.row;
      discount = { code: checked.row.code, applied: true };
    } else {
      discount = { code: typed.slice(0, 64), applied: false, message: checked.message };
    }
  }

  const goodsCents = priceQuote(lines, { ...DEFAULT_PRICING, discount: discountRule }).totalCents;
  const weightGrams = lines.reduce((s, l) => s + (l.weightGrams ?? 0) * l.quantity, 0);
  const zoneRead = await reads.zone;
  let shipping = shippingFor(request.destination, zoneRead.found, { goodsCents, weightGrams }, request.rateId ?? null);
  if (discountRule?.kind === "free_shipping" && shipping.state === "known") {
    // A free-shipping code makes free the rates the owner marked, else the zone's cheapest for this
    // cart, never a dearer one the shopper picks (Overnight stays $25.00); the options show each
    // price after the code.
    const marked = new Set((zoneRead.found?.rates ?? []).filter((r) => r.freeWithCode).map((r) => r.id));
    const covered = marked.size ? marked : new Set([shipping.options[0]!.id]);
    const options = shipping.options.map((o) => (covered.has(o.id) ? { ...o, amountCents: 0 } : o)).sort((a, b) => a.amountCents - b.amountCents);
    const picked = options.some((o) => o.id === request.rateId) ? request.rateId! : options[0]!.id;
    shipping = { ...shipping, options, selectedId: picked };
    discountRule = { ...discountRule, coversShipping: covered.has(shipping.selectedId) };
  }

  const { settings, rate, regionMissing: taxRegionMissing } = await reads.tax;
  const regionMissing = taxRegionMissing || zoneRead.regionMissing;
  const chosen = shipping.state === "known" ? shipping.options.find((o) => o.id === shipping.selectedId)! : null;
  const quote = priceQuote(lines, {
    currency: DEFAULT_PRICING.currency,
    shipping: chosen ? { name: chosen.name, amountCents: chosen.amountCents } : { name: "", amountCents: 0 },
    tax: { name: settings.taxName, rateBasisPoints: rate ?? 0, pricesIncludeTax: settings.pricesIncludeTax, shippingTaxable: settings.shippingTaxable },
    discount: discountRule,
  });
  return { quote, shipping, taxPending: rate === null, regionMissing, discount, code };
}

function shippingFor(
  destination: Destination | null,
  loaded: ZoneRead["found"],
  cart: { goodsCents: number; weightGrams: number },
  rateId: string | null,
): ShippingReview {
  if (!loaded) return destination ? { state: "unavailable", message: NO_SHIPPING_MESSAGE } : { state: "needs_address" };
  const { rates } = loaded;
  const options = shippingOptions(rates, cart);
  if (!options.length) return destination ? { state: "unavailable", message: NO_SHIPPING_MESSAGE } : { state: "needs_address" };
  const selectedId = options.some((o) => o.id === rateId) ? rateId! : options[0]!.id;
  return { state: "known", options, selectedId };
}
