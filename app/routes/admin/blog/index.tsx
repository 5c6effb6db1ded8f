import { FileText, Plus } from "lucide-react";
import { Suspense, useEffect, useState } from "react";
import { Await, Link, useAsyncError, useFetcher, useLoaderData, useRevalidator } from "react-router";
import { toast } from "sonner";
import { ConfirmDelete } from "~/components/admin/confirm-delete";
import { AdminPostCard, AdminPostCardSkeleton } from "~/components/blog/admin-post-card";
import { useResultToast } from "~/components/blog/use-result-toast";
import { Button } from "~/components/ui/button";
import { MESSAGES } from "~/lib/blog";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { type AdminPostCard as Post, deletePost, listAdminPosts, setPostPublished } from "~/server/content/index.server";
import { BodyTooLargeError, BROWSER_DRAIN_BYTES, getDb, logger, readFormWithLimit } from "~/server/platform/http/index.server";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  // Streamed: the page (and its six placeholder cards) shows while the list loads.
  const posts = listAdminPosts(getDb()).catch((err: unknown) => {
    logger.error({ err }, "admin blog list failed");
    throw new Error(MESSAGES.fetchFailed);
  });
  // Handled at once: a rejection before React Router subscribes must not count as unhandled
  // (Node would end the process). The page still sees it through <Await errorElement>.
  posts.catch(() => {});
  return { posts };
}

export type BlogListActionData = { ok: true; message: string } | { ok: false; error: string };

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await readFormWithLimit(request, 16 * 1024, { drainUpTo: BROWSER_DRAIN_BYTES }).catch((err: unknown) =>
    err instanceof BodyTooLargeError ? ("too large" as const) : null,
  );
  if (form === "too large") {
    return respond<BlogListActionData>({ kind: "too_large" }, { ok: false, error: "The request is too large." });
  }
  const intent = form?.get("intent");
  const id = String(form?.get("id") ?? "");
  const db = getDb();
  if (intent === "toggle-publish") {
    const published = form?.get("published") === "true";
    try {
      if (await setPostPublished(db, id, published)) {
        return { ok: true, message: published ? MESSAGES.published : MESSAGES.unpublished } satisfies BlogListActionData;
      }
      return respond<BlogListActionData>({ kind: "not_found" }, { ok: false, error: MESSAGES.updateFailed });
    } catch (err) {
      logger.error({ err, id }, "toggle publish failed");
      return respond<BlogListActionData>({ kind: "failed" }, { ok: false, error: MESSAGES.updateFailed });
    }
  }
  if (intent === "delete") {
    try {
      if (await deletePost(db, id)) return { ok: true, message: MESSAGES.deleted } satisfies BlogListActionData;
      return respond<BlogListActionData>({ kind: "not_found" }, { ok: false, error: MESSAGES.deleteFailed });
    } catch (err) {
      logger.error({ err, id }, "delete post failed");
      return respond<BlogListActionData>({ kind: "failed" }, { ok: false, error: MESSAGES.deleteFailed });
    }
  }
  return respond<BlogListActionData>({ kind: "bad_input" }, { ok: false, error: "Unknown action" });
}

export const meta: Route.MetaFunction = () => [
  { title: "Blog Management — Admin" },
  { name: "description", content: "Create and manage your blog posts" },
  { name: "robots", content: "noindex" },
];

function LoadingGrid() {
  return (
    <div role="status" aria-label="Loading posts" className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
      {Array.from({ length: 6 }, (_, i) => (
        <AdminPostCardSkeleton key={i} />
      ))}
    </div>
  );
}

function FetchFailed() {
  const error = useAsyncError();
  const revalidator = useRevalidator();
  useEffect(() => {
    console.error(error);
    toast.error(MESSAGES.fetchFailed);
  }, [error]);
  return (
    <div role="alert" className="rounded-xl border border-dashed p-12 text-center">
      <p className="font-medium">{MESSAGES.fetchFailed}</p>
      <Button className="mt-4" variant="outline" onClick={() => revalidator.revalidate()}>
        Try again
      </Button>
    </div>
  );
}

function EmptyState() {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed p-12 text-center">
      <FileText aria-hidden="true" className="size-12 text-muted-foreground" />
      <h2 className="mt-4 text-lg font-semibold">No posts created yet</h2>
      <p className="mt-1 text-muted-foreground">Create your first blog post to get started</p>
      <Button asChild className="mt-6">
        <Link to="/admin/blog/new">
          <Plus aria-hidden="true" />
          Create First Post
        </Link>
      </Button>
    </div>
  );
}

function PostGrid({
  posts,
  deletingId,
  onDelete,
}: {
  posts: Post[];
  deletingId: string | null;
  onDelete: (post: Post) => void;
}) {
  if (posts.length === 0) return <EmptyState />;
  return (
    <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
      {posts.map((post) => (
        <li key={post.id} className="flex">
          <AdminPostCard post={post} deleting={deletingId === post.id} onDelete={() => onDelete(post)} />
        </li>
      ))}
    </ul>
  );
}

/** The admin blog list (docs/rules/blog.md): 'Blog Management', newest first, edit / publish / delete per card. */
export default function AdminBlog() {
  const { posts } = useLoaderData<typeof loader>();
  // One delete request and one dialog for the page, so the answer (and its toast) outlives the
  // deleted post's card.
  const remove = useFetcher<BlogListActionData>();
  useResultToast(remove.data);
  // The post stays named while the dialog animates shut.
  const [confirming, setConfirming] = useState<Post | null>(null);
  const [open, setOpen] = useState(false);
  const deletingId = remove.state !== "idle" ? String(remove.formData?.get("id") ?? "") || null : null;
  return (
    <div className="mx-auto w-full max-w-7xl p-4 md:p-6">
      <div className="mb-8 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Blog Management</h1>
          <p className="mt-1 text-muted-foreground">Create and manage your blog posts</p>
        </div>
        <Button asChild>
          <Link to="/admin/blog/new">
            <Plus aria-hidden="true" />
            New Post
          </Link>
        </Button>
      </div>
      <Suspense fallback={<LoadingGrid />}>
        <Await resolve={posts} errorElement={<FetchFailed />}>
          {(list) => (
            <PostGrid
              posts={list}
              deletingId={deletingId}
              onDelete={(post) => {
                setConfirming(post);
                setOpen(true);
              }}
            />
          )}
        </Await>
      </Suspense>
      <ConfirmDelete
        open={open}
        onOpenChange={setOpen}
        title="Delete Post"
        description={`Are you sure you want to delete "${confirming?.title ?? ""}"? This action cannot be undone.`}
        onConfirm={() =>
          confirming && remove.submit({ intent: "delete", id: confirming.id }, { method: "post", action: "/admin/blog" })
        }
      />
    </div>
  );
}
