import "quill/dist/quill.snow.css";
import { ExternalLink, RotateCcw, Save } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher, useLoaderData } from "react-router";
import { toast } from "sonner";
import { RichTextEditor } from "~/components/blog/rich-text-editor";
import { useResultToast, type ActionResult } from "~/components/blog/use-result-toast";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { htmlHasContent } from "~/lib/blog";
import { isShopPageSlug, SHOP_PAGE_MAX_BYTES, SHOP_PAGE_MESSAGES, SHOP_PAGE_SLUGS, SHOP_PAGES, type ShopPageSlug } from "~/lib/shop-pages";
import { cn } from "~/lib/utils";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getShopPage, PageInputError, resetShopPage, saveShopPage } from "~/server/content/index.server";
import { BodyTooLargeError, BROWSER_DRAIN_BYTES, getDb, logger, readJsonWithLimit, type RefusalKind } from "~/server/platform/http/index.server";
import type { Route } from "./+types/pages";

/** /admin/pages (docs/rules/visitor-storage.md): the privacy policy and the accessibility statement, one at a time. */
const chosen = (request: Request): ShopPageSlug => {
  const page = new URL(request.url).searchParams.get("page");
  return isShopPageSlug(page) ? page : "privacy";
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { page: await getShopPage(getDb(), chosen(request)) };
}

const fail = (error: string, kind: RefusalKind) => respond({ kind }, { ok: false as const, error });

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const slug = chosen(request);
  let body: { intent?: unknown; content?: unknown } | null;
  try {
    body = (await readJsonWithLimit(request, SHOP_PAGE_MAX_BYTES, { drainUpTo: BROWSER_DRAIN_BYTES })) as typeof body;
  } catch (err) {
    if (err instanceof BodyTooLargeError) return fail(SHOP_PAGE_MESSAGES.tooLarge, err.kind);
    return fail(SHOP_PAGE_MESSAGES.failed, "bad_input");
  }
  if (!body || typeof body !== "object") return fail(SHOP_PAGE_MESSAGES.failed, "bad_input");
  try {
    if (body.intent === "reset") {
      await resetShopPage(getDb(), slug);
      return { ok: true as const, message: SHOP_PAGE_MESSAGES.reset };
    }
    await saveShopPage(getDb(), slug, body.content, admin.id);
    return { ok: true as const, message: SHOP_PAGE_MESSAGES.saved };
  } catch (err) {
    if (err instanceof PageInputError) return fail(err.message, "bad_input");
    logger.error({ err, slug }, "saving a shop page failed");
    return fail(SHOP_PAGE_MESSAGES.failed, "failed");
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Pages — Admin" }, { name: "robots", content: "noindex" }];

type Saver = ReturnType<typeof useFetcher<ActionResult>>;

function PageEditor({
  slug,
  initialHtml,
  fromTemplate,
  updatedAt,
  saver,
}: {
  slug: ShopPageSlug;
  initialHtml: string;
  fromTemplate: boolean;
  updatedAt: string | null;
  saver: Saver;
}) {
  const [html, setHtml] = useState(initialHtml);
  const saving = saver.state !== "idle";
  const info = SHOP_PAGES[slug];
  const labelId = `page-${slug}-label`;

  function save() {
    if (saving) return;
    if (!htmlHasContent(html)) return void toast.error(SHOP_PAGE_MESSAGES.empty);
    const payload = { intent: "save", content: html };
    if (new Blob([JSON.stringify(payload)]).size > SHOP_PAGE_MAX_BYTES) return void toast.error(SHOP_PAGE_MESSAGES.tooLarge);
    void saver.submit(payload, { method: "post", encType: "application/json" });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 id={labelId}>{info.title}</h2>
        </CardTitle>
        <CardDescription>
          {fromTemplate
            ? "This page shows the shop's template. Edit it and save to publish your own text."
            : `Your text, last saved ${new Date(updatedAt!).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })}.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <RichTextEditor initialHtml={initialHtml} labelledBy={labelId} onChange={setHtml} />
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={save} disabled={saving}>
            <Save aria-hidden="true" />
            {saving ? "Saving..." : "Save page"}
          </Button>
          {fromTemplate ? null : (
            <Button
              type="button"
              variant="outline"
              disabled={saving}
              onClick={() => void saver.submit({ intent: "reset" }, { method: "post", encType: "application/json" })}
            >
              <RotateCcw aria-hidden="true" />
              Use the template
            </Button>
          )}
          <Button asChild variant="ghost">
            <a href={info.path} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden="true" />
              View page<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

export default function AdminPages() {
  const { page } = useLoaderData<typeof loader>();
  // Held here, not in the editor: a save or reset gives the editor a new key, and the answer's toast must outlive it.
  const saver = useFetcher<ActionResult>();
  useResultToast(saver.data);
  const updatedAt = page.updatedAt ? new Date(page.updatedAt).toISOString() : null;
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Pages</h1>
        <p className="text-muted-foreground">The privacy policy and the accessibility statement, linked from the shop's footer.</p>
      </div>
      <nav aria-label="Pages">
        <ul className="flex gap-2">
          {SHOP_PAGE_SLUGS.map((slug) => (
            <li key={slug}>
              <Link
                to={`?page=${slug}`}
                aria-current={slug === page.slug ? "page" : undefined}
                className={cn(
                  "inline-flex min-h-10 items-center rounded-md border px-3 text-sm font-medium",
                  slug === page.slug ? "bg-primary text-primary-foreground" : "hover:bg-muted",
                )}
              >
                {SHOP_PAGES[slug].title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A new editor for another page or after a save or reset: Quill reads its HTML once. */}
      <PageEditor key={`${page.slug}:${updatedAt ?? "template"}`} slug={page.slug} initialHtml={page.content} fromTemplate={page.fromTemplate} updatedAt={updatedAt}
        saver={saver}
      />
    </div>
  );
}
