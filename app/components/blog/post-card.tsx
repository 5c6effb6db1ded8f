import { Calendar } from "~/components/ui/lean/icons/calendar";
import { Link } from "react-router";
import { Badge } from "~/components/ui/lean/badge";
import { formatPostDate, MAX_CARD_TAGS } from "~/lib/blog";

export type PostCardProps = {
  title: string;
  slug: string;
  excerpt: string;
  featuredImageUrl: string | null;
  tags: string[];
  createdAt: Date | string;
};

/** A storefront blog card (docs/rules/blog.md): image, title, excerpt, date and at most 3 tags. */
export function PostCard({ post, eager = false }: { post: PostCardProps; eager?: boolean }) {
  return (
    <article className="group flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm transition-shadow hover:shadow-md">
      <Link to={`/blog/${post.slug}`} className="flex flex-1 flex-col focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        {post.featuredImageUrl ? (
          <img
            src={post.featuredImageUrl}
            alt=""
            width={640}
            height={360}
            loading={eager ? "eager" : "lazy"}
            className="aspect-video w-full object-cover"
          />
        ) : (
          <div aria-hidden="true" className="aspect-video w-full bg-muted" />
        )}
        <div className="flex flex-1 flex-col gap-3 p-5">
          <h2 className="text-lg leading-snug font-semibold group-hover:text-primary">{post.title}</h2>
          {post.excerpt ? <p className="line-clamp-3 text-sm text-muted-foreground">{post.excerpt}</p> : null}
          <div className="mt-auto flex flex-wrap items-center gap-2 pt-2 text-xs text-muted-foreground">
            <span className="inline-flex items-center gap-1">
              <Calendar aria-hidden="true" className="size-3.5" />
              <time dateTime={new Date(post.createdAt).toISOString()}>{formatPostDate(post.createdAt)}</time>
            </span>
            {post.tags.slice(0, MAX_CARD_TAGS).map((tag) => (
              <Badge key={tag} variant="secondary">
                {tag}
              </Badge>
            ))}
          </div>
        </div>
      </Link>
    </article>
  );
}
