import { Pencil, Power, PowerOff, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import {
  DISCOUNT_STATUS_LABELS,
  discountValueLabel,
  usesLabel,
  type AdminDiscountRow,
  type DiscountStatus,
} from "~/lib/discounts-view";
import { formatMoney } from "~/lib/money";
import { ConfirmDelete } from "./confirm-delete";
import { useAdminAction } from "./use-admin-action";
import { UtcTime } from "./utc-time";

const STATUS_LOOK: Record<DiscountStatus, "success" | "info" | "neutral" | "warning" | "outline"> = {
  active: "success",
  scheduled: "info",
  expired: "neutral",
  used_up: "warning",
  inactive: "outline",
};

export function DiscountStatusBadge({ status }: { status: DiscountStatus }) {
  return (
    <Badge variant={STATUS_LOOK[status]} data-status={status}>
      {DISCOUNT_STATUS_LABELS[status]}
    </Badge>
  );
}

function Dates({ row }: { row: AdminDiscountRow }) {
  if (!row.startsAt && !row.endsAt) return <span className="text-muted-foreground">Always</span>;
  return (
    <div className="space-y-0.5 text-xs">
      {row.startsAt ? (
        <div>
          From <UtcTime iso={row.startsAt} />
        </div>
      ) : null}
      {row.endsAt ? (
        <div>
          Until <UtcTime iso={row.endsAt} />
        </div>
      ) : null}
    </div>
  );
}

function DiscountRow({ row, onDelete, deleting }: { row: AdminDiscountRow; onDelete: () => void; deleting: boolean }) {
  const toggle = useAdminAction({ action: "/admin/discounts" });
  const conditions = [
    row.minSubtotalCents !== null ? `Min. ${formatMoney(row.minSubtotalCents)}` : null,
    row.oncePerEmail ? "Once per email" : null,
    row.restricted ? "Some products" : null,
  ].filter(Boolean);
  return (
    <TableRow data-code={row.code} aria-busy={deleting || undefined} className={deleting ? "opacity-50" : undefined}>
      <TableCell className="font-mono font-medium break-all">{row.code}</TableCell>
      <TableCell>
        <div className="whitespace-nowrap">{discountValueLabel(row)}</div>
        {conditions.length ? <div className="text-xs text-muted-foreground">{conditions.join(" · ")}</div> : null}
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums" data-uses>
        {usesLabel(row)}
      </TableCell>
      <TableCell>
        <DiscountStatusBadge status={row.status} />
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <Dates row={row} />
      </TableCell>
      <TableCell>
        <div className="flex items-center justify-end gap-1">
          <Button asChild variant="ghost" size="icon" className="size-8">
            <Link to={`/admin/discounts/${row.id}`} aria-label={`Edit ${row.code}`}>
              <Pencil aria-hidden="true" />
            </Link>
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            disabled={toggle.busy}
            onClick={() => toggle.submit({ intent: "set-active", id: row.id, active: !row.active })}
            aria-label={`${row.active ? "Deactivate" : "Activate"} ${row.code}`}
          >
            {row.active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-8 text-destructive"
            disabled={deleting}
            onClick={onDelete}
            aria-label={`Delete ${row.code}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}

/** The codes of one page, newest first (docs/rules/admin.md, Discounts). */
export function DiscountTable({ rows, caption }: { rows: AdminDiscountRow[]; caption: string }) {
  const remove = useAdminAction({ action: "/admin/discounts" });
  // One confirmation for the whole table, so its answer outlives the deleted row.
  const [confirming, setConfirming] = useState<AdminDiscountRow | null>(null);
  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table>
        <caption className="sr-only">{caption}</caption>
        <TableHeader>
          <TableRow>
            <TableHead>Code</TableHead>
            <TableHead>Discount</TableHead>
            <TableHead>Uses</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Dates (UTC)</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <DiscountRow key={row.id} row={row} onDelete={() => setConfirming(row)} deleting={remove.pending?.id === row.id} />
          ))}
        </TableBody>
      </Table>
      <ConfirmDelete
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Delete Discount Code"
        description={`Are you sure you want to delete "${confirming?.code ?? ""}"? This action cannot be undone. A code that has been used can only be deactivated.`}
        onConfirm={() => confirming && remove.submit({ intent: "delete", id: confirming.id })}
      />
    </div>
  );
}
