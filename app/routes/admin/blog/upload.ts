import { MESSAGES } from "~/lib/blog";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { logger } from "~/server/platform/http/index.server";
import { formFile, readUploadForm, saveImageUpload, UploadError } from "~/server/catalog/index.server";
import type { Route } from "./+types/upload";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return Response.json({ error: "Upload an image with POST" }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * Blog images (the featured image and images placed in the editor): checked and re-encoded by the
 * media module, stored as blog-images/<ms timestamp>.<ext> (docs/rules/catalogue-data.md), answered with their URL.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  try {
    const form = await readUploadForm(request);
    const { url } = await saveImageUpload(formFile(form, "file"), { keyPrefix: "blog-images/" });
    return Response.json({ url });
  } catch (err) {
    if (err instanceof UploadError) return jsonResponse(err, { error: MESSAGES.imageFailed, reason: err.message });
    logger.error({ err }, "blog image upload failed");
    return jsonResponse({ kind: "failed" }, { error: MESSAGES.imageFailed });
  }
}
