import { useEffect } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { Form, Link, useActionData, useNavigate, useNavigation } from "react-router";
import { EnhancedField, FormAlert, useActionToast } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failed, signedIn } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { parseForm, SignInLinkForm, signInWithLink } from "~/server/people/index.server";
import type { Route } from "./+types/sign-in-link";

export const meta: Route.MetaFunction = () => [
  { title: "Sign in — Linen & Loft" },
  { name: "description", content: "Sign in to your Linen & Loft account with the link we emailed you." },
  { name: "referrer", content: "same-origin" },
];

/** Where the mailed sign-in link lands: a button only, so a mail scanner opening it spends nothing. */
export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const input = parseForm(SignInLinkForm, form);
  if (!input.ok) return failed(input, "Sign in failed", input.message);
  const r = await signInWithLink(request, input.data);
  if (!r.ok) return failed(r, "Sign in failed", r.message);
  return signedIn(form, "/", r.cookies);
}

export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as { redirectTo?: string } | undefined)?.redirectTo) return false;
  return defaultShouldRevalidate;
}

type ActionData = { ok: boolean; message?: string; redirectTo?: string; toast?: { kind: "success" | "error"; title: string; description?: string } };

export default function SignInLinkPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigate = useNavigate();
  const busy = useNavigation().state === "submitting";
  useActionToast(actionData);
  useEffect(() => {
    if (actionData?.ok && actionData.redirectTo) void navigate(actionData.redirectTo, { replace: true });
  }, [actionData, navigate]);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">Sign in</h1>
          </CardTitle>
          <CardDescription>This link signs you in once, within 15 minutes of the mail.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {actionData && !actionData.ok ? (
            <FormAlert title="Sign in failed">
              {actionData.message}{" "}
              <Link to="/auth" className="font-medium underline">
                Sign in again
              </Link>
            </FormAlert>
          ) : null}
          <Form method="post" className="grid gap-4">
            <EnhancedField />
            <input type="hidden" name="token" value={loaderData.token} />
            <Button type="submit" disabled={busy || !loaderData.token}>
              {busy ? "Signing in..." : "Sign in"}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
