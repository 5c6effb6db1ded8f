import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Request, RequestHandler } from "express";

/**
 * The build's /assets (Vite's fingerprinted scripts, styles, fonts and images) answered from
 * memory, each in the encoding the build already wrote (vite.config.ts writes .br and .gz beside
 * every script and style worth it). Two costs a first visit used to pay per file, and which a
 * visitor without the files cached pays on every page of the storefront until they are:
 * compressing the same bytes again (brotli of the 340 KB client entry is most of the shop's
 * CPU for a first visit), and the file system round trips of a stat, an open, the reads and a
 * close (docs/decisions/0048).
 *
 * A file is read once, at its first request, and kept: a build never changes under a running
 * server, and the whole folder is a few megabytes. What this does not answer (a range request,
 * a file it does not list, one it cannot read) goes on to `express.static` behind it.
 */

type Encoding = "br" | "gzip" | "identity";
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz", identity: "" };

type Kept = { body: Buffer; etag: string };

export function staticAssets(dir: string): RequestHandler {
  const files = new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")),
  );
  const kept = new Map<string, Promise<Kept>>();

  const read = (file: string): Promise<Kept> => {
    let found = kept.get(file);
    if (!found) {
      found = readFile(path.join(dir, file)).then((body) => ({
        body,
        // Strong, and one per encoding: a cache holding the br copy must not take it for the gzip one.
        etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      }));
      // A file that could not be read is tried again next time (and served by express.static now).
      found.catch(() => kept.delete(file));
      kept.set(file, found);
    }
    return found;
  };

  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.range) return next();
    const name = decodeURIComponentSafe(req.path.slice(1));
    if (name === null || !files.has(name) || name.endsWith(".br") || name.endsWith(".gz")) return next();
    const has = { br: files.has(name + SUFFIX.br), gzip: files.has(name + SUFFIX.gzip) };
    const encoding = pickEncoding(req, has);
    read(name + SUFFIX[encoding]).then(
      ({ body, etag }) => {
        res.type(path.extname(name));
        res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
        if (has.br || has.gzip) res.vary("Accept-Encoding");
        res.setHeader("ETag", etag);
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
        res.setHeader("Content-Length", body.byteLength);
        res.end(body);
      },
      () => next(),
    );
  };
}

/** Brotli, then gzip, when the client takes it and the build wrote it; else the file itself. */
export function pickEncoding(req: Request, has: { br: boolean; gzip: boolean }): Encoding {
  if (has.br && req.acceptsEncodings("br") === "br") return "br";
  if (has.gzip && req.acceptsEncodings("gzip") === "gzip") return "gzip";
  return "identity";
}

function decodeURIComponentSafe(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
