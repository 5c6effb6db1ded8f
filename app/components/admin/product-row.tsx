import { ExternalLink, Pencil, Power, PowerOff, Star, Trash2 } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { TableCell, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/money";
import type { AdminProductRow } from "~/lib/catalog-view";
import { useAdminAction } from "./use-admin-action";

export function ProductRow({
  product,
  selected,
  onSelectedChange,
  onEdit,
  onDelete,
  deleting,
}: {
  product: AdminProductRow;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onEdit: () => void;
  /** Asks the table to confirm and delete: the row is gone by the time the answer's toast shows. */
  onDelete: () => void;
  deleting: boolean;
}) {
  const status = useAdminAction({ action: "/admin/products" });
  // The new status shows at once, before the server answers, and reverts if it refuses (docs/rules/admin.md).
  const active = typeof status.pending?.active === "boolean" ? status.pending.active : product.active;
  const struck = product.originalPriceCents !== null && product.originalPriceCents > product.priceCents;

  return (
    <TableRow data-state={selected ? "selected" : undefined} aria-busy={deleting || undefined} className={deleting ? "opacity-50" : undefined}>
      <TableCell className="w-10">
        <Checkbox
          checked={selected}
          onCheckedChange={(v) => onSelectedChange(v === true)}
          aria-label={`Select ${product.name}`}
        />
      </TableCell>
      <TableCell className="max-w-72">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words">{product.name}</span>
          {product.featured && <Badge variant="secondary">Featured</Badge>}
        </div>
        {product.sku && <div className="text-xs text-muted-foreground">SKU {product.sku}</div>}
      </TableCell>
      <TableCell>{product.category}</TableCell>
      <TableCell className="whitespace-nowrap">
        <span>{formatMoney(product.priceCents)}</span>
        {struck && (
          <span className="ml-2 text-sm text-muted-foreground line-through">
            <span className="sr-only">was </span>
            {formatMoney(product.originalPriceCents!)}
          </span>
        )}
      </TableCell>
      <TableCell>
        {product.unlimitedStock ? (
          <Badge variant="secondary">Unlimited</Badge>
        ) : (
          <Badge variant={product.stockQuantity === 0 ? "destructive" : "outline"}>{product.stockQuantity}</Badge>
        )}
      </TableCell>
      <TableCell>
        <Badge variant={active ? "success" : "outline"}>{active ? "Active" : "Inactive"}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {product.reviewCount > 0 ? (
          <span className="inline-flex items-center gap-1">
            <Star className="size-3.5 fill-warning text-warning" aria-hidden="true" />
            {product.rating.toFixed(1)}
            <span className="text-muted-foreground">({product.reviewCount})</span>
          </span>
        ) : (
          <span aria-label="No rating">-</span>
        )}
      </TableCell>
      <TableCell>
        <div className="flex items-center justify-end gap-1">
          <Button asChild variant="ghost" size="icon" className="size-8">
            <a href={`/product/${product.id}`} target="_blank" rel="noopener noreferrer" aria-label={`View ${product.name} in the shop`}>
              <ExternalLink aria-hidden="true" />
            </a>
          </Button>
          <Button variant="ghost" size="icon" className="size-8" onClick={onEdit} aria-label={`Edit ${product.name}`}>
            <Pencil aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            disabled={status.busy}
            onClick={() => status.submit({ intent: "set-active", id: product.id, active: !active })}
            aria-label={`${active ? "Deactivate" : "Activate"} ${product.name}`}
          >
            {active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
          </Button>
          <Button variant="ghost" size="icon" className="size-8 text-destructive" disabled={deleting} onClick={onDelete} aria-label={`Delete ${product.name}`}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
