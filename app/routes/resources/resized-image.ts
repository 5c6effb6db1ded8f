import { resizedImage } from "~/server/catalog/index.server";
import type { Route } from "./+types/resized-image";

/**
 * /resized/<width>/<key>: a WebP width variant of /media/<key>, for `srcSet`s. X-Content-Type-Options
 * comes with every response (security-headers.server.ts), once.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const width = Number(params.width);
  const body = Number.isInteger(width) ? await resizedImage(width, params["*"] ?? "") : null;
  if (!body) return new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(body.length),
      // Same promise as /media/: a key's content never changes in place.
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
