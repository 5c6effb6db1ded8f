import { data, Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { ORDER_LINK_SENT } from "~/lib/returns";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { invariantResponse } from "~/routes/_edge/guards.server";
import { getReturnsSetting, requestOrderLink, TooManyLinkRequests } from "~/server/commerce/index.server";
import { clientIp, getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/withdraw";

/**
 * The footer's 'Withdraw from contract' (docs/rules/returns.md): a guest types the order number and
 * the order's email and gets the order's signed link by mail, from which the order page offers
 * 'Withdraw from contract here'. One answer whether or not the pair exists. Only while the owner
 * has the EU right of withdrawal on.
 */
export async function loader() {
  const setting = await getReturnsSetting(getDb());
  invariantResponse(setting.withdrawalEnabled, "Not Found");
  return { ok: true };
}

type Answer = { ok: true; message: string } | { ok: false; message: string };

export async function action({ request }: Route.ActionArgs) {
  const db = getDb();
  invariantResponse((await getReturnsSetting(db)).withdrawalEnabled, "Not Found");
  const form = await readPublicForm(request);
  const orderNumber = String(form.get("orderNumber") ?? "").slice(0, 100);
  const email = String(form.get("email") ?? "").slice(0, 320);
  if (!orderNumber.trim() || !email.trim()) return respond<Answer>({ kind: "bad_input" }, { ok: false, message: "Enter your order number and email." });
  try {
    await requestOrderLink(db, { orderNumber, email }, { ip: clientIp(request) });
  } catch (err) {
    if (err instanceof TooManyLinkRequests) return respond<Answer>(err, { ok: false, message: err.message });
    throw err;
  }
  return data<Answer>({ ok: true, message: ORDER_LINK_SENT });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Withdraw from contract — ${brandFrom(matches)}` },
  { name: "description", content: "Withdraw from your order: we email you its link." },
  { name: "robots", content: "noindex" },
];

export default function WithdrawPage({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto grid max-w-xl gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold">Withdraw from contract</h1>
      <p>
        Enter your order number and the email you ordered with. We email you the link to your order, where you can withdraw from the
        contract.
      </p>
      <Form method="post" className="grid gap-4" aria-label="Find your order">
        <div className="grid gap-2">
          <label htmlFor="withdraw-order" className="text-sm font-medium">
            Order number
          </label>
          <input id="withdraw-order" name="orderNumber" required maxLength={40} autoComplete="off" className="h-9 rounded-md border px-2" />
        </div>
        <div className="grid gap-2">
          <label htmlFor="withdraw-email" className="text-sm font-medium">
            Email
          </label>
          <input id="withdraw-email" name="email" type="email" required maxLength={320} autoComplete="email" className="h-9 rounded-md border px-2" />
        </div>
        <Button type="submit" disabled={busy} className="w-fit">
          {busy ? "Sending..." : "Email me the link"}
        </Button>
        <p role="status" className={actionData && !actionData.ok ? "text-sm text-destructive" : "text-sm"}>
          {actionData?.message ?? ""}
        </p>
      </Form>
    </div>
  );
}
