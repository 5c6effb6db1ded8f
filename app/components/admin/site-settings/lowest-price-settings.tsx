import { useId } from "react";
import { LOWEST_PRICE_FIELD, LOWEST_PRICE_SETTING_LABEL, type LowestPriceSetting } from "~/lib/lowest-price";
import { CheckboxSetting, SettingCard } from "./setting-card";

/** Where the card saves (app/routes/admin/site-settings-prices.ts). */
export const LOWEST_PRICE_SETTINGS_ACTION = "/admin/site-settings/prices";

/**
 * Site Settings → Prices (docs/rules/lowest-price.md): whether a reduced product shows its lowest
 * price of the 30 days before the reduction. Saved on its own, like the reminder's card.
 */
export function LowestPriceSettings({ setting }: { setting: LowestPriceSetting }) {
  const id = useId();
  return (
    <SettingCard
      title="Prices"
      action={LOWEST_PRICE_SETTINGS_ACTION}
      saveLabel="Save prices"
      description="Every price you set is kept with its date. A product with a struck-through original price can say what it cost at its lowest in the 30 days before the reduction began, as EU law asks of shops that announce reductions."
    >
      {(errors) => (
        <CheckboxSetting
          id={id}
          name={LOWEST_PRICE_FIELD}
          defaultChecked={setting.showBesideReductions}
          label={LOWEST_PRICE_SETTING_LABEL}
          hint="Shown on the product's page, its card and its search-engine data: 'Lowest price in the last 30 days: $X'."
          error={errors[LOWEST_PRICE_FIELD]}
        />
      )}
    </SettingCard>
  );
}
