import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Pagination } from "~/components/admin/pagination";
import { ReviewRow, type ReviewActionResult } from "~/components/admin/review-row";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { ReviewReplyInput } from "~/lib/review-input";
import { REVIEW_FILTERS, type ReviewFilter } from "~/lib/reviews-view";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb, pageParam } from "~/server/platform/http/index.server";
import { listAdminReviews, replyToReview, ReviewError, setReviewStatus } from "~/server/catalog/index.server";
import type { Route } from "./+types/reviews";

const FILTER_LABELS: Record<ReviewFilter, string> = { pending: "Pending", approved: "Approved", hidden: "Hidden", all: "All" };

const isFilter = (v: unknown): v is ReviewFilter => (REVIEW_FILTERS as readonly unknown[]).includes(v);

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const status = params.get("status");
  const filter: ReviewFilter = isFilter(status) ? status : "pending";
  return { filter, ...(await listAdminReviews(getDb(), { filter, page: pageParam(params) })) };
}

const DONE = { approve: "Review approved: it now shows on the product page.", hide: "Review hidden from the product page." } as const;

/** Approve, hide or reply to one review (docs/rules/after-sale.md, Reviews). */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await readPublicForm(request);
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  const db = getDb();
  try {
    if (intent === "approve" || intent === "hide") {
      await setReviewStatus(db, id, intent === "approve" ? "approved" : "hidden");
      return { ok: true, message: DONE[intent] } satisfies ReviewActionResult;
    }
    if (intent === "reply") {
      const reply = ReviewReplyInput.safeParse(String(form.get("reply") ?? ""));
      if (!reply.success) return respond<ReviewActionResult>({ kind: "bad_input" }, { ok: false, message: reply.error.issues[0]!.message });
      await replyToReview(db, id, reply.data);
      return { ok: true, message: reply.data ? "Reply saved." : "Reply removed." } satisfies ReviewActionResult;
    }
  } catch (err) {
    if (!(err instanceof ReviewError)) throw err;
    return respond<ReviewActionResult>(err, { ok: false, message: err.message });
  }
  return respond<ReviewActionResult>({ kind: "bad_input" }, { ok: false, message: "This action is not supported" });
}

export const meta: Route.MetaFunction = () => [
  { title: "Reviews — Admin" },
  { name: "description", content: "Reviews from verified buyers: approve, hide and reply." },
  { name: "robots", content: "noindex" },
];

const EMPTY: Record<ReviewFilter, string> = {
  pending: "No reviews are waiting for approval.",
  approved: "No approved reviews yet.",
  hidden: "No hidden reviews.",
  all: "No reviews yet. Shoppers who bought a product can review it on its page.",
};

/** The toast for each answer of the action, once. */
function useResultToast(result: ReviewActionResult | undefined) {
  const seen = useRef<unknown>(undefined);
  useEffect(() => {
    if (!result || seen.current === result) return;
    seen.current = result;
    if (result.ok) toast.success(result.message);
    else toast.error("Failed to update review", { description: result.message });
  }, [result]);
}

export default function ReviewsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, reviews, page, pages, total, pendingCount } = loaderData;
  useResultToast(actionData);
  const link = (p: { status?: ReviewFilter; page?: number }) => `?status=${p.status ?? filter}${p.page && p.page > 1 ? `&page=${p.page}` : ""}`;
  return (
    <div className="grid gap-6 p-4 md:p-6">
      <div>
        <h1 className="text-3xl font-bold">Reviews</h1>
        <p className="text-muted-foreground">
          Reviews from verified buyers, newest first. A review shows on its product page once approved. {pendingCount} pending.
        </p>
      </div>
      <nav aria-label="Filter reviews" className="flex flex-wrap gap-2">
        {REVIEW_FILTERS.map((f) => (
          <Button key={f} asChild size="sm" variant={f === filter ? "default" : "outline"}>
            <Link to={link({ status: f })} aria-current={f === filter ? "page" : undefined}>
              {FILTER_LABELS[f]}
            </Link>
          </Button>
        ))}
      </nav>
      {reviews.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">{EMPTY[filter]}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <caption className="sr-only">
              {FILTER_LABELS[filter]} reviews ({total})
            </caption>
            <TableHeader>
              <TableRow>
                <TableHead>Product</TableHead>
                <TableHead>Rating</TableHead>
                <TableHead>Review</TableHead>
                <TableHead>Author</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Submitted (UTC)</TableHead>
                <TableHead>Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {reviews.map((r) => (
                <ReviewRow key={r.id} review={r} />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Pagination label="Review pages" page={page} pages={pages} href={(p) => link({ page: p })} />
    </div>
  );
}
