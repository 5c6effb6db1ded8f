import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { BuyAgain } from "~/components/account/buy-again";
import { OrderStatusBadge } from "~/components/account/order-status-badge";
import {
  formatOrderDate,
  OrderMoneyList,
  ShippingAddress,
  ShopperOrderLines,
  ShopperOrderTimeline,
} from "~/components/account/shopper-order-parts";
import { OrderRefunds, type ShopperRefund } from "~/components/account/order-refunds";
import { OrderReturns } from "~/components/account/order-returns";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { getCurrentUser, invariantResponse, requireUser } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { buyAgain, findViewableOrder, getShopperOrder, orderMoney, orderMovements, orderReturnsView, type OrderViewer } from "~/server/commerce/index.server";
import type { Route } from "./+types/order";

/**
 * The shopper's order page (docs/rules/after-sale.md, The shopper's order page): its signed-in
 * owner, or anyone with the signed link from the confirmation mail (`?t=`). Every refusal is the
 * same 404, so the page never tells whether an order exists. Without a token a visitor who is
 * not signed in is asked to sign in first, whatever the number.
 */
async function viewerOf(request: Request, formToken?: string | null): Promise<OrderViewer> {
  const token = new URL(request.url).searchParams.get("t") || formToken || null;
  const user = token ? await getCurrentUser(request) : await requireUser(request);
  return { userId: user?.id ?? null, token };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await viewerOf(request);
  const db = getDb();
  const [order, found] = await Promise.all([getShopperOrder(db, params.orderNumber, viewer), findViewableOrder(db, params.orderNumber, viewer)]);
  invariantResponse(order && found, "Not Found");
  const [refunds, returns] = await Promise.all([refundsOf(db, found.id), orderReturnsView(db, found)]);
  return { order, token: viewer.token, signedIn: viewer.userId !== null, ...refunds, returns };
}

/**
 * The order's refunds from its ledger: done only once the provider confirmed it (dated then), in
 * progress while pending or being retried after a refusal; one the shop gave up (closed) is not shown.
 */
async function refundsOf(db: ReturnType<typeof getDb>, orderId: string) {
  const [movements, money] = await Promise.all([orderMovements(db, orderId), orderMoney(db, orderId)]);
  const refunds: ShopperRefund[] = movements
    .filter((m) => m.kind === "refund" && m.closedAt === null)
    .map((m) => ({
      id: m.id,
      amountCents: m.amountCents,
      state: m.state === "succeeded" ? "done" : "in_progress",
      at: (m.state === "succeeded" ? (m.settledAt ?? m.createdAt) : m.createdAt).toISOString(),
    }));
  return { refunds, refundedCents: money.refundedCents, balanceCents: money.balanceCents };
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const token = form.get("t");
  const viewer = await viewerOf(request, typeof token === "string" ? token : null);
  const db = getDb();
  const order = await findViewableOrder(db, params.orderNumber, viewer);
  invariantResponse(order, "Not Found");
  if (form.get("intent") !== "buy-again") return respond({ kind: "bad_input", message: "Unknown request." });
  return { buyAgain: await buyAgain(db, order.id) };
}

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: data?.order ? `Order ${data.order.orderNumber} — ${brandFrom(matches)}` : `Page not found — ${brandFrom(matches)}` },
  { name: "description", content: "Your order: its status, items and delivery." },
  { name: "robots", content: "noindex" },
];

export default function ShopperOrderPage({ loaderData }: Route.ComponentProps) {
  const { order, token, signedIn } = loaderData;
  return (
    <div className="mx-auto grid max-w-4xl gap-6 px-4 py-10">
      {signedIn ? (
        <Link to="/profile?tab=orders" className="inline-flex w-fit items-center gap-1 text-sm font-medium hover:underline">
          <ArrowLeft className="size-4" aria-hidden />
          Back to your orders
        </Link>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold break-all">Order #{order.orderNumber}</h1>
        <OrderStatusBadge status={order.status} />
        <p className="w-full text-sm text-muted-foreground">
          Placed <time dateTime={order.createdAt}>{formatOrderDate(order.createdAt)}</time>
        </p>
      </div>
      <div className="grid gap-6 md:grid-cols-3">
        <div className="grid content-start gap-6 md:col-span-2">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Status: {order.statusText}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ShopperOrderTimeline steps={order.timeline} shipment={order.shipment} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Items</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-6">
              <ShopperOrderLines lines={order.lines} />
              <OrderMoneyList money={order} />
              <OrderRefunds refunds={loaderData.refunds} refundedCents={loaderData.refundedCents} balanceCents={loaderData.balanceCents} />
            </CardContent>
          </Card>
        </div>
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Shipping address</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ShippingAddress address={order.address} />
            </CardContent>
          </Card>
          {loaderData.returns.returns.length || loaderData.returns.windowOpen || loaderData.returns.windowClosed || loaderData.returns.withdrawalOpen ? (
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Returns</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <OrderReturns view={loaderData.returns} orderNumber={order.orderNumber} token={token} />
              </CardContent>
            </Card>
          ) : null}
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Order again</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <BuyAgain token={token} />
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
