import "quill/dist/quill.snow.css";
import { useEffect } from "react";
import { useLoaderData, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import { toast } from "sonner";
import { PostEditor } from "~/components/blog/post-editor";
import { MESSAGES, POST_BODY_MAX_BYTES } from "~/lib/blog";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { createPost, getPostForEdit, PostInputError, sanitizePostHtml, updatePost } from "~/server/content/index.server";
import { BodyTooLargeError, BROWSER_DRAIN_BYTES, getDb, logger, readJsonWithLimit, type RefusalKind } from "~/server/platform/http/index.server";
import type { Route } from "./+types/editor";

/** One module for /admin/blog/new (no id) and /admin/blog/:id/edit. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = "id" in params ? params.id : undefined;
  if (!id) return { post: null, loadError: null };
  try {
    const post = await getPostForEdit(getDb(), id);
    if (post) return { post, loadError: null };
    return respond({ kind: "not_found" }, { post: null, loadError: MESSAGES.loadFailed });
  } catch (err) {
    logger.error({ err, id }, "loading a post for editing failed");
    return respond({ kind: "failed" }, { post: null, loadError: MESSAGES.loadFailed });
  }
}

const fail = (error: string, kind: RefusalKind) => respond({ kind }, { ok: false as const, error });

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  let body: { intent?: unknown; content?: unknown } | null;
  try {
    // The limit is enforced while the body streams in, not after it has been buffered.
    body = (await readJsonWithLimit(request, POST_BODY_MAX_BYTES, { drainUpTo: BROWSER_DRAIN_BYTES })) as typeof body;
  } catch (err) {
    if (err instanceof BodyTooLargeError) return fail(MESSAGES.tooLarge, err.kind);
    return fail(MESSAGES.saveFailed, "bad_input");
  }
  if (!body || typeof body !== "object") return fail(MESSAGES.saveFailed, "bad_input");

  if (body.intent === "preview") {
    return { preview: sanitizePostHtml(typeof body.content === "string" ? body.content : "") };
  }

  const id = "id" in params ? params.id : undefined;
  const db = getDb();
  try {
    if (!id) {
      const created = await createPost(db, body, admin.id);
      return { ok: true as const, message: MESSAGES.created, id: created.id };
    }
    const updated = await updatePost(db, id, body, admin.id);
    if (!updated) return fail(MESSAGES.saveFailed, "not_found");
    return { ok: true as const, message: MESSAGES.updated, id: updated.id };
  } catch (err) {
    if (err instanceof PostInputError) return fail(err.message, err.kind);
    logger.error({ err, id }, "saving a post failed");
    return fail(MESSAGES.saveFailed, "failed");
  }
}

/** A preview or a save answers the editor itself; the post on screen is the one being edited. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod === "POST") return false;
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.post ? "Edit Post" : "Create New Post"} — Admin` },
  { name: "description", content: "Write and publish a blog post" },
  { name: "robots", content: "noindex" },
];

export default function BlogEditorRoute() {
  const { post, loadError } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  useEffect(() => {
    if (!loadError) return;
    toast.error(loadError);
    navigate("/admin/blog", { replace: true });
  }, [loadError, navigate]);
  if (loadError) return null;
  // A new key per post: moving from one post's editor to another starts fresh.
  return <PostEditor key={post?.id ?? "new"} post={post} />;
}
