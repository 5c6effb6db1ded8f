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
 * - the scripts are fetched after the first paint (scriptsAfterFirstPaint): hydration needs them,
 *   the first paint does not, and the hero or first card image gets the bandwidth first.
 */
export function rewriteForFirstPaint(html: string, stylesheet: (href: string) => ParsedStylesheet | null): string {
  const headEnd = html.indexOf("</head>");
  if (headEnd < 0) return html;
  let page: { used: Set<string>; vars: string[] } | undefined;
  const later = scriptsAfterFirstPaint(html.slice(headEnd));
  const preloads = new Set<string>();
  const head = html.slice(0, headEnd).replace(/<link\b[^>]*>/g, (tag) => {
    const attrs = attributes(tag);
    if (attrs.get("rel") === "modulepreload") {
      // Preloaded by the module script once the page has painted, when it could be deferred.
      if (later) {
        if (attrs.get("href")) preloads.add(attrs.get("href")!);
        return "";
      }
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
  if (!later) return head + html.slice(headEnd);
  return head + later([...preloads]);
}

/** React Router's route module imports at the top of its inline module script. */
const ROUTE_IMPORT = /^import \* as (route\d+) from ("[^"\\]+");$/gm;
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;

/**
 * React Router's hydration script imports the page's route modules statically, so the browser
 * fetches them (and, through the preloads, about 115 KB of JavaScript) as soon as it reads the
 * document, competing with the images the first screen shows. Rewritten, the script waits for
 * the first paint (the frame after it; a hidden tab, which paints nothing, waits at most a fifth
 * of a second), then preloads the same files at low priority and imports the route modules
 * dynamically, the rest of the script unchanged. The modules arrive one by one, so the client
 * entry (app/entry.client.tsx) waits until the script has set them all before hydrating. Null
 * when the body has no such script (a different React Router output is left as it is, preloads
 * included).
 */
function scriptsAfterFirstPaint(body: string): ((preloads: string[]) => string) | null {
  const script = MODULE_SCRIPT.exec(body);
  if (!script) return null;
  const [whole, open, code, close] = script;
  const imports = [...code!.matchAll(ROUTE_IMPORT)];
  if (imports.length === 0) return null;
  const names = imports.map((m) => m[1]!);
  const sources = imports.map((m) => m[2]!);
  const rest = code!.replace(ROUTE_IMPORT, "");
  return (preloads) => {
    const withScroll = scrollRestoreWithoutNewKey(body);
    const wait =
      "\nawait new Promise((go) => { requestAnimationFrame(() => setTimeout(go)); setTimeout(go, 200); });" +
      (withScroll ? `\n${NEW_HISTORY_KEY}` : "") +
      `\nfor (const href of ${JSON.stringify(preloads).replace(/</g, "\\u003c")}) { const link = document.createElement("link"); link.rel = "modulepreload"; link.fetchPriority = "low"; link.href = href; document.head.append(link); }` +
      `\nconst [${names.join(", ")}] = await Promise.all([${sources.map((s) => `import(${s})`).join(", ")}]);`;
    return (withScroll ?? body).replace(whole, () => open + wait + rest + close);
  };
}

/**
 * React Router's scroll-restoration script (`<ScrollRestoration>`), as it runs before the first
 * paint: on an entry's first visit it gives the history entry a key and then reads
 * sessionStorage for a position saved under that key, which cannot be there. Both are calls into
 * the browser (about 5 ms on the machine that records Lighthouse's load, four times that on its
 * simulated phone). Rewritten, the inline script only restores: an entry with no key returns at
 * once, and the deferred module script gives it its key (NEW_HISTORY_KEY) before the client
 * entry reads it. A reload or a return to the entry still scrolls before the first paint. Only
 * the default form is rewritten (no `getKey`, whose key the server computes): null otherwise.
 */
function scrollRestoreWithoutNewKey(body: string): string | null {
  const script = SCROLL_SCRIPT.exec(body);
  if (!script || !script[2]!.includes("sessionStorage.getItem(storageKey2)")) return null;
  const [whole, open, , storageKey, close] = script;
  return body.replace(whole, () => open + RESTORE_ONLY.replace("STORAGE_KEY", () => storageKey!) + close);
}

const SCROLL_SCRIPT = /(<script\b[^>]*>)(\(\(storageKey2, restoreKey\) => \{[\s\S]*?\}\))\(("(?:[^"\\<]|\\.)*"), null\)(<\/script>)/;
const RESTORE_ONLY =
  '(function (storageKey) { var key = window.history.state && window.history.state.key; if (!key) return; try { var y = JSON.parse(sessionStorage.getItem(storageKey) || "{}")[key]; if (typeof y === "number") window.scrollTo(0, y); } catch (error) { console.error(error); sessionStorage.removeItem(storageKey); } })(STORAGE_KEY)';
const NEW_HISTORY_KEY = 'if (!window.history.state || !window.history.state.key) window.history.replaceState({ key: Math.random().toString(32).slice(2) }, "");';

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
