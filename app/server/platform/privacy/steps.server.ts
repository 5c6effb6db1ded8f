import type { Db } from "../db/client.server";

/**
 * Erasing a person's data touches tables of every area (docs/rules/personal-data.md), but one area
 * writes each table (docs/architecture.md). So each area erases its own rows: it registers its
 * steps here when its face loads, and the people area's erasure (people/privacy) runs them all in
 * its one transaction. Platform only keeps the list: it knows no area and no shop rule.
 *
 * A step returns counts of what went ({ newsletter: 1 }), never the data itself: the counts go to
 * the privacy audit log.
 */
export type ErasureCounts = Record<string, number>;

export type PrivacySteps = {
  /** What the area holds about an account (called before the account's row is deleted). */
  account?: (tx: Db, subject: { userId: string; email: string }, opts: { reviews: "delete" | "keep" }) => Promise<ErasureCounts>;
  /** What the area holds under an address, erasable at once (a guest's request, or an account's address). */
  guest?: (tx: Db, email: string) => Promise<ErasureCounts>;
  /** The personal fields of these orders, whose retention period has ended. */
  expiredOrders?: (tx: Db, orderIds: string[]) => Promise<ErasureCounts>;
};

const registered = new Map<string, PrivacySteps>();

/** Called by an area's face: the steps that erase the rows it owns. Registering again replaces. */
export function registerPrivacySteps(area: string, steps: PrivacySteps) {
  registered.set(area, steps);
}

/** The areas' steps, in a stable order (by area name). */
export function privacySteps(): Array<[string, PrivacySteps]> {
  return [...registered.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The fixed texts an erased value becomes (never the old value, never a hash of it); every area uses these. */
export const ERASED_NAME = "A customer";
export const ERASED_EMAIL = "erased@invalid";
export const ERASED_TEXT = "";
