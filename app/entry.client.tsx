import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

type RouterGlobals = { __reactRouterRouteModules?: unknown };

/**
 * React Router's own client entry, started once the page's route modules are known. A storefront
 * page imports them only after its first paint (server/http/first-paint.server.ts), one dynamic
 * import each, and every route module imports the chunk this entry lives in: without the wait,
 * the first module to arrive would start hydration before the others.
 */
function hydrateWhenRoutesAreKnown() {
  if (!(window as RouterGlobals).__reactRouterRouteModules) {
    setTimeout(hydrateWhenRoutesAreKnown, 0);
    return;
  }
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

hydrateWhenRoutesAreKnown();
