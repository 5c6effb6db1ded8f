import { Plus, Search, TicketPercent, X } from "lucide-react";
import { Form, Link, redirect } from "react-router";
import { DiscountTable } from "~/components/admin/discount-table";
import { Pagination } from "~/components/admin/pagination";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { AdminDiscountQuery } from "~/lib/discounts-view";
import { runAdminAction, unknownIntent } from "~/routes/_edge/admin-action.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { idFrom, readActionBody } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import { deleteDiscountCode, listDiscountCodes, parseDiscountQuery, setDiscountCodeActive } from "~/server/commerce/index.server";
import type { Route } from "./+types/index";

/** The list's query string (page 1 unless given); defaults are left out. */
function listSearch(query: Pick<AdminDiscountQuery, "q">, page = 1) {
  const p = new URLSearchParams();
  if (query.q) p.set("q", query.q);
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const query = parseDiscountQuery(new URL(request.url));
  const list = await listDiscountCodes(getDb(), query);
  // A page past the end (an old link, a narrower search) shows the last page instead of an empty table.
  if (query.page > list.pages) throw redirect(`/admin/discounts${listSearch(query, list.pages)}`);
  return { query, list };
}

/** Deactivate / activate and delete, from the list's rows (create and edit post to the editor). */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readActionBody(request);
  const db = getDb();
  switch (body.intent) {
    case "set-active":
      return runAdminAction("Failed to update discount code", async () => {
        const active = body.active === true || body.active === "true";
        const row = await setDiscountCodeActive(db, idFrom(body.id, "Discount code"), active);
        return { message: `Discount code ${row.code} ${row.active ? "activated" : "deactivated"} successfully` };
      });
    case "delete":
      return runAdminAction("Failed to delete discount code", async () => {
        const row = await deleteDiscountCode(db, idFrom(body.id, "Discount code"));
        return { message: `Discount code ${row.code} deleted successfully` };
      });
    default:
      return unknownIntent();
  }
}

export const meta: Route.MetaFunction = () => [
  { title: "Discount Codes — Admin" },
  { name: "description", content: "Create and manage the shop's discount codes." },
  { name: "robots", content: "noindex" },
];

export default function DiscountsPage({ loaderData }: Route.ComponentProps) {
  const { query, list } = loaderData;
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-6 p-4 md:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Discount Codes</h1>
          <p className="text-muted-foreground">Codes shoppers type in the cart: a percentage, an amount or free shipping.</p>
        </div>
        <Button asChild>
          <Link to="/admin/discounts/new">
            <Plus aria-hidden="true" />
            New Code
          </Link>
        </Button>
      </div>
      <Form method="get" role="search" aria-label="Search discount codes" className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-0 flex-1 basis-56 gap-1.5 sm:max-w-sm">
          <Label htmlFor="discount-search">Search codes</Label>
          <Input id="discount-search" name="q" type="search" defaultValue={query.q} key={query.q} placeholder="Part of a code" maxLength={64} />
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
        {query.q ? (
          <Button asChild variant="ghost">
            <Link to="/admin/discounts">
              <X aria-hidden="true" />
              Clear
            </Link>
          </Button>
        ) : null}
      </Form>
      <p className="text-sm text-muted-foreground" role="status">
        {list.total === 1 ? "1 code" : `${list.total.toLocaleString("en-US")} codes`}
        {query.q ? ` match "${query.q}"` : ""}
      </p>
      {list.rows.length === 0 ? (
        <div className="flex flex-col items-center rounded-lg border border-dashed p-12 text-center">
          <TicketPercent aria-hidden="true" className="size-12 text-muted-foreground" />
          <p className="mt-4 text-muted-foreground">
            {query.q ? `No codes match "${query.q}".` : "No discount codes yet. Create one to offer shoppers a discount."}
          </p>
        </div>
      ) : (
        <DiscountTable rows={list.rows} caption={`Discount codes, page ${list.page} of ${list.pages}`} />
      )}
      <Pagination
        label="Discount code pages"
        page={list.page}
        pages={list.pages}
        href={(p) => `/admin/discounts${listSearch(query, p)}`}
        className="gap-2"
      />
    </div>
  );
}
