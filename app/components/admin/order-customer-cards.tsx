import { Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { AdminOrderView } from "~/lib/orders-view";
import { UtcTime } from "./utc-time";

type OrderView = Pick<AdminOrderView, "paidAt" | "stockReturned" | "customer" | "shipping" | "payment">;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1 text-sm break-words">{children}</CardContent>
    </Card>
  );
}

const PROVIDERS: Record<string, string> = { test: "Test payment provider", stripe: "Stripe" };

/** Who ordered (and their account, when signed in at checkout), where it goes, how it was paid. */
export function OrderCustomerCards({ order }: { order: OrderView }) {
  const { customer, shipping, payment } = order;
  return (
    <>
      <Section title="Customer">
        <p className="font-medium">{customer.name}</p>
        <p>
          <a href={`mailto:${encodeURIComponent(customer.email)}`} className="text-primary hover:underline break-all">
            {customer.email}
          </a>
        </p>
        {customer.phone ? <p>{customer.phone}</p> : null}
        {customer.account ? (
          <p className="mt-2">
            Signed in as {customer.account.email}.{" "}
            <Link to={`/admin/orders?customer=${encodeURIComponent(customer.account.id)}`} className="text-primary hover:underline">
              All orders from this account
            </Link>
          </p>
        ) : (
          <p className="mt-2 text-muted-foreground">Guest checkout (not signed in).</p>
        )}
      </Section>
      <Section title="Shipping address">
        <address className="not-italic">
          {customer.name}
          <br />
          {shipping.address}
          <br />
          {shipping.city}, {shipping.state} {shipping.zipCode}
          <br />
          {shipping.country}
        </address>
      </Section>
      <Section title="Payment">
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-muted-foreground">Provider</dt>
          <dd>{PROVIDERS[payment.provider] ?? payment.provider}</dd>
          <dt className="text-muted-foreground">Reference</dt>
          <dd className="font-mono text-xs break-all">{payment.reference ?? "None yet (not paid)"}</dd>
          {payment.sessionId ? (
            <>
              <dt className="text-muted-foreground">Session</dt>
              <dd className="font-mono text-xs break-all">{payment.sessionId}</dd>
            </>
          ) : null}
          {order.paidAt ? (
            <>
              <dt className="text-muted-foreground">Paid</dt>
              <dd>
                <UtcTime iso={order.paidAt} withZone />
              </dd>
            </>
          ) : null}
          {order.stockReturned ? (
            <>
              <dt className="text-muted-foreground">Stock</dt>
              <dd>Returned to the shelves</dd>
            </>
          ) : null}
        </dl>
      </Section>
    </>
  );
}
