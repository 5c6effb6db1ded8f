import type { CSSProperties, ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LazyToaster } from "~/components/lazy-toaster";
import { DEFAULT_THEME, type SiteSettings } from "~/lib/site-settings";
import { useNonce } from "~/lib/nonce";
import { rethrowIfDatabaseUnavailable } from "~/routes/_edge/errors.server";
import { pageSiteSettings } from "~/routes/_edge/remembered.server";
import { getCurrentUser } from "~/server/people/index.server";
import { getPublicEnv } from "~/server/platform/http/index.server";
import type { Route } from "./+types/root";
import stylesheet from "./styles/app.css?url";

export const links: Route.LinksFunction = () => [
  // precedence makes React emit the render-blocking stylesheet first in <head>, ahead of the
  // module preloads, so the CSS is requested first and the first paint does not queue behind JS.
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  // Every page runs this loader first, so a database outage answers 503 here for the whole page.
  const [user, settings] = await Promise.all([getCurrentUser(request), pageSiteSettings()]).catch(
    rethrowIfDatabaseUnavailable,
  );
  return {
    // Only what kind of visitor this is: every storefront page is the same for all signed-in
    // customers, so the page cache can answer them (docs/decisions/0023). Whatever is theirs
    // alone (their email, their cart) comes from the page or the endpoint that needs it.
    viewer: user ? { role: user.role } : null,
    settings,
    publicEnv: getPublicEnv(),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/** An error answered by the root boundary keeps its headers (the outage's Retry-After). */
export function headers({ errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? new Headers();
}

/** Theme colours are validated hsl() values (see site-settings), so they are safe in a style. */
function themeStyle(settings: SiteSettings | undefined): CSSProperties {
  const theme = settings?.theme_colors ?? DEFAULT_THEME;
  return { "--primary": theme.primary, "--secondary": theme.secondary } as CSSProperties;
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const nonce = useNonce();
  // Storefront pages toast through ~/lib/toast, which loads the toaster on demand.
  const storefront = useMatches().some((m) => m.id === "routes/store/layout");
  return (
    <html lang="en" style={themeStyle(data?.settings)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#ffffff" />
        {/* No paint before the page's end is parsed: a paint while the parser is halfway through
            the footer (a busy device) drew it short, then moved it (docs/decisions/0024). */}
        {storefront ? <link rel="expect" href="#page-end" blocking="render" /> : null}
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">
        {/* The first stop of the Tab key: past the header and its links to the page's own content
            (WCAG 2.4.1). Every layout's content is #main. Hidden until it has the focus. */}
        <a
          href="#main"
          className="sr-only rounded-md bg-background px-4 py-2 font-medium text-foreground shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100]"
        >
          Skip to content
        </a>
        {children}
        <LazyToaster eager={!storefront} position="bottom-right" />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
