import { ArrowLeft } from "lucide-react";
import { Link, type ShouldRevalidateFunctionArgs, data } from "react-router";
import { z } from "zod";
import { CustomerAccountActions } from "~/components/admin/customer-account-actions";
import { CustomerPrivacyActions } from "~/components/admin/customer-privacy-actions";
import { AdminOrderStatusBadge, PaymentStatusBadge } from "~/components/admin/order-status-badge";
import { UtcTime } from "~/components/admin/utc-time";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { CustomerView } from "~/lib/customers-view";
import { formatMoney } from "~/lib/money";
import type { AdminActionResult } from "~/lib/product-input";
import { ALREADY_ERASED, CUSTOMER_GONE, ERASE_ACCOUNT_INTENT, ERASE_FAILED, ERASE_GUEST_INTENT, ERASED_TOAST } from "~/lib/privacy-admin";
import { respond } from "~/routes/_edge/errors.server";
import { invariantResponse, requireAdmin } from "~/routes/_edge/guards.server";
import { readActionBody } from "~/server/catalog/index.server";
import {
  CustomerActionError,
  CustomerActionInput,
  eraseAccount,
  eraseGuestData,
  erasurePreview,
  findCustomer,
  getCustomer,
  getRetentionSetting,
  runCustomerAccountAction,
} from "~/server/people/index.server";
import { DomainError, getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/customer";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const customer = await getCustomer(getDb(), params.id);
  invariantResponse(customer, "Customer not found");
  // What 'Erase' would take, counted for its confirmation (an account's; a guest's list is fixed).
  const erasure = customer.account ? await erasurePreview(getDb(), customer.account.id, (await getRetentionSetting(getDb())).years) : null;
  return { customer, erasure };
}

/** 'Erase' (docs/rules/personal-data.md, The owner's side): which erasure, the reviews choice, and the account the form was shown for. */
const EraseInput = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal(ERASE_ACCOUNT_INTENT),
    account: z.string().min(1),
    reviews: z.enum(["delete", "keep"]).catch("delete"),
  }),
  z.object({ intent: z.literal(ERASE_GUEST_INTENT) }),
]);

/**
 * Erases the customer: an account with eraseAccount, a guest's data with eraseGuestData, each in
 * one transaction with its audit row naming the admin. A form shown before someone else erased the
 * customer (the row is gone, or the account it named is) erases nothing and says so.
 */
async function eraseCustomer(customerId: string, admin: { id: string }, body: Record<string, unknown>) {
  const db = getDb();
  const input = EraseInput.safeParse(body);
  if (!input.success) {
    return respond<AdminActionResult>(
      { kind: "bad_input" },
      {
        ok: false,
        title: ERASE_FAILED,
        message: input.error.issues[0]!.message,
      },
    );
  }
  const customer = await findCustomer(db, customerId);
  if (!customer) return respond<AdminActionResult>({ kind: "not_found" }, { ok: false, title: ERASE_FAILED, message: CUSTOMER_GONE });
  const stale = input.data.intent === ERASE_ACCOUNT_INTENT ? customer.userId !== input.data.account : customer.userId !== null;
  if (stale) return respond<AdminActionResult>({ kind: "stale" }, { ok: false, title: ERASE_FAILED, message: ALREADY_ERASED });
  try {
    if (input.data.intent === ERASE_ACCOUNT_INTENT) {
      await eraseAccount(db, input.data.account, {
        reviews: input.data.reviews,
        actor: { kind: "admin", id: admin.id },
      });
    } else {
      await eraseGuestData(db, customer.emailKey, {
        kind: "admin",
        id: admin.id,
      });
    }
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const message = err.kind === "not_found" ? ALREADY_ERASED : err.message;
    return respond<AdminActionResult>(err, {
      ok: false,
      title: ERASE_FAILED,
      message,
    });
  }
  return data<AdminActionResult>({ ok: true, message: ERASED_TOAST });
}

const FAILED = "Email not sent";

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const db = getDb();
  const body = await readActionBody(request);
  if (body.intent === ERASE_ACCOUNT_INTENT || body.intent === ERASE_GUEST_INTENT) return eraseCustomer(params.id, admin, body);
  invariantResponse(await findCustomer(db, params.id), "Customer not found");
  const input = CustomerActionInput.safeParse(body);
  if (!input.success) {
    return respond<AdminActionResult>({ kind: "bad_input" }, { ok: false, title: FAILED, message: input.error.issues[0]!.message });
  }
  try {
    const message = await runCustomerAccountAction(db, request, {
      customerId: params.id,
      action: input.data.intent,
      admin,
    });
    return data<AdminActionResult>({ ok: true, message });
  } catch (err) {
    if (!(err instanceof CustomerActionError)) throw err;
    return respond<AdminActionResult>(err, {
      ok: false,
      title: FAILED,
      message: err.message,
    });
  }
}

/**
 * After an erasure the page is left for the customer list; loading it again first would meet a
 * customer that is gone (a 404 page instead of the toast).
 */
export function shouldRevalidate({ json, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const intent = json && typeof json === "object" && "intent" in json ? json.intent : undefined;
  return intent === ERASE_ACCOUNT_INTENT || intent === ERASE_GUEST_INTENT ? false : defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ data }) => [
  {
    title: `${data?.customer ? data.customer.name || data.customer.email : "Customer"} — Customers — Admin`,
  },
  {
    name: "description",
    content: "A customer: profile, orders, addresses, messages and newsletter status.",
  },
  { name: "robots", content: "noindex" },
];

const NEWSLETTER_TEXT: Record<CustomerView["newsletter"], string> = {
  subscribed: "Subscribed (confirmed)",
  pending: "Signed up, confirmation pending",
  none: "Not subscribed",
};

export default function AdminCustomerPage({ loaderData }: Route.ComponentProps) {
  const { customer: c, erasure } = loaderData;
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-6 p-4 md:p-6">
      <Button asChild variant="ghost" className="w-fit">
        <Link to="/admin/customers">
          <ArrowLeft aria-hidden="true" />
          Back to Customers
        </Link>
      </Button>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight break-all md:text-3xl">{c.name || c.email}</h1>
        <Badge variant={c.account ? "info" : "neutral"}>{c.account ? "Account" : "Guest"}</Badge>
        {c.newsletter === "subscribed" ? <Badge variant="success">Newsletter</Badge> : null}
        <p className="w-full text-sm text-muted-foreground break-all">
          {c.email} · customer since <UtcTime iso={c.since} withZone />
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
        <Figure label="Orders">{c.ordersCount}</Figure>
        <Figure label="Total spent">{formatMoney(c.spentCents)}</Figure>
        <Figure label="First order">{c.firstOrderAt ? <UtcTime iso={c.firstOrderAt} withZone /> : "None"}</Figure>
        <Figure label="Last order">{c.lastOrderAt ? <UtcTime iso={c.lastOrderAt} withZone /> : "None"}</Figure>
      </dl>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="grid min-w-0 grid-cols-1 gap-6 lg:col-span-2 lg:content-start">
          <OrdersCard customer={c} />
          <MessagesCard customer={c} />
          <AddressesCard customer={c} />
        </div>
        <div className="grid min-w-0 grid-cols-1 gap-6 lg:content-start">
          <ProfileCard customer={c} />
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Newsletter</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <p data-testid="customer-newsletter">{NEWSLETTER_TEXT[c.newsletter]}</p>
            </CardContent>
          </Card>
          {c.account ? (
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Account actions</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <CustomerAccountActions customerId={c.id} account={c.account} />
              </CardContent>
            </Card>
          ) : null}
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Personal data</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <CustomerPrivacyActions customer={c} erasure={erasure} />
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}

function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-lg border p-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums">{children}</dd>
    </div>
  );
}

function ProfileCard({ customer: c }: { customer: CustomerView }) {
  const a = c.account;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Profile</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {a ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Name</dt>
            <dd>{a.name || "Not given"}</dd>
            <dt className="text-muted-foreground">Email</dt>
            <dd className="break-all">{a.email}</dd>
            <dt className="text-muted-foreground">Email confirmed</dt>
            <dd>{a.verified ? "Yes" : "No"}</dd>
            <dt className="text-muted-foreground">Phone</dt>
            <dd>{a.phone || "Not given"}</dd>
            <dt className="text-muted-foreground">Role</dt>
            <dd className="capitalize">{a.role}</dd>
            <dt className="text-muted-foreground">Account created</dt>
            <dd>
              <UtcTime iso={a.createdAt} withZone />
            </dd>
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">A guest: no account uses this address. The name is the one given with the latest order.</p>
        )}
        {a ? (
          <p className="mt-4 text-sm">
            <Link to={`/admin/orders?customer=${encodeURIComponent(a.id)}`} className="text-primary hover:underline">
              Orders placed while signed in to this account
            </Link>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function OrdersCard({ customer: c }: { customer: CustomerView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Orders</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        {c.orders.length === 0 ? (
          <p className="text-sm text-muted-foreground">No orders placed with this address.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <Table>
              <caption className="sr-only">Orders placed with {c.email}, newest first</caption>
              <TableHeader>
                <TableRow>
                  <TableHead>Order</TableHead>
                  <TableHead>Date (UTC)</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Payment</TableHead>
                  <TableHead className="text-right">Total</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {c.orders.map((o) => (
                  <TableRow key={o.id}>
                    <TableCell className="font-medium whitespace-nowrap">
                      <Link to={`/admin/orders/${o.id}`} className="text-primary hover:underline">
                        {o.orderNumber}
                      </Link>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      <UtcTime iso={o.createdAt} />
                    </TableCell>
                    <TableCell>
                      <AdminOrderStatusBadge status={o.status} />
                    </TableCell>
                    <TableCell>
                      <PaymentStatusBadge status={o.paymentStatus} />
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(o.totalAmountCents)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        {c.moreOrders ? (
          <p className="text-sm">
            Only the newest {c.orders.length} are listed.{" "}
            <Link to={`/admin/orders?q=${encodeURIComponent(c.email)}`} className="text-primary hover:underline">
              See every order with this address
            </Link>
          </p>
        ) : null}
        <p className="text-xs text-muted-foreground">Orders and total spent count paid orders that were not cancelled or refunded.</p>
      </CardContent>
    </Card>
  );
}

function MessagesCard({ customer: c }: { customer: CustomerView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Contact messages</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {c.messages.length === 0 ? (
          <p className="text-sm text-muted-foreground">No messages sent from this address.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Contact messages">
            {c.messages.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <Link to={`/admin/inbox/${m.id}`} className="min-w-0 truncate text-primary hover:underline">
                  {m.subject || "(no subject)"}
                </Link>
                <span className="flex items-center gap-2 text-muted-foreground">
                  <UtcTime iso={m.createdAt} withZone />
                  <Badge variant={m.handled ? "neutral" : "warning"}>{m.handled ? "Handled" : "Open"}</Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
        {c.moreMessages ? <p className="mt-3 text-sm text-muted-foreground">Only the newest {c.messages.length} are listed.</p> : null}
      </CardContent>
    </Card>
  );
}

function AddressesCard({ customer: c }: { customer: CustomerView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Addresses used on orders</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {c.addresses.length === 0 ? (
          <p className="text-sm text-muted-foreground">No orders, so no addresses yet.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2" aria-label="Addresses used on orders">
            {c.addresses.map((a) => (
              <li key={`${a.address}|${a.city}|${a.state}|${a.zipCode}|${a.country}`} className="rounded-md border p-3 text-sm">
                <address className="not-italic">
                  {a.address}
                  <br />
                  {a.city}, {a.state} {a.zipCode}
                  <br />
                  {a.country}
                </address>
                <p className="mt-2 text-xs text-muted-foreground">
                  {a.orders === 1 ? "1 order" : `${a.orders} orders`}, last <UtcTime iso={a.lastUsedAt} withZone />
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
