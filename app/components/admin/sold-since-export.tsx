import type { SoldSinceExport } from "~/lib/import-view";

export type StockChoice = "subtract" | "file";

const units = (n: number) => n.toLocaleString("en-US");
// Net of cancelled sales' returns: a product can have more back than sold since the export.
const moved = (n: number) => (n >= 0 ? `${units(n)} sold` : `${units(-n)} returned`);

/**
 * The check screen's question when a re-imported export's stock is older than sales made since
 * (docs/rules/catalogue-data.md, "Stock in a re-imported export"): subtract them (the default)
 * or set the file's stock as it is.
 */
export function SoldSinceExportChoice({
  sold,
  choice,
  onChoose,
  disabled,
}: {
  sold: SoldSinceExport;
  choice: StockChoice;
  onChoose: (choice: StockChoice) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="space-y-3 rounded-md border border-warning/40 bg-warning/5 p-4" disabled={disabled}>
      <legend className="px-1 font-medium">
        {sold.units === 0 ? "Stock changed by sales" : moved(sold.units)} since this file was exported
      </legend>
      <p className="text-sm text-muted-foreground">
        The file's stock was read before these sales: set as it is, it would sell units that are gone (or hide units that came back).
      </p>
      <ul className="space-y-1 text-sm">
        {sold.lines.map((l) => (
          <li key={l.sku}>
            {l.name} ({l.sku}): {moved(l.sold)}, file {units(l.fileStock)} → {units(l.stockAfter)}
          </li>
        ))}
        {sold.products > sold.lines.length ? <li className="text-muted-foreground">and {units(sold.products - sold.lines.length)} more products</li> : null}
      </ul>
      <div className="space-y-2">
        {(
          [
            ["subtract", "Subtract sales since export"],
            ["file", "Use the file's stock"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input type="radio" name="import-stock" value={value} checked={choice === value} onChange={() => onChoose(value)} className="size-4 accent-primary" />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
