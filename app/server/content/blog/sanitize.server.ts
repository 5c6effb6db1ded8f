import sanitizeHtml from "sanitize-html";
import { isSafeImageUrl, videoEmbedUrl } from "~/lib/blog";

/**
 * The one allowlist for blog HTML, fitted to what Quill 2's `getSemanticHTML()` produces for the
 * editor's toolbar (docs/rules/blog.md). Used before a post is stored AND before it is rendered, so a row
 * written by an older version or by hand is still made safe on the way out.
 */

const COLOUR = [/^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i, /^rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(?:,\s*(?:0|1|0?\.\d+)\s*)?\)$/i];
const BLOCK_CLASSES = [
  "ql-align-center",
  "ql-align-right",
  "ql-align-justify",
  "ql-direction-rtl",
  ...Array.from({ length: 8 }, (_, i) => `ql-indent-${i + 1}`),
];
const BLOCK_TAGS = ["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "li", "ol", "ul"];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...BLOCK_TAGS,
    "br",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "strike",
    "code",
    "sub",
    "sup",
    "a",
    "img",
    "iframe",
    "span",
  ],
  disallowedTagsMode: "discard",
  allowedAttributes: {
    a: ["href", "target", "rel"],
    img: ["src", "alt", "width", "height"],
    iframe: ["src", "class", "frameborder", "allowfullscreen"],
    pre: ["spellcheck"],
    "*": ["style"],
  },
  allowedClasses: {
    ...Object.fromEntries(BLOCK_TAGS.map((tag) => [tag, BLOCK_CLASSES])),
    iframe: ["ql-video"],
  },
  allowedStyles: {
    "*": {
      color: COLOUR,
      "background-color": COLOUR,
      "text-align": [/^(?:left|right|center|justify)$/],
    },
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"], iframe: ["https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  allowedIframeHostnames: ["www.youtube.com", "player.vimeo.com"],
  allowIframeRelativeUrls: false,
  transformTags: {
    a: (tagName, attribs) => {
      const out: Record<string, string> = {};
      if (attribs.href !== undefined) out.href = attribs.href;
      // A new tab may not script its opener.
      if (attribs.target === "_blank") Object.assign(out, { target: "_blank", rel: "noopener noreferrer" });
      return { tagName, attribs: out };
    },
    iframe: (tagName, attribs) => {
      const src = attribs.src ? videoEmbedUrl(attribs.src) : null;
      const out: Record<string, string> = src ? { src, class: "ql-video", frameborder: "0", allowfullscreen: "true" } : {};
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => {
      const out: Record<string, string> = {};
      if (attribs.src && isSafeImageUrl(attribs.src.trim())) out.src = attribs.src.trim();
      for (const key of ["alt", "width", "height"] as const) if (attribs[key] !== undefined) out[key] = attribs[key];
      return { tagName, attribs: out };
    },
  },
  // An image or a frame without a (safe) source is dropped, not left as an empty box.
  exclusiveFilter: (frame) => (frame.tag === "img" || frame.tag === "iframe") && !frame.attribs.src,
};

/** Safe blog HTML: only the editor's formats, http/https/mailto/tel links, YouTube and Vimeo frames. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
