import { useEffect } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { Form, Link, redirect, useActionData, useNavigate, useNavigation, useSearchParams } from "react-router";
import { EnhancedField, Field, FormAlert, useActionToast } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failed, signedIn } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { safeRedirect, verifySignInCode } from "~/server/people/index.server";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = () => [
  { title: "Two-factor sign-in — Linen & Loft" },
  { name: "description", content: "Enter the code from your authenticator app to finish signing in." },
];

/** The pending sign-in lives in better-auth's short-lived, signed two_factor cookie. */
const hasPendingSignIn = (request: Request) => /(?:^|;\s*)(?:__Secure-)?better-auth\.two_factor=/.test(request.headers.get("cookie") ?? "");

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getCurrentUser(request)) throw redirect(redirectTo);
  if (!hasPendingSignIn(request)) throw redirect(`/auth?redirectTo=${encodeURIComponent(redirectTo)}`);
  return { redirectTo, method: url.searchParams.get("method") === "backup" ? ("backup" as const) : ("totp" as const) };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const kind = form.get("method") === "backup" ? "backup" : "totp";
  const r = await verifySignInCode(request, String(form.get("code") ?? ""), kind);
  if (!r.ok) return failed(r, "Sign in failed", r.message, { expired: r.code === "EXPIRED" });
  return signedIn(form, safeRedirect(form.get("redirectTo")), r.cookies);
}

export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as { redirectTo?: string } | undefined)?.redirectTo) return false;
  return defaultShouldRevalidate;
}

type ActionData = { ok: boolean; message?: string; redirectTo?: string; expired?: boolean; toast?: { kind: "success" | "error"; title: string; description?: string } };

export default function TwoFactorPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  useActionToast(actionData);
  useEffect(() => {
    if (actionData?.ok && actionData.redirectTo) void navigate(actionData.redirectTo, { replace: true });
  }, [actionData, navigate]);
  const backup = loaderData.method === "backup";
  const other = new URLSearchParams(params);
  if (backup) other.delete("method");
  else other.set("method", "backup");
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">Two-factor sign-in</h1>
          </CardTitle>
          <CardDescription>
            {backup ? "Enter one of your backup codes. Each code works once." : "Enter the 6-digit code from your authenticator app."}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {actionData && !actionData.ok ? (
            <FormAlert title="Sign in failed">
              {actionData.message}{" "}
              {actionData.expired ? (
                <Link to="/auth" className="underline">
                  Sign in again
                </Link>
              ) : null}
            </FormAlert>
          ) : null}
          <Form method="post" className="grid gap-4">
            <EnhancedField />
            <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
            <input type="hidden" name="method" value={loaderData.method} />
            <Field
              key={loaderData.method}
              label={backup ? "Backup code" : "Authentication code"}
              name="code"
              autoComplete="one-time-code"
              inputMode={backup ? "text" : "numeric"}
              required
              autoFocus
            />
            <Button type="submit" disabled={busy}>
              {busy ? "Verifying..." : "Verify"}
            </Button>
          </Form>
          <Link to={`?${other}`} className="text-sm text-primary underline-offset-4 hover:underline">
            {backup ? "Use your authenticator app instead" : "Use a backup code instead"}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
