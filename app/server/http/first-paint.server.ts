import fs from "node:fs";
import path from "node:path";
import { getEnv } from "../env.server";
import { usedInHtml, parseStylesheet, subsetStylesheet, type ParsedStylesheet } from "./critical-css.server";

/**
 * A storefront page rewritten so that its first paint needs the HTML alone
 * (docs/decisions/0021-first-paint.md):
 *
 * - each stylesheet link in <head> becomes a <style> with the rules this page uses
 *   (critical-css.server.ts), followed by a low-priority preload of the whole file. React adds the
 *   stylesheet itself when it hydrates (the root's `links`, precedence "default"), after the
 *   inline rules, since it files a precedence stylesheet after the last element of the same
 *   precedence; the preload has it in the cache by then. Without JavaScript the inline rules
 *   style everything the server rendered.
 * - module preloads are fetched at low priority: hydration needs them, the first paint does not.
 *   At React Router's default (high) Chromium fetches them alongside the stylesheet, and
 *   Lighthouse's simulation counts every high-priority script that finished before the paint as
 *   blocking it.
 */
export function rewriteForFirstPaint(html: string, stylesheet: (href: string) => ParsedStylesheet | null): string {
  const headEnd = html.indexOf("</head>");
  if (headEnd < 0) return html;
  let page: { used: Set<string>; vars: string[] } | undefined;
  const head = html.slice(0, headEnd).replace(/<link\b[^>]*>/g, (tag) => {
    const attrs = attributes(tag);
    if (attrs.get("rel") === "modulepreload") {
      return attrs.has("fetchpriority") ? tag : tag.replace(/^<link\b/, '<link fetchPriority="low"');
    }
    const href = attrs.get("href");
    const precedence = attrs.get("data-precedence");
    // Only stylesheets React manages as resources (a precedence): it adds those itself when it
    // hydrates. A plain link is hydrated in place and must stay.
    if (attrs.get("rel") !== "stylesheet" || !href || !precedence || attrs.has("media")) return tag;
    const sheet = stylesheet(href);
    if (!sheet) return tag;
    page ??= { used: usedInHtml(html), vars: varsInStyleAttributes(html) };
    const css = cachedSubset(href, sheet, page.used, page.vars).replace(/<\/style/gi, "<\\/style");
    const escapedHref = href.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
    return (
      `<style data-precedence="${precedence.replace(/"/g, "&quot;")}">${css}</style>` +
      `<link rel="preload" as="style" href="${escapedHref}" fetchPriority="low"/>`
    );
  });
  return head + html.slice(headEnd);
}

/** A tag's attributes, names lower-cased, values with React's entity escapes undone. */
function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/\s([\w:-]+)(?:="([^"]*)")?/g)) {
    out.set(m[1]!.toLowerCase(), (m[2] ?? "").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&"));
  }
  return out;
}

function varsInStyleAttributes(html: string): string[] {
  const vars = new Set<string>();
  for (const m of html.matchAll(/\sstyle="([^"]*)"/g)) for (const v of m[1]!.matchAll(/var\(\s*(--[\w-]+)/g)) vars.add(v[1]!);
  return [...vars];
}

/** Pages share what they use (every product page has the same markup): one cut per set. */
const subsets = new Map<string, string>();
const MAX_SUBSETS = 200;

function cachedSubset(href: string, sheet: ParsedStylesheet, used: Set<string>, vars: string[]): string {
  const relevant = [...used].filter((c) => sheet.needed.has(c)).sort();
  const key = `${href}\n${relevant.join(" ")}\n${vars.sort().join(" ")}`;
  let css = subsets.get(key);
  if (css === undefined) {
    css = subsetStylesheet(sheet, used, vars);
    if (subsets.size >= MAX_SUBSETS) subsets.delete(subsets.keys().next().value!);
  } else {
    subsets.delete(key);
  }
  subsets.set(key, css);
  return css;
}

const sheets = new Map<string, ParsedStylesheet | null>();

/**
 * A stylesheet of the client build, parsed once, by the URL the page links it with; null for
 * anything else (development serves the CSS through Vite, under no /assets/ file).
 */
export function builtStylesheet(href: string): ParsedStylesheet | null {
  let sheet = sheets.get(href);
  if (sheet !== undefined) return sheet;
  sheet = null;
  if (/^\/assets\/[\w.-]+\.css$/.test(href)) {
    try {
      sheet = parseStylesheet(fs.readFileSync(path.resolve(getEnv().SHOP_BUILD_DIR, "client", href.slice(1)), "utf8"));
    } catch {
      sheet = null;
    }
  }
  sheets.set(href, sheet);
  return sheet;
}
