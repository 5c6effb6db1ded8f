import { describe, expect, it } from "vitest";
import { parseStylesheet } from "./critical-css.server";
import { rewriteForFirstPaint } from "./first-paint.server";

const SHEET = parseStylesheet(".used{color:red}.unused{color:blue}");
const page = (head: string, body = '<p class="used">Hi</p>') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe("rewriteForFirstPaint", () => {
  it("puts the rules the page uses inline in place of a precedence stylesheet, and preloads the file at low priority", () => {
    const html = page('<link nonce="n" rel="stylesheet" href="/assets/app-1.css" data-precedence="default"/><title>x</title>');
    expect(rewriteForFirstPaint(html, () => SHEET)).toBe(
      page('<style data-precedence="default">.used{color:red}</style><link rel="preload" as="style" href="/assets/app-1.css" fetchPriority="low"/><title>x</title>'),
    );
  });

  it("fetches module preloads at low priority", () => {
    const html = page('<link rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/>');
    expect(rewriteForFirstPaint(html, () => null)).toBe(page('<link fetchPriority="low" rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/>'));
  });

  it("leaves alone a stylesheet without precedence (hydrated in place), one with a media query, and one it cannot read", () => {
    const head =
      '<link rel="stylesheet" href="/assets/plain.css"/><link rel="stylesheet" href="/assets/print.css" media="print" data-precedence="p"/>' +
      '<link rel="stylesheet" href="/app/styles/app.css" data-precedence="default"/>';
    expect(rewriteForFirstPaint(page(head), (href) => (href === "/app/styles/app.css" ? null : SHEET))).toBe(page(head));
  });

  it("never lets the stylesheet close the style element", () => {
    const sheet = parseStylesheet('.used::after{content:"</style><script>x</script>"}');
    const out = rewriteForFirstPaint(page('<link rel="stylesheet" href="/assets/a.css" data-precedence="default"/>'), () => sheet);
    expect(out).toContain('<style data-precedence="default">.used::after{content:"<\\/style><script>x</script>"}</style>');
  });

  it("changes nothing in the body", () => {
    const body = '<link rel="stylesheet" href="/assets/app-1.css" data-precedence="default"/><p class="used">Hi</p>';
    expect(rewriteForFirstPaint(page("", body), () => SHEET)).toBe(page("", body));
  });
});
