import express, { type RequestHandler } from "express";
import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * The build's public files outside /assets (favicons, images copied from public/), served for
 * an hour. The list is read once at start, since a build never changes under a running server:
 * asking the file system about every other URL (a stat per page or data request, failing)
 * cost a rendered request a few percent of its CPU.
 */
export function publicFiles(clientDir: string): RequestHandler {
  const serve = express.static(clientDir, { maxAge: "1h", index: false });
  const files = new Set(
    readdirSync(clientDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => "/" + path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .filter((url) => !url.startsWith("/assets/")),
  );
  return (req, res, next) => (files.has(req.path) ? serve(req, res, next) : next());
}
