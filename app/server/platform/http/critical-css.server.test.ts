import { describe, expect, it } from "vitest";
import { neededBySelector, parseStylesheet, subsetStylesheet, usedInHtml } from "./critical-css.server";

const cut = (css: string, html: string) => subsetStylesheet(parseStylesheet(css), usedInHtml(html));

describe("neededBySelector", () => {
  it("reads classes with their escapes, element names and attribute names", () => {
    expect(neededBySelector(".hover\\:underline:hover")).toEqual(["hover:underline"]);
    expect(neededBySelector(".w-1\\/2")).toEqual(["w-1/2"]);
    expect(neededBySelector(".\\32 xl\\:flex")).toEqual(["2xl:flex"]);
    expect(neededBySelector("abbr:where([title])")).toEqual(["<abbr>", "[title]"]);
    expect(neededBySelector(".aria-invalid\\:border-destructive[aria-invalid=true]")).toEqual(["aria-invalid:border-destructive", "[aria-invalid]"]);
    expect(neededBySelector(".\\[\\&_svg\\]\\:shrink-0 svg")).toEqual(["[&_svg]:shrink-0", "<svg>"]);
  });

  it("needs what a single selector inside :is(), :where() or :has() needs", () => {
    expect(neededBySelector(":is(:where(.group):hover .group-hover\\:scale-105)")).toEqual(["group", "group-hover:scale-105"]);
    expect(neededBySelector(".dark\\:bg-input:is(.dark *)")).toEqual(["dark:bg-input", "dark"]);
  });

  it("needs nothing it cannot be sure of: one of several alternatives, or what :not() excludes", () => {
    expect(neededBySelector(":is(.a, .b) > p")).toEqual(["<p>"]);
    expect(neededBySelector(".x:not(.y)")).toEqual(["x"]);
    expect(neededBySelector("*,:after")).toEqual([]);
    expect(neededBySelector("::-webkit-datetime-edit")).toEqual([]);
    expect(neededBySelector("#main")).toEqual([]);
  });
});

describe("subsetStylesheet", () => {
  it("keeps the rules the page's classes and elements can match, in the stylesheet's order", () => {
    const css = ".b{color:blue}.a{color:red}.c{color:green}p{margin:0}table{border:0}*{box-sizing:border-box}";
    expect(cut(css, '<p class="a b">x</p>')).toBe(".b{color:blue}.a{color:red}p{margin:0}*{box-sizing:border-box}");
  });

  it("keeps only the matching selectors of a list", () => {
    expect(cut(".a,.b,div .c{color:red}", '<i class="b"></i>')).toBe(".b{color:red}");
  });

  it("drops a variant for a class the page does not carry (dark mode) and keeps one whose classes are there", () => {
    const css = ".bg-x{color:red}.dark\\:bg-y:is(.dark *){color:blue}@media (hover:hover){:is(:where(.group):hover .group-hover\\:z){opacity:1}}";
    expect(cut(css, '<div class="group bg-x dark:bg-y"><i class="group-hover:z"></i></div>')).toBe(
      ".bg-x{color:red}@media (hover:hover){:is(:where(.group):hover .group-hover\\:z){opacity:1}}",
    );
  });

  it("reads class attributes as React escapes them", () => {
    expect(cut(".\\[\\&\\>svg\\]\\:size-3>svg{width:1px}", '<span class="[&amp;&gt;svg]:size-3"><svg></svg></span>')).toBe(
      ".\\[\\&\\>svg\\]\\:size-3>svg{width:1px}",
    );
  });

  it("drops at-rule blocks left empty and keeps layer order statements", () => {
    const css = "@layer theme,base,utilities;@layer utilities{.a{color:red}@media (width>=40rem){.sm\\:b{color:blue}}}@supports (x:y){.c{color:green}}";
    expect(cut(css, '<b class="a"></b>')).toBe("@layer theme,base,utilities;@layer utilities{.a{color:red}}");
  });

  it("keeps only the custom properties, @property and @keyframes that what it kept refers to, through other properties", () => {
    const css = [
      ":root{--used:var(--base);--base:1px;--unused:2px;--spin:spin 1s}",
      "@property --tw-shadow{syntax:\"*\";inherits:false;initial-value:0 0 #0000}",
      "@property --tw-ring{syntax:\"*\";inherits:false}",
      "@keyframes spin{to{rotate:1turn}}",
      "@keyframes pulse{50%{opacity:.5}}",
      ".a{margin:var(--used);box-shadow:var(--tw-shadow)}",
      ".spinner{animation:var(--spin)}",
    ].join("");
    expect(cut(css, '<b class="a"></b>')).toBe(
      ":root{--used:var(--base);--base:1px}@property --tw-shadow{syntax:\"*\";inherits:false;initial-value:0 0 #0000}.a{margin:var(--used);box-shadow:var(--tw-shadow)}",
    );
    expect(cut(css, '<b class="spinner"></b>')).toBe(":root{--spin:spin 1s}@keyframes spin{to{rotate:1turn}}.spinner{animation:var(--spin)}");
  });

  it("keeps custom properties an inline style reads, and licence comments", () => {
    const css = "/*! licence */:root{--primary:blue;--other:red}";
    expect(subsetStylesheet(parseStylesheet(css), usedInHtml("<p></p>"), ["--primary"])).toBe("/*! licence */:root{--primary:blue}");
  });

  it("is not fooled by braces and commas inside strings and escapes", () => {
    const css = '.a[data-x="}{,"]{content:"}"}.b\\{{color:red}.c{color:blue}';
    expect(cut(css, '<i class="a c" data-x></i>')).toBe('.a[data-x="}{,"]{content:"}"}.c{color:blue}');
  });
});

describe("usedInHtml", () => {
  it("reads element names, attribute names and classes from start tags, in any quoting", () => {
    const used = usedInHtml(`<DIV Class='a  b' data-state="open" hidden><input disabled/><p class=c title="x > y" id=z></p></DIV>`);
    expect([...used].sort()).toEqual(["<div>", "<input>", "<p>", "[class]", "[data-state]", "[disabled]", "[hidden]", "[id]", "[title]", "a", "b", "c"].sort());
  });

  it("takes nothing from text, attribute values or the content of scripts and styles", () => {
    const html =
      `<p title="open checked">Open the drawer, then hidden items <span class="shown">x</span></p>` +
      `<script>if (a<b && c) { d.class = "e" } const s = '<em class="no">';</script>` +
      `<style>.not-a-class { color: red } details[open] {}</style><footer></footer>`;
    const used = usedInHtml(html);
    expect(used.has("shown")).toBe(true);
    expect(used.has("<footer>")).toBe(true);
    for (const stray of ["[open]", "[checked]", "[hidden]", "[the]", "<b>", "<em>", "no", "e", "not-a-class"]) expect(used.has(stray), stray).toBe(false);
  });

  it("gives the same cut for a page whose text mentions a state as for one that does not", () => {
    const css = "details[open]>summary{color:red}.x{color:blue}";
    expect(cut(css, `<p class="x">Is the shop open today?</p>`)).toBe(".x{color:blue}");
    expect(cut(css, `<details open><summary class="x">Hours</summary></details>`)).toBe("details[open]>summary{color:red}.x{color:blue}");
  });
});
