import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, useMatches } from "react-router";
import { brandFrom } from "~/lib/seo";
import { Button } from "~/components/ui/lean/button";

export function NotFoundContent() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-6xl font-bold">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <Link to="/" className="text-primary underline underline-offset-4 hover:opacity-80">
        Return to Home
      </Link>
    </div>
  );
}

export function ForbiddenContent() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-6xl font-bold">403</h1>
      <p className="text-xl">You don&apos;t have access to this page</p>
      <p className="text-muted-foreground">This area is for shop administrators.</p>
      <Button asChild>
        <Link to="/">Return to Home</Link>
      </Button>
    </div>
  );
}

/** 500 "Something went wrong", or 503 "briefly unavailable" (also the page a refused request gets: app/components/unavailable-page.tsx). */
export function ServerErrorContent({ status }: { status: number }) {
  const unavailable = status === 503;
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-6xl font-bold">{status}</h1>
      <p className="text-xl">{unavailable ? "The shop is briefly unavailable" : "Something went wrong"}</p>
      <p className="text-muted-foreground">
        {unavailable ? "Please try again in a few seconds." : "Please try again. If it keeps happening, contact us."}
      </p>
      <Button asChild>
        <Link to="/" reloadDocument>
          Return to Home
        </Link>
      </Button>
    </div>
  );
}

/**
 * The page's title: a route that throws renders this instead of its own meta, and a page without
 * a title is not announced by a screen reader (WCAG 2.4.2). React puts the <title> in the head.
 */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  const brand = brandFrom(useMatches());
  return (
    <>
      <title>{`${title} — ${brand}`}</title>
      {children}
    </>
  );
}

/** Maps 403, 404 and everything else to friendly pages. Never shows a stack trace. */
export function ErrorPage({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404)
      return (
        <Titled title="Page not found">
          <NotFoundContent />
        </Titled>
      );
    if (error.status === 403)
      return (
        <Titled title="No access">
          <ForbiddenContent />
        </Titled>
      );
    if (error.status === 400 && typeof error.data === "string") {
      return (
        <Titled title="Bad request">
          <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 py-16 text-center">
            <h1 className="text-4xl font-bold">Bad request</h1>
            <p className="text-muted-foreground">{error.data}</p>
          </div>
        </Titled>
      );
    }
    return (
      <Titled title={error.status === 503 ? "Briefly unavailable" : "Something went wrong"}>
        <ServerErrorContent status={error.status} />
      </Titled>
    );
  }
  return (
    <Titled title="Something went wrong">
      <ServerErrorContent status={500} />
    </Titled>
  );
}
