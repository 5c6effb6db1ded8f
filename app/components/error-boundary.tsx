import { lazy, Suspense } from "react";
import { useRouteError } from "react-router";

/**
 * The friendly error pages load when an error is shown, not with every page: the server renders
 * them in full (it waits for the page to be complete), and the browser fetches their code only
 * to hydrate or show one.
 */
const ErrorPage = lazy(() => import("./error-pages").then((m) => ({ default: m.ErrorPage })));

/** Maps 403, 404 and everything else to friendly pages (./error-pages). Never shows a stack trace. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  return (
    <Suspense fallback={null}>
      <ErrorPage error={error} />
    </Suspense>
  );
}
