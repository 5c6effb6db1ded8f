import { publicUrl } from "../../platform/index.server";

/** An absolute URL on the shop's public address (PUBLIC_URL) for canonical links, Open Graph and sitemaps. */
export function absoluteUrl(pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  const path = pathOrUrl.startsWith("/") ? pathOrUrl : `/${pathOrUrl}`;
  return `${publicUrl()}${path}`;
}
