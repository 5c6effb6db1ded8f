import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { Form, Link, data, type ShouldRevalidateFunctionArgs } from "react-router";
import { toast } from "sonner";
import "~/lib/zod-config"; // before this module builds its schema (see zod-config.ts)
import { z } from "zod";
import { AdminOrderStatusBadge, PaymentStatusBadge } from "~/components/admin/order-status-badge";
import { OrderCustomerCards } from "~/components/admin/order-customer-cards";
import { OrderStatusActions } from "~/components/admin/order-status-actions";
import { OrderLines } from "~/components/admin/order-summary";
import { OrderPayments } from "~/components/admin/order-payments";
import { FailedRefunds, useRefundToasts, type FailedRefundRow } from "~/components/admin/failed-refunds";
import { OrderStockMoves, type StockMoveRow } from "~/components/admin/order-stock-moves";
import { REFUND_FETCHER, RefundDialog } from "~/components/admin/refund-dialog";
import { UtcTime } from "~/components/admin/utc-time";
import { OrderTimeline } from "~/components/admin/order-timeline";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { getDb } from "~/server/platform/http/index.server";
import { invariantResponse, requireAdmin } from "~/routes/_edge/guards.server";
import {
  changeOrderStatus,
  confirmRefundDifference,
  findOrderId,
  getAdminOrder,
  isOrderStatus,
  OrderChangeError,
  orderMoney,
  orderMovements,
  orderStockMoves,
  refundableFor,
  returnToRefund,
  type StatusChangeResult,
} from "~/server/commerce/index.server";
import { formatMoney } from "~/lib/money";
import type { RefundableView } from "~/lib/refund-input";
import { refundAction } from "./refund-action.server";
import { respond } from "~/routes/_edge/errors.server";
import type { Route } from "./+types/order";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const order = await getAdminOrder(getDb(), params.id);
  invariantResponse(order, "Order not found");
  const db = getDb();
  const [movements, money, refundable, stockMoves, forReturn] = await Promise.all([
    orderMovements(db, order.id),
    orderMoney(db, order.id),
    refundableFor(db, order.id),
    orderStockMoves(db, order.id),
    returnToRefund(db, order.id, new URL(request.url).searchParams.get("refundReturn")),
  ]);
  const payments = movements.map((m) => ({ id: m.id, createdAt: m.createdAt.toISOString(), kind: m.kind, amountCents: m.amountCents, state: m.closedAt ? ("closed" as const) : m.state, providerReference: m.providerReference }));
  const failedRefunds: FailedRefundRow[] = movements
    .filter((m) => m.kind === "refund" && m.state === "failed" && m.closedAt === null)
    .map((m) => ({ id: m.id, createdAt: m.createdAt.toISOString(), amountCents: m.amountCents, reason: m.reason }));
  const moves: StockMoveRow[] = stockMoves.map((m) => ({ id: m.id, kind: m.kind, quantity: m.quantity, name: m.name }));
  // A refund can be made of a paid order (shipped or not) while something of it is left to give back.
  const canRefund = refundable !== null && (money.paymentState === "paid" || money.paymentState === "partially_refunded") && refundable.maxRefundCents > 0;
  const refund: RefundableView | null = canRefund
    ? {
        version: refundable.version,
        lines: refundable.lines.map((l) => ({
          orderItemId: l.orderItemId,
          name: l.name,
          quantity: l.quantity,
          refundedQuantity: l.refundedQuantity,
          refundableQuantity: l.refundableQuantity,
          refundableCents: l.refundableCents,
          stockTracked: l.stockTracked,
        })),
        shippingRefundableCents: refundable.shipping.refundableCents,
        maxRefundCents: refundable.maxRefundCents,
      }
    : null;
  // The Refund link of a received return (/admin/returns) opens the dialog with its lines.
  return { order, payments, balanceCents: money.balanceCents, refund, refundReturn: refund ? forReturn : null, failedRefunds, stockMoves: moves };
}

const StatusForm = z.object({
  intent: z.literal("status", { error: "This action is not supported" }),
  to: z.string().refine(isOrderStatus, { error: "Unknown status" }),
  version: z.coerce.number({ error: "Reload the order and try again." }).int().positive("Reload the order and try again."),
  carrier: z.string().max(20).optional(),
  trackingNumber: z.string().max(1000, "The tracking number is too long (100 characters at most).").optional(),
  trackingUrl: z.string().max(5000, "The tracking address is too long (2000 characters at most).").optional(),
  refund: z.string().optional(),
});

export type OrderActionResult = { ok: true; message: string } | { ok: false; message: string; code?: string };

function successMessage(r: StatusChangeResult) {
  if (r.to === "shipped") return "Order marked as shipped. The customer has been emailed.";
  if (r.to !== "cancelled") return `Order marked as ${r.to}.`;
  const parts = ["Order cancelled."];
  if (r.stockReturned) parts.push("Its items are back in stock.");
  if (r.refund === "refunded") parts.push("The payment was refunded.");
  if (r.refund === "failed") parts.push("The refund failed: refund this payment by hand.");
  return parts.join(" ");
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const db = getDb();
  const orderId = await findOrderId(db, params.id);
  invariantResponse(orderId, "Order not found");
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "refund" || form.intent === "retry-refund" || form.intent === "close-refund") {
    return refundAction(db, orderId, form, { actorUserId: admin.id, actorLabel: admin.name || admin.email });
  }
  if (form.intent === "confirm-refund") {
    const outcome = await confirmRefundDifference(db, orderId, { actorUserId: admin.id, actorLabel: admin.name || admin.email });
    if (outcome === "done") return data<OrderActionResult>({ ok: true, message: "The refund was sent." });
    if (outcome === "missing") return respond<OrderActionResult>({ kind: "conflict" }, { ok: false, message: "There is no refund to confirm on this order." });
    return data<OrderActionResult>({ ok: false, message: "The refund failed: it will be tried again. Refund it by hand if it keeps failing." });
  }
  const parsed = StatusForm.safeParse(form);
  if (!parsed.success) {
    return respond<OrderActionResult>({ kind: "bad_input" }, { ok: false, message: parsed.error.issues[0]!.message });
  }
  const input = parsed.data;
  try {
    const result = await changeOrderStatus(db, {
      orderId,
      to: input.to as Parameters<typeof changeOrderStatus>[1]["to"],
      expectedVersion: input.version,
      actor: { id: admin.id, name: admin.name, email: admin.email },
      carrier: input.carrier,
      trackingNumber: input.trackingNumber,
      trackingUrl: input.trackingUrl,
      refund: input.refund === "yes",
    });
    return data<OrderActionResult>({ ok: true, message: successMessage(result) });
  } catch (err) {
    if (!(err instanceof OrderChangeError)) throw err;
    invariantResponse(err.code !== "not_found", "Order not found");
    return respond<OrderActionResult>(err, { ok: false, message: err.message, code: err.code });
  }
}

/** After any change, refused ones included, the page reloads the order: a refusal usually means it moved on. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.order ? `Order ${data.order.orderNumber}` : "Order"} — Order Management — Admin` },
  { name: "description", content: "An order: its items, customer, payment and history." },
  { name: "robots", content: "noindex" },
];

export default function AdminOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order } = loaderData;
  useRefundToasts(REFUND_FETCHER);
  useEffect(() => {
    if (!actionData || "intent" in actionData) return;
    if (actionData.ok) toast.success(actionData.message);
    else toast.error("Status not changed", { description: actionData.message });
  }, [actionData]);
  const placedBy = order.customer.account ? `${order.customer.name} (signed in)` : `${order.customer.name} (guest checkout)`;
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-6 p-4 md:p-6">
      <Button asChild variant="ghost" className="w-fit">
        <Link to="/admin/orders">
          <ArrowLeft aria-hidden="true" />
          Back to Orders
        </Link>
      </Button>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight break-all md:text-3xl">Order {order.orderNumber}</h1>
        <AdminOrderStatusBadge status={order.status} />
        <PaymentStatusBadge status={order.paymentStatus} />
        <p className="w-full text-sm text-muted-foreground">
          Placed <UtcTime iso={order.createdAt} withZone />
        </p>
      </div>
      {actionData && !("intent" in actionData) ? (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={
            actionData.ok
              ? "rounded-md border border-success/40 p-3 text-sm"
              : "rounded-md border border-destructive/40 p-3 text-sm text-destructive"
          }
        >
          {actionData.message}
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="grid min-w-0 grid-cols-1 gap-6 lg:col-span-2 lg:content-start">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Items</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <OrderLines lines={order.lines} totals={order} />
              {loaderData.stockMoves.length > 0 ? <OrderStockMoves moves={loaderData.stockMoves} /> : null}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Timeline</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <OrderTimeline placedAt={order.createdAt} placedBy={placedBy} events={order.events} />
            </CardContent>
          </Card>
        </div>
        <div className="grid min-w-0 grid-cols-1 gap-6 lg:content-start">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Status</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <OrderStatusActions
                orderNumber={order.orderNumber}
                version={order.version}
                moves={order.moves}
                paid={order.paymentStatus === "paid"}
                totalAmountCents={order.totalAmountCents}
              />
            </CardContent>
          </Card>
          <OrderPayments rows={loaderData.payments} balanceCents={loaderData.balanceCents}>
            {loaderData.refund ? <RefundDialog refundable={loaderData.refund} orderNumber={order.orderNumber} forReturn={loaderData.refundReturn} /> : null}
          </OrderPayments>
          {loaderData.failedRefunds.length > 0 ? <FailedRefunds rows={loaderData.failedRefunds} /> : null}
          {order.refundToConfirm ? <RefundToConfirm amountCents={order.refundToConfirm.amountCents} /> : null}
          <OrderCustomerCards order={order} />
        </div>
      </div>
    </div>
  );
}

/** A payment that did not match the order's total: the refund it calls for, made when the owner confirms. */
function RefundToConfirm({ amountCents }: { amountCents: number | null }) {
  const what = amountCents === null ? "the whole payment" : formatMoney(amountCents);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Refund to confirm</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p>The payment did not match this order&apos;s total (see the timeline). Refund {what} to the customer?</p>
        <Form method="post">
          <input type="hidden" name="intent" value="confirm-refund" />
          <Button type="submit">Confirm refund of {what}</Button>
        </Form>
      </CardContent>
    </Card>
  );
}
