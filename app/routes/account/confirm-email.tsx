import { Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { FormAlert, NewPasswordFields, useActionToast } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failed } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { ConfirmForm, confirmEmail, parseForm } from "~/server/people/index.server";
import type { Route } from "./+types/confirm-email";

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your email — Linen & Loft" },
  { name: "description", content: "Confirm the email address of your Linen & Loft account." },
  // The token is in the address: no Referer leaves the site (same-origin, as on the reset page).
  { name: "referrer", content: "same-origin" },
];

/** Where the confirmation mail's link lands: a form only; opening the link changes nothing. */
export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) throw redirect("/auth/confirmed?error=INVALID_TOKEN");
  return { token };
}

export async function action({ request }: Route.ActionArgs) {
  const input = parseForm(ConfirmForm, await readPublicForm(request));
  if (!input.ok) return failed(input, "Could not confirm", input.message, { fieldErrors: input.fieldErrors });
  const r = await confirmEmail(request, input.data);
  if (r.ok) throw redirect("/auth/confirmed", { headers: r.cookies });
  if (r.code === "INVALID_TOKEN" || r.code === "TOKEN_EXPIRED") throw redirect(`/auth/confirmed?error=${r.code}`);
  return failed(r, "Could not confirm", r.message, { fieldErrors: "fieldErrors" in r ? r.fieldErrors : undefined, alreadyConfirmed: r.code === "ALREADY_CONFIRMED" });
}

type ActionData = { ok: boolean; message?: string; alreadyConfirmed?: boolean; fieldErrors?: Partial<Record<string, string[]>> };

export default function ConfirmEmailPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const busy = useNavigation().state === "submitting";
  useActionToast(actionData);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">Confirm your email address</h1>
          </CardTitle>
          <CardDescription>Choose the password for your account to finish. You will be signed in.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {actionData?.alreadyConfirmed ? (
            <FormAlert title="Already confirmed">
              {actionData.message}{" "}
              <Link to="/auth" className="font-medium underline">
                Sign in
              </Link>
            </FormAlert>
          ) : actionData && !actionData.ok ? (
            <FormAlert title="Could not confirm">{actionData.message}</FormAlert>
          ) : null}
          <Form method="post" className="grid gap-4">
            <input type="hidden" name="token" value={loaderData.token} />
            <NewPasswordFields label="Password" hint="At least 8 characters. The password you signed up with, or a new one." errors={actionData?.fieldErrors} />
            <Button type="submit" disabled={busy}>
              {busy ? "Confirming..." : "Confirm and sign in"}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
