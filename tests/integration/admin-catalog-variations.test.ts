import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loader as editorLoader, action as editorAction } from "~/routes/admin/products/editor";
import { loader as pageLoader } from "~/routes/admin/products/index";
import { action } from "~/routes/admin/products/variations";
import { productVariations, variationTypes, variationValues } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post } from "./admin-catalog-helpers";

const t = useTestDatabase();
let admin: TestUser;

beforeAll(async () => {
  admin = await makeAdmin(t.db);
});

const send = (body: unknown) => post(t.db, action, admin, "/admin/products/variations", body);
const types = async () => (await get(t.db, pageLoader, admin, "/admin/products?tab=variations")).body.variationTypes;
const typeNamed = async (name: string) => (await types()).find((x: { name: string }) => x.name === name);

async function makeType(name: string, values: string[] = []) {
  const [type] = await t.db.insert(variationTypes).values({ name }).returning();
  const made = values.length
    ? await t.db.insert(variationValues).values(values.map((value) => ({ variationTypeId: type!.id, value }))).returning()
    : [];
  return { type: type!, values: made };
}

describe("admin variation types", () => {
  it("is for admins only", async () => {
    const customer = await makeCustomer(t.db);
    const res = await post(t.db, action, customer, "/admin/products/variations", { intent: "create-type", name: "Sneaky" });
    expect(res.status).toBe(403);
    expect(await t.db.select().from(variationTypes).where(eq(variationTypes.name, "Sneaky"))).toHaveLength(0);
  });

  it("creates, renames and lists types by name with their values", async () => {
    const created = await send({ intent: "create-type", name: " Size " });
    expect(created.body).toMatchObject({ ok: true, message: "Variation type created successfully" });
    const size = await typeNamed("Size");
    expect(size.values).toEqual([]);
    const renamed = await send({ intent: "rename-type", id: size.id, name: "Sizes" });
    expect(renamed.body.message).toBe("Variation type updated successfully");
    expect(await typeNamed("Sizes")).toBeDefined();
  });

  it("gives the specified messages for blank names", async () => {
    const blank = await send({ intent: "create-type", name: "  " });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ title: "Failed to create variation type", message: "Please enter a variation type name" });
    const { type } = await makeType("Finish");
    const rename = await send({ intent: "rename-type", id: type.id, name: "" });
    expect(rename.body).toMatchObject({ title: "Failed to update variation type", message: "Name cannot be empty" });
  });

  it("refuses a duplicate type name, whatever its case", async () => {
    await makeType("Color");
    const res = await send({ intent: "create-type", name: "COLOR" });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A variation type named "COLOR" already exists');
    const { type } = await makeType("Pattern");
    const rename = await send({ intent: "rename-type", id: type.id, name: "color" });
    expect(rename.status).toBe(409);
  });

  it("deletes a type with its values and their places on products", async () => {
    const { type, values } = await makeType("Material", ["Linen", "Cotton"]);
    const p = await makeProduct(t.db);
    await t.db.insert(productVariations).values({ productId: p.id, variationValueId: values[0]!.id });
    expect((await typeNamed("Material")).values).toHaveLength(2);
    const res = await send({ intent: "delete-type", id: type.id });
    expect(res.body.message).toBe("Variation type deleted successfully");
    expect(await t.db.select().from(variationValues).where(eq(variationValues.variationTypeId, type.id))).toHaveLength(0);
    expect(await t.db.select().from(productVariations).where(eq(productVariations.productId, p.id))).toHaveLength(0);
  });
});

describe("admin variation values", () => {
  it("adds, renames and deletes values, listed by value", async () => {
    const { type } = await makeType("Fill");
    expect((await send({ intent: "add-value", typeId: type.id, value: "Wool" })).body.message).toBe("Value added successfully");
    await send({ intent: "add-value", typeId: type.id, value: "Down" });
    const fill = await typeNamed("Fill");
    expect(fill.values.map((v: { value: string }) => v.value)).toEqual(["Down", "Wool"]);
    const down = fill.values[0];
    expect((await send({ intent: "rename-value", id: down.id, value: "Goose Down" })).body.message).toBe("Value updated successfully");
    expect((await send({ intent: "delete-value", id: fill.values[1].id })).body.message).toBe("Value deleted successfully");
    expect((await typeNamed("Fill")).values.map((v: { value: string }) => v.value)).toEqual(["Goose Down"]);
  });

  it("gives the specified messages for blank values", async () => {
    const { type, values } = await makeType("Weight", ["Light"]);
    const blank = await send({ intent: "add-value", typeId: type.id, value: " " });
    expect(blank.body).toMatchObject({ title: "Failed to add value", message: "Please enter a value" });
    const rename = await send({ intent: "rename-value", id: values[0]!.id, value: "" });
    expect(rename.body).toMatchObject({ title: "Failed to update value", message: "Value cannot be empty" });
  });

  it("refuses a duplicate value within a type, but allows it in another type", async () => {
    const { type } = await makeType("Shade", ["Blue"]);
    const dup = await send({ intent: "add-value", typeId: type.id, value: "blue" });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('"blue" already exists for Shade');
    const { type: other } = await makeType("Trim");
    expect((await send({ intent: "add-value", typeId: other.id, value: "Blue" })).body.ok).toBe(true);
  });

  it("answers 404 when the type is gone", async () => {
    const res = await send({ intent: "add-value", typeId: "00000000-0000-4000-8000-000000000000", value: "X" });
    expect(res.status).toBe(404);
  });
});

describe("a product's variations", () => {
  const path = (id: string) => `/admin/products/${id}/editor`;
  const edit = (productId: string, body: unknown) => post(t.db, editorAction, admin, path(productId), body, { productId });
  const attached = async (productId: string) =>
    (await get(t.db, editorLoader, admin, path(productId), { productId })).body.variations;

  it("attaches a value with zero adjustment, stock and suffix; edits one field at a time; removes softly", async () => {
    const { values } = await makeType("Bed Size", ["King", "Queen"]);
    const p = await makeProduct(t.db);
    const added = await edit(p.id, { intent: "attach-variation", variationValueId: values[0]!.id });
    expect(added.body).toMatchObject({ ok: true, message: "Variation added successfully" });
    const [v] = await attached(p.id);
    expect(v).toMatchObject({ typeName: "Bed Size", value: "King", priceAdjustmentCents: 0, stockQuantity: 0, skuSuffix: "" });

    await edit(p.id, { intent: "update-variation", id: v.id, field: "priceAdjustment", value: "-5.25" });
    await edit(p.id, { intent: "update-variation", id: v.id, field: "stockQuantity", value: "4" });
    await edit(p.id, { intent: "update-variation", id: v.id, field: "skuSuffix", value: "-K" });
    expect((await attached(p.id))[0]).toMatchObject({ priceAdjustmentCents: -525, stockQuantity: 4, skuSuffix: "-K" });

    const removed = await edit(p.id, { intent: "remove-variation", id: v.id });
    expect(removed.body.message).toBe("Variation removed successfully");
    expect(await attached(p.id)).toEqual([]);
    const [row] = await t.db.select().from(productVariations).where(eq(productVariations.id, v.id));
    expect(row!.active).toBe(false);

    // Attaching it again brings it back fresh.
    await edit(p.id, { intent: "attach-variation", variationValueId: values[0]!.id });
    expect((await attached(p.id))[0]).toMatchObject({ id: v.id, priceAdjustmentCents: 0, stockQuantity: 0 });
  });

  it("refuses a value attached twice, and bad field values", async () => {
    const { values } = await makeType("Pillow Size", ["Standard"]);
    const p = await makeProduct(t.db);
    await edit(p.id, { intent: "attach-variation", variationValueId: values[0]!.id });
    const twice = await edit(p.id, { intent: "attach-variation", variationValueId: values[0]!.id });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ title: "Failed to add variation", message: "This variation is already added to the product" });
    const [v] = await attached(p.id);
    const bad = await edit(p.id, { intent: "update-variation", id: v.id, field: "priceAdjustment", value: "1.005" });
    expect(bad.body).toMatchObject({ title: "Failed to update variation", message: "Price adjustment can have at most 2 decimals" });
    const stock = await edit(p.id, { intent: "update-variation", id: v.id, field: "stockQuantity", value: "-1" });
    expect(stock.body.message).toBe("Variation stock cannot be negative");
    const field = await edit(p.id, { intent: "update-variation", id: v.id, field: "productId", value: "x" });
    expect(field.status).toBe(400);
    expect((await attached(p.id))[0]).toMatchObject({ priceAdjustmentCents: 0, stockQuantity: 0 });
  });

  it("cannot touch another product's variation", async () => {
    const { values } = await makeType("Drop", ["Long"]);
    const mine = await makeProduct(t.db);
    const theirs = await makeProduct(t.db);
    await edit(theirs.id, { intent: "attach-variation", variationValueId: values[0]!.id });
    const [v] = await attached(theirs.id);
    const res = await edit(mine.id, { intent: "remove-variation", id: v.id });
    expect(res.status).toBe(404);
    expect(res.body.title).toBe("Failed to remove variation");
    expect(await attached(theirs.id)).toHaveLength(1);
  });

  it("offers only active values of active types to attach", async () => {
    const { type, values } = await makeType("Edge", ["Piped", "Plain"]);
    await t.db.update(variationValues).set({ active: false }).where(eq(variationValues.id, values[1]!.id));
    const p = await makeProduct(t.db);
    const { body } = await get(t.db, editorLoader, admin, path(p.id), { productId: p.id });
    const edge = body.choices.find((c: { id: string }) => c.id === type.id);
    expect(edge.values.map((v: { value: string }) => v.value)).toEqual(["Piped"]);
  });
});
