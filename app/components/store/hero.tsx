import { Link } from "react-router";
import { Button } from "~/components/ui/lean/button";
import { ownImageSrcSet } from "~/lib/images";
import type { SiteSettings } from "~/lib/site-settings";
import { clsx } from "~/components/ui/lean/clsx";

/** The home hero (docs/rules/storefront.md): subtitle, title, description, two buttons to /shop, background image. */
export function Hero({ hero }: { hero: SiteSettings["hero_section"] }) {
  const image = hero.background_image;
  return (
    <section aria-labelledby="hero-title" className={clsx("relative isolate overflow-hidden", image ? "bg-neutral-900" : "bg-secondary")}>
      {image ? (
        <>
          {/* The largest thing on the page: loaded first, never lazily. */}
          <img
            src={image}
            alt=""
            width={1600}
            height={900}
            srcSet={ownImageSrcSet(image)}
            sizes="100vw"
            fetchPriority="high"
            decoding="async"
            className="absolute inset-0 -z-10 size-full object-cover"
          />
          <div className="absolute inset-0 -z-10 bg-gradient-to-r from-black/70 via-black/45 to-black/10" aria-hidden />
        </>
      ) : null}
      <div className={clsx("mx-auto max-w-7xl px-4 py-20 md:py-28", image ? "text-white" : "text-secondary-foreground")}>
        {hero.subtitle ? (
          <p className={clsx("text-sm font-semibold tracking-wide uppercase", image ? "text-white/90" : "text-foreground/80")}>
            {hero.subtitle}
          </p>
        ) : null}
        <h1 id="hero-title" className="mt-2 max-w-2xl text-4xl font-bold tracking-tight text-balance md:text-5xl">
          {hero.title}
        </h1>
        {hero.description ? (
          <p className={clsx("mt-4 max-w-xl text-lg", image ? "text-white/90" : "text-foreground/80")}>{hero.description}</p>
        ) : null}
        <div className="mt-8 flex flex-wrap gap-3">
          {hero.cta_primary ? (
            <Button asChild size="lg">
              <Link to="/shop">{hero.cta_primary}</Link>
            </Button>
          ) : null}
          {hero.cta_secondary ? (
            <Button
              asChild
              size="lg"
              variant={image ? null : "outline"}
              className={image ? "border border-white bg-transparent text-white shadow-xs hover:bg-white hover:text-neutral-900 focus-visible:ring-ring/50" : undefined}
            >
              <Link to="/shop">{hero.cta_secondary}</Link>
            </Button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
