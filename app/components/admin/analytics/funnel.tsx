import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { type FunnelStep, VISITORS_PER_ADDRESS_PER_MINUTE } from "~/lib/analytics-view";

const number = new Intl.NumberFormat("en-US");
const percent = (n: number) => `${n.toLocaleString("en-US", { maximumFractionDigits: 1 })}%`;

function dropText(step: FunnelStep, index: number) {
  if (index === 0) return "—";
  if (step.dropPercent === null) return "No one at the step before";
  if (step.dropPercent < 0) return `${percent(-step.dropPercent)} more than the step before`;
  return `${percent(step.dropPercent)} drop`;
}

/**
 * Visitors → product viewers → cart adders → checkout starters → paid orders, with the share
 * lost at each step. A table (numbers for everyone) with a bar per step drawn in proportion to
 * the first.
 */
export function Funnel({ steps }: { steps: FunnelStep[] }) {
  const first = steps[0]?.count ?? 0;
  const noVisits = steps.slice(0, 4).every((s) => s.count === 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 id="funnel-heading">Funnel</h2>
        </CardTitle>
        <CardDescription>
          Visitors counted once a day at each step, without cookies; the last step is the range's paid orders.
        </CardDescription>
        <CardDescription data-testid="visitor-counting">
          A visitor is one browser (its network address and user agent), at most {VISITORS_PER_ADDRESS_PER_MINUTE} a
          minute from one network address (an IPv6 network by its /64); bots and admin pages are not counted.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {noVisits ? (
          <p className="text-sm text-muted-foreground">No visits were counted in this range yet.</p>
        ) : null}
        <table className="w-full text-sm" aria-labelledby="funnel-heading" data-testid="funnel">
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="py-2 pr-2 font-medium">
                Step
              </th>
              <th scope="col" className="py-2 pr-2 text-right font-medium">
                Count
              </th>
              <th scope="col" className="py-2 pr-2 text-right font-medium">
                Drop from the step before
              </th>
              <th scope="col" className="hidden w-1/3 py-2 sm:table-cell">
                <span className="sr-only">Share of visitors</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {steps.map((step, i) => (
              <tr key={step.key} className="border-b last:border-0">
                <th scope="row" className="py-2 pr-2 text-left font-normal">
                  {step.label}
                </th>
                <td className="py-2 pr-2 text-right tabular-nums">{number.format(step.count)}</td>
                <td className="py-2 pr-2 text-right tabular-nums">{dropText(step, i)}</td>
                <td className="hidden py-2 sm:table-cell" aria-hidden="true">
                  <div className="h-3 rounded-sm bg-muted">
                    <div
                      className="h-3 rounded-sm bg-primary"
                      style={{ width: `${first > 0 ? Math.min(100, Math.round((step.count / first) * 100)) : 0}%` }}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
