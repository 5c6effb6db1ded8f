import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { Field, FormAlert, useActionToast } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failed } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { EmailForm, parseForm, resendConfirmation } from "~/server/people/index.server";
import type { Route } from "./+types/email-confirmed";

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d?.confirmed ? "Email confirmed — Linen & Loft" : "Confirmation link expired — Linen & Loft" },
  { name: "description", content: "Confirm the email address of your Linen & Loft account." },
];

/** Where the confirmation link lands after better-auth has checked it (and signed the person in). */
export async function loader({ request }: Route.LoaderArgs) {
  const error = new URL(request.url).searchParams.get("error");
  if (error) return { confirmed: false as const, expired: error === "TOKEN_EXPIRED" };
  const user = await getCurrentUser(request);
  if (!user) throw redirect("/auth");
  return { confirmed: true as const, name: user.name };
}

export async function action({ request }: Route.ActionArgs) {
  const input = parseForm(EmailForm, await readPublicForm(request));
  if (!input.ok) return failed(input, "Could not send the email", input.message);
  const r = await resendConfirmation(request, input.data.email);
  if (!r.ok) return failed(r, "Could not send the email", r.message);
  return data({
    ok: true as const,
    toast: { kind: "success" as const, title: "Check your email", description: "If this address is waiting for confirmation, a new link is on its way." },
  });
}

export default function EmailConfirmedPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<{ ok: boolean; message?: string }>();
  const busy = useNavigation().state === "submitting";
  useActionToast(actionData);
  if (loaderData.confirmed) {
    return (
      <div className="mx-auto max-w-md px-4 py-12">
        <Card>
          <CardHeader>
            <CardTitle>
              <h1 className="text-2xl font-bold">Email confirmed</h1>
            </CardTitle>
            <CardDescription>Your account is ready and you&apos;re signed in{loaderData.name ? `, ${loaderData.name}` : ""}.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-3">
            <Button asChild>
              <Link to="/shop">Start Shopping</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/profile">My Account</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">{loaderData.expired ? "This confirmation link has expired" : "This confirmation link is not valid"}</h1>
          </CardTitle>
          <CardDescription>Enter your email and we&apos;ll send you a new link.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {actionData ? (
            <FormAlert title={actionData.ok ? "Check your email" : "Could not send the email"} tone={actionData.ok ? "success" : "error"}>
              {actionData.ok ? "If this address is waiting for confirmation, a new link is on its way." : actionData.message}
            </FormAlert>
          ) : null}
          <Form method="post" className="grid gap-4">
            <Field label="Email" name="email" type="email" autoComplete="email" required />
            <Button type="submit" disabled={busy}>
              {busy ? "Sending..." : "Send a new link"}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
