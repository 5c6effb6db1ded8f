import { Eye, EyeOff, Pencil, Trash2 } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { formatPostDate } from "~/lib/blog";
import { useResultToast, type ActionResult } from "./use-result-toast";

export type AdminPostCardData = {
  id: string;
  title: string;
  excerpt: string;
  featuredImageUrl: string | null;
  published: boolean;
  featured: boolean;
  createdAt: Date | string;
};

/**
 * One post in 'Blog Management': image, badges, title, date, excerpt; edit, publish, delete.
 * Deleting is asked of the list (`onDelete`), which owns the confirmation and the request: a
 * deleted card unmounts, and React may skip the render in which its own answer would have toasted.
 */
export function AdminPostCard({
  post,
  deleting,
  onDelete,
}: {
  post: AdminPostCardData;
  deleting: boolean;
  onDelete: () => void;
}) {
  const toggle = useFetcher<ActionResult>();
  useResultToast(toggle.data);

  // Shown at once while the change is saved.
  const published = toggle.formData ? toggle.formData.get("published") === "true" : post.published;

  return (
    <Card className="w-full gap-0 overflow-hidden py-0" aria-busy={deleting}>
      {post.featuredImageUrl ? (
        <img src={post.featuredImageUrl} alt="" width={640} height={360} loading="lazy" className="aspect-video w-full object-cover" />
      ) : null}
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex flex-wrap gap-2">
          <Badge variant={published ? "success" : "secondary"}>{published ? "Published" : "Draft"}</Badge>
          {post.featured ? <Badge variant="warning">Featured</Badge> : null}
        </div>
        <h2 className="text-lg leading-snug font-semibold">{post.title}</h2>
        <p className="text-sm text-muted-foreground">
          <time dateTime={new Date(post.createdAt).toISOString()}>{formatPostDate(post.createdAt)}</time>
        </p>
        {post.excerpt ? <p className="line-clamp-3 text-sm text-muted-foreground">{post.excerpt}</p> : null}
        <div className="mt-auto flex gap-2 pt-2">
          <Button asChild size="sm" variant="outline">
            <Link to={`/admin/blog/${post.id}/edit`} aria-label={`Edit "${post.title}"`}>
              <Pencil aria-hidden="true" />
              Edit
            </Link>
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={toggle.state !== "idle"}
            aria-label={`${published ? "Unpublish" : "Publish"} "${post.title}"`}
            onClick={() =>
              toggle.submit(
                { intent: "toggle-publish", id: post.id, published: String(!published) },
                { method: "post", action: "/admin/blog" },
              )
            }
          >
            {published ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {published ? "Unpublish" : "Publish"}
          </Button>
          <Button
            size="sm"
            variant="outline"
            className="ml-auto text-destructive hover:text-destructive"
            disabled={deleting}
            aria-label={`Delete "${post.title}"`}
            onClick={onDelete}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
    </Card>
  );
}

export function AdminPostCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border">
      <Skeleton className="aspect-video w-full rounded-none" />
      <div className="space-y-3 p-5">
        <Skeleton className="h-5 w-20" />
        <Skeleton className="h-6 w-3/4" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-4 w-full" />
      </div>
    </div>
  );
}
