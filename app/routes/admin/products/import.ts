import { data } from "react-router";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { bodyChunks, discardBody, getDb, getEnv } from "~/server/platform/http/index.server";
import { fileFromMultipart, ImportRequestError, latestJobProgress, MultipartError, receiveImportUpload } from "~/server/catalog/index.server";
import { unitsSoldSince } from "~/server/commerce/index.server";
import type { Route } from "./+types/import";

/** The Import Products tab's state: the newest import (running or finished) and the size limit. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { job: await latestJobProgress(getDb(), "import"), maxBytes: getEnv().IMPORT_MAX_BYTES };
}

function fileNameFrom(header: string | null) {
  try {
    return decodeURIComponent(header ?? "");
  } catch {
    return header ?? "";
  }
}

/**
 * The CSV upload, streamed to disk and dry-run: the raw file as the request body (Content-Type:
 * the file's type, X-File-Name: its name) or multipart/form-data with one file. Answers with the
 * pending job and what it would do.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (request.method !== "POST") return data({ error: "Method not allowed" }, { status: 405 });
  const length = request.headers.get("content-length");
  const contentType = request.headers.get("content-type") ?? "";
  try {
    // The raw file as the body (what the tab sends), or a form with a file field (curl -F).
    const upload =
      contentType.startsWith("multipart/form-data") && request.body
        ? await fileFromMultipart(request.body, contentType, getEnv().IMPORT_MAX_BYTES)
        : null;
    const job = await receiveImportUpload(getDb(), {
      body: upload?.stream ?? bodyChunks(request),
      fileName: upload?.fileName ?? fileNameFrom(request.headers.get("x-file-name")),
      contentType: upload?.mimeType ?? contentType,
      contentLength: length === null ? null : Number(length),
      userId: admin.id,
    }, unitsSoldSince);
    return { job };
  } catch (err) {
    if (err instanceof ImportRequestError || err instanceof MultipartError) {
      // Over the limit: the rest is read (a little of it at most) so the client gets the 413.
      if (err.kind === "too_large") await discardBody(request);
      return respond(err);
    }
    throw err;
  }
}
