/** Splits plain text into text and http(s) links, so a view can make only those clickable. */
export type TextPart = { kind: "text"; value: string } | { kind: "link"; href: string; value: string };

const URL_RE = /https?:\/\/[^\s<>"']+/g;
// Sentence punctuation right after a link belongs to the sentence, not the address.
const TRAILING = /[.,;:!?)\]]+$/;

export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    let url = m[0];
    const trail = TRAILING.exec(url)?.[0] ?? "";
    if (trail) url = url.slice(0, -trail.length);
    const start = m.index;
    if (start > last) parts.push({ kind: "text", value: text.slice(last, start) });
    let href: string | null = null;
    try {
      const u = new URL(url);
      if (u.protocol === "http:" || u.protocol === "https:") href = u.toString();
    } catch {
      href = null;
    }
    parts.push(href ? { kind: "link", href, value: url } : { kind: "text", value: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: "text", value: text.slice(last) });
  return parts;
}
