import { Download, Trash2 } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import type { CustomerView } from "~/lib/customers-view";
import {
  customerDataPath,
  ERASE_ACCOUNT_INTENT,
  ERASE_CONFIRM,
  ERASE_DIALOG_TITLE,
  ERASE_GUEST_INTENT,
  ERASE_LABEL,
  EXPORT_LABEL,
} from "~/lib/privacy-admin";
import { useAdminAction } from "./use-admin-action";

/** What the erasure would take (the server's erasurePreview, for an account). */
export type ErasureCounts = {
  addresses: number;
  sessions: number;
  reviews: number;
  newsletter: boolean;
  savedCartLines: number;
  orders: number;
  ordersKeptUntil: string | null;
  orderBeingPaid: boolean;
};

const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The customer page's 'Personal data' card, for requests that come by mail (docs/rules/personal-data.md,
 * The owner's side): 'Export data' downloads the ZIP the customer would get; 'Erase' opens a
 * confirmation naming what goes and what stays, then erases and returns to the customer list.
 */
export function CustomerPrivacyActions({ customer: c, erasure }: { customer: CustomerView; erasure: ErasureCounts | null }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [reviews, setReviews] = useState<"delete" | "keep">("delete");
  const { busy, submit } = useAdminAction({
    action: `/admin/customers/${c.id}`,
    onSuccess: () => {
      setOpen(false);
      void navigate("/admin/customers");
    },
    onFailure: () => setOpen(false),
  });
  const confirm = () => submit(c.account ? { intent: ERASE_ACCOUNT_INTENT, account: c.account.id, reviews } : { intent: ERASE_GUEST_INTENT });

  return (
    <div className="grid gap-3">
      <Button asChild variant="outline">
        {/* A download, not a page: the browser keeps the customer page open. */}
        <a href={customerDataPath(c.id)} download>
          <Download aria-hidden="true" />
          {EXPORT_LABEL}
        </a>
      </Button>
      <AlertDialog open={open} onOpenChange={setOpen}>
        <AlertDialogTrigger asChild>
          <Button variant="destructive">
            <Trash2 aria-hidden="true" />
            {ERASE_LABEL}
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent className="max-h-[90vh] overflow-y-auto">
          <AlertDialogHeader>
            <AlertDialogTitle>{ERASE_DIALOG_TITLE}</AlertDialogTitle>
            <AlertDialogDescription>
              {c.account ? `The account ${c.email} is erased at once.` : `The data held under ${c.email} is erased at once.`} This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          {c.account && erasure ? <AccountErasure erasure={erasure} reviews={reviews} onReviews={setReviews} /> : <GuestErasure />}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
            {/* Not an AlertDialogAction: the dialog stays open until the server has answered. */}
            <Button variant="destructive" onClick={confirm} disabled={busy}>
              {busy ? "Erasing…" : ERASE_CONFIRM}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <p className="text-xs text-muted-foreground">For requests that come by mail. Both are written to the privacy log.</p>
    </div>
  );
}

function AccountErasure({
  erasure: e,
  reviews,
  onReviews,
}: {
  erasure: ErasureCounts;
  reviews: "delete" | "keep";
  onReviews: (v: "delete" | "keep") => void;
}) {
  return (
    <div className="grid gap-3 text-sm">
      <div>
        <h3 className="font-medium">What goes</h3>
        <ul className="list-disc pl-5" aria-label="What goes">
          <li>The account, its sign-in and {n(e.sessions, "session", "sessions")}</li>
          <li>{n(e.addresses, "saved address", "saved addresses")}</li>
          <li>The saved cart ({n(e.savedCartLines, "item", "items")})</li>
          <li>Two-factor secrets</li>
          <li>{e.newsletter ? "The newsletter entry" : "The newsletter entry (none)"}</li>
          <li>Contact messages, one-time links, never-paid checkouts and copies of mails to this address</li>
        </ul>
      </div>
      <div>
        <h3 className="font-medium">What stays</h3>
        <ul className="list-disc pl-5" aria-label="What stays">
          <li>
            {e.orders === 0
              ? "No orders to keep."
              : `${n(e.orders, "order", "orders")}, detached from the account and kept as the shop's records until ${e.ordersKeptUntil}; then their personal details are erased too.`}
          </li>
        </ul>
      </div>
      {e.orderBeingPaid ? (
        <p className="font-medium text-destructive">An order is being paid: the erasure will be refused until it is paid or expires.</p>
      ) : null}
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-medium">{`Reviews (${e.reviews})`}</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="erase-reviews"
            value="delete"
            checked={reviews === "delete"}
            onChange={() => onReviews("delete")}
            className="size-4 accent-primary"
          />
          Delete them
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="erase-reviews"
            value="keep"
            checked={reviews === "keep"}
            onChange={() => onReviews("keep")}
            className="size-4 accent-primary"
          />
          Keep them, signed &apos;A customer&apos;
        </label>
      </fieldset>
    </div>
  );
}

function GuestErasure() {
  return (
    <div className="grid gap-3 text-sm">
      <div>
        <h3 className="font-medium">What goes</h3>
        <ul className="list-disc pl-5" aria-label="What goes">
          <li>The newsletter entry</li>
          <li>Contact messages, one-time links, never-paid checkouts and copies of mails to this address</li>
        </ul>
      </div>
      <div>
        <h3 className="font-medium">What stays</h3>
        <ul className="list-disc pl-5" aria-label="What stays">
          <li>Paid orders, kept as the shop&apos;s records until the retention period ends; then their personal details are erased too.</li>
        </ul>
      </div>
    </div>
  );
}
