import { useRouteLoaderData } from "react-router";
import { kept } from "~/components/kept";
import { LoadMoreButton, useLoadMore } from "~/components/store/load-more";
import { ProductGrid } from "~/components/store/product-grid";
import { freeShippingText } from "~/lib/free-shipping";
import { FEATURED_PAGE_SIZE, MAX_RENDERED_PAGES, parsePage } from "~/lib/product";
import { seoMeta } from "~/lib/seo";
import { BRAND_NAME } from "~/lib/site-settings";
import type { RootData } from "~/root";
import { listFeaturedProducts } from "~/server/catalog/index.server";
import { storefrontDb } from "~/server/platform/http/index.server";
import { freeShippingClaim } from "~/server/commerce/index.server";
import { absoluteUrl } from "~/server/content/index.server";
import type { Route } from "./+types/home";

export async function loader({ request }: Route.LoaderArgs) {
  // `?page=N` is the no-JavaScript 'load more': it renders the first N pages at once.
  const page = parsePage(new URL(request.url).searchParams.get("page"), MAX_RENDERED_PAGES);
  const db = storefrontDb();
  const [featured, freeShipping] = await Promise.all([
    listFeaturedProducts(db, { offset: 0, limit: page * FEATURED_PAGE_SIZE }),
    // The benefits strip's free-shipping line follows the shop's rates (docs/rules/storefront.md).
    freeShippingClaim(db),
  ]);
  // The strip's words are worked out here, so the page's browser code carries no money formatting for them.
  return { featured, page, canonical: absoluteUrl("/"), freeShipping: freeShippingText(freeShipping) };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const root = matches.find((m) => m?.id === "root")?.data as RootData | undefined;
  // The root's loader always answers the settings merged over their defaults (a failed root
  // loader shows the root's error page instead of this one), so no fallback texts ship here.
  const settings = root?.settings;
  const hero = settings?.hero_section;
  const brand = settings?.site_branding.logo_text ?? BRAND_NAME;
  const image = hero?.background_image;
  return seoMeta({
    title: hero ? `${brand} — ${hero.subtitle || hero.title}` : brand,
    description: hero?.description || settings?.footer_content.brand_description || "",
    canonical: data?.canonical,
    image: image && data?.canonical ? new URL(image, data.canonical).toString() : undefined,
    siteName: brand,
  });
};

// Drawn by the server and kept by the browser: their code loads only when the browser draws them.
const Hero = kept(() => import("~/components/store/hero").then((m) => m.Hero));
const Benefits = kept(() => import("~/components/store/benefits").then((m) => m.Benefits));

const FEATURED_API_PARAMS = new URLSearchParams({ list: "featured" });
const NO_PARAMS = new URLSearchParams();

/** Home (docs/rules/storefront.md): hero, featured products with 'load more', benefits strip (the footer is the layout's). */
export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<RootData>("root");
  // Always there: this page renders under the root, whose loader answers the merged settings.
  const settings = root!.settings;
  const featuredSection = settings.featured_section;
  const { featured, page, freeShipping } = loaderData;
  const list = useLoadMore({
    initial: featured.items,
    hasMore: featured.hasMore,
    params: FEATURED_API_PARAMS,
    nextPage: page + 1,
  });
  return (
    <>
      <Hero hero={settings.hero_section} />
      <section aria-labelledby="featured-title" className="mx-auto max-w-7xl px-4 py-14">
        <div className="mb-8 text-center">
          <h2 id="featured-title" className="text-3xl font-bold tracking-tight">
            {featuredSection.title}
          </h2>
          {featuredSection.description ? (
            <p className="mx-auto mt-2 max-w-2xl text-muted-foreground">{featuredSection.description}</p>
          ) : null}
        </div>
        <ProductGrid products={list.items} />
        {list.hasMore ? (
          <LoadMoreButton
            action="/"
            params={NO_PARAMS}
            nextPage={list.nextPage}
            loading={list.loading}
            onLoadMore={list.loadMore}
          />
        ) : null}
      </section>
      <Benefits freeShipping={freeShipping} />
    </>
  );
}
