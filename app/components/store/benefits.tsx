import { Award } from "~/components/ui/lean/icons/award";
import { Leaf } from "~/components/ui/lean/icons/leaf";
import { Moon } from "~/components/ui/lean/icons/moon";
import { Truck } from "~/components/ui/lean/icons/truck";

/**
 * The benefits strip (docs/rules/storefront.md). The free-shipping line comes from the shop's
 * shipping rates through the home loader ('On every order', 'On all orders over $75'); without
 * one the item is left out rather than claim what the checkout would not do.
 */
export const BENEFITS = [
  { icon: Moon, title: "100 Night Trial", text: "Sleep on it, risk-free" },
  { icon: Leaf, title: "Eco-Friendly", text: "Natural, responsibly sourced materials" },
  { icon: Award, title: "Premium Quality", text: "Made to last, night after night" },
] as const;

export function Benefits({ freeShipping }: { freeShipping: string | null }) {
  const items = freeShipping ? [{ icon: Truck, title: "Free Shipping", text: freeShipping }, ...BENEFITS] : BENEFITS;
  return (
    <section aria-labelledby="benefits-title" className="border-y bg-muted/40">
      <h2 id="benefits-title" className="sr-only">
        Why shop with us
      </h2>
      <ul
        className={`mx-auto grid max-w-7xl gap-6 px-4 py-10 sm:grid-cols-2 ${items.length === 4 ? "lg:grid-cols-4" : "lg:grid-cols-3"}`}
      >
        {items.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex items-center gap-4">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
              <Icon className="size-6" aria-hidden />
            </span>
            <span>
              <span className="block font-semibold">{title}</span>
              <span className="block text-sm text-muted-foreground">{text}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
