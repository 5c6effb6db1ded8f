import { useEffect, useState } from "react";
import { Button } from "~/components/ui/lean/button";
import { CART_NOTICE_EVENT, dismissCartNotice, readCartNotice } from "~/lib/cart-notice";

/** On the cart page: what the merge of this device's cart with the saved one could not keep, until dismissed. */
export function CartNotice() {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    const read = () => setLines(readCartNotice());
    read();
    window.addEventListener(CART_NOTICE_EVENT, read);
    return () => window.removeEventListener(CART_NOTICE_EVENT, read);
  }, []);
  if (lines.length === 0) return null;
  return (
    <section role="status" aria-labelledby="cart-notice-title" className="mt-6 rounded-lg border border-warning bg-warning/10 p-4 text-sm">
      <h2 id="cart-notice-title" className="font-semibold">
        Some items in your cart changed
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="mt-3"
        onClick={() => {
          dismissCartNotice();
          setLines([]);
        }}
      >
        Dismiss
      </Button>
    </section>
  );
}
