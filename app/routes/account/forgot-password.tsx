import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { Field, FormAlert, useActionToast } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failed } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { EmailForm, parseForm, requestPasswordReset } from "~/server/people/index.server";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [
  { title: "Forgot password — Linen & Loft" },
  { name: "description", content: "Get a link to choose a new password for your Linen & Loft account." },
];

export async function action({ request }: Route.ActionArgs) {
  const input = parseForm(EmailForm, await readPublicForm(request));
  if (!input.ok) return failed(input, "Could not send the link", input.message, { fieldErrors: input.fieldErrors });
  const r = await requestPasswordReset(request, input.data.email);
  if (!r.ok) return failed(r, "Could not send the link", r.message);
  // The same answer whether or not the address has an account.
  return data({
    ok: true as const,
    email: input.data.email,
    toast: { kind: "success" as const, title: "Check your email", description: "If an account uses this address, a link to reset the password is on its way." },
  });
}

type ActionData = { ok: boolean; email?: string; message?: string; fieldErrors?: Partial<Record<string, string[]>> };

export default function ForgotPasswordPage() {
  const actionData = useActionData<ActionData>();
  const busy = useNavigation().state === "submitting";
  useActionToast(actionData);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">Forgot password?</h1>
          </CardTitle>
          <CardDescription>Enter your email and we&apos;ll send you a link to choose a new password.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {actionData?.ok ? (
            <FormAlert title="Check your email" tone="success">
              If an account uses {actionData.email}, a link to reset its password is on its way. The link works once, for one hour.
            </FormAlert>
          ) : (
            <>
              {actionData && !actionData.ok ? <FormAlert title="Could not send the link">{actionData.message}</FormAlert> : null}
              <Form method="post" className="grid gap-4">
                <Field label="Email" name="email" type="email" autoComplete="email" required errors={actionData?.fieldErrors?.email} />
                <Button type="submit" disabled={busy}>
                  {busy ? "Sending..." : "Send reset link"}
                </Button>
              </Form>
            </>
          )}
          <Link to="/auth" className="text-sm text-primary underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
