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

  it("defers React Router's scripts past the first paint: no preloads in the head, the route modules imported once the page has painted", () => {
    const script =
      '<script nonce="n" type="module" async="">;\nimport * as route0 from "/assets/root-1.js";\nimport * as route1 from "/assets/home-2.js";\n' +
      '  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};\n\nimport("/assets/entry.client-1.js");</script>';
    const head =
      '<link rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/><link rel="modulepreload" href="/assets/root-1.js" nonce="n"/>' +
      '<link rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/><title>x</title>';
    const out = rewriteForFirstPaint(page(head, `<p class="used">Hi</p>${script}`), () => null);
    expect(out).not.toContain("modulepreload\" href");
    expect(out).toContain("<head><title>x</title></head>");
    const code = /<script nonce="n" type="module" async="">([\s\S]*)<\/script>/.exec(out)![1]!;
    expect(code).not.toMatch(/^import /m);
    // Waits for the frame after the first paint, or a fifth of a second in a tab that does not paint.
    expect(code.indexOf("requestAnimationFrame")).toBeLessThan(code.indexOf("modulepreload"));
    expect(code).toContain('for (const href of ["/assets/entry.client-1.js","/assets/root-1.js"])');
    expect(code).toContain('const [route0, route1] = await Promise.all([import("/assets/root-1.js"), import("/assets/home-2.js")]);');
    expect(code.indexOf("Promise.all")).toBeLessThan(code.indexOf("window.__reactRouterRouteModules"));
    expect(code.trimEnd().endsWith('import("/assets/entry.client-1.js");')).toBe(true);
  });

  it("runs the deferred script as the module it is: the routes are imported and the entry started, in that order, after a frame", async () => {
    const script = '<script type="module" async="">;\nimport * as route0 from "/r0.js";\nwindow.modules = {root: route0};\nimport("/entry.js");</script>';
    const out = rewriteForFirstPaint(page("", script), () => null);
    const code = /<script type="module" async="">([\s\S]*)<\/script>/.exec(out)![1]!;
    const calls: string[] = [];
    const appended: { rel: string; href: string; fetchPriority: string }[] = [];
    const globals = {
      requestAnimationFrame: (fn: () => void) => setTimeout(() => (calls.push("frame"), fn()), 5),
      document: { createElement: () => ({}), head: { append: (link: { rel: string; href: string; fetchPriority: string }) => appended.push(link) } },
      window: {} as Record<string, unknown>,
      importModule: async (src: string) => (calls.push(`import ${src}`), { src }),
    };
    const run = new Function(...Object.keys(globals), `return (async () => {${code.replace(/\bimport\(/g, "importModule(")}})();`);
    await run(...Object.values(globals));
    expect(calls).toEqual(["frame", "import /r0.js", "import /entry.js"]);
    expect(globals.window.modules).toEqual({ root: { src: "/r0.js" } });
    expect(appended).toEqual([]);
  });

  it("leaves the preloads and the script as they are when the script is not the one it knows", () => {
    const script = '<script type="module" async="">import("/assets/entry.client-1.js");</script>';
    const head = '<link rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/>';
    expect(rewriteForFirstPaint(page(head, script), () => null)).toBe(
      page('<link fetchPriority="low" rel="modulepreload" href="/assets/entry.client-1.js" nonce="n"/>', script),
    );
  });

  // React Router 7's <ScrollRestoration> script, as it writes it without getKey.
  const scrollScript = (restoreKey = "null") =>
    '<script nonce="n">((storageKey2, restoreKey) => {\n    if (!window.history.state || !window.history.state.key) {\n' +
    '      let key = Math.random().toString(32).slice(2);\n      window.history.replaceState({ key }, "");\n    }\n    try {\n' +
    '      let positions = JSON.parse(sessionStorage.getItem(storageKey2) || "{}");\n      let storedY = positions[restoreKey || window.history.state.key];\n' +
    '      if (typeof storedY === "number") {\n        window.scrollTo(0, storedY);\n      }\n    } catch (error) {\n      console.error(error);\n' +
    `      sessionStorage.removeItem(storageKey2);\n    }\n  })("react-router-scroll-positions", ${restoreKey})</script>`;
  const moduleScript = '<script type="module" async="">;\nimport * as route0 from "/r0.js";\nwindow.modules = {root: route0};\nimport("/entry.js");</script>';

  /** Runs a script's code against a stand-in browser; `state` is the history entry's. */
  function browserFor(state: { key?: string } | null, stored: Record<string, number> = {}) {
    const calls: string[] = [];
    const history = {
      state,
      replaceState(next: { key: string }) {
        calls.push("replaceState");
        history.state = next;
      },
    };
    const globals = {
      window: { history, scrollTo: (_x: number, y: number) => calls.push(`scrollTo ${y}`) } as Record<string, unknown>,
      history,
      sessionStorage: {
        getItem: () => (calls.push("getItem"), JSON.stringify(stored)),
        removeItem: () => calls.push("removeItem"),
      },
      requestAnimationFrame: (fn: () => void) => setTimeout(() => (calls.push("frame"), fn()), 1),
      document: { createElement: () => ({}), head: { append: () => {} } },
      importModule: async (src: string) => (calls.push(`import ${src}`), { src }),
    };
    const run = (code: string) =>
      new Function(...Object.keys(globals), `return (async () => {${code.replace(/\bimport\(/g, "importModule(")}})();`)(...Object.values(globals));
    return { calls, history, run };
  }
  const scripts = (html: string) => [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

  it("on an entry's first visit, gives it its scroll key after the first paint and reads no saved position before it", async () => {
    const out = rewriteForFirstPaint(page("", `<p class="used">Hi</p>${scrollScript()}${moduleScript}`), () => null);
    const [inline, deferred] = scripts(out);
    const browser = browserFor(null);
    await browser.run(inline!);
    expect(browser.calls, "nothing before the first paint").toEqual([]);
    await browser.run(deferred!);
    expect(browser.calls).toEqual(["frame", "replaceState", "import /r0.js", "import /entry.js"]);
    expect(browser.history.state?.key).toMatch(/^[0-9a-v]+$/);
  });

  it("scrolls a reloaded or revisited entry back to its saved position before the first paint, and keeps its key", async () => {
    const out = rewriteForFirstPaint(page("", `<p class="used">Hi</p>${scrollScript()}${moduleScript}`), () => null);
    const [inline, deferred] = scripts(out);
    const browser = browserFor({ key: "k1" }, { k1: 420, other: 10 });
    await browser.run(inline!);
    expect(browser.calls).toEqual(["getItem", "scrollTo 420"]);
    await browser.run(deferred!);
    expect(browser.calls.slice(2)).toEqual(["frame", "import /r0.js", "import /entry.js"]);
    expect(browser.history.state).toEqual({ key: "k1" });
  });

  it("leaves the scroll script alone when its key comes from the server (getKey) or the module script is not deferred", () => {
    const keyed = page("", `${scrollScript('"/shop"')}${moduleScript}`);
    expect(scripts(rewriteForFirstPaint(keyed, () => null))[0]).toBe(scripts(keyed)[0]);
    const notDeferred = page("", `${scrollScript()}<script type="module" async="">import("/entry.js");</script>`);
    expect(rewriteForFirstPaint(notDeferred, () => null)).toBe(notDeferred);
  });

  it("changes nothing in the body", () => {
    const body = '<link rel="stylesheet" href="/assets/app-1.css" data-precedence="default"/><p class="used">Hi</p>';
    expect(rewriteForFirstPaint(page("", body), () => SHEET)).toBe(page("", body));
  });
});
