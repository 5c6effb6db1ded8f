import { Download, Search, X } from "lucide-react";
import { Form, Link, redirect } from "react-router";
import { CustomerTable } from "~/components/admin/customer-table";
import { Pagination } from "~/components/admin/pagination";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import {
  CUSTOMER_COLUMNS,
  CUSTOMERS_MAX_PAGES,
  CUSTOMERS_PAGE_SIZE,
  DEFAULT_CUSTOMER_DIR,
  DEFAULT_CUSTOMER_SORT,
  customerListSearch,
} from "~/lib/customers-view";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { listCustomers, parseCustomerListQuery } from "~/server/people/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/customers";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const query = parseCustomerListQuery(new URL(request.url));
  const list = await listCustomers(getDb(), query);
  // A page past the end (an old link, a narrower search) shows the last page instead of an empty table.
  if (query.page > list.pages) throw redirect(`/admin/customers${customerListSearch({ ...query, page: list.pages })}`);
  return { query, ...list };
}

export const meta: Route.MetaFunction = () => [
  { title: "Customers — Admin" },
  { name: "description", content: "The shop's customers: accounts and guests who ordered, what they bought and spent." },
  { name: "robots", content: "noindex" },
];

export default function CustomersPage({ loaderData }: Route.ComponentProps) {
  const { query, rows, total, totalCapped, pages, capped, closeMatches } = loaderData;
  const searching = query.q !== "";
  const sorted = CUSTOMER_COLUMNS.find((c) => c.sort === query.sort)!;
  const exportHref = `/admin/customers/export${customerListSearch({ q: query.q, sort: query.sort, dir: query.dir })}`;
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Customers</h1>
        <p className="text-muted-foreground">Everyone with an account, and every guest who placed an order, one row per email address.</p>
      </div>
      <Form method="get" role="search" aria-label="Find customers" className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-0 flex-1 basis-56 gap-1.5">
          <Label htmlFor="customer-search">Search customers</Label>
          <Input
            id="customer-search"
            name="q"
            type="search"
            defaultValue={query.q}
            key={query.q}
            placeholder="Name or email"
            maxLength={100}
          />
        </div>
        {query.sort !== DEFAULT_CUSTOMER_SORT || query.dir !== DEFAULT_CUSTOMER_DIR ? (
          <>
            <input type="hidden" name="sort" value={query.sort} />
            <input type="hidden" name="dir" value={query.dir} />
          </>
        ) : null}
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
        {searching ? (
          <Button asChild variant="ghost">
            <Link to={`/admin/customers${customerListSearch({ q: "", sort: query.sort, dir: query.dir })}`}>
              <X aria-hidden="true" />
              Clear Search
            </Link>
          </Button>
        ) : null}
        <Button asChild variant="outline" className="ml-auto">
          <a href={exportHref} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </Form>
      <p className="text-sm text-muted-foreground" role="status">
        {totalCapped ? "More than " : ""}
        {total === 1 ? "1 customer" : `${total.toLocaleString("en-US")} customers`}
        {searching ? ` match “${query.q}”` : ""}, sorted by {sorted.label.replace(" (UTC)", "").toLowerCase()}{" "}
        {query.dir === "asc" ? "ascending" : "descending"}
        {closeMatches ? ". Exact matches come first, then close ones (a letter or two off)." : "."}
      </p>
      {rows.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">
          {searching
            ? `No customers match “${query.q}”. Check the spelling, or search by part of the email address.`
            : "No customers yet. Customers appear here when someone creates an account or places an order."}
        </p>
      ) : (
        <CustomerTable rows={rows} query={query} caption={`Customers, page ${query.page} of ${pages}`} />
      )}
      <Pagination
        label="Customer pages"
        page={query.page}
        pages={pages}
        href={(p) => `/admin/customers${customerListSearch({ ...query, page: p })}`}
        previous="Previous"
        next="Next"
        className="gap-2"
      />
      {capped ? (
        <p className="text-sm text-muted-foreground">
          The list opens its first {CUSTOMERS_MAX_PAGES.toLocaleString("en-US")} pages (
          {(CUSTOMERS_MAX_PAGES * CUSTOMERS_PAGE_SIZE).toLocaleString("en-US")} customers). Search, or sort the other way, to reach the
          others; the CSV export has them all.
        </p>
      ) : null}
    </div>
  );
}
