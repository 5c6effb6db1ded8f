/**
 * The carriers an admin can pick when marking an order shipped, and the link to each one's
 * tracking page (docs/rules/after-sale.md, The shopper's order page). Browser-safe and without
 * zod: the storefront's order page names the carrier with it too.
 */

export const CARRIERS = ["ups", "usps", "fedex", "dhl", "other"] as const;
export type Carrier = (typeof CARRIERS)[number];

export const CARRIER_NAMES: Record<Carrier, string> = {
  ups: "UPS",
  usps: "USPS",
  fedex: "FedEx",
  dhl: "DHL",
  other: "Other",
};

/** The carriers' public tracking pages; `{n}` is the tracking number (letters, digits, hyphens: nothing to escape, still encoded). */
const TRACKING_TEMPLATES: Record<Exclude<Carrier, "other">, string> = {
  ups: "https://www.ups.com/track?tracknum={n}",
  usps: "https://tools.usps.com/go/TrackConfirmAction?tLabels={n}",
  fedex: "https://www.fedex.com/fedextrack/?trknbr={n}",
  dhl: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={n}",
};

export const isCarrier = (v: unknown): v is Carrier => typeof v === "string" && (CARRIERS as readonly string[]).includes(v);

/** 'UPS'; an unknown value stored by hand reads as it is. */
export const carrierName = (carrier: string | null | undefined) => (isCarrier(carrier) ? CARRIER_NAMES[carrier] : (carrier ?? ""));

/** A known carrier's tracking page for this number. */
export function carrierTrackingUrl(carrier: Exclude<Carrier, "other">, trackingNumber: string): string {
  return TRACKING_TEMPLATES[carrier].replace("{n}", encodeURIComponent(trackingNumber));
}

export const TRACKING_NUMBER_MAX = 100;
export const TRACKING_URL_MAX = 2000;

/** What the admin typed in the 'Mark as shipped' form. */
export type ShipmentForm = { carrier?: string; trackingNumber?: string; trackingUrl?: string };

/** What the order stores: all null when the admin gave no carrier and no number. */
export type Shipment = { carrier: Carrier | null; trackingNumber: string | null; trackingUrl: string | null };

export type ShipmentCheck = { ok: true; shipment: Shipment } | { ok: false; field: keyof ShipmentForm; message: string };

/** Spaces people copy from labels ('1Z 999 AA1…') go; letters are upper case, as carriers print them. */
export const normalizeTrackingNumber = (s: string | undefined) => (s ?? "").replace(/\s+/g, "").toUpperCase();

function httpUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (!url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

/**
 * The shipment rules: a tracking number is letters, digits and hyphens (4 to 100 after spaces are
 * dropped); UPS, USPS, FedEx and DHL need one, since their link is built from it; 'Other' needs
 * the http(s) address of its tracking page (the number is then optional). No carrier: the number
 * alone, or nothing.
 */
export function checkShipment(form: ShipmentForm): ShipmentCheck {
  const rawCarrier = (form.carrier ?? "").trim().toLowerCase();
  if (rawCarrier && !isCarrier(rawCarrier)) return { ok: false, field: "carrier", message: "Choose UPS, USPS, FedEx, DHL or Other." };
  const carrier = rawCarrier ? (rawCarrier as Carrier) : null;
  const number = normalizeTrackingNumber(form.trackingNumber);
  if (number.length > TRACKING_NUMBER_MAX) {
    return { ok: false, field: "trackingNumber", message: `The tracking number is too long (${TRACKING_NUMBER_MAX} characters at most).` };
  }
  if (number && !/^[A-Z0-9-]+$/.test(number)) {
    return { ok: false, field: "trackingNumber", message: "A tracking number has only letters, digits and hyphens." };
  }
  if (number && number.length < 4) {
    return { ok: false, field: "trackingNumber", message: "The tracking number is too short (4 characters at least)." };
  }
  if (carrier && carrier !== "other") {
    if (!number) return { ok: false, field: "trackingNumber", message: `Enter the tracking number: ${CARRIER_NAMES[carrier]}'s tracking link is made from it.` };
    return { ok: true, shipment: { carrier, trackingNumber: number, trackingUrl: carrierTrackingUrl(carrier, number) } };
  }
  if (carrier === "other") {
    const rawUrl = (form.trackingUrl ?? "").trim();
    if (!rawUrl) return { ok: false, field: "trackingUrl", message: "Enter the address of the carrier's tracking page (https://…)." };
    if (rawUrl.length > TRACKING_URL_MAX) return { ok: false, field: "trackingUrl", message: `The tracking address is too long (${TRACKING_URL_MAX} characters at most).` };
    const url = httpUrl(rawUrl);
    if (!url) return { ok: false, field: "trackingUrl", message: "The tracking address must start with https:// or http://." };
    return { ok: true, shipment: { carrier, trackingNumber: number || null, trackingUrl: url } };
  }
  return { ok: true, shipment: { carrier: null, trackingNumber: number || null, trackingUrl: null } };
}
