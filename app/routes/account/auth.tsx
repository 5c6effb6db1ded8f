import { useEffect } from "react";
import { brandFrom } from "~/lib/seo";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { data, Form, Link, redirect, useActionData, useNavigate, useNavigation, useSearchParams } from "react-router";
import { EnhancedField, Field, FormAlert, useActionToast } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { failed, signedIn } from "~/routes/_edge/auth-responses.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { EmailForm, parseForm, resendConfirmation, safeRedirect, signIn, SignInForm, signUp, SignUpForm } from "~/server/people/index.server";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = ({ matches }) => {
  const brand = brandFrom(matches);
  return [
    { title: `Sign in or create an account — ${brand}` },
    { name: "description", content: `Sign in to your ${brand} account, or create one to see your orders and keep your details.` },
  ];
};

export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await getCurrentUser(request)) throw redirect(redirectTo);
  return { redirectTo };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const intent = String(form.get("intent") ?? "");
  if (intent === "sign-in") {
    const input = parseForm(SignInForm, form);
    if (!input.ok) return failed(input, "Sign in failed", input.message, { intent, fieldErrors: input.fieldErrors });
    const r = await signIn(request, input.data);
    const redirectTo = safeRedirect(form.get("redirectTo"));
    if (!r.ok) return failed(r, "Sign in failed", r.message, { intent, unconfirmedEmail: "email" in r ? r.email : undefined });
    if (r.twoFactor) return redirect(`/auth/two-factor?redirectTo=${encodeURIComponent(redirectTo)}`, { headers: r.cookies });
    return signedIn(form, redirectTo, r.cookies);
  }
  if (intent === "sign-up") {
    const input = parseForm(SignUpForm, form);
    if (!input.ok) return failed(input, "Sign up failed", input.message, { intent, fieldErrors: input.fieldErrors });
    const r = await signUp(request, input.data);
    if (!r.ok) return failed(r, "Sign up failed", r.message, { intent, fieldErrors: "fieldErrors" in r ? r.fieldErrors : undefined });
    return data({
      ok: true as const,
      intent,
      toast: { kind: "success" as const, title: "Check your email", description: "We've sent you a confirmation link to complete your registration." },
    });
  }
  if (intent === "resend-confirmation") {
    const input = parseForm(EmailForm, form);
    if (!input.ok) return failed(input, "Could not send the email", input.message, { intent });
    const r = await resendConfirmation(request, input.data.email);
    if (!r.ok) return failed(r, "Could not send the email", r.message, { intent });
    return data({
      ok: true as const,
      intent,
      toast: { kind: "success" as const, title: "Check your email", description: "If this address is waiting for confirmation, a new link is on its way." },
    });
  }
  return failed({ kind: "bad_input" }, "Something went wrong", "Unknown request.", { intent });
}

/** After a sign-in the page itself toasts and navigates; re-running this loader would redirect first. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as ActionData | undefined)?.redirectTo) return false;
  return defaultShouldRevalidate;
}

type ActionData = {
  ok: boolean;
  intent?: string;
  message?: string;
  redirectTo?: string;
  fieldErrors?: Partial<Record<string, string[]>>;
  unconfirmedEmail?: string;
  toast?: { kind: "success" | "error"; title: string; description?: string };
};

export default function AuthPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "signup" ? "signup" : "signin";
  useActionToast(actionData);
  useEffect(() => {
    if (actionData?.ok && actionData.redirectTo) void navigate(actionData.redirectTo, { replace: true });
  }, [actionData, navigate]);

  // Tabs are links too, so the Sign Up form is reachable without JavaScript.
  const tabHref = (t: string) => {
    const p = new URLSearchParams(params);
    p.set("tab", t);
    return `?${p}`;
  };
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader className="text-center">
          <CardTitle>
            <h1 className="text-2xl font-bold">Welcome</h1>
          </CardTitle>
          <CardDescription>Sign in to your account or create a new one</CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs
            value={tab}
            onValueChange={(v) =>
              setParams(
                (p) => {
                  p.set("tab", v);
                  return p;
                },
                { replace: true, preventScrollReset: true },
              )
            }
          >
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="signin" asChild>
                <Link to={tabHref("signin")} replace preventScrollReset>
                  Sign In
                </Link>
              </TabsTrigger>
              <TabsTrigger value="signup" asChild>
                <Link to={tabHref("signup")} replace preventScrollReset>
                  Sign Up
                </Link>
              </TabsTrigger>
            </TabsList>
            <TabsContent value="signin" className="pt-4">
              <SignInPanel redirectTo={loaderData.redirectTo} actionData={actionData?.intent === "sign-in" || actionData?.intent === "resend-confirmation" ? actionData : undefined} />
            </TabsContent>
            <TabsContent value="signup" className="pt-4">
              <SignUpPanel actionData={actionData?.intent === "sign-up" ? actionData : undefined} />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
    </div>
  );
}

function useBusy(intent: string) {
  const nav = useNavigation();
  return nav.state === "submitting" && nav.formData?.get("intent") === intent;
}

function SignInPanel({ redirectTo, actionData }: { redirectTo: string; actionData?: ActionData }) {
  const busy = useBusy("sign-in");
  const resending = useBusy("resend-confirmation");
  const failedSignIn = actionData?.intent === "sign-in" && !actionData.ok ? actionData : undefined;
  return (
    <div className="grid gap-4">
      {failedSignIn ? <FormAlert title="Sign in failed">{failedSignIn.message}</FormAlert> : null}
      {failedSignIn?.unconfirmedEmail ? (
        <Form method="post" className="grid gap-2">
          <input type="hidden" name="intent" value="resend-confirmation" />
          <input type="hidden" name="email" value={failedSignIn.unconfirmedEmail} />
          <Button type="submit" variant="outline" disabled={resending}>
            {resending ? "Sending..." : "Resend confirmation email"}
          </Button>
        </Form>
      ) : null}
      {actionData?.intent === "resend-confirmation" ? (
        <FormAlert title={actionData.toast?.title ?? ""} tone={actionData.ok ? "success" : "error"}>
          {actionData.toast?.description}
        </FormAlert>
      ) : null}
      <Form method="post" className="grid gap-4" noValidate={false}>
        <input type="hidden" name="intent" value="sign-in" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <EnhancedField />
        <Field label="Email" name="email" id="signin-email" type="email" autoComplete="email" required errors={failedSignIn?.fieldErrors?.email} />
        <Field label="Password" name="password" id="signin-password" type="password" autoComplete="current-password" required errors={failedSignIn?.fieldErrors?.password} />
        <div className="-mt-2 text-right text-sm">
          <Link to="/auth/forgot-password" className="text-primary underline-offset-4 hover:underline">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? "Signing in..." : "Sign In"}
        </Button>
      </Form>
    </div>
  );
}

function SignUpPanel({ actionData }: { actionData?: ActionData }) {
  const busy = useBusy("sign-up");
  if (actionData?.ok) {
    return (
      <FormAlert title="Check your email" tone="success">
        We&apos;ve sent you a confirmation link to complete your registration.
      </FormAlert>
    );
  }
  const errors = actionData?.fieldErrors;
  return (
    <div className="grid gap-4">
      {actionData && !actionData.ok ? <FormAlert title="Sign up failed">{actionData.message}</FormAlert> : null}
      <Form method="post" className="grid gap-4">
        <input type="hidden" name="intent" value="sign-up" />
        <EnhancedField />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First Name" name="firstName" id="signup-first-name" autoComplete="given-name" maxLength={100} errors={errors?.firstName} />
          <Field label="Last Name" name="lastName" id="signup-last-name" autoComplete="family-name" maxLength={100} errors={errors?.lastName} />
        </div>
        <Field label="Email" name="email" id="signup-email" type="email" autoComplete="email" required errors={errors?.email} />
        <Field
          label="Password"
          name="password"
          id="signup-password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters."
          errors={errors?.password}
        />
        <Button type="submit" disabled={busy}>
          {busy ? "Creating account..." : "Sign Up"}
        </Button>
      </Form>
    </div>
  );
}
