import { absoluteUrl } from "~/server/content/index.server";

/** Private and per-visitor pages stay out of search engines; everything else is open. */
export const DISALLOWED_PATHS = ["/admin", "/cart", "/checkout", "/profile", "/auth", "/order-success", "/unsubscribe", "/api/"];

export function loader() {
  const body = [
    "User-agent: *",
    ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`),
    "Allow: /",
    "",
    `Sitemap: ${absoluteUrl("/sitemap.xml")}`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
