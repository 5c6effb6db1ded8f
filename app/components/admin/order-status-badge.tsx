import { orderStatusVariant } from "~/components/account/order-status-badge";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/utils";

/**
 * The admin order badges (docs/rules/admin.md, Orders): completed, pending, shipped and cancelled badges (plus processing), and
 * an unknown status in the pending look. Same colours as the account page's badge, except that
 * shipped gets its own look (an outlined blue, apart from processing's solid blue).
 */
export function adminOrderStatusLook(status: string) {
  if (status === "shipped") return "shipped" as const;
  const variant = orderStatusVariant(status);
  return variant === "neutral" ? ("warning" as const) : variant;
}

export function AdminOrderStatusBadge({ status }: { status: string }) {
  const look = adminOrderStatusLook(status);
  return (
    <Badge
      variant={look === "shipped" ? "outline" : look}
      data-status={status}
      data-look={look}
      className={cn("capitalize", look === "shipped" && "border-info text-info")}
    >
      {status}
    </Badge>
  );
}

const PAYMENT_LOOK: Record<string, "success" | "warning" | "destructive" | "secondary"> = {
  paid: "success",
  unpaid: "warning",
  failed: "destructive",
  expired: "secondary",
  refunded: "secondary",
  partially_refunded: "warning",
};

/** Statuses whose name is not one word (the others show as stored, capitalised). */
const PAYMENT_LABEL: Record<string, string> = { partially_refunded: "Partially refunded" };

export function PaymentStatusBadge({ status }: { status: string }) {
  const variant = Object.hasOwn(PAYMENT_LOOK, status) ? PAYMENT_LOOK[status] : "secondary";
  return (
    <Badge variant={variant} data-payment-status={status} className="capitalize">
      {PAYMENT_LABEL[status] ?? status}
    </Badge>
  );
}
