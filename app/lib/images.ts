/** Browser-safe: responsive `srcSet`s for the shop's own images (uploads served under /media/). */

/** The widths /resized/<width>/<key> serves. */
export const RESIZED_WIDTHS = [320, 640, 960, 1280, 1600] as const;

const OWN_MEDIA = /^\/media\/([A-Za-z0-9][A-Za-z0-9._\/-]*\.(?:webp|png|jpe?g|gif|avif))$/i;

/**
 * `srcSet` for an image in our own storage, listing the widths up to `max`; undefined for other
 * images (an external address, the fallback SVG), which are used as they are.
 */
export function ownImageSrcSet(src: string, max = 1600): string | undefined {
  const match = OWN_MEDIA.exec(src);
  if (!match || match[1]!.includes("..")) return undefined;
  return RESIZED_WIDTHS.filter((w) => w <= max)
    .map((w) => `/resized/${w}/${match[1]} ${w}w`)
    .join(", ");
}
