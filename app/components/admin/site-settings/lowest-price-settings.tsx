import { Loader2, Save } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { LOWEST_PRICE_FIELD, LOWEST_PRICE_SETTING_LABEL, type LowestPriceSetting, type LowestPriceSettingAnswer } from "~/lib/lowest-price";

/** Where the card saves (app/routes/admin/site-settings-prices.ts). */
export const LOWEST_PRICE_SETTINGS_ACTION = "/admin/site-settings/prices";

/**
 * Site Settings → Prices (docs/rules/lowest-price.md): whether a reduced product shows its lowest
 * price of the 30 days before the reduction. Saved on its own, like the reminder's card.
 */
export function LowestPriceSettings({ setting }: { setting: LowestPriceSetting }) {
  const fetcher = useFetcher<LowestPriceSettingAnswer>();
  const busy = fetcher.state !== "idle";
  const id = useId();

  const announced = useRef<unknown>(null);
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle" || announced.current === answer) return;
    announced.current = answer;
    if (answer.ok) toast.success(answer.message);
    else toast.error(answer.message);
  }, [fetcher.data, fetcher.state]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Prices</h2>
        </CardTitle>
        <CardDescription>
          Every price you set is kept with its date. A product with a struck-through original price can say what it cost at its
          lowest in the 30 days before the reduction began, as EU law asks of shops that announce reductions.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" action={LOWEST_PRICE_SETTINGS_ACTION} className="space-y-4" aria-label="Prices">
          <div className="flex items-start gap-3">
            <input
              id={id}
              type="checkbox"
              name={LOWEST_PRICE_FIELD}
              defaultChecked={setting.showBesideReductions}
              className="mt-0.5 size-4 shrink-0 accent-primary"
            />
            <div className="grid gap-1">
              <label htmlFor={id} className="text-sm font-medium leading-none">
                {LOWEST_PRICE_SETTING_LABEL}
              </label>
              <p className="text-sm text-muted-foreground">
                Shown on the product's page, its card and its search-engine data: 'Lowest price in the last 30 days: $X'.
              </p>
            </div>
          </div>
          <Button type="submit" name="intent" value="save" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            Save prices
          </Button>
          <div role="status" className="text-sm empty:hidden">
            {fetcher.state === "idle" && fetcher.data ? fetcher.data.message : null}
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
