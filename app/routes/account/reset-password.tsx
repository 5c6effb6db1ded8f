import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { FormAlert, NewPasswordFields, useActionToast } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failed } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { parseForm, ResetForm, resetPassword } from "~/server/people/index.server";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password — Linen & Loft" },
  { name: "description", content: "Choose a new password for your Linen & Loft account." },
  // The token is in the address: no Referer leaves the site. Not no-referrer: with it a browser
  // sends "Origin: null" on the form's plain post (no JavaScript), which same-origin.server.ts refuses.
  { name: "referrer", content: "same-origin" },
];

/** better-auth checks the mailed link and lands here with `?token=` or `?error=INVALID_TOKEN`. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  return { token: url.searchParams.get("error") || !token ? null : token };
}

export async function action({ request }: Route.ActionArgs) {
  const input = parseForm(ResetForm, await readPublicForm(request));
  if (!input.ok) return failed(input, "Could not change the password", input.message, { fieldErrors: input.fieldErrors });
  const r = await resetPassword(request, input.data);
  if (!r.ok) return failed(r, "Could not change the password", r.message, { fieldErrors: "fieldErrors" in r ? r.fieldErrors : undefined });
  return data({
    ok: true as const,
    toast: { kind: "success" as const, title: "Password changed", description: "Sign in with your new password." },
  });
}

type ActionData = { ok: boolean; message?: string; fieldErrors?: Partial<Record<string, string[]>> };

export default function ResetPasswordPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const busy = useNavigation().state === "submitting";
  useActionToast(actionData);
  let body: React.ReactNode;
  if (actionData?.ok) {
    body = (
      <FormAlert title="Your password has been changed" tone="success">
        Every device was signed out.{" "}
        <Link to="/auth" className="font-medium underline">
          Sign in with your new password
        </Link>
      </FormAlert>
    );
  } else if (!loaderData.token) {
    body = (
      <FormAlert title="This reset link is invalid or has expired">
        Links work once, for one hour.{" "}
        <Link to="/auth/forgot-password" className="font-medium underline">
          Ask for a new link
        </Link>
      </FormAlert>
    );
  } else {
    body = (
      <>
        {actionData && !actionData.ok ? <FormAlert title="Could not change the password">{actionData.message}</FormAlert> : null}
        <Form method="post" className="grid gap-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields label="New password" hint="At least 8 characters." errors={actionData?.fieldErrors} />
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Change password"}
          </Button>
        </Form>
      </>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">Choose a new password</h1>
          </CardTitle>
          <CardDescription>After the change, every device signed in to your account is signed out.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">{body}</CardContent>
      </Card>
    </div>
  );
}
