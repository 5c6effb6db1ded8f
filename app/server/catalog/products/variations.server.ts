import { asc, eq } from "drizzle-orm";
import type { AdminVariationType, AdminVariationValue } from "~/lib/catalog-view";
import {
  VariationTypeName,
  VariationTypeRename,
  VariationValueName,
  VariationValueRename,
} from "~/lib/product-input";
import { type Db, variationTypes, variationValues } from "../../platform/index.server";
import { CatalogInputError, pgErrorCode, UNIQUE_VIOLATION } from "./admin-errors.server";

const FOREIGN_KEY_VIOLATION = "23503";

function duplicateType(name: string) {
  return new CatalogInputError(`A variation type named "${name}" already exists`, "conflict", "name");
}

/** The values could not be read (the types could): the page says which (docs/rules/errors.md has a message for each). */
export class VariationValuesUnavailable extends Error {}

/** Every variation type by name, each with its values by value (docs/rules/catalogue-data.md). */
export async function listVariationTypes(db: Db): Promise<AdminVariationType[]> {
  const [types, values] = await Promise.all([
    db.select().from(variationTypes).orderBy(asc(variationTypes.name)),
    db
      .select()
      .from(variationValues)
      .orderBy(asc(variationValues.value))
      .catch((err: unknown) => {
        throw new VariationValuesUnavailable("variation values could not be read", { cause: err });
      }),
  ]);
  const byType = new Map<string, AdminVariationValue[]>();
  for (const v of values) {
    const list = byType.get(v.variationTypeId) ?? [];
    list.push({ id: v.id, variationTypeId: v.variationTypeId, value: v.value, active: v.active });
    byType.set(v.variationTypeId, list);
  }
  return types.map((t) => ({ id: t.id, name: t.name, active: t.active, values: byType.get(t.id) ?? [] }));
}

/** The active types with their active values: what the product dialog offers to attach. */
export async function listAttachableVariations(db: Db): Promise<AdminVariationType[]> {
  const all = await listVariationTypes(db);
  return all.filter((t) => t.active).map((t) => ({ ...t, values: t.values.filter((v) => v.active) }));
}

export async function createVariationType(db: Db, rawName: unknown): Promise<AdminVariationType> {
  const name = VariationTypeName.parse(rawName);
  try {
    const [row] = await db.insert(variationTypes).values({ name }).returning();
    return { id: row!.id, name: row!.name, active: row!.active, values: [] };
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw duplicateType(name);
    throw err;
  }
}

export async function renameVariationType(db: Db, id: string, rawName: unknown): Promise<void> {
  const name = VariationTypeRename.parse(rawName);
  try {
    const rows = await db.update(variationTypes).set({ name }).where(eq(variationTypes.id, id)).returning({ id: variationTypes.id });
    if (rows.length === 0) throw new CatalogInputError("Variation type not found", "not_found");
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw duplicateType(name);
    throw err;
  }
}

/** Hard delete; its values and their attachments to products go with it (foreign keys cascade). */
export async function deleteVariationType(db: Db, id: string): Promise<void> {
  const rows = await db.delete(variationTypes).where(eq(variationTypes.id, id)).returning({ id: variationTypes.id });
  if (rows.length === 0) throw new CatalogInputError("Variation type not found", "not_found");
}

async function typeName(db: Db, typeId: string) {
  const [row] = await db.select({ name: variationTypes.name }).from(variationTypes).where(eq(variationTypes.id, typeId));
  return row?.name ?? "this type";
}

export async function addVariationValue(db: Db, typeId: string, rawValue: unknown): Promise<AdminVariationValue> {
  const value = VariationValueName.parse(rawValue);
  try {
    const [row] = await db.insert(variationValues).values({ variationTypeId: typeId, value }).returning();
    return { id: row!.id, variationTypeId: row!.variationTypeId, value: row!.value, active: row!.active };
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === FOREIGN_KEY_VIOLATION) throw new CatalogInputError("Variation type not found", "not_found");
    if (code === UNIQUE_VIOLATION) {
      throw new CatalogInputError(`"${value}" already exists for ${await typeName(db, typeId)}`, "conflict", "value");
    }
    throw err;
  }
}

export async function renameVariationValue(db: Db, id: string, rawValue: unknown): Promise<void> {
  const value = VariationValueRename.parse(rawValue);
  try {
    const rows = await db
      .update(variationValues)
      .set({ value })
      .where(eq(variationValues.id, id))
      .returning({ id: variationValues.id });
    if (rows.length === 0) throw new CatalogInputError("Value not found", "not_found");
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) {
      const [row] = await db
        .select({ typeId: variationValues.variationTypeId })
        .from(variationValues)
        .where(eq(variationValues.id, id));
      throw new CatalogInputError(`"${value}" already exists for ${row ? await typeName(db, row.typeId) : "this type"}`, "conflict", "value");
    }
    throw err;
  }
}

/** Hard delete; products that carried the value lose it (the attachment cascades). */
export async function deleteVariationValue(db: Db, id: string): Promise<void> {
  const rows = await db.delete(variationValues).where(eq(variationValues.id, id)).returning({ id: variationValues.id });
  if (rows.length === 0) throw new CatalogInputError("Value not found", "not_found");
}
