import { redirect } from "react-router";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { z } from "zod";
import { confirmImport, discardImport, ImportRequestError, STOCK_CHOICES } from "~/server/catalog/index.server";
import { unitsSoldSince } from "~/server/commerce/index.server";
import type { Route } from "./+types/import-job";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/products?tab=import");
}

/** For a re-imported export: subtract the sales made since it was exported (the default), or use the file's stock. */
const StockChoiceInput = z.enum(STOCK_CHOICES).default("subtract");

/** intent=confirm starts the dry-run import (with stock=subtract|file); intent=discard throws the upload away. */
export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "confirm") {
      const stock = StockChoiceInput.safeParse(form.get("stock") ?? undefined);
      if (!stock.success) return respond({ kind: "bad_input", message: "Choose how to set the stock sold since the file was exported" });
      return { job: await confirmImport(getDb(), params.jobId, { stock: stock.data, salesSince: unitsSoldSince }) };
    }
    if (intent === "discard") {
      await discardImport(getDb(), params.jobId);
      return { job: null };
    }
    return respond({ kind: "bad_input", message: "Unknown action" });
  } catch (err) {
    if (err instanceof ImportRequestError) return respond(err);
    throw err;
  }
}
