import { DollarSign, Package, Receipt, Undo2, ShoppingCart, UserPlus, Users, Wallet } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { AnalyticsFigures, ComparedFigure } from "~/lib/analytics-view";
import { formatMoney } from "~/lib/money";
import { FigureChange } from "./figure-change";

const number = new Intl.NumberFormat("en-US");

type CardSpec = {
  key: keyof AnalyticsFigures;
  title: string;
  icon: typeof DollarSign;
  show: (n: number) => string;
  note: string;
};

const CARDS: CardSpec[] = [
  { key: "revenueCents", title: "Revenue", icon: DollarSign, show: formatMoney, note: "Gross: orders paid in this range, even if refunded later" },
  { key: "orders", title: "Paid orders", icon: ShoppingCart, show: (n) => number.format(n), note: "Orders paid in this range" },
  { key: "averageOrderCents", title: "Average order value", icon: Receipt, show: formatMoney, note: "Revenue ÷ paid orders" },
  { key: "units", title: "Units sold", icon: Package, show: (n) => number.format(n), note: "Items in paid orders" },
  { key: "newCustomers", title: "New customers", icon: UserPlus, show: (n) => number.format(n), note: "First paid order in this range" },
  { key: "returningCustomers", title: "Returning customers", icon: Users, show: (n) => number.format(n), note: "Ordered again after an earlier order" },
  { key: "refundedCents", title: "Refunds", icon: Undo2, show: formatMoney, note: "On the day each succeeded, whenever the order was paid" },
  { key: "netSalesCents", title: "Net sales", icon: Wallet, show: formatMoney, note: "Revenue less refunds" },
];

function previousText(spec: CardSpec, figure: ComparedFigure) {
  return figure.previous === null ? "no orders before" : `${spec.show(figure.previous)} before`;
}

/** The figures of the range, each with its change against the previous period. */
export function FigureCards({ figures }: { figures: AnalyticsFigures }) {
  return (
    <section aria-labelledby="figures-heading">
      <h2 id="figures-heading" className="sr-only">
        Figures
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {CARDS.map((spec) => {
        const figure = figures[spec.key];
        return (
          <li key={spec.key}>
            <Card className="h-full gap-2">
              <CardHeader className="flex flex-row items-center justify-between">
                <CardTitle className="text-sm font-medium">
                  <h3>{spec.title}</h3>
                </CardTitle>
                <spec.icon className="size-4 text-muted-foreground" aria-hidden="true" />
              </CardHeader>
              <CardContent className="grid gap-1">
                <p className="text-2xl font-bold" data-testid={`figure-${spec.key}`}>
                  {figure.current === null ? "—" : spec.show(figure.current)}
                  {figure.current === null ? <span className="sr-only">no orders in this range</span> : null}
                </p>
                <p className="flex flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground" data-testid={`change-${spec.key}`}>
                  {figure.current === null ? (
                    <span>No orders in this range</span>
                  ) : figure.previous === null ? (
                    <span>No orders in the previous period</span>
                  ) : (
                    <>
                      <FigureChange change={figure.change} />
                      <span>({previousText(spec, figure)})</span>
                    </>
                  )}
                </p>
                <p className="text-xs text-muted-foreground">{spec.note}</p>
              </CardContent>
            </Card>
          </li>
        );
      })}
      </ul>
    </section>
  );
}
