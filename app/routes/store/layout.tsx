import { Outlet, useLoaderData, useRouteLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CartFollowsShopper } from "~/components/store/cart-follows-shopper";
import { SiteFooter } from "~/components/store/site-footer";
import { SiteHeader } from "~/components/store/site-header";
import { DEFAULT_BRANDING, DEFAULT_FOOTER } from "~/lib/site-settings";
import type { RootData } from "~/root";
import { pageReturnsSetting } from "~/routes/_edge/remembered.server";

/** Whether the footer shows 'Withdraw from contract' (the owner's EU withdrawal setting; the same for every visitor). */
export async function loader() {
  const returns = await pageReturnsSetting();
  return { withdrawalLink: returns.withdrawalEnabled };
}

function StoreFrame({ children, withdrawalLink = false }: { children: React.ReactNode; withdrawalLink?: boolean }) {
  const root = useRouteLoaderData<RootData>("root");
  const settings = root?.settings;
  const branding = settings?.site_branding ?? DEFAULT_BRANDING;
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader
        logoText={branding.logo_text}
        logoUrl={branding.logo_url}
        signedIn={Boolean(root?.viewer)}
        isAdmin={root?.viewer?.role === "admin"}
      />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter footer={settings?.footer_content ?? DEFAULT_FOOTER} logoText={branding.logo_text} withdrawalLink={withdrawalLink} />
      {/* The end of what the first paint waits for (root.tsx's rel=expect link). */}
      <div id="page-end" hidden />
      <CartFollowsShopper signedIn={Boolean(root?.viewer)} />
    </div>
  );
}

export default function StoreLayout() {
  const { withdrawalLink } = useLoaderData<typeof loader>();
  return (
    <StoreFrame withdrawalLink={withdrawalLink}>
      <Outlet />
    </StoreFrame>
  );
}

/** Errors inside the storefront keep the header and footer around the friendly page. */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>("routes/store/layout");
  return (
    <StoreFrame withdrawalLink={layout?.withdrawalLink ?? false}>
      <GeneralErrorBoundary />
    </StoreFrame>
  );
}
