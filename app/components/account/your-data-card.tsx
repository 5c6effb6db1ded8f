import { Form, useNavigation } from "react-router";
import { Field } from "~/components/account/form-bits";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { DELETE_INTENT, DELETION_GOES, DELETION_STAYS, PROFILE_DATA_ZIP_PATH } from "~/lib/personal-data";

type Result = { ok: boolean; message?: string; fieldErrors?: Partial<Record<string, string[]>> };

/**
 * The profile's 'Your data' (docs/rules/personal-data.md, The shopper's side): the download of
 * one's own data, and 'Delete my account' with what goes and what stays, the reviews choice and
 * the password (an account without one is mailed a link that confirms). Works without JavaScript.
 */
export function YourDataCard({ hasPassword, result }: { hasPassword: boolean; result?: Result }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === DELETE_INTENT;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Your data</h2>
        </CardTitle>
        <CardDescription>A copy of what we keep about you, or your account deleted.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <p className="text-sm">Your account, addresses, orders, returns, reviews, newsletter entry and saved cart, as JSON and as spreadsheets in one ZIP file.</p>
          <div>
            <Button asChild variant="outline">
              <a href={PROFILE_DATA_ZIP_PATH} download>
                Download my data
              </a>
            </Button>
          </div>
        </div>
        <Form method="post" aria-label="Delete my account" className="grid gap-4 border-t pt-6">
          <input type="hidden" name="intent" value={DELETE_INTENT} />
          <h3 className="text-lg font-semibold">Delete my account</h3>
          <p className="text-sm">{DELETION_GOES}</p>
          <p className="text-sm">{DELETION_STAYS}</p>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Your reviews</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="reviews" value="delete" defaultChecked className="size-4 accent-primary" />
              Delete them
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="reviews" value="keep" className="size-4 accent-primary" />
              Keep them, signed &apos;A customer&apos;
            </label>
          </fieldset>
          {hasPassword ? (
            <Field
              label="Your password"
              id="delete-account-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              className="sm:max-w-sm"
              errors={result && !result.ok ? result.fieldErrors?.password : undefined}
            />
          ) : (
            <p className="text-sm text-muted-foreground">You signed up without a password: we email you a link that confirms the deletion.</p>
          )}
          <div>
            <Button type="submit" variant="destructive" disabled={busy}>
              Delete my account
            </Button>
          </div>
          <p role="status" className={result && !result.ok ? "text-sm text-destructive" : "text-sm"}>
            {result?.message ?? ""}
          </p>
        </Form>
      </CardContent>
    </Card>
  );
}
