import { Check, EyeOff, MessageSquareReply } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { UtcTime } from "~/components/admin/utc-time";
import { Rating } from "~/components/store/rating";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { TableCell, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import { REVIEW_REPLY_MAX, type AdminReview, type ReviewStatus } from "~/lib/reviews-view";

export type ReviewActionResult = { ok: boolean; message: string };

const STATUS_BADGE: Record<ReviewStatus, { label: string; variant: "warning" | "success" | "neutral" }> = {
  pending: { label: "Pending", variant: "warning" },
  approved: { label: "Approved", variant: "success" },
  hidden: { label: "Hidden", variant: "neutral" },
};

/**
 * One review in /admin/reviews: what was written (as text), by whom, and approve / hide / reply.
 * Plain form posts: the page shows the answer's toast (an approved review leaves the Pending list,
 * so the row may be gone by then).
 */
export function ReviewRow({ review }: { review: AdminReview }) {
  const busy = useNavigation().state === "submitting";
  const badge = STATUS_BADGE[review.status];
  const label = `review “${review.title}” by ${review.authorName}`;
  return (
    <TableRow className="align-top">
      <TableCell className="max-w-48">
        <Link to={`/product/${review.productId}#reviews`} className="font-medium text-primary hover:underline">
          {review.productName}
        </Link>
      </TableCell>
      <TableCell>
        <Rating value={review.rating} showCount={false} />
      </TableCell>
      <TableCell className="max-w-md min-w-64 whitespace-normal">
        <p className="font-medium break-words">{review.title}</p>
        {review.body ? <p className="mt-1 text-sm break-words whitespace-pre-line text-muted-foreground">{review.body}</p> : null}
        {review.reply ? (
          <p className="mt-2 border-l-2 border-primary pl-2 text-sm break-words whitespace-pre-line">
            <span className="font-medium">Reply: </span>
            {review.reply}
          </p>
        ) : null}
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-medium text-primary">{review.reply ? "Edit reply" : "Reply"}</summary>
          <Form method="post" preventScrollReset className="mt-2 grid gap-2">
            <input type="hidden" name="id" value={review.id} />
            <Label htmlFor={`reply-${review.id}`}>Reply to {label}</Label>
            <Textarea id={`reply-${review.id}`} name="reply" defaultValue={review.reply ?? ""} maxLength={REVIEW_REPLY_MAX} rows={3} />
            <Button type="submit" name="intent" value="reply" size="sm" variant="outline" disabled={busy} className="w-fit">
              <MessageSquareReply aria-hidden="true" />
              Save reply
            </Button>
          </Form>
        </details>
      </TableCell>
      <TableCell className="max-w-48">
        <span className="block truncate">{review.authorName}</span>
        {review.authorEmail ? <span className="block truncate text-xs text-muted-foreground">{review.authorEmail}</span> : null}
        {review.orderNumber ? <span className="block text-xs text-muted-foreground">Order {review.orderNumber}</span> : null}
      </TableCell>
      <TableCell>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <UtcTime iso={review.createdAt} />
      </TableCell>
      <TableCell>
        <Form method="post" preventScrollReset className="flex flex-col gap-2">
          <input type="hidden" name="id" value={review.id} />
          {review.status !== "approved" ? (
            <Button type="submit" name="intent" value="approve" size="sm" disabled={busy} aria-label={`Approve ${label}`}>
              <Check aria-hidden="true" />
              Approve
            </Button>
          ) : null}
          {review.status !== "hidden" ? (
            <Button type="submit" name="intent" value="hide" size="sm" variant="outline" disabled={busy} aria-label={`Hide ${label}`}>
              <EyeOff aria-hidden="true" />
              Hide
            </Button>
          ) : null}
        </Form>
      </TableCell>
    </TableRow>
  );
}
