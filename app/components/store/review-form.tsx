import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { Input } from "~/components/ui/lean/input";
import { Label } from "~/components/ui/lean/label";
import { REVIEW_BODY_MAX, REVIEW_TITLE_MAX, type ReviewResult } from "~/lib/reviews-view";

const TEXTAREA =
  "flex min-h-28 w-full rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs outline-none placeholder:text-muted-foreground md:text-sm focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive";

const STARS = [5, 4, 3, 2, 1] as const;

/**
 * The verified buyer's review: a plain form posted to the product page's action, so it adds no
 * script of its own to the page and works before (or without) JavaScript.
 */
export function ReviewForm({ productId, result }: { productId: string; result: ReviewResult | undefined }) {
  const navigation = useNavigation();
  const action = `/product/${productId}`;
  const sending = navigation.state === "submitting" && navigation.formAction?.startsWith(action) === true;
  const failed = result && !result.ok ? result : undefined;
  const errors = failed?.fieldErrors ?? {};
  const described = (field: keyof typeof errors) =>
    errors[field] ? { "aria-invalid": true, "aria-describedby": `review-${field}-error` } : {};
  const error = (field: keyof typeof errors) =>
    errors[field] ? (
      <p id={`review-${field}-error`} className="text-sm text-destructive">
        {errors[field]}
      </p>
    ) : null;

  return (
    <Form method="post" action={action} preventScrollReset className="grid gap-4 rounded-lg border p-4" aria-labelledby="review-form-title">
      <h3 id="review-form-title" className="text-lg font-semibold">
        Write a review
      </h3>
      <fieldset className="grid gap-2" {...described("rating")}>
        <legend className="mb-2 text-sm font-medium">Your rating</legend>
        <div className="flex flex-wrap gap-2">
          {STARS.map((n) => (
            <label
              key={n}
              className="flex cursor-pointer items-center gap-1.5 rounded-md border px-2.5 py-1 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
            >
              <input type="radio" name="rating" value={n} required defaultChecked={failed?.values?.rating === String(n)} className="size-4 accent-primary" />
              <span aria-hidden className="text-amber-500">
                {"★".repeat(n)}
              </span>
              {n === 1 ? "1 star" : `${n} stars`}
            </label>
          ))}
        </div>
        {error("rating")}
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor="review-title">Title</Label>
        <Input id="review-title" name="title" required maxLength={REVIEW_TITLE_MAX} defaultValue={failed?.values?.title ?? ""} {...described("title")} />
        {error("title")}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="review-body">Your review</Label>
        <textarea
          id="review-body"
          name="body"
          rows={5}
          maxLength={REVIEW_BODY_MAX}
          defaultValue={failed?.values?.body ?? ""}
          className={TEXTAREA}
          {...described("body")}
        />
        <p className="text-xs text-muted-foreground">Plain text, up to {REVIEW_BODY_MAX.toLocaleString("en-US")} characters.</p>
        {error("body")}
      </div>
      <div role="status" aria-live="polite" className="text-sm text-destructive empty:hidden">
        {failed ? failed.message : null}
      </div>
      <Button type="submit" disabled={sending} className="w-full sm:w-auto">
        {sending ? "Sending..." : "Submit review"}
      </Button>
    </Form>
  );
}
