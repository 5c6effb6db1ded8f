import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as profileAction, loader as profileLoader } from "~/routes/account/profile";
import { loader as checkoutLoader } from "~/routes/store/checkout";
import { addSavedAddress, keepOrderAddress } from "~/server/people/accounts/saved-addresses.server";
import type { Db } from "~/server/platform/db/client.server";
import { savedAddresses, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeCustomer, sessionCookie } from "../factories/users";
import { doPaidFollowUps } from "~/server/commerce/settlement/follow-ups.server";
import { runShopJobs } from "../factories/jobs";
import { useTestDatabase } from "../setup/database";
import { get, post, run } from "./accounts-helpers";
import { orderRow } from "./admin-orders-helpers";

const t = useTestDatabase();

const HOME = { firstName: "Ann", lastName: "Lee", phone: "", address: "1 Linen Lane", city: "Springfield", state: "IL", zipCode: "62701", country: "US" };
const WORK = { ...HOME, address: "200 Loft Street", city: "Chicago", zipCode: "60601" };

async function shopper() {
  const user = await makeCustomer(t.db);
  return { user, cookie: await sessionCookie(t.db, user.id) };
}

const send = (cookie: string, intent: string, fields: Record<string, string> = {}) =>
  run(profileAction, post("/profile", { intent, ...fields }, { cookie }));

async function addressesOf(cookie: string) {
  const r = await run(profileLoader, get("/profile?tab=addresses", { cookie }));
  return r.data.addresses as { id: string; address: string; isDefault: boolean; city: string; state: string }[];
}

async function rowsOf(db: Db, userId: string) {
  return db.select().from(savedAddresses).where(eq(savedAddresses.userId, userId));
}

async function payAs(db: Db, userId: string | null, form: Partial<typeof HOME> = {}) {
  const product = await makeProduct(db);
  const checkout = await openCheckout(db, [[product, 1]], { userId, form });
  await db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_addr" }).where(eq(testPaymentSessions.id, checkout.sessionId));
  expect((await confirmPayment(db, checkout.sessionId)).state).toBe("paid");
  // The address is kept by the payment's follow-up job, as a running shop's worker does it.
  await runShopJobs(t.db);
  return orderRow(db, checkout.orderId);
}

describe("the Addresses tab", () => {
  it("adds, edits, sets the default and deletes; the first address is the default, and only one ever is", async () => {
    const { cookie } = await shopper();
    const added = await send(cookie, "address-add", HOME);
    expect(added).toMatchObject({ status: 200, data: { ok: true, toast: { title: "Address saved" } } });
    await send(cookie, "address-add", WORK);
    let list = await addressesOf(cookie);
    expect(list.map((a) => [a.address, a.isDefault])).toEqual([
      ["1 Linen Lane", true],
      ["200 Loft Street", false],
    ]);

    const work = list.find((a) => a.address === "200 Loft Street")!;
    expect(await send(cookie, "address-default", { id: work.id })).toMatchObject({ status: 200, data: { toast: { title: "Default address changed" } } });
    list = await addressesOf(cookie);
    expect(list.map((a) => [a.address, a.isDefault])).toEqual([
      ["200 Loft Street", true],
      ["1 Linen Lane", false],
    ]);

    expect(await send(cookie, "address-update", { id: work.id, ...WORK, city: "Evanston", zipCode: "60201" })).toMatchObject({ status: 200 });
    expect((await addressesOf(cookie))[0]).toMatchObject({ id: work.id, city: "Evanston", isDefault: true });

    // Deleting the default makes the remaining address the default.
    expect(await send(cookie, "address-delete", { id: work.id })).toMatchObject({ status: 200, data: { toast: { title: "Address deleted" } } });
    expect((await addressesOf(cookie)).map((a) => [a.address, a.isDefault])).toEqual([["1 Linen Lane", true]]);

    // Adding with 'Use as my default address' moves the default.
    await send(cookie, "address-add", { ...WORK, makeDefault: "on" });
    expect((await addressesOf(cookie)).map((a) => [a.address, a.isDefault])).toEqual([
      ["200 Loft Street", true],
      ["1 Linen Lane", false],
    ]);
  });

  it("checks an address like the checkout does, with a message beside each field", async () => {
    const { user, cookie } = await shopper();
    const r = await send(cookie, "address-add", { ...HOME, firstName: "", zipCode: "x".repeat(21), country: "ZZ" });
    expect(r.status).toBe(400);
    expect(r.data.fieldErrors).toMatchObject({ firstName: ["Required"], zipCode: ["Use at most 20 characters"], country: ["Choose a country"] });
    expect(await rowsOf(t.db, user.id)).toEqual([]);
  });

  it("refuses an address already saved, compared without case, punctuation or spacing", async () => {
    const { user, cookie } = await shopper();
    await send(cookie, "address-add", HOME);
    const again = await send(cookie, "address-add", { ...HOME, firstName: "ANN", address: " 1  linen lane. ", state: "il", zipCode: "627-01" });
    expect(again).toMatchObject({ status: 409, data: { message: "This address is already saved." } });
    expect(await rowsOf(t.db, user.id)).toHaveLength(1);
  });

  it("keeps the state as its region's code: a name or an abbreviation is read as one, anything else is refused beside the State field", async () => {
    const { user, cookie } = await shopper();
    expect(await send(cookie, "address-add", { ...HOME, state: "Illinois" })).toMatchObject({ status: 200 });
    expect((await rowsOf(t.db, user.id)).map((r) => r.state)).toEqual(["IL"]);
    const other = await send(cookie, "address-add", { ...WORK, state: "Atlantis" });
    expect(other.status).toBe(400);
    expect(other.data.fieldErrors).toMatchObject({ state: ["Choose a state or region from the list."] });
    expect(await rowsOf(t.db, user.id)).toHaveLength(1);
  });

  it("reads an address saved with a state name before states were codes as the code, everywhere it is shown or compared", async () => {
    const { user, cookie } = await shopper();
    await t.db.insert(savedAddresses).values({ userId: user.id, ...HOME, state: "illinois", isDefault: true });
    const [shown] = await addressesOf(cookie);
    expect(shown).toMatchObject({ address: "1 Linen Lane", state: "IL" });
    const atCheckout = await run(checkoutLoader, get("/checkout", { cookie }));
    expect(atCheckout.data.addresses[0]).toMatchObject({ state: "IL" });
    // The same address typed with the code is the one already saved.
    expect(await send(cookie, "address-add", HOME)).toMatchObject({ status: 409, data: { message: "This address is already saved." } });
    // A paid order's address with the code is not kept a second time either.
    await payAs(t.db, user.id, { ...HOME, state: "IL" });
    expect(await rowsOf(t.db, user.id)).toHaveLength(1);
  });

  it("keeps at most 20 addresses", async () => {
    const { user, cookie } = await shopper();
    for (let i = 1; i <= 20; i++) await addSavedAddress(t.db, user.id, { ...HOME, address: `${i} Linen Lane` });
    const r = await send(cookie, "address-add", { ...HOME, address: "21 Linen Lane" });
    expect(r).toMatchObject({ status: 409, data: { message: "You can keep at most 20 addresses. Delete one to add another." } });
    expect(await rowsOf(t.db, user.id)).toHaveLength(20);
  });

  it("never touches another shopper's address: editing, deleting or defaulting their id is not found", async () => {
    const owner = await shopper();
    const other = await shopper();
    await send(owner.cookie, "address-add", HOME);
    await send(owner.cookie, "address-add", WORK);
    const [theirs] = await rowsOf(t.db, owner.user.id).then((rows) => rows.filter((r) => !r.isDefault));

    for (const [intent, fields] of [
      ["address-update", { id: theirs!.id, ...HOME, address: "Hijacked 1" }],
      ["address-delete", { id: theirs!.id }],
      ["address-default", { id: theirs!.id }],
      ["address-update", { id: "not-a-uuid", ...HOME }],
      ["address-delete", { id: "00000000-0000-0000-0000-000000000000" }],
    ] as const) {
      const r = await send(other.cookie, intent, fields);
      expect(r).toMatchObject({ status: 404, data: { ok: false, message: "Address not found" } });
    }
    const rows = await rowsOf(t.db, owner.user.id);
    expect(rows.map((r) => [r.address, r.isDefault]).sort()).toEqual([
      ["1 Linen Lane", true],
      ["200 Loft Street", false],
    ]);
    expect(await addressesOf(other.cookie)).toEqual([]);
  });

  it("holds one default per shopper in the database itself", async () => {
    const { user, cookie } = await shopper();
    await send(cookie, "address-add", HOME);
    await expect(t.db.insert(savedAddresses).values({ userId: user.id, ...WORK, isDefault: true })).rejects.toThrow();
    // Two tabs setting different defaults at once still leave exactly one.
    await send(cookie, "address-add", WORK);
    const ids = (await rowsOf(t.db, user.id)).map((r) => r.id);
    await Promise.all(ids.map((id) => send(cookie, "address-default", { id })));
    expect((await rowsOf(t.db, user.id)).filter((r) => r.isDefault)).toHaveLength(1);
  });
});

describe("addresses kept from paid orders", () => {
  it("keeps a signed-in shopper's paid address once (as the default when it is the first), never a guest's", async () => {
    const { user, cookie } = await shopper();
    const first = await payAs(t.db, user.id, HOME);
    expect((await addressesOf(cookie)).map((a) => [a.address, a.isDefault])).toEqual([["1 Linen Lane", true]]);
    // The job done again (a retry after a crash) keeps it once.
    await doPaidFollowUps(t.db, first.id);
    expect((await addressesOf(cookie)).map((a) => [a.address, a.isDefault])).toEqual([["1 Linen Lane", true]]);
    await payAs(t.db, user.id, { ...HOME, address: "1 LINEN LANE", zipCode: "62701 " });
    await payAs(t.db, user.id, WORK);
    expect((await addressesOf(cookie)).map((a) => [a.address, a.isDefault])).toEqual([
      ["1 Linen Lane", true],
      ["200 Loft Street", false],
    ]);

    const guestBefore = (await t.db.select().from(savedAddresses)).length;
    await payAs(t.db, null, { ...HOME, address: "9 Guest Road" });
    expect((await t.db.select().from(savedAddresses)).length).toBe(guestBefore);
  });

  it("keeps nothing for an unpaid order, and a full address book never stops a payment", async () => {
    const { user, cookie } = await shopper();
    const product = await makeProduct(t.db);
    await openCheckout(t.db, [[product, 1]], { userId: user.id, form: HOME });
    expect(await addressesOf(cookie)).toEqual([]);

    for (let i = 1; i <= 20; i++) await addSavedAddress(t.db, user.id, { ...HOME, address: `${i} Loft Street` });
    const order = await payAs(t.db, user.id, WORK);
    expect(order.paymentStatus).toBe("paid");
    expect(await rowsOf(t.db, user.id)).toHaveLength(20);
    expect(await keepOrderAddress(t.db, order)).toBe("full");
  });
});

describe("the checkout", () => {
  it("offers a signed-in shopper their addresses, the default first; a guest none", async () => {
    const { cookie } = await shopper();
    await send(cookie, "address-add", HOME);
    await send(cookie, "address-add", { ...WORK, makeDefault: "on" });
    const signedIn = await run(checkoutLoader, get("/checkout", { cookie }));
    expect(signedIn.data.addresses.map((a: { address: string; isDefault: boolean }) => [a.address, a.isDefault])).toEqual([
      ["200 Loft Street", true],
      ["1 Linen Lane", false],
    ]);
    const guest = await run(checkoutLoader, get("/checkout"));
    // A guest's checkout prefills nothing: no addresses, no email, no name.
    expect(guest.data).toEqual({ addresses: [], email: "", name: "" });
  });
});
