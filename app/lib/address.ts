/**
 * How addresses are compared with shipping zones and tax rates: the owner's settings are stored
 * this way and a shopper's address is read this way (docs/money-path.md, "Shipping").
 */

/** A state or region: trimmed, single spaces, upper case ('  new  york ' → 'NEW YORK'). */
export const normalizeRegion = (s: string | undefined) => (s ?? "").trim().replace(/\s+/g, " ").toUpperCase();

/** A postcode or prefix: upper case, without spaces or hyphens ('iv2 3ab' → 'IV23AB'). */
export const normalizePostcode = (s: string | undefined) => (s ?? "").replace(/[\s-]+/g, "").toUpperCase();
