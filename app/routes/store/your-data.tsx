import { data, Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { DATA_REQUEST_SENT } from "~/lib/personal-data";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { requestGuestData, TooManyDataRequests } from "~/server/people/index.server";
import { clientIp, getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/your-data";

/**
 * The footer's 'Your data' (docs/rules/personal-data.md, Guests): a guest types the email they
 * ordered, subscribed or wrote with and asks for a copy or for erasure. A mailed link confirms
 * before anything is sent or erased; the answer is the same whether the shop knows the address or
 * not. Signed-in shoppers have the same on their account page.
 */

type Answer = { ok: boolean; message: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function action({ request }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const email = String(form.get("email") ?? "").trim().slice(0, 320);
  const purpose = form.get("intent") === "erase" ? "erase" : form.get("intent") === "export" ? "export" : null;
  if (!EMAIL.test(email)) return respond<Answer>({ kind: "bad_input" }, { ok: false, message: "Enter your email address." });
  if (!purpose) return respond<Answer>({ kind: "bad_input" }, { ok: false, message: "Choose 'Send me my data' or 'Erase my data'." });
  try {
    await requestGuestData(getDb(), { email, purpose }, { ip: clientIp(request) });
  } catch (err) {
    if (err instanceof TooManyDataRequests) return respond<Answer>(err, { ok: false, message: err.message });
    throw err;
  }
  return data<Answer>({ ok: true, message: DATA_REQUEST_SENT });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Your data — ${brandFrom(matches)}` },
  { name: "description", content: "Ask for a copy of your data, or for its erasure." },
  { name: "robots", content: "noindex" },
];

export default function YourDataPage({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto grid max-w-xl gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold">Your data</h1>
      <p>
        Enter the email address you ordered, subscribed or wrote to us with. We email it a link: the link confirms your request before
        anything is sent or erased. Orders stay as the shop&apos;s records for the period the law requires.
      </p>
      <p>
        Have an account? <a href="/profile" className="font-medium underline">Your account page</a> offers the same.
      </p>
      <Form method="post" className="grid gap-4" aria-label="Ask about your data">
        <div className="grid gap-2">
          <label htmlFor="your-data-email" className="text-sm font-medium">
            Email
          </label>
          <input id="your-data-email" name="email" type="email" required maxLength={320} autoComplete="email" className="h-9 rounded-md border px-2" />
        </div>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="export" disabled={busy}>
            Send me my data
          </Button>
          <Button type="submit" name="intent" value="erase" variant="outline" disabled={busy}>
            Erase my data
          </Button>
        </div>
        <p role="status" className={actionData && !actionData.ok ? "text-sm text-destructive" : "text-sm"}>
          {actionData?.message ?? ""}
        </p>
      </Form>
    </div>
  );
}
