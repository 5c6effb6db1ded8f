import { parsePage } from "~/lib/product";
import { storefrontDb } from "~/server/platform/http/index.server";
import { renderSitemap, type SitemapPart } from "~/server/content/index.server";
import type { Route } from "./+types/sitemap";

/** /sitemap.xml: fixed pages, published blog posts and active products (an index when large). */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const part = params.get("part");
  const which: SitemapPart =
    part === "pages"
      ? { part: "pages" }
      : part === "products"
        ? { part: "products", page: parsePage(params.get("page"), 10_000) }
        : { part: "all" };
  const xml = await renderSitemap(storefrontDb(), which);
  if (xml === null) return new Response("Not Found", { status: 404 });
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
