import { Send } from "~/components/ui/lean/icons/send";
import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation, useSearchParams } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { Input } from "~/components/ui/lean/input";
import { CONFIRM_HINT, SUBSCRIBED_MESSAGE } from "~/lib/newsletter";
import { clsx } from "~/components/ui/lean/clsx";
import type { NewsletterResult } from "~/lib/newsletter-view";

/** What a plain HTML post (no JavaScript) comes back with, as ?newsletter=<outcome>. */
const OUTCOMES: Record<string, NewsletterResult> = {
  subscribed: { ok: true, message: SUBSCRIBED_MESSAGE },
  invalid: { ok: false, error: "Enter a valid email address" },
  limited: { ok: false, error: "Too many attempts, try again in a few minutes" },
  failed: { ok: false, error: "Could not subscribe right now. Please try again." },
};

/** The footer's newsletter box: stores the address (waiting for the mailed link) and answers in place. */
export function NewsletterForm() {
  const fetcher = useFetcher<NewsletterResult>();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const [hydrated, setHydrated] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => setHydrated(true), []);

  const result = fetcher.data ?? OUTCOMES[searchParams.get("newsletter") ?? ""];
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);

  return (
    <fetcher.Form ref={formRef} method="post" action="/resources/newsletter" id="newsletter" className="mt-4 space-y-2">
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <div className="flex gap-2">
        <label htmlFor="newsletter-email" className="sr-only">
          Email address
        </label>
        <Input
          id="newsletter-email"
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          placeholder="Enter your email"
          aria-invalid={result && !result.ok ? true : undefined}
          aria-describedby="newsletter-result"
          surface="background"
        />
        <Button type="submit" size="icon" disabled={busy} aria-label="Subscribe">
          <Send aria-hidden="true" />
        </Button>
      </div>
      <p
        id="newsletter-result"
        role="status"
        aria-live="polite"
        className={clsx("min-h-5 text-sm", result?.ok ? "text-success" : "text-destructive")}
      >
        {result ? (result.ok ? `${result.message} ${CONFIRM_HINT}` : result.error) : null}
      </p>
    </fetcher.Form>
  );
}
