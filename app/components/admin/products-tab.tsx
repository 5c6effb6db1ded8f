import { ArrowDown, ArrowUp, ArrowUpDown, PackageX, Pencil, Plus, Search } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { NO_PRODUCTS_SELECTED } from "~/lib/product-input";
import type { AdminProductListQuery, AdminProductPage, AdminProductRow, AdminSort, CategoryOption } from "~/lib/catalog-view";
import { BulkEditDialog } from "./bulk-edit-dialog";
import { ConfirmDelete } from "./confirm-delete";
import { ProductDialog } from "./product-dialog";
import { ProductRow } from "./product-row";
import { useAdminAction } from "./use-admin-action";

const number = new Intl.NumberFormat("en-US");

const COLUMNS: { label: string; sort?: AdminSort; className?: string }[] = [
  { label: "Name", sort: "name" },
  { label: "Category", sort: "category" },
  { label: "Price", sort: "price" },
  { label: "Stock", sort: "stock" },
  { label: "Status", sort: "status" },
  { label: "Rating", sort: "rating" },
  { label: "Actions", className: "text-right" },
];

export function ProductsTab({
  page,
  query,
  categories,
  openNew,
}: {
  page: AdminProductPage | null;
  query: AdminProductListQuery;
  categories: CategoryOption[];
  openNew: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const rows = useMemo(() => page?.rows ?? [], [page]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | "new" | null>(openNew ? "new" : null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [search, setSearch] = useState(query.q);
  const remove = useAdminAction({ action: "/admin/products" });
  // One confirmation for the whole table: a dialog per row would cost every page render.
  const [confirming, setConfirming] = useState<AdminProductRow | null>(null);

  // A selection only holds rows still on the page (after a delete, a search or paging).
  useEffect(() => {
    setSelected((prev) => {
      const ids = new Set(rows.map((r) => r.id));
      const kept = [...prev].filter((id) => ids.has(id));
      return kept.length === prev.size ? prev : new Set(kept);
    });
  }, [rows]);

  useEffect(() => {
    if (openNew) setEditing("new");
  }, [openNew]);

  // The box follows the URL when it changes by other means (Back, a link), not when it is our
  // own search arriving while the admin keeps typing.
  const pushedSearch = useRef(query.q);
  useEffect(() => {
    if (query.q !== pushedSearch.current) setSearch(query.q);
    pushedSearch.current = query.q;
  }, [query.q]);

  // Search as the admin types, once they pause; each search starts at page 1.
  useEffect(() => {
    if (search.trim() === query.q) return;
    const timer = setTimeout(() => {
      pushedSearch.current = search.trim();
      update({ q: search.trim() || null, page: null }, true);
    }, 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  function update(changes: Record<string, string | null>, replace = false) {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { replace, preventScrollReset: true });
  }

  function pageHref(n: number) {
    const next = new URLSearchParams(params);
    if (n <= 1) next.delete("page");
    else next.set("page", String(n));
    return `?${next}`;
  }

  function sortBy(sort: AdminSort) {
    const dir = query.sort === sort ? (query.dir === "asc" ? "desc" : "asc") : null;
    update({ sort: sort === "created" ? null : sort, dir, page: null });
  }

  function closeEditor() {
    setEditing(null);
    if (params.has("new")) {
      const next = new URLSearchParams(params);
      next.delete("new");
      navigate({ search: next.toString() ? `?${next}` : "" }, { replace: true, preventScrollReset: true });
    }
  }

  function openBulkEdit() {
    if (selected.size === 0) {
      const [title, description] = NO_PRODUCTS_SELECTED.split(": ");
      toast.error(title!, { description });
      return;
    }
    setBulkOpen(true);
  }

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const someSelected = !allSelected && rows.some((r) => selected.has(r.id));
  const total = page?.total ?? 0;
  const first = total === 0 ? 0 : (query.page - 1) * (page?.pageSize ?? 25) + 1;
  const last = first === 0 ? 0 : first + rows.length - 1;
  const hasNext = page ? rows.length === page.pageSize && (last < total || page.totalCapped) : false;

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex w-full flex-wrap items-center gap-2 sm:max-w-xl">
          <div className="relative min-w-0 flex-1 basis-56 sm:max-w-sm">
            <Search className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              type="search"
              aria-label="Search products"
              placeholder="Search name, category, description or SKU"
              className="pl-9"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <Button
            variant={query.lowStock ? "secondary" : "outline"}
            aria-pressed={Boolean(query.lowStock)}
            onClick={() => update({ stock: query.lowStock ? null : "low", page: null })}
          >
            <PackageX aria-hidden="true" /> Low stock only
          </Button>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {selected.size > 0 && (
            <>
              <span className="text-sm text-muted-foreground" aria-live="polite">
                {selected.size} selected
              </span>
              <Button variant="outline" onClick={openBulkEdit}>
                <Pencil aria-hidden="true" /> Bulk Edit
              </Button>
            </>
          )}
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden="true" /> Add Product
          </Button>
        </div>
      </div>

      {query.lowStock ? (
        <p className="text-sm text-muted-foreground">
          Showing active products with counted stock at or below their low-stock threshold (the shop's default unless a product has its own).
        </p>
      ) : null}
      <Card className="py-0">
        <CardContent className="px-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="w-10">
                  <Checkbox
                    checked={allSelected ? true : someSelected ? "indeterminate" : false}
                    disabled={rows.length === 0}
                    onCheckedChange={(v) => setSelected(v === true ? new Set(rows.map((r) => r.id)) : new Set())}
                    aria-label="Select all products on this page"
                  />
                </TableHead>
                {COLUMNS.map((c) => (
                  <TableHead
                    key={c.label}
                    className={c.className}
                    aria-sort={c.sort && query.sort === c.sort ? (query.dir === "asc" ? "ascending" : "descending") : undefined}
                  >
                    {c.sort ? (
                      <Button variant="ghost" size="sm" className="-ml-2 h-8" onClick={() => sortBy(c.sort!)}>
                        {c.label}
                        {query.sort === c.sort ? (
                          query.dir === "asc" ? <ArrowUp aria-hidden="true" /> : <ArrowDown aria-hidden="true" />
                        ) : (
                          <ArrowUpDown className="opacity-40" aria-hidden="true" />
                        )}
                      </Button>
                    ) : (
                      c.label
                    )}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((p) => (
                <ProductRow
                  key={p.id}
                  product={p}
                  selected={selected.has(p.id)}
                  onSelectedChange={(on) =>
                    setSelected((prev) => {
                      const next = new Set(prev);
                      if (on) next.add(p.id);
                      else next.delete(p.id);
                      return next;
                    })
                  }
                  onEdit={() => setEditing(p.id)}
                  onDelete={() => setConfirming(p)}
                  deleting={remove.pending?.id === p.id}
                />
              ))}
              {rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length + 1} className="py-12 text-center text-muted-foreground">
                    {!page
                      ? "Products could not be loaded."
                      : query.lowStock && !query.q
                        ? "No product is at or below its low-stock threshold."
                        : query.q
                        ? `No products match "${query.q}".`
                        : query.page > 1
                          ? "No products on this page."
                          : "No products found. Import your CSV file to get started!"}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </CardContent>
      </Card>

      <nav className="flex flex-col items-center justify-between gap-2 text-sm sm:flex-row" aria-label="Pages">
        <p className="text-muted-foreground" aria-live="polite">
          {rows.length === 0
            ? `${number.format(total)}${page?.totalCapped ? "+" : ""} products`
            : `Showing ${number.format(first)}–${number.format(last)} of ${number.format(total)}${page?.totalCapped ? "+" : ""} products`}
        </p>
        <div className="flex items-center gap-2">
          {query.page > 1 ? (
            <Button asChild variant="outline" size="sm">
              <Link to={pageHref(query.page - 1)} preventScrollReset>
                Previous
              </Link>
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled>
              Previous
            </Button>
          )}
          <span className="px-2">Page {number.format(query.page)}</span>
          {hasNext ? (
            <Button asChild variant="outline" size="sm">
              <Link to={pageHref(query.page + 1)} preventScrollReset>
                Next
              </Link>
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled>
              Next
            </Button>
          )}
        </div>
      </nav>

      <ConfirmDelete
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Delete Product"
        description={`Are you sure you want to delete "${confirming?.name ?? ""}"? This action cannot be undone.`}
        onConfirm={() => confirming && remove.submit({ intent: "delete", id: confirming.id })}
      />
      {editing && <ProductDialog productId={editing} onClose={closeEditor} />}
      <BulkEditDialog
        open={bulkOpen}
        ids={[...selected]}
        stockSeen={Object.fromEntries(rows.filter((r) => selected.has(r.id)).map((r) => [r.id, r.unlimitedStock ? null : r.stockQuantity]))}
        categories={categories}
        onOpenChange={setBulkOpen}
        onDone={() => {
          setBulkOpen(false);
          setSelected(new Set());
        }}
      />
    </div>
  );
}
