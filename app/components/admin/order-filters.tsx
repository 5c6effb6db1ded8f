import { Download, Search, X } from "lucide-react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";

export const ORDER_STATUS_FILTERS = [
  { value: "all", label: "All statuses" },
  { value: "pending", label: "Pending" },
  { value: "processing", label: "Processing" },
  { value: "shipped", label: "Shipped" },
  { value: "completed", label: "Completed" },
  { value: "cancelled", label: "Cancelled" },
] as const;

/** The payment state, as the order ledger says (docs/money-path.md, "Who reads the ledger"). */
export const ORDER_PAYMENT_FILTERS = [
  { value: "all", label: "Any payment" },
  { value: "unpaid", label: "Unpaid" },
  { value: "paid", label: "Paid" },
  { value: "partially_refunded", label: "Partially refunded" },
  { value: "refunded", label: "Refunded" },
] as const;

export type OrderFilterValues = { status: string; q: string; customer: string | null; needs?: string | null; payment?: string };

/** The dashboard's 'Needs attention' filters (`?needs=`), as the list describes them. */
export const ORDER_NEEDS_LABELS: Record<string, string> = {
  unshipped: "Showing paid orders not yet shipped 2 days after payment.",
  "refund-failed": "Showing orders whose automatic refund failed: refund them by hand at the payment provider.",
  "refund-to-confirm": "Showing orders paid a different amount than their total: confirm the refund on each order's page.",
};

/** The list's query string for these filters (page 1 unless given); defaults are left out. */
export function orderListSearch(f: OrderFilterValues, page = 1) {
  const p = new URLSearchParams();
  if (f.q) p.set("q", f.q);
  if (f.status !== "all") p.set("status", f.status);
  if (f.payment && f.payment !== "all") p.set("payment", f.payment);
  if (f.customer) p.set("customer", f.customer);
  if (f.needs) p.set("needs", f.needs);
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** A GET form (works without JavaScript); the button applies the search and the status together. */
export function OrderFilters({ filters, customerLabel }: { filters: OrderFilterValues; customerLabel: string | null }) {
  const payment = filters.payment ?? "all";
  const active = filters.q !== "" || filters.status !== "all" || payment !== "all" || filters.customer !== null || Boolean(filters.needs);
  const exportHref = `/admin/orders/export${orderListSearch(filters)}`;
  return (
    <div className="grid gap-3">
      <Form method="get" role="search" aria-label="Filter orders" className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-0 flex-1 basis-56 gap-1.5">
          <Label htmlFor="order-search">Search orders</Label>
          <Input
            id="order-search"
            name="q"
            type="search"
            defaultValue={filters.q}
            key={filters.q}
            placeholder="Order number, email or name"
            maxLength={100}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="order-status">Status</Label>
          <NativeSelect
            id="order-status"
            name="status"
            defaultValue={filters.status}
            key={filters.status}
          >
            {ORDER_STATUS_FILTERS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="order-payment">Payment</Label>
          <NativeSelect id="order-payment" name="payment" defaultValue={payment} key={payment}>
            {ORDER_PAYMENT_FILTERS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        {filters.customer ? <input type="hidden" name="customer" value={filters.customer} /> : null}
        {filters.needs ? <input type="hidden" name="needs" value={filters.needs} /> : null}
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
        {active ? (
          <Button asChild variant="ghost">
            <Link to="/admin/orders">
              <X aria-hidden="true" />
              Clear Filters
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
      {filters.needs && ORDER_NEEDS_LABELS[filters.needs] ? (
        <p className="text-sm text-muted-foreground">{ORDER_NEEDS_LABELS[filters.needs]}</p>
      ) : null}
      {filters.customer ? (
        <p className="text-sm text-muted-foreground">
          Showing orders placed by the account <span className="font-medium text-foreground break-all">{customerLabel ?? "no longer found"}</span>.
        </p>
      ) : null}
    </div>
  );
}
