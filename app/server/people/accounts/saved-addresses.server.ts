import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { normalizePostcode, normalizeRegion } from "~/lib/address";
import { addressFormSchema } from "~/lib/checkout";
import { regionCode, storedRegion } from "~/lib/regions";
import { MAX_SAVED_ADDRESSES, type SavedAddress } from "~/lib/saved-address-view";
import { isUuid } from "~/lib/uuid";
import { type Db, DomainError, logger, savedAddresses, user } from "../../platform/index.server";

/**
 * A signed-in shopper's saved addresses (docs/rules/after-sale.md, Saved addresses). Every
 * function takes the shopper's own id from the session and an address id from the browser: an id
 * that is not theirs is simply not found. Writes lock the shopper's user row first, so two tabs
 * (or a payment and an edit) never break the one-default rule or the limit between them.
 */

/** The checkout's address rules, without the email (an address book entry has none); the region read as its code. */
export const SavedAddressInput = addressFormSchema(regionCode);
export type SavedAddressInput = z.infer<typeof SavedAddressInput>;

export class SavedAddressError extends DomainError<"not_found" | "conflict"> {}

const NOT_FOUND = "Address not found";
const ALREADY_SAVED = "This address is already saved.";
const FULL = `You can keep at most ${MAX_SAVED_ADDRESSES} addresses. Delete one to add another.`;

const columns = {
  id: savedAddresses.id,
  firstName: savedAddresses.firstName,
  lastName: savedAddresses.lastName,
  phone: savedAddresses.phone,
  address: savedAddresses.address,
  city: savedAddresses.city,
  state: savedAddresses.state,
  zipCode: savedAddresses.zipCode,
  country: savedAddresses.country,
  isDefault: savedAddresses.isDefault,
};

type AddressFields = Omit<SavedAddress, "id" | "isDefault">;

const text = (s: string) => s.normalize("NFC").toLowerCase().replace(/[.,]/g, " ").replace(/\s+/g, " ").trim();

/**
 * Two addresses are the same when they would bring a parcel to the same person at the same door:
 * names, street, city compared without case, punctuation or extra spaces; the state as its
 * region's code ('Illinois' is 'IL') and the postcode as shipping zones compare them
 * (app/lib/address.ts); the phone does not count.
 */
export function addressKey(a: AddressFields): string {
  return [
    text(a.firstName),
    text(a.lastName),
    text(a.address),
    text(a.city),
    normalizeRegion(storedRegion(a.country.trim().toUpperCase(), a.state)),
    normalizePostcode(a.zipCode),
    a.country.trim().toUpperCase(),
  ].join("\u0000");
}

/** A saved row as the shopper sees it: a state saved as a name before states were codes reads as its code. */
const asSaved = <T extends { country: string; state: string }>(row: T): T => ({ ...row, state: storedRegion(row.country, row.state) });

/** The shopper's addresses, the default first, then the newest. */
export async function listSavedAddresses(db: Db, userId: string): Promise<SavedAddress[]> {
  const rows = await db
    .select(columns)
    .from(savedAddresses)
    .where(eq(savedAddresses.userId, userId))
    .orderBy(desc(savedAddresses.isDefault), desc(savedAddresses.createdAt), asc(savedAddresses.id));
  return rows.map(asSaved);
}

/** Locks the shopper's row for the rest of the transaction; false when there is no such account. */
async function lockShopper(tx: Db, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for("no key update");
  return rows.length > 0;
}

async function ownAddress(tx: Db, userId: string, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await tx
    .select(columns)
    .from(savedAddresses)
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, userId)));
  return row && asSaved(row);
}

async function findSame(tx: Db, userId: string, fields: AddressFields, exceptId?: string) {
  const key = addressKey(fields);
  const rows = await tx.select(columns).from(savedAddresses).where(eq(savedAddresses.userId, userId));
  return rows.find((r) => r.id !== exceptId && addressKey(r) === key);
}

async function makeDefault(tx: Db, userId: string, id: string) {
  // The other default goes first: the unique partial index allows one per shopper at any moment.
  await tx
    .update(savedAddresses)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(savedAddresses.userId, userId), eq(savedAddresses.isDefault, true), ne(savedAddresses.id, id)));
  await tx
    .update(savedAddresses)
    .set({ isDefault: true, updatedAt: new Date() })
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, userId)));
}

async function countOf(tx: Db, userId: string) {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(savedAddresses).where(eq(savedAddresses.userId, userId));
  return row?.n ?? 0;
}

/** Adds an address; the shopper's first becomes the default. Refuses a duplicate and the 21st. */
export async function addSavedAddress(db: Db, userId: string, input: SavedAddressInput, opts: { makeDefault?: boolean } = {}): Promise<SavedAddress> {
  return db.transaction(async (tx) => {
    if (!(await lockShopper(tx, userId))) throw new SavedAddressError(NOT_FOUND, "not_found");
    if (await findSame(tx, userId, input)) throw new SavedAddressError(ALREADY_SAVED, "conflict");
    const count = await countOf(tx, userId);
    if (count >= MAX_SAVED_ADDRESSES) throw new SavedAddressError(FULL, "conflict");
    const [row] = await tx.insert(savedAddresses).values({ userId, ...input, isDefault: false }).returning({ id: savedAddresses.id });
    if (count === 0 || opts.makeDefault) await makeDefault(tx, userId, row!.id);
    return (await ownAddress(tx, userId, row!.id))!;
  });
}

/** Replaces an address's fields (and makes it the default when asked). */
export async function updateSavedAddress(
  db: Db,
  userId: string,
  id: string,
  input: SavedAddressInput,
  opts: { makeDefault?: boolean } = {},
): Promise<SavedAddress> {
  return db.transaction(async (tx) => {
    await lockShopper(tx, userId);
    if (!(await ownAddress(tx, userId, id))) throw new SavedAddressError(NOT_FOUND, "not_found");
    if (await findSame(tx, userId, input, id)) throw new SavedAddressError(ALREADY_SAVED, "conflict");
    await tx
      .update(savedAddresses)
      .set({ ...input, updatedAt: new Date() })
      .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, userId)));
    if (opts.makeDefault) await makeDefault(tx, userId, id);
    return (await ownAddress(tx, userId, id))!;
  });
}

/** Makes this address the default (the checkout fills it in first). */
export async function setDefaultSavedAddress(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockShopper(tx, userId);
    if (!(await ownAddress(tx, userId, id))) throw new SavedAddressError(NOT_FOUND, "not_found");
    await makeDefault(tx, userId, id);
  });
}

/** Deletes an address; when it was the default, the newest remaining one takes its place. */
export async function deleteSavedAddress(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockShopper(tx, userId);
    const row = await ownAddress(tx, userId, id);
    if (!row) throw new SavedAddressError(NOT_FOUND, "not_found");
    await tx.delete(savedAddresses).where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, userId)));
    if (!row.isDefault) return;
    const [next] = await tx
      .select({ id: savedAddresses.id })
      .from(savedAddresses)
      .where(eq(savedAddresses.userId, userId))
      .orderBy(desc(savedAddresses.createdAt))
      .limit(1);
    if (next) await makeDefault(tx, userId, next.id);
  });
}

export type OrderAddress = AddressFields & { id: string; orderNumber: string; userId: string | null };

/**
 * Keeps a paid order's address for its signed-in shopper, unless it is already saved or the
 * address book is full. Runs inside the payment's transaction on a savepoint of its own: a
 * failure here is logged and never undoes the payment.
 */
export async function keepOrderAddress(tx: Db, order: OrderAddress): Promise<"added" | "exists" | "full" | "guest" | "failed"> {
  const userId = order.userId;
  if (!userId) return "guest";
  try {
    return await tx.transaction(async (sp) => {
      if (!(await lockShopper(sp, userId))) return "guest" as const;
      const fields: AddressFields = {
        firstName: order.firstName,
        lastName: order.lastName,
        phone: order.phone,
        address: order.address,
        city: order.city,
        state: storedRegion(order.country, order.state),
        zipCode: order.zipCode,
        country: order.country,
      };
      if (await findSame(sp, userId, fields)) return "exists" as const;
      const count = await countOf(sp, userId);
      if (count >= MAX_SAVED_ADDRESSES) return "full" as const;
      const [row] = await sp.insert(savedAddresses).values({ userId, ...fields, isDefault: false }).returning({ id: savedAddresses.id });
      if (count === 0) await makeDefault(sp, userId, row!.id);
      return "added" as const;
    });
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "the order's address could not be saved");
    return "failed";
  }
}
