import { ArrowLeft } from "~/components/ui/lean/icons/arrow-left";
import { Heart } from "~/components/ui/lean/icons/heart";
import { data, Link, useRouteLoaderData } from "react-router";
import { AddToCartButton } from "~/components/store/add-to-cart-button";
import { Price } from "~/components/store/price";
import { ProductReviews } from "~/components/store/product-reviews";
import { Rating } from "~/components/store/rating";
import { Button } from "~/components/ui/lean/button";
import { ownImageSrcSet } from "~/lib/images";
import { useNonce } from "~/lib/nonce";
import { lowestPriceText } from "~/lib/lowest-price";
import { canAddToCart, isOnSale, type ProductDetailData } from "~/lib/product";
import { ReviewInput } from "~/lib/review-input";
import { ownReviewText, REVIEW_RECEIVED } from "~/lib/review-texts";
import type { ProductReviewsPage, PublicReview, ReviewResult } from "~/lib/reviews-view";
import { jsonLd, seoMeta, brandFrom } from "~/lib/seo";
import { BRAND_NAME } from "~/lib/site-settings";
import { formatUtcDate } from "~/lib/utc-date";
import type { RootData } from "~/root";
import { readPublicForm } from "~/routes/_edge/body.server";
import { respond } from "~/routes/_edge/errors.server";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { getStorefrontProduct, listApprovedReviews, reviewAbility, ReviewError, reviewsPageParam, submitReview } from "~/server/catalog/index.server";
import { getDb, storefrontDb } from "~/server/platform/http/index.server";
import { absoluteUrl } from "~/server/content/index.server";
import type { Route } from "./+types/product";

/**
 * A verified buyer's review, posted by the form under the product. The author is the session's
 * user, never a field of the form; every refusal answers with its message (docs/rules/after-sale.md, Reviews).
 */
export async function action({ params, request }: Route.ActionArgs) {
  const user = await getCurrentUser(request);
  const form = await readPublicForm(request);
  if (!user) return respond<ReviewResult>({ kind: "not_signed_in" }, { ok: false, message: "Sign in to write a review." });
  const values = { rating: String(form.get("rating") ?? ""), title: String(form.get("title") ?? ""), body: String(form.get("body") ?? "") };
  const parsed = ReviewInput.safeParse(values);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return respond<ReviewResult>(
      { kind: "bad_input" },
      { ok: false, message: "Please correct the highlighted fields.", fieldErrors, values: { ...values, body: values.body.slice(0, 20_000) } },
    );
  }
  try {
    await submitReview(getDb(), user, params.id, parsed.data);
  } catch (err) {
    if (!(err instanceof ReviewError)) throw err;
    return respond<ReviewResult>(err, { ok: false, message: err.message });
  }
  return data<ReviewResult>({ ok: true, message: REVIEW_RECEIVED });
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const db = storefrontDb();
  const product = await getStorefrontProduct(db, params.id);
  // Missing, inactive or not an id at all: the product page's own not-found state, status 404.
  if (!product) return respond({ kind: "not_found" }, { product: null, canonical: null, image: null, reviews: null, ability: null, ownReview: null });
  // Whether the visitor may review is theirs alone: a signed-in visitor's product page is rendered
  // for them (the page cache shares no product page between customers), and an anonymous one is
  // told to sign in, the same for all.
  const user = await getCurrentUser(request);
  const [reviews, ability] = await Promise.all([
    listApprovedReviews(db, product.id, reviewsPageParam(new URL(request.url).searchParams)),
    // The shopper's own standing (a review just sent): the primary.
    reviewAbility(getDb(), user?.id ?? null, product.id),
  ]);
  return {
    product,
    canonical: absoluteUrl(`/product/${product.id}`),
    image: absoluteUrl(product.imageUrl),
    // The dates in words are made here, so the page's browser code carries no date formatting.
    reviews: { ...reviews, reviews: reviews.reviews.map((r) => ({ ...r, day: formatUtcDate(r.createdAt, "long") })) },
    ability,
    ownReview: ability.kind === "reviewed" ? ownReviewText(ability.status) : null,
  };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const brand = brandFrom(matches);
  if (!data?.product) {
    return seoMeta({ title: `Product not found — ${brand}`, description: "This product is not available.", noindex: true });
  }
  const p = data.product;
  return seoMeta({
    title: `${p.name} — ${brand}`,
    description: p.description || `${p.name} from ${brand}.`,
    canonical: data.canonical ?? undefined,
    image: data.image ?? undefined,
    type: "product",
    siteName: brand,
  });
};

function stockLine(p: ProductDetailData): string {
  if (p.unlimitedStock) return "In stock";
  if (p.stockQuantity <= 0) return "Out of stock";
  return `In stock: ${p.stockQuantity} available`;
}

function reviewJsonLd(r: PublicReview) {
  return {
    "@type": "Review",
    name: r.title,
    reviewBody: r.body || undefined,
    datePublished: r.createdAt.slice(0, 10),
    author: { "@type": "Person", name: r.authorName },
    reviewRating: { "@type": "Rating", ratingValue: String(r.rating), bestRating: "5", worstRating: "1" },
  };
}

function productJsonLd(p: ProductDetailData, url: string, image: string, reviews: ProductReviewsPage | null) {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: p.name,
    description: p.description,
    image: [image],
    sku: p.sku || undefined,
    category: p.category,
    url,
    offers: {
      "@type": "Offer",
      url,
      priceCurrency: "USD",
      price: (p.priceCents / 100).toFixed(2),
      availability: canAddToCart(p) ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
      // The 30-day lowest price beside a reduction, as the page says it (docs/decisions/0036): the
      // Offer's description, a text schema.org allows on any Thing; a second price in the offer
      // could be read as what the product costs.
      description: p.lowestPriceCents != null && isOnSale(p) ? lowestPriceText(p.lowestPriceCents) : undefined,
    },
    // Search engines reject a rating without reviews.
    aggregateRating:
      p.reviewCount > 0
        ? { "@type": "AggregateRating", ratingValue: p.rating.toFixed(1), reviewCount: p.reviewCount, bestRating: "5", worstRating: "0" }
        : undefined,
    // The approved reviews this page lists (docs/rules/after-sale.md, Reviews).
    review: reviews?.reviews.length ? reviews.reviews.map(reviewJsonLd) : undefined,
  };
}

function ProductNotFound() {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Product not found</h1>
      <p className="text-muted-foreground">This product does not exist or is no longer available.</p>
      <Button asChild>
        <Link to="/">Back to Home</Link>
      </Button>
    </div>
  );
}

/** The product page, /product/{id} (docs/rules/storefront.md). */
export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const nonce = useNonce();
  const root = useRouteLoaderData<RootData>("root");
  const { product: p, canonical, image, reviews, ability, ownReview } = loaderData;
  if (!p || !canonical || !image || !reviews || !ability) return <ProductNotFound />;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <Link to="/" className="inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-primary">
        <ArrowLeft className="size-4" aria-hidden />
        Back to Home
      </Link>
      <div className="mt-6 grid gap-8 md:grid-cols-2 lg:gap-12">
        <div className="overflow-hidden rounded-lg border bg-muted">
          <img
            src={p.imageUrl}
            alt={p.name}
            width={800}
            height={800}
            srcSet={ownImageSrcSet(p.imageUrl)}
            sizes={ownImageSrcSet(p.imageUrl) ? "(min-width: 1280px) 608px, (min-width: 768px) 48vw, 100vw" : undefined}
            fetchPriority="high"
            decoding="async"
            className="aspect-square size-full object-cover"
          />
        </div>
        <div className="flex flex-col gap-5">
          <div>
            <p className="text-sm font-medium tracking-wide text-muted-foreground uppercase">{p.category}</p>
            <h1 className="mt-1 text-3xl font-bold tracking-tight">{p.name}</h1>
          </div>
          <Rating value={p.rating} reviewCount={p.reviewCount} />
          <Price cents={p.priceCents} originalCents={p.originalPriceCents} lowestCents={p.lowestPriceCents} size="lg" />
          {p.description ? <p className="leading-relaxed whitespace-pre-line text-muted-foreground">{p.description}</p> : null}
          {p.colors.length > 0 ? (
            <div>
              <h2 className="text-sm font-semibold">Colors</h2>
              <ul className="mt-2 flex flex-wrap gap-2">
                {p.colors.map((c, i) => (
                  <li key={c} className="flex items-center gap-2 rounded-full border px-3 py-1 text-sm">
                    <span className="size-3.5 rounded-full border border-black/15" style={{ backgroundColor: p.swatches[i] }} aria-hidden />
                    {c}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <p className={canAddToCart(p) ? "text-sm font-medium text-success" : "text-sm font-medium text-destructive"}>
            {stockLine(p)}
          </p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <AddToCartButton product={p} size="lg" className="sm:flex-1" />
            {/* A disabled 'Save' button (docs/rules/storefront.md; wish lists are not part of the shop yet). */}
            <Button type="button" variant="outline" size="lg" disabled>
              <Heart aria-hidden />
              Save
            </Button>
          </div>
        </div>
      </div>
      <ProductReviews
        productId={p.id}
        shopName={root?.settings.site_branding.logo_text || BRAND_NAME}
        page={reviews}
        ability={ability}
        ownReview={ownReview}
        result={actionData}
      />
      {/* For crawlers, which read the server's HTML: built only there (import.meta.env.SSR is a
          build-time constant), so the browser's bundle carries none of it. Hydration keeps the
          server's text (React compares no inner HTML); a client-side navigation leaves it empty. */}
      <script
        type="application/ld+json"
        nonce={nonce || undefined}
        suppressHydrationWarning
        // jsonLd() escapes "<", so product text cannot end the script element.
        dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? jsonLd(productJsonLd(p, canonical, image, reviews)) : "" }}
      />
    </div>
  );
}
