import fs from "node:fs";
import { Readable } from "node:stream";
import { mediaFilePath } from "~/server/catalog/index.server";
import type { Route } from "./+types/media";

const TYPES: Record<string, string> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  avif: "image/avif",
};

/**
 * Serves files from disk storage. Names change when content changes, so caching is long.
 * X-Content-Type-Options: nosniff comes with every response (security-headers.server.ts), once.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  // Uploads in a bucket are served from the bucket; a key storage would never write is not a file.
  const file = mediaFilePath(key);
  if (!file) return new Response("Not Found", { status: 404 });
  const ext = key.split(".").pop()?.toLowerCase() ?? "";
  const type = TYPES[ext];
  if (!type) return new Response("Not Found", { status: 404 });
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new Error("not a file");
  } catch {
    return new Response("Not Found", { status: 404 });
  }
  const stream = Readable.toWeb(fs.createReadStream(file)) as ReadableStream;
  return new Response(stream, {
    headers: {
      "Content-Type": type,
      "Content-Length": String(stat.size),
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
