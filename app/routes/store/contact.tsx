import { data } from "react-router";
import { brandFrom, seoMeta } from "~/lib/seo";
import { respond } from "~/routes/_edge/errors.server";
import { absoluteUrl, submitContactMessage, TooManyAttempts } from "~/server/content/index.server";
import { ContactDetails, ContactFaq, ContactForm, type ContactResult } from "~/components/store/contact";
import { BodyTooLargeError, clientIp, getDb, getEnv, logger, readFormWithLimit } from "~/server/platform/http/index.server";
import { ContactInput } from "~/lib/contact-input";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const brand = brandFrom(matches);
  return seoMeta({
    title: `Contact Us — ${brand}`,
    description: "Questions about bedding, orders, shipping or returns? Send us a message and we reply within 24 hours.",
    canonical: data?.canonical,
    siteName: brand,
  });
};

export async function loader() {
  return { shopEmail: getEnv().SHOP_EMAIL, canonical: absoluteUrl("/contact") };
}

const FAILED = "Failed to send message. Please try again.";
/** Far above a 20,000-character message, far below anything that could hurt the server. */
const MAX_BODY_BYTES = 256 * 1024;

export async function action({ request }: Route.ActionArgs) {
  let form: FormData;
  try {
    // Counted as it arrives: a chunked body says nothing of its size beforehand.
    form = await readFormWithLimit(request, MAX_BODY_BYTES, { drainUpTo: 1024 * 1024 });
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      return respond<ContactResult>(err, { ok: false, error: FAILED, reason: "Your message is too long." });
    }
    form = new FormData(); // not a form: every field is reported missing
  }
  const values = Object.fromEntries(
    (["name", "email", "subject", "message"] as const).map((k) => [k, String(form.get(k) ?? "")]),
  ) as Record<"name" | "email" | "subject" | "message", string>;
  const parsed = ContactInput.safeParse(values);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return respond<ContactResult>(
      { kind: "bad_input" },
      { ok: false, error: FAILED, reason: "Please correct the highlighted fields.", fieldErrors, values },
    );
  }
  try {
    await submitContactMessage(getDb(), parsed.data, { ip: clientIp(request) });
  } catch (err) {
    // Refused: too many messages from this address; the reason says when to try again.
    if (err instanceof TooManyAttempts) return respond<ContactResult>(err, { ok: false, error: FAILED, reason: err.message, values });
    logger.error({ err }, "contact message could not be stored");
    return respond<ContactResult>({ kind: "failed" }, { ok: false, error: FAILED, reason: "", values });
  }
  return data<ContactResult>({ ok: true, message: "Message sent!" });
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-12">
      <header className="mb-10 max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">Contact Us</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Questions about an order, our bedding or anything else? Send us a message and we'll reply within 24 hours.
        </p>
      </header>
      <div className="grid gap-10 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ContactForm result={actionData} />
        <div className="space-y-10">
          <ContactDetails email={loaderData.shopEmail} />
          <ContactFaq />
        </div>
      </div>
    </div>
  );
}
