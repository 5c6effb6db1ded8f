import { KeyRound, MailCheck } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { CustomerView } from "~/lib/customers-view";
import { useAdminAction } from "./use-admin-action";

/**
 * What an admin may do for a customer's account: send the email confirmation again (while the
 * address is unconfirmed) and send a password reset link. The server's answer shows as a toast.
 * A plain form underneath, so the buttons post without JavaScript too.
 */
export function CustomerAccountActions({ customerId, account }: { customerId: string; account: NonNullable<CustomerView["account"]> }) {
  const action = `/admin/customers/${customerId}`;
  const { fetcher, busy } = useAdminAction({ action });
  const sending = busy ? fetcher.formData?.get("intent") : null;
  return (
    <fetcher.Form method="post" action={action} className="grid gap-3">
      {account.verified ? null : (
        <Button type="submit" name="intent" value="resend-confirmation" variant="outline" disabled={busy}>
          <MailCheck aria-hidden="true" />
          {sending === "resend-confirmation" ? "Sending…" : "Resend confirmation email"}
        </Button>
      )}
      <Button type="submit" name="intent" value="password-reset" variant="outline" disabled={busy}>
        <KeyRound aria-hidden="true" />
        {sending === "password-reset" ? "Sending…" : "Send password reset email"}
      </Button>
      <p className="text-xs text-muted-foreground">
        The customer gets the same email as when they ask for it themselves; the link works once and expires.
      </p>
    </fetcher.Form>
  );
}
