import { useEffect, useState } from "react";
import { brandFrom, seoMeta } from "~/lib/seo";
import { useFetcher, useLoaderData } from "react-router";
import { PostCard } from "~/components/blog/post-card";
import { Button } from "~/components/ui/lean/button";
import { absoluteUrl, listPublishedPosts, type PostCardData } from "~/server/content/index.server";
import { storefrontDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const list = await listPublishedPosts(storefrontDb(), { page });
  // Each page of the list is its own canonical page (it shows only that page's posts).
  return { ...list, canonical: absoluteUrl(list.page > 1 ? `/blog?page=${list.page}` : "/blog") };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const brand = brandFrom(matches);
  return [
    ...seoMeta({
      title: `Blog — ${brand}`,
      description: `Sleep advice, bedding care guides and home ideas from ${brand}.`,
      canonical: data?.canonical,
      siteName: brand,
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `${brand} Blog`, href: "/blog/rss.xml" },
  ];
};

/** The blog list (docs/rules/blog.md): cards, 12 a page, 'Load More Posts' while a full page came back. */
export default function BlogIndex() {
  const first = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof loader>();
  const [more, setMore] = useState<{ posts: PostCardData[]; page: number; hasMore: boolean } | null>(null);

  // A new first page (navigation, revalidation) starts the list again.
  useEffect(() => setMore(null), [first]);
  useEffect(() => {
    const next = fetcher.data;
    if (!next) return;
    setMore((prev) => {
      const lastPage = prev?.page ?? first.page;
      if (next.page !== lastPage + 1) return prev;
      return { posts: [...(prev?.posts ?? []), ...next.posts], page: next.page, hasMore: next.hasMore };
    });
  }, [fetcher.data, first.page]);

  const posts = [...first.posts, ...(more?.posts ?? [])];
  const hasMore = more ? more.hasMore : first.hasMore;
  const nextPage = (more?.page ?? first.page) + 1;
  const loadingMore = fetcher.state !== "idle";

  return (
    <div className="mx-auto max-w-7xl px-4 py-12">
      <header className="mb-10 max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">Blog</h1>
        <p className="mt-3 text-lg text-muted-foreground">Sleep advice, bedding care guides and ideas for a calmer home.</p>
      </header>
      {posts.length === 0 ? (
        <p className="rounded-xl border border-dashed p-12 text-center text-muted-foreground">No posts yet. Check back soon.</p>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy={loadingMore}>
          {posts.map((post, i) => (
            <PostCard key={post.id} post={post} eager={i < 3} />
          ))}
        </div>
      )}
      {hasMore ? (
        // A GET form: before the page's script runs (or without it) the button opens the next
        // page of the list; with it, the next page joins this one.
        <form
          method="get"
          action="/blog"
          className="mt-10 flex justify-center"
          onSubmit={(e) => {
            e.preventDefault();
            fetcher.load(`/blog?page=${nextPage}`);
          }}
        >
          <input type="hidden" name="page" value={nextPage} />
          <Button type="submit" size="lg" variant="outline" disabled={loadingMore}>
            {loadingMore ? "Loading..." : "Load More Posts"}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
