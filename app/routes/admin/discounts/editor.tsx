import { ArrowLeft } from "lucide-react";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { DiscountForm } from "~/components/admin/discount-form";
import { Button } from "~/components/ui/button";
import type { DiscountEditorData } from "~/lib/discounts-view";
import { isUuid } from "~/lib/uuid";
import { runAdminAction, unknownIntent } from "~/routes/_edge/admin-action.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { idFrom, readActionBody } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import { createDiscountCode, discountCategoryChoices, discountProductsById, getDiscountForEdit, updateDiscountCode } from "~/server/commerce/index.server";
import type { Route } from "./+types/editor";

/** One module for /admin/discounts/new (no id) and /admin/discounts/:id. */
export async function loader({ request, params }: Route.LoaderArgs): Promise<DiscountEditorData> {
  await requireAdmin(request);
  const db = getDb();
  const id = "id" in params ? params.id : undefined;
  // Answered, not thrown: a code deleted by another admin shows a message, not an error page.
  if (id !== undefined && !isUuid(id)) return { notFound: true };
  const [discount, categories] = await Promise.all([id ? getDiscountForEdit(db, id) : null, discountCategoryChoices(db)]);
  if (id && !discount) return { notFound: true };
  return { notFound: false, discount, categories, chosenProducts: await discountProductsById(db, discount?.productIds ?? []) };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readActionBody(request);
  if (body.intent !== "save") return unknownIntent();
  const db = getDb();
  const id = "id" in params ? params.id : undefined;
  if (id === undefined) {
    return runAdminAction("Failed to create discount code", async () => {
      const row = await createDiscountCode(db, body.discount);
      return { message: `Discount code ${row.code} created successfully`, id: row.id };
    });
  }
  return runAdminAction("Failed to update discount code", async () => {
    const row = await updateDiscountCode(db, idFrom(id, "Discount code"), body.discount);
    return { message: `Discount code ${row.code} updated successfully`, id: row.id };
  });
}

/** A save answers the form itself (and a success leaves the page); what is typed stays as it is. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod === "POST") return false;
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data && !data.notFound && data.discount ? `Edit ${data.discount.code}` : "New Discount Code"} — Admin`,
  },
  { name: "description", content: "A discount code: its value, dates, limits and what it applies to." },
  { name: "robots", content: "noindex" },
];

export default function DiscountEditorPage({ loaderData }: Route.ComponentProps) {
  const data = loaderData;
  const title = data.notFound ? "Discount code not found" : data.discount ? `Edit ${data.discount.code}` : "New Discount Code";
  return (
    <div className="mx-auto grid w-full max-w-4xl grid-cols-1 gap-6 p-4 md:p-6">
      <Button asChild variant="ghost" className="w-fit">
        <Link to="/admin/discounts">
          <ArrowLeft aria-hidden="true" />
          Back to Discount Codes
        </Link>
      </Button>
      <h1 className="text-2xl font-bold tracking-tight break-all md:text-3xl">{title}</h1>
      {data.notFound ? (
        <p role="alert">This discount code no longer exists. Another admin may have deleted it.</p>
      ) : (
        <DiscountForm key={data.discount?.id ?? "new"} data={data} />
      )}
    </div>
  );
}
