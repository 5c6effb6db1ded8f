import { useEffect } from "react";
import { brandFrom } from "~/lib/seo";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { data, Link, redirect, useActionData, useFetcher, useNavigate, useNavigation, useSearchParams } from "react-router";
import { toast } from "~/lib/toast";
import { EnhancedField, useActionToast } from "~/components/account/form-bits";
import { OrdersList } from "~/components/account/orders-list";
import { AddressesTab } from "~/components/account/addresses-tab";
import { ProfileForm } from "~/components/account/profile-form";
import { TwoFactorCard, type TwoFactorResult } from "~/components/account/two-factor-card";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { failed } from "~/routes/_edge/auth-responses.server";
import { refuse } from "~/routes/_edge/errors.server";
import { readPublicForm } from "~/routes/_edge/body.server";
import { requireUser } from "~/routes/_edge/guards.server";
import { listOrdersOfUser } from "~/server/commerce/index.server";
import { accountHasPassword, confirmTwoFactor, disableTwoFactor, getProfile, listSavedAddresses, parseForm, ProfileInput, regenerateBackupCodes, signOut, startTwoFactor, twoFactorEnabled, updateProfile } from "~/server/people/index.server";
import { addressAction, isAddressIntent } from "./profile-addresses.server";
import { deleteAccountAction } from "./profile-data.server";
import { DELETE_INTENT } from "~/lib/personal-data";
import { YourDataCard } from "~/components/account/your-data-card";
import { getDb, logger } from "~/server/platform/http/index.server";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `My Account — ${brandFrom(matches)}` },
  { name: "description", content: `Your ${brandFrom(matches)} profile and orders.` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const db = getDb();
  let profile = null;
  let profileFailed = false;
  try {
    profile = await getProfile(db, user.id);
  } catch (err) {
    // The page still opens (orders, sign out); the form shows 'Failed to load profile data'.
    logger.error({ err: (err as Error).message }, "profile load failed");
    profileFailed = true;
  }
  const [orders, twoFactor, addresses, hasPassword] = await Promise.all([
    listOrdersOfUser(db, user.id),
    user.role === "admin" ? twoFactorEnabled(db, user.id) : Promise.resolve(null),
    listSavedAddresses(db, user.id),
    accountHasPassword(db, user.id),
  ]);
  return { profile, profileFailed, orders, twoFactor, addresses, hasPassword, email: user.email };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readPublicForm(request);
  const intent = String(form.get("intent") ?? "");
  if (intent === "update-profile") {
    form.delete("intent");
    const input = parseForm(ProfileInput, form);
    if (!input.ok) return failed(input, "Failed to update profile", input.message, { intent, fieldErrors: input.fieldErrors });
    try {
      await updateProfile(getDb(), user.id, input.data);
    } catch (err) {
      logger.error({ err: (err as Error).message }, "profile update failed");
      return failed({ kind: "failed" }, "Failed to update profile", "Please try again.", { intent });
    }
    return data({ ok: true as const, intent, toast: { kind: "success" as const, title: "Profile updated successfully" } });
  }
  if (isAddressIntent(intent)) return addressAction(user.id, intent, form);
  if (intent === DELETE_INTENT) return deleteAccountAction(request, user, form);
  if (intent.startsWith("2fa-")) {
    if (user.role !== "admin") refuse({ kind: "forbidden", message: "You don't have access to this page" });
    const password = String(form.get("password") ?? "");
    const r =
      intent === "2fa-start"
        ? await startTwoFactor(request, password)
        : intent === "2fa-confirm"
          ? await confirmTwoFactor(request, String(form.get("code") ?? ""))
          : intent === "2fa-disable"
            ? await disableTwoFactor(request, password)
            : await regenerateBackupCodes(request, password);
    if (!r.ok && r.signedOut) {
      // Too many wrong passwords: the session was ended; clear its cookie and ask to sign in again.
      return redirect(`/auth?redirectTo=${encodeURIComponent("/profile")}`, { headers: await signOut(request) });
    }
    if (!r.ok) return failed({ kind: "bad_input" }, "Two-factor authentication", r.message, { intent });
    const { cookies, ...rest } = r;
    return data({ ...rest, intent }, { headers: cookies });
  }
  return failed({ kind: "bad_input" }, "Something went wrong", "Unknown request.", { intent });
}

/** Signing out from here: the page toasts and goes home itself; re-running this loader would bounce to /auth first. */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === "/auth/sign-out") return false;
  return defaultShouldRevalidate;
}

type ActionData = TwoFactorResult & { fieldErrors?: Partial<Record<string, string[]>>; toast?: { kind: "success" | "error"; title: string; description?: string } };

export default function ProfilePage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "orders" ? "orders" : params.get("tab") === "addresses" ? "addresses" : "profile";
  useActionToast(actionData);
  useEffect(() => {
    if (loaderData.profileFailed) toast.error("Failed to load profile data");
  }, [loaderData.profileFailed]);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "update-profile";
  const tabHref = (t: string) => `?tab=${t}`;
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">My Account</h1>
        <SignOutButton />
      </div>
      <Tabs value={tab} onValueChange={(v) => setParams({ tab: v }, { replace: true, preventScrollReset: true })}>
        <TabsList className="grid w-full grid-cols-3 sm:w-[28rem]">
          <TabsTrigger value="profile" asChild>
            <Link to={tabHref("profile")} replace preventScrollReset>
              Profile
            </Link>
          </TabsTrigger>
          <TabsTrigger value="orders" asChild>
            <Link to={tabHref("orders")} replace preventScrollReset>
              Orders
            </Link>
          </TabsTrigger>
          <TabsTrigger value="addresses" asChild>
            <Link to={tabHref("addresses")} replace preventScrollReset>
              Addresses
            </Link>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <Card>
            <CardContent>
              {loaderData.profile ? (
                <ProfileForm
                  profile={loaderData.profile}
                  busy={busy}
                  result={actionData?.intent === "update-profile" ? actionData : undefined}
                />
              ) : (
                <p role="alert" className="text-destructive">
                  Failed to load profile data
                </p>
              )}
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="orders">
          <Card>
            <CardContent>
              <h2 className="sr-only">Orders</h2>
              <OrdersList orders={loaderData.orders} />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="addresses">
          <Card>
            <CardContent>
              <AddressesTab addresses={loaderData.addresses} />
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
      {tab === "profile" ? (
        <YourDataCard hasPassword={loaderData.hasPassword} result={actionData?.intent === DELETE_INTENT ? actionData : undefined} />
      ) : null}
      {loaderData.twoFactor !== null && tab === "profile" ? (
        <TwoFactorCard enabled={loaderData.twoFactor} result={actionData?.intent?.startsWith("2fa-") ? actionData : undefined} />
      ) : null}
    </div>
  );
}

/** POSTs to /auth/sign-out; with JavaScript it toasts 'Signed out' and goes home. */
function SignOutButton() {
  const fetcher = useFetcher<{ ok: boolean; toast?: { kind: "success" | "error"; title: string; description?: string } }>();
  const navigate = useNavigate();
  useActionToast(fetcher.data);
  useEffect(() => {
    if (fetcher.data?.ok) void navigate("/", { replace: true });
  }, [fetcher.data, navigate]);
  return (
    <fetcher.Form method="post" action="/auth/sign-out">
      <EnhancedField />
      <Button type="submit" variant="outline" disabled={fetcher.state !== "idle"}>
        Sign Out
      </Button>
    </fetcher.Form>
  );
}
