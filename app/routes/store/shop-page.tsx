import { data, useLoaderData } from "react-router";
import { PostContent } from "~/components/blog/post-content";
import { SHOP_PAGES, type ShopPageSlug } from "~/lib/shop-pages";
import { brandFrom, seoMeta } from "~/lib/seo";
import { absoluteUrl, getShopPage } from "~/server/content/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/shop-page";

/** /privacy and /accessibility (docs/rules/visitor-storage.md): the owner's text, or the template until saved. */
export async function loader({ request }: Route.LoaderArgs) {
  const slug: ShopPageSlug = /\/accessibility(?:\.data)?$/.test(new URL(request.url).pathname) ? "accessibility" : "privacy";
  const page = await getShopPage(getDb(), slug);
  // Not in the page cache: an owner's save shows on the next request.
  return data({ page, canonical: absoluteUrl(SHOP_PAGES[slug].path) }, { headers: { "Cache-Control": "no-cache" } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const brand = brandFrom(matches);
  const info = loaderData ? SHOP_PAGES[loaderData.page.slug] : SHOP_PAGES.privacy;
  return seoMeta({ title: `${info.title} — ${brand}`, description: info.description, canonical: loaderData?.canonical, siteName: brand });
};

export default function ShopPageRoute() {
  const { page } = useLoaderData<typeof loader>();
  const info = SHOP_PAGES[page.slug];
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl leading-tight font-bold tracking-tight md:text-4xl">{info.title}</h1>
      {page.updatedAt ? (
        <p className="mt-2 text-sm text-muted-foreground">
          Last updated <time dateTime={new Date(page.updatedAt).toISOString()}>{new Date(page.updatedAt).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" })}</time>
        </p>
      ) : null}
      <PostContent html={page.content} className="mt-8" />
    </article>
  );
}
