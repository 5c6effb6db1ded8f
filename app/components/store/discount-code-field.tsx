import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/lean/button";
import { Input } from "~/components/ui/lean/input";
import { Label } from "~/components/ui/lean/label";
import { discountCodeStore, useDiscountCode } from "~/lib/discount-code";
import { DISCOUNT_MESSAGES, type DiscountReview } from "~/lib/pricing-view";

type Notice = { ok: boolean; text: string } | null;

/**
 * The discount code as the shopper enters it: the code being tried goes into the next quote; the
 * server's verdict either stores it (shared by the cart, the checkout and other tabs) or says why
 * not, in the shop's exact words.
 */
export function useDiscountEntry() {
  const applied = useDiscountCode();
  const [trying, setTrying] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const settle = useCallback(
    (verdict: DiscountReview | null) => {
      if (!verdict) return;
      if (trying !== null) {
        if (verdict.code.toLowerCase() !== trying.trim().slice(0, 64).toLowerCase()) return;
        setTrying(null);
        if (verdict.applied) {
          discountCodeStore.set(verdict.code);
          setNotice({ ok: true, text: DISCOUNT_MESSAGES.applied });
        } else {
          setNotice({ ok: false, text: verdict.message });
        }
      } else if (applied && !verdict.applied) {
        // The stored code stopped applying (deactivated, the cart fell below its minimum…).
        setNotice({ ok: false, text: verdict.message });
      }
    },
    [trying, applied],
  );

  return {
    /** The code the quote should be asked with. */
    code: trying ?? applied,
    applied,
    busy: trying !== null,
    notice,
    settle,
    apply: (code: string) => {
      setNotice(null);
      const typed = code.trim();
      if (!typed) setNotice({ ok: false, text: DISCOUNT_MESSAGES.notValid });
      else setTrying(typed);
    },
    remove: () => {
      discountCodeStore.set("");
      setTrying(null);
      setNotice(null);
    },
  };
}

export type DiscountEntry = ReturnType<typeof useDiscountEntry>;

/** 'Discount code' with 'Apply', or the applied code with 'Remove'. */
export function DiscountCodeField({ entry, verdict }: { entry: DiscountEntry; verdict: DiscountReview | null }) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const { settle } = entry;
  useEffect(() => settle(verdict), [verdict, settle]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    entry.apply(draft);
  };
  const notice = entry.notice ? (
    <p role={entry.notice.ok ? "status" : "alert"} className={entry.notice.ok ? "text-sm text-success" : "text-sm text-destructive"}>
      {entry.notice.text}
    </p>
  ) : null;

  if (entry.applied && !entry.busy) {
    return (
      <div className="grid gap-1.5">
        <div className="flex items-center justify-between gap-2 text-sm">
          <span>
            Discount code <span className="font-medium">{entry.applied}</span>
          </span>
          <Button type="button" variant="outline" size="sm" onClick={entry.remove} aria-label={`Remove discount code ${entry.applied}`}>
            Remove
          </Button>
        </div>
        {notice}
      </div>
    );
  }
  // Not a <form>: on the checkout page this sits inside the order form.
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Discount code</Label>
      <div className="flex gap-2">
        <div className="min-w-0 flex-1">
          <Input
            id={id}
            value={draft}
            autoComplete="off"
            maxLength={500}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") submit(e);
            }}
          />
        </div>
        <Button type="button" variant="outline" onClick={submit} disabled={entry.busy}>
          Apply
        </Button>
      </div>
      {notice}
    </div>
  );
}
