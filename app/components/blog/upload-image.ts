import { toast } from "sonner";
import { MESSAGES } from "~/lib/blog";

export const BLOG_UPLOAD_URL = "/admin/blog/upload";

/** Uploads one image to storage and returns its URL; shows 'Failed to upload image' (with the reason) and returns null on failure. */
export async function uploadBlogImage(file: File): Promise<string | null> {
  const body = new FormData();
  body.append("file", file);
  try {
    const res = await fetch(BLOG_UPLOAD_URL, { method: "POST", body, headers: { Accept: "application/json" } });
    const json = (await res.json().catch(() => null)) as { url?: string; reason?: string } | null;
    if (res.ok && json?.url) return json.url;
    toast.error(MESSAGES.imageFailed, json?.reason ? { description: json.reason } : undefined);
  } catch (err) {
    console.error(err);
    toast.error(MESSAGES.imageFailed);
  }
  return null;
}
