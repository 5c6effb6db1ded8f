import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import type { Profile } from "~/lib/accounts-view";
import { Field, FormAlert } from "./form-bits";

export type ProfileResult = { ok: boolean; message?: string; fieldErrors?: Partial<Record<string, string[]>> };

/** The Profile tab: names and phone are editable; the email is the account's and only shown. */
export function ProfileForm({ profile, result, busy }: { profile: Profile; result?: ProfileResult; busy: boolean }) {
  const errors = result?.fieldErrors;
  return (
    <Form method="post" className="grid gap-4">
      <input type="hidden" name="intent" value="update-profile" />
      {result && !result.ok ? <FormAlert title="Failed to update profile">{result.message}</FormAlert> : null}
      {result?.ok ? <FormAlert title="Profile updated successfully" tone="success" /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First Name" name="firstName" autoComplete="given-name" maxLength={100} defaultValue={profile.firstName} errors={errors?.firstName} />
        <Field label="Last Name" name="lastName" autoComplete="family-name" maxLength={100} defaultValue={profile.lastName} errors={errors?.lastName} />
      </div>
      <Field label="Email" name="shownEmail" id="profile-email" type="email" value={profile.email} readOnly disabled hint="Your sign-in email cannot be changed here." />
      <Field label="Phone" name="phone" type="tel" autoComplete="tel" maxLength={40} defaultValue={profile.phone} errors={errors?.phone} />
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? "Updating..." : "Update Profile"}
        </Button>
      </div>
    </Form>
  );
}
