/** A quantity of an order line given back to stock or written off by a refund or a return. */
export type StockMoveRow = { id: string; kind: "restocked" | "written_off"; quantity: number; name: string };

const LABEL = { restocked: "Restocked", written_off: "Written off" } as const;

/** Under the order's items: what its refunds and returns did with the stock, each move once. */
export function OrderStockMoves({ moves }: { moves: StockMoveRow[] }) {
  return (
    <ul className="mt-4 grid gap-1 border-t pt-3 text-sm" aria-label="Stock moves">
      {moves.map((m) => (
        <li key={m.id}>
          {LABEL[m.kind]}: {m.quantity} × {m.name}
        </li>
      ))}
    </ul>
  );
}
