import { ArrowLeft } from "~/components/ui/lean/icons/arrow-left";
import { brandFrom } from "~/lib/seo";
import { Calendar } from "~/components/ui/lean/icons/calendar";
import { data, Link, useLoaderData } from "react-router";
import { PostContent } from "~/components/blog/post-content";
import { Badge } from "~/components/ui/lean/badge";
import { Button } from "~/components/ui/lean/button";
import { formatPostDate } from "~/lib/blog";
import { getPublishedPostBySlug } from "~/server/content/index.server";
import { respond } from "~/routes/_edge/errors.server";
import { publicUrl, storefrontDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/post";

export async function loader({ params }: Route.LoaderArgs) {
  const post = await getPublishedPostBySlug(storefrontDb(), params.slug);
  // Drafts and deleted posts answer 404 at once: nothing here is cached.
  if (!post) return respond({ kind: "not_found" }, { post: null, origin: publicUrl() }, { "Cache-Control": "no-store" });
  return data({ post, origin: publicUrl() }, { headers: { "Cache-Control": "no-cache" } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

function absolute(origin: string, url: string) {
  return url.startsWith("/") ? origin + url : url;
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const brand = brandFrom(matches);
  const post = loaderData?.post;
  if (!post) return [{ title: `Post Not Found — ${brand}` }, { name: "robots", content: "noindex" }];
  const origin = loaderData.origin;
  const url = `${origin}/blog/${post.slug}`;
  const title = post.metaTitle || post.title;
  const description = post.metaDescription || post.excerpt;
  const image = post.featuredImageUrl ? absolute(origin, post.featuredImageUrl) : undefined;
  return [
    { title: `${title} — ${brand}` },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "article" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(image ? [{ property: "og:image", content: image }] : []),
    {
      // React Router escapes < > & in this JSON, so a title cannot close the script element.
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: post.title,
        description,
        ...(image ? { image } : {}),
        datePublished: new Date(post.createdAt).toISOString(),
        dateModified: new Date(post.updatedAt).toISOString(),
        keywords: post.tags.join(", "),
        mainEntityOfPage: { "@type": "WebPage", "@id": url },
        url,
        author: { "@type": "Organization", name: brand },
        publisher: { "@type": "Organization", name: brand },
      },
    },
  ];
};

function PostNotFound() {
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Post Not Found</h1>
      <p className="text-muted-foreground">This post does not exist or is no longer available.</p>
      <Button asChild>
        <Link to="/blog">Back to Blog</Link>
      </Button>
    </div>
  );
}

/** /blog/{slug} (docs/rules/blog.md): back link, hero image, tags, date and the sanitized body. */
export default function BlogPost() {
  const { post } = useLoaderData<typeof loader>();
  if (!post) return <PostNotFound />;
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <Link
        to="/blog"
        className="inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-primary focus-visible:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Blog
      </Link>
      {post.featuredImageUrl ? (
        <img
          src={post.featuredImageUrl}
          alt=""
          width={1200}
          height={630}
          className="mt-6 aspect-[1200/630] w-full rounded-xl object-cover"
        />
      ) : null}
      <header className="mt-8">
        <h1 className="text-3xl leading-tight font-bold tracking-tight md:text-4xl">{post.title}</h1>
        <div className="mt-4 flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
          <span className="inline-flex items-center gap-1.5">
            <Calendar aria-hidden="true" className="size-4" />
            <time dateTime={new Date(post.createdAt).toISOString()}>{formatPostDate(post.createdAt)}</time>
          </span>
          {post.tags.length > 0 ? (
            <ul aria-label="Tags" className="flex flex-wrap gap-2">
              {post.tags.map((tag) => (
                <li key={tag}>
                  <Badge variant="secondary">{tag}</Badge>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        {post.excerpt ? <p className="mt-6 text-lg text-muted-foreground">{post.excerpt}</p> : null}
      </header>
      <PostContent html={post.content} className="mt-8" />
    </article>
  );
}
