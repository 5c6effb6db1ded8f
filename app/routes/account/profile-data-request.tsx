import { Form, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { DELETION_GOES, DELETION_STAYS } from "~/lib/personal-data";
import { brandFrom } from "~/lib/seo";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { invariantResponse } from "~/routes/_edge/guards.server";
import { DATA_REQUEST_PATH, eraseAccount, eraseGuestData, peekDataRequest, redeemDataRequest } from "~/server/people/index.server";
import { DomainError, getDb } from "~/server/platform/http/index.server";
import { accountDeleted } from "./profile-data.server";
import type { Route } from "./+types/profile-data-request";

/**
 * Where the mailed confirmation links land (docs/rules/personal-data.md): an account without a
 * password confirming its deletion, a guest's copy, a guest's erasure. Opening the link changes
 * nothing (a mail scanner may open it); the page's button acts, and uses the link once. An unknown,
 * used, expired or tampered token is the same 404 as any bad link. Under /profile, so no cache keeps it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  // After a guest's erasure (a redirect, so a reload never posts twice); it shows no data.
  if (params.get("done") === "erased" && !params.has("token")) return { done: true as const };
  const token = params.get("token") ?? "";
  const found = await peekDataRequest(getDb(), token);
  invariantResponse(found, "Not Found");
  return { done: false as const, token, purpose: found.purpose, reviews: found.reviews ?? null };
}

type Answer = { ok: false; message: string };

export async function action({ request }: Route.ActionArgs) {
  const db = getDb();
  const form = await readPublicForm(request);
  const token = form.get("token");
  try {
    const used = await redeemDataRequest(db, token, ["delete-account", "erase"], async (r, tx) => {
      if (r.purpose === "delete-account" && "userId" in r.subject) {
        await eraseAccount(tx, r.subject.userId, { reviews: r.reviews ?? "delete", actor: { kind: "customer", id: r.subject.userId } });
      } else if (r.purpose === "erase" && "email" in r.subject) {
        await eraseGuestData(tx, r.subject.email, { kind: "guest" });
      }
      return r.purpose;
    });
    invariantResponse(used, "Not Found");
    if (used.value === "delete-account") return accountDeleted(request);
    return redirect(`${DATA_REQUEST_PATH}?done=erased`);
  } catch (err) {
    // A refusal (an order being paid): nothing was erased and the link still works.
    if (err instanceof DomainError) return respond<Answer>(err, { ok: false, message: err.message });
    throw err;
  }
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Your data — ${brandFrom(matches)}` },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

const TITLES = { "delete-account": "Delete your account", export: "Your data", erase: "Erase your data" } as const;

export default function DataRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (loaderData.done) {
    return (
      <Page title="Your data has been erased" note={null}>
        <p role="status">We erased what we kept about your email address. Orders stay as the shop&apos;s records for the period the law requires, then their personal details are erased too.</p>
      </Page>
    );
  }
  const { token, purpose, reviews } = loaderData;
  return (
    <Page title={TITLES[purpose]}>
      {actionData ? (
        <p role="alert" className="text-destructive">
          {actionData.message}
        </p>
      ) : null}
      {purpose === "export" ? (
        <>
          <p>Download a ZIP file with what we keep about your email address: orders, returns, reviews and newsletter entry, as JSON and as spreadsheets.</p>
          {/* A document POST: the answer is the file itself. */}
          <Form method="post" action="/profile/data-request/download" reloadDocument>
            <input type="hidden" name="token" value={token} />
            <Button type="submit">Download my data</Button>
          </Form>
        </>
      ) : (
        <>
          {purpose === "delete-account" ? (
            <>
              <p>{DELETION_GOES}</p>
              <p>{DELETION_STAYS}</p>
              <p>Your reviews: {reviews === "keep" ? "kept, signed 'A customer'." : "deleted."}</p>
            </>
          ) : (
            <>
              <p>We erase your newsletter entry, your messages to us, checkouts you never paid and our mails to you.</p>
              <p>{DELETION_STAYS}</p>
            </>
          )}
          <Form method="post">
            <input type="hidden" name="token" value={token} />
            <Button type="submit" variant="destructive" disabled={busy}>
              {purpose === "delete-account" ? "Delete my account" : "Erase my data"}
            </Button>
          </Form>
        </>
      )}
    </Page>
  );
}

function Page({ title, children, note = "This link works once, within one hour of the mail." }: { title: string; children: React.ReactNode; note?: string | null }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">{title}</h1>
          </CardTitle>
          {note ? <CardDescription>{note}</CardDescription> : null}
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
    </div>
  );
}
