import { EMAIL_ABOUT_ORDER_FIELD, EMAIL_ABOUT_ORDER_HINT, EMAIL_ABOUT_ORDER_LABEL } from "~/lib/abandoned-checkout";

/**
 * The checkout's 'Email me about my order' box (docs/rules/after-sale.md, The abandoned-checkout
 * reminder): unticked unless the shopper ticks it; the page sends it with the checkout.
 */
export function EmailAboutOrder({ defaultChecked = false }: { defaultChecked?: boolean }) {
  return (
    <div className="flex items-start gap-3">
      <input
        id="checkout-email-about-order"
        type="checkbox"
        name={EMAIL_ABOUT_ORDER_FIELD}
        defaultChecked={defaultChecked}
        className="mt-0.5 size-4 shrink-0 accent-primary"
        aria-describedby="checkout-email-about-order-hint"
      />
      <div className="grid gap-1">
        <label htmlFor="checkout-email-about-order" className="text-sm font-medium leading-none">
          {EMAIL_ABOUT_ORDER_LABEL}
        </label>
        <p id="checkout-email-about-order-hint" className="text-sm text-muted-foreground">
          {EMAIL_ABOUT_ORDER_HINT}
        </p>
      </div>
    </div>
  );
}
