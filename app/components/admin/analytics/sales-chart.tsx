// The revenue-and-orders chart, drawn with recharts. Only the Analytics page imports it, and
// lazily (sales-chart-panel.tsx), so neither the storefront nor the admin's first load carries
// the chart library. Revenue is bars on the left axis, orders a dashed line with dots on the
// right: the two tell apart by shape and by the legend's words, not by colour alone.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ChartPoint } from "~/lib/analytics-view";
import { formatMoney } from "~/lib/money";

const compactDollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 1 });

export default function SalesChart({ points }: { points: ChartPoint[] }) {
  const data = points.map((p) => ({ label: p.label, revenue: p.revenueCents / 100, orders: p.orders }));
  return (
    <ResponsiveContainer width="100%" height={320}>
      <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 16 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} />
        <YAxis
          yAxisId="revenue"
          tickFormatter={(v: number) => compactDollars.format(v)}
          tick={{ fontSize: 12 }}
          label={{ value: "Revenue (USD)", angle: -90, position: "insideLeft", style: { textAnchor: "middle", fontSize: 12 } }}
        />
        <YAxis
          yAxisId="orders"
          orientation="right"
          allowDecimals={false}
          tick={{ fontSize: 12 }}
          label={{ value: "Paid orders", angle: 90, position: "insideRight", style: { textAnchor: "middle", fontSize: 12 } }}
        />
        <Tooltip
          formatter={(value, name) =>
            name === "Revenue" ? [formatMoney(Math.round(Number(value) * 100)), name] : [String(value), name]
          }
        />
        <Legend />
        <Bar yAxisId="revenue" dataKey="revenue" name="Revenue" fill="var(--primary)" fillOpacity={0.75} />
        <Line
          yAxisId="orders"
          dataKey="orders"
          name="Paid orders"
          type="monotone"
          stroke="var(--foreground)"
          strokeWidth={2}
          strokeDasharray="6 3"
          // Solid dots on the dashed line (a dot would otherwise inherit the dashes).
          dot={{ r: 3, strokeDasharray: "0", fill: "var(--foreground)" }}
          activeDot={{ r: 5, strokeDasharray: "0" }}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
