import { data } from "react-router";
import { ShippingSettingsPage } from "~/components/admin/shipping/shipping-settings-page";
import type { AdminActionResult } from "~/lib/product-input";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { readActionBody } from "~/server/catalog/index.server";
import { getDb, logger } from "~/server/platform/http/index.server";
import { createRate, createTaxRate, createZone, deleteRate, deleteTaxRate, deleteZone, loadShippingSettings, saveTaxSettings, ShippingSettingsError, updateRate, updateTaxRate, updateZone } from "~/server/commerce/index.server";
import type { Route } from "./+types/shipping";

/** Shipping zones and rates, tax rates and tax settings (docs/rules/admin.md, Shipping & Tax). */

export const meta: Route.MetaFunction = () => [
  { title: "Shipping & Tax — Admin — Linen & Loft" },
  { name: "description", content: "Set where the shop ships, what shipping costs and how tax is charged." },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { settings: await loadShippingSettings(getDb()) };
}

/**
 * One write and the toast it ends with. A refused input answers with its kind's status (400,
 * 404, 409) and a message per field; anything else is logged and answered generically.
 */
async function run(failureTitle: string, fn: () => Promise<string>) {
  try {
    return data<AdminActionResult>({ ok: true, message: await fn() });
  } catch (err) {
    if (err instanceof ShippingSettingsError) {
      return respond<AdminActionResult>(err, { ok: false, title: failureTitle, message: err.message, errors: err.fieldErrors });
    }
    logger.error({ err }, failureTitle);
    return respond<AdminActionResult>(
      { kind: "failed" },
      { ok: false, title: failureTitle, message: "Something went wrong on our side. Nothing was saved. Please try again." },
    );
  }
}

/** JSON from the page's dialogs: `{ intent, id?, zoneId?, values? }`. */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readActionBody(request);
  const db = getDb();
  const { id, zoneId, values } = body;
  switch (body.intent) {
    case "create-zone":
      return run("Failed to add zone", async () => (await createZone(db, values), "Zone added successfully"));
    case "update-zone":
      return run("Failed to update zone", async () => (await updateZone(db, id, values), "Zone updated successfully"));
    case "delete-zone":
      return run("Failed to delete zone", async () => (await deleteZone(db, id), "Zone deleted successfully"));
    case "create-rate":
      return run("Failed to add rate", async () => (await createRate(db, zoneId, values), "Rate added successfully"));
    case "update-rate":
      return run("Failed to update rate", async () => (await updateRate(db, id, values), "Rate updated successfully"));
    case "delete-rate":
      return run("Failed to delete rate", async () => (await deleteRate(db, id), "Rate deleted successfully"));
    case "create-tax-rate":
      return run("Failed to add tax rate", async () => (await createTaxRate(db, values), "Tax rate added successfully"));
    case "update-tax-rate":
      return run("Failed to update tax rate", async () => (await updateTaxRate(db, id, values), "Tax rate updated successfully"));
    case "delete-tax-rate":
      return run("Failed to delete tax rate", async () => (await deleteTaxRate(db, id), "Tax rate deleted successfully"));
    case "save-tax-settings":
      return run("Failed to save tax settings", async () => (await saveTaxSettings(db, values), "Tax settings saved successfully"));
    default:
      return respond<AdminActionResult>({ kind: "bad_input" }, { ok: false, title: "Unknown action", message: "This action is not supported" });
  }
}

export default function ShippingSettingsRoute({ loaderData }: Route.ComponentProps) {
  return <ShippingSettingsPage settings={loaderData.settings} />;
}
