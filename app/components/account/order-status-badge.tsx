import { Badge } from "~/components/ui/badge";

const VARIANTS = {
  completed: "success",
  processing: "info",
  pending: "warning",
  cancelled: "destructive",
} as const;

/** Completed green, processing blue, pending yellow, cancelled red, anything else grey (docs/rules/catalogue-data.md, Order). */
export function orderStatusVariant(status: string) {
  return Object.hasOwn(VARIANTS, status) ? VARIANTS[status as keyof typeof VARIANTS] : "neutral";
}

export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={orderStatusVariant(status)} data-status={status} className="capitalize">
      {status}
    </Badge>
  );
}
