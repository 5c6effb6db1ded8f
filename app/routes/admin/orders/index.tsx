import { redirect } from "react-router";
import { OrderFilters, orderListSearch } from "~/components/admin/order-filters";
import { OrderStatCards } from "~/components/admin/order-stat-cards";
import { OrderTable } from "~/components/admin/order-table";
import { Pagination } from "~/components/admin/pagination";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { getAdminOrderStats, getCustomerLabel, listAdminOrders, parseAdminOrderQuery } from "~/server/commerce/index.server";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = getDb();
  const query = parseAdminOrderQuery(new URL(request.url));
  const [list, stats, customerLabel] = await Promise.all([
    listAdminOrders(db, query),
    getAdminOrderStats(db),
    query.customer ? getCustomerLabel(db, query.customer) : null,
  ]);
  // A page past the end (an old link, a narrower search) shows the last page instead of an empty table.
  if (query.page > list.pages) throw redirect(`/admin/orders${orderListSearch(query, list.pages)}`);
  return { query, stats, customerLabel, ...list };
}

export const meta: Route.MetaFunction = () => [
  { title: "Order Management — Admin" },
  { name: "description", content: "The shop's orders: find, open, fulfil, cancel and export them." },
  { name: "robots", content: "noindex" },
];

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { query, stats, customerLabel, orders, total, pages } = loaderData;
  const filtered = query.q !== "" || query.status !== "all" || (query.payment ?? "all") !== "all" || query.customer !== null || query.needs != null;
  const page = query.page;
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Order Management</h1>
        <p className="text-muted-foreground">Find, fulfil and follow up the shop's orders.</p>
      </div>
      <OrderStatCards stats={stats} />
      <OrderFilters filters={query} customerLabel={customerLabel} />
      <p className="text-sm text-muted-foreground" role="status">
        {total === 1 ? "1 order" : `${total.toLocaleString("en-US")} orders`}
        {filtered ? " match these filters" : ""}
      </p>
      {orders.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">
          {filtered ? "No orders match these filters." : "No orders yet. Orders appear here once shoppers check out."}
        </p>
      ) : (
        <OrderTable orders={orders} caption={`Orders, page ${page} of ${pages}`} />
      )}
      <Pagination
        label="Order pages"
        page={page}
        pages={pages}
        href={(p) => `/admin/orders${orderListSearch(query, p)}`}
        previous="Previous"
        next="Next"
        className="gap-2"
      />
    </div>
  );
}
