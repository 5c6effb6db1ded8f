/**
 * Blog rules shared by the editor (browser) and the blog domain module (server), written out in docs/rules/blog.md.
 * Free of zod because the public blog pages load it; the save schema is in blog-input.ts.
 */
import { formatUtcDate } from "./utc-date";

export const BLOG_PAGE_SIZE = 12;
export const MAX_CARD_TAGS = 3;
export const META_TITLE_MAX = 60;
export const META_DESCRIPTION_MAX = 160;
export const TITLE_MAX = 200;
export const EXCERPT_MAX = 1000;
export const SLUG_MAX = 120;
export const TAG_MAX = 50;
export const TAGS_MAX = 30;
/** The whole save request (JSON). 1 MB of content fits easily; images travel separately. */
export const POST_BODY_MAX_BYTES = 5 * 1024 * 1024;
/** The editor's image picker (docs/rules/blog.md, Rich-text editor). */
export const EDITOR_IMAGE_TYPES = ["image/png", "image/gif", "image/jpeg", "image/bmp", "image/x-icon"] as const;

export const MESSAGES = {
  required: "Title and content are required",
  loginRequired: "You must be logged in to save posts",
  duplicateSlug: "A post with this slug already exists",
  emptySlug: "The URL slug needs at least one letter or digit",
  tooLarge: `This post is too large to save (the limit is ${POST_BODY_MAX_BYTES / 1024 / 1024} MB)`,
  created: "Post created successfully",
  updated: "Post updated successfully",
  saveFailed: "Failed to save post",
  published: "Post published successfully",
  unpublished: "Post unpublished successfully",
  deleted: "Post deleted successfully",
  fetchFailed: "Failed to fetch posts",
  loadFailed: "Failed to load post for editing",
  updateFailed: "Failed to update post",
  deleteFailed: "Failed to delete post",
  imageUploaded: "Image uploaded successfully",
  imageFailed: "Failed to upload image",
} as const;

/**
 * The slug rule (docs/rules/blog.md): lower-case, keep letters, digits, spaces and hyphens, spaces become hyphens,
 * repeats collapse. Accents are folded first ("Café" → "cafe") so a letter is not simply lost.
 */
export function slugify(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[\s_]+/g, " ")
    .replace(/[^a-z0-9 -]/g, "")
    .trim()
    .replace(/ /g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-$/, "");
}

/** Trims, drops blanks and duplicates (case-insensitive, the first spelling wins). */
export function cleanTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.replace(/\s+/g, " ").trim().slice(0, TAG_MAX);
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** True when the HTML shows something: text, an image or an embed (Quill's empty is `<p><br></p>`). */
export function htmlHasContent(html: string): boolean {
  if (/<(img|iframe)\b/i.test(html)) return true;
  const text = html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;/g, " ")
    .trim();
  return text.length > 0;
}

/** Our own uploads (`/media/...`) or a web address; nothing else may be an image source. */
export function isSafeImageUrl(url: string): boolean {
  return (url.startsWith("/") && !url.startsWith("//") && !url.includes("\\")) || /^https?:\/\/[^\s]+$/i.test(url);
}

/** 'Nov 22, 2026' ('MMM d, yyyy' in UTC, docs/rules/blog.md), the same on the server and in the browser. */
export function formatPostDate(value: string | Date): string {
  return formatUtcDate(value, "short");
}


/** What the editor works on (the full record, docs/rules/catalogue-data.md). */
export type EditablePost = {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  featuredImageUrl: string | null;
  tags: string[];
  published: boolean;
  featured: boolean;
  metaTitle: string;
  metaDescription: string;
};

const YOUTUBE_ID = "([A-Za-z0-9_-]{6,20})";
const VIDEO_PATTERNS: Array<[RegExp, (id: string) => string]> = [
  [new RegExp(`^https?://(?:www\\.|m\\.)?youtube\\.com/watch\\?(?:[^#]*&)?v=${YOUTUBE_ID}(?:[&#].*)?$`), youtube],
  [new RegExp(`^https?://(?:www\\.)?youtu\\.be/${YOUTUBE_ID}(?:[?#].*)?$`), youtube],
  [new RegExp(`^https?://(?:www\\.)?youtube(?:-nocookie)?\\.com/embed/${YOUTUBE_ID}(?:[?#].*)?$`), youtube],
  [/^https?:\/\/(?:www\.)?vimeo\.com\/(\d{1,15})(?:[/?#].*)?$/, vimeo],
  [/^https?:\/\/player\.vimeo\.com\/video\/(\d{1,15})(?:[/?#].*)?$/, vimeo],
];

function youtube(id: string) {
  return `https://www.youtube.com/embed/${id}`;
}
function vimeo(id: string) {
  return `https://player.vimeo.com/video/${id}`;
}

/**
 * YouTube and Vimeo links become embed addresses (docs/rules/blog.md). Anything else is not a video we
 * embed (null), so only these two players can ever be framed.
 */
export function videoEmbedUrl(url: string): string | null {
  const trimmed = url.trim();
  for (const [pattern, build] of VIDEO_PATTERNS) {
    const m = pattern.exec(trimmed);
    if (m) return build(m[1]!);
  }
  return null;
}
