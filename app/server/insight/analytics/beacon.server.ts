import { isbot } from "isbot";
import { z } from "zod";
import { visitCounter } from "./visits.server";

/**
 * The storefront's beacon (POST /api/events, sent with navigator.sendBeacon): a product went
 * into the cart (docs/rules/analytics.md, Visits). Cheap whatever arrives: the body is small,
 * checked, and only counted in memory. A visitor's additions of one product count once a day
 * (the database refuses the second), so a flood of beacons counts at most once per product.
 */

/** A beacon is about 80 bytes; anything near this limit is not one of ours. */
export const BEACON_MAX_BYTES = 1024;

export const Beacon = z.object({
  event: z.literal("add_to_cart"),
  // Any 8-4-4-4-12 hex id, as product ids are read elsewhere (a product that does not exist is not counted).
  productId: z.guid(),
});
export type Beacon = z.infer<typeof Beacon>;

export type BeaconCheck = { ok: true; beacon: Beacon } | { ok: false; error: string };

export function parseBeacon(text: string): BeaconCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: "The body must be JSON." };
  }
  const parsed = Beacon.safeParse(value);
  if (!parsed.success) return { ok: false, error: 'Expected {"event":"add_to_cart","productId":"<uuid>"}.' };
  return { ok: true, beacon: parsed.data };
}

/** Counts a checked beacon, unless counting is off or a bot sent it. */
export function recordBeacon(beacon: Beacon, from: { address: string; userAgent: string }) {
  const counter = visitCounter();
  if (!counter || !from.userAgent || isbot(from.userAgent)) return;
  counter.cartAdd(beacon.productId, from);
}
