import { Badge } from "~/components/ui/badge";
import { Skeleton } from "~/components/ui/skeleton";
import { PostContent } from "./post-content";

type Props = {
  title: string;
  excerpt: string;
  tags: string[];
  featuredImageUrl: string | null;
  /** Sanitized by the server (the same sanitizer the storefront uses); null while it is on its way. */
  html: string | null;
};

/** The preview shows the image, title, excerpt, tags and the rendered content (docs/rules/blog.md). */
export function PostPreview({ title, excerpt, tags, featuredImageUrl, html }: Props) {
  return (
    <article aria-label="Post preview" className="rounded-xl border bg-card p-4 md:p-8">
      {featuredImageUrl ? (
        <img src={featuredImageUrl} alt="" className="mb-6 aspect-[1200/630] w-full rounded-lg object-cover" />
      ) : null}
      <h2 className="text-3xl leading-tight font-bold">{title || "Untitled post"}</h2>
      {excerpt ? <p className="mt-3 text-lg text-muted-foreground">{excerpt}</p> : null}
      {tags.length > 0 ? (
        <ul aria-label="Tags" className="mt-4 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li key={tag}>
              <Badge variant="secondary">{tag}</Badge>
            </li>
          ))}
        </ul>
      ) : null}
      {html === null ? (
        <div role="status" aria-label="Loading the preview" className="mt-8 space-y-3">
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      ) : (
        <PostContent html={html} className="mt-8" />
      )}
    </article>
  );
}
