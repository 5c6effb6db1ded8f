// The sales chart, drawn with recharts. Only the Analytics page imports it, and lazily
// (sales-chart-panel.tsx), so neither the storefront nor the admin's first load carries the chart
// library. Gross revenue is solid bars and refunds hatched-looking light bars on the left axis, net
// sales a solid line with square dots on the same axis, orders a dashed line with round dots on the
// right: each tells apart by shape and by the legend's words, not by colour alone.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ChartPoint } from "~/lib/analytics-view";
import { formatMoney } from "~/lib/money";

const compactDollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 1 });

export default function SalesChart({ points }: { points: ChartPoint[] }) {
  const data = points.map((p) => ({ label: p.label, revenue: p.revenueCents / 100, refunds: p.refundedCents / 100, net: p.netCents / 100, orders: p.orders }));
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
            name === "Paid orders" ? [String(value), name] : [formatMoney(Math.round(Number(value) * 100)), name]
          }
        />
        <Legend />
        <Bar yAxisId="revenue" dataKey="revenue" name="Gross sales" fill="var(--primary)" fillOpacity={0.75} />
        <Bar yAxisId="revenue" dataKey="refunds" name="Refunds" fill="var(--destructive)" fillOpacity={0.35} stroke="var(--destructive)" />
        <Line
          yAxisId="revenue"
          dataKey="net"
          name="Net sales"
          type="monotone"
          stroke="var(--primary)"
          strokeWidth={2}
          dot={{ r: 3, fill: "var(--primary)" }}
          legendType="square"
        />
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
