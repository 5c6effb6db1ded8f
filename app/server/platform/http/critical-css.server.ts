/**
 * The part of a stylesheet one page needs: the rules whose class selectors that page's HTML uses,
 * every rule that names no class (the reset, element defaults), and the custom properties,
 * `@property` and `@keyframes` those rules refer to — in the stylesheet's own order, so the
 * cascade is the same as with the whole file. docs/decisions/0021-first-paint.md says why pages
 * carry it inline.
 *
 * The parser knows CSS's block structure (strings, escapes, comments, nested at-rules), not its
 * grammar: a selector "needs" a class when it can only match with an element of that class on
 * the page. Anything it cannot tell (a class inside `:not()`, one of several in `:is(.a, .b)`) it
 * leaves out of the needs, so the rule is kept: a doubt costs bytes, never a missing style.
 */

type Selector = { text: string; needs: string[] };
type Node =
  | { kind: "text"; text: string }
  | { kind: "group"; prelude: string; children: Node[] }
  | { kind: "rule"; selectors: Selector[]; body: string; global: boolean }
  | { kind: "opaque"; name: string; prelude: string; body: string };

/** `needed`: every class and element name some selector needs, for telling pages apart. */
export type ParsedStylesheet = { nodes: Node[]; needed: Set<string> };

/** At-rules whose block holds rules (kept when any rule inside is). */
const GROUPS = new Set(["media", "supports", "layer", "container", "scope", "starting-style", "document"]);

export function parseStylesheet(css: string): ParsedStylesheet {
  const needed = new Set<string>();
  const nodes = parseBlock(css, 0, css.length, needed);
  return { nodes, needed };
}

/** Skips a string, comment or escape starting at i; returns the index after it, or i if none. */
function skipAtom(css: string, i: number): number {
  const c = css[i];
  if (c === "\\") return Math.min(i + 2, css.length);
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < css.length && css[j] !== c) j += css[j] === "\\" ? 2 : 1;
    return j + 1;
  }
  if (c === "/" && css[i + 1] === "*") {
    const end = css.indexOf("*/", i + 2);
    return end < 0 ? css.length : end + 2;
  }
  return i;
}

/** The index of the `{` or `;` that ends a prelude starting at i (or `end`). */
function preludeEnd(css: string, i: number, end: number): number {
  let depth = 0;
  while (i < end) {
    const skipped = skipAtom(css, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = css[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth <= 0 && (c === "{" || c === ";")) return i;
    i++;
  }
  return end;
}

/** The index of the `}` closing the block whose `{` is at `open`. */
function blockEnd(css: string, open: number, end: number): number {
  let depth = 0;
  let i = open;
  while (i < end) {
    const skipped = skipAtom(css, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (css[i] === "{") depth++;
    else if (css[i] === "}" && --depth === 0) return i;
    i++;
  }
  return end;
}

function parseBlock(css: string, start: number, end: number, needed: Set<string>): Node[] {
  const nodes: Node[] = [];
  let i = start;
  while (i < end) {
    while (i < end && /\s/.test(css[i]!)) i++;
    if (i >= end) break;
    if (css.startsWith("/*", i)) {
      const after = skipAtom(css, i);
      // Licence comments (/*! … */) stay; others go.
      if (css[i + 2] === "!") nodes.push({ kind: "text", text: css.slice(i, after) });
      i = after;
      continue;
    }
    const stop = preludeEnd(css, i, end);
    const prelude = css.slice(i, stop).trim();
    if (stop >= end || css[stop] === ";") {
      // A statement (`@layer a, b;`, `@charset`, `@import`): kept as it is, order matters.
      if (prelude) nodes.push({ kind: "text", text: `${prelude};` });
      i = stop + 1;
      continue;
    }
    const close = blockEnd(css, stop, end);
    const body = css.slice(stop + 1, close);
    if (prelude.startsWith("@")) {
      const name = /^@([\w-]+)/.exec(prelude)?.[1]?.toLowerCase() ?? "";
      if (GROUPS.has(name)) nodes.push({ kind: "group", prelude, children: parseBlock(css, stop + 1, close, needed) });
      else nodes.push({ kind: "opaque", name, prelude, body });
    } else {
      const selectors = splitTopLevel(prelude, ",").map((text) => ({ text, needs: neededBySelector(text) }));
      for (const s of selectors) for (const c of s.needs) needed.add(c);
      nodes.push({ kind: "rule", selectors, body, global: selectors.every((s) => s.needs.length === 0) });
    }
    i = close + 1;
  }
  return nodes;
}

/** Splits at `sep` outside parentheses, brackets, strings and escapes. */
function splitTopLevel(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const skipped = skipAtom(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = text[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(from, i).trim());
      from = i + 1;
    }
    i++;
  }
  parts.push(text.slice(from).trim());
  return parts.filter(Boolean);
}

/** Pseudo-classes whose argument is a selector the element (or a relative) must match. */
const MATCHING_PSEUDOS = new Set(["is", "where", "matches", "-webkit-any", "-moz-any", "has"]);

/**
 * What a selector cannot match without (see the file's comment): classes (`hover:underline`),
 * element names, as `<abbr>`, and attribute names, as `[aria-invalid]`.
 */
export function neededBySelector(selector: string): string[] {
  const needs: string[] = [];
  // Whether the next identifier would be an element name (the start of a compound selector).
  let compoundStart = true;
  let i = 0;
  while (i < selector.length) {
    const c = selector[i]!;
    if (c === "\\" || c === '"' || c === "'") {
      i = skipAtom(selector, i);
      compoundStart = false;
    } else if (c === "[") {
      const close = closing(selector, i, "[", "]");
      const name = /^\[\s*([a-zA-Z][\w-]*)\s*(?:[~|^$*]?=|\])/.exec(selector.slice(i, close + 1))?.[1];
      if (name) needs.push(`[${name.toLowerCase()}]`);
      i = close + 1;
      compoundStart = false;
    } else if (c === "(") {
      // A bare parenthesis (no pseudo-class name before it): nothing we understand.
      i = closing(selector, i, "(", ")") + 1;
      compoundStart = false;
    } else if (c === ":") {
      compoundStart = false;
      const m = /^::?([\w-]+)\(/.exec(selector.slice(i));
      if (!m) {
        i++;
        continue;
      }
      const open = i + m[0].length - 1;
      const close = closing(selector, open, "(", ")");
      const inner = splitTopLevel(selector.slice(open + 1, close), ",");
      // One selector inside :is()/:where()/:has() must match, so what it needs is needed; with
      // several, any one may match, and nothing can be said.
      if (MATCHING_PSEUDOS.has(m[1]!.toLowerCase()) && inner.length === 1) needs.push(...neededBySelector(inner[0]!));
      i = close + 1;
    } else if (c === ".") {
      const [name, next] = readIdent(selector, i + 1);
      if (name) needs.push(name);
      i = next;
      compoundStart = false;
    } else if (compoundStart && /[a-zA-Z]/.test(c)) {
      const [name, next] = readIdent(selector, i);
      // A namespace prefix (svg|a) is beyond this reader: no need recorded.
      if (selector[next] !== "|") needs.push(`<${name.toLowerCase()}>`);
      i = next;
      compoundStart = false;
    } else {
      // After a combinator comes a new compound; after anything else (`*`, `#id`, `&`) not.
      compoundStart = /[\s>+~,]/.test(c);
      i++;
    }
  }
  return [...new Set(needs)];
}

function closing(text: string, open: number, o: string, c: string): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const skipped = skipAtom(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (text[i] === o) depth++;
    else if (text[i] === c && --depth === 0) return i;
    i++;
  }
  return text.length;
}

/** A CSS identifier from i, with its escapes resolved (`.hover\:underline` → hover:underline). */
function readIdent(text: string, i: number): [string, number] {
  let out = "";
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") {
      const hex = /^[0-9a-fA-F]{1,6}/.exec(text.slice(i + 1, i + 7));
      if (hex) {
        out += String.fromCodePoint(parseInt(hex[0], 16));
        i += 1 + hex[0].length;
        if (text[i] === " ") i++;
      } else {
        out += text[i + 1] ?? "";
        i += 2;
      }
    } else if (/[\w-]/.test(c) || c.charCodeAt(0) > 0x7f) {
      out += c;
      i++;
    } else {
      break;
    }
  }
  return [out, i];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, e: string) =>
    e[0] === "#" ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e] ?? whole),
  );

/** A start tag: its name and its attributes, quoted values whole (a `>` inside one does not end it). */
const START_TAG = /<([a-zA-Z][\w-]*)((?:[^>"']+|"[^"]*"|'[^']*')*)>/g;
/** One attribute of a start tag: its name and its value, quoted either way or bare. */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Where the content of an element that holds text, never markup, ends. */
const RAW_TEXT_END: Record<string, RegExp> = { script: /<\/script/gi, style: /<\/style/gi };

/**
 * Every class an element of this HTML carries, every element name, as `<abbr>`, and every
 * attribute name, as `[hidden]`. Only start tags are read, and a script's or a style's content
 * is skipped: the page's text and its inline data hold as many words as its markup, none of
 * them an element's.
 */
export function usedInHtml(html: string): Set<string> {
  const names = new Set<string>();
  const attributes = new Set<string>();
  const classValues = new Set<string>();
  // exec loops: matchAll copies its regex on every call, a fifth of this function's time.
  const tags = new RegExp(START_TAG);
  const attribute = new RegExp(ATTRIBUTE);
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    const name = tag[1]!;
    names.add(name);
    const inside = tag[2]!;
    attribute.lastIndex = 0;
    for (let a = attribute.exec(inside); a; a = attribute.exec(inside)) {
      attributes.add(a[1]!);
      // A card's classes repeat on every card: each distinct value is split once, below.
      if (a[1]!.toLowerCase() === "class") classValues.add(a[2] ?? a[3] ?? a[4] ?? "");
    }
    const close = RAW_TEXT_END[name.toLowerCase()];
    if (close) {
      close.lastIndex = tags.lastIndex;
      if (!close.exec(html)) break;
      tags.lastIndex = close.lastIndex;
    }
  }
  const found = new Set<string>();
  for (const value of classValues) for (const c of decodeEntities(value).split(/[ \t\n\f\r]+/)) if (c) found.add(c);
  for (const name of names) found.add(`<${name.toLowerCase()}>`);
  for (const name of attributes) found.add(`[${name.toLowerCase()}]`);
  return found;
}

const VAR_REF = /var\(\s*(--[\w-]+)/g;
const refsIn = (text: string, into: Set<string>) => {
  for (const m of text.matchAll(VAR_REF)) into.add(m[1]!);
};

/** `name: value` pairs of a declaration block (values keep their own semicolons in strings). */
const declarations = (body: string) => splitTopLevel(body, ";");

/**
 * The stylesheet cut down to what a page needs, given its classes and element names
 * (usedInHtml). `varsUsed` are custom
 * properties the page's own inline styles read, which no rule here mentions.
 */
export function subsetStylesheet(sheet: ParsedStylesheet, used: Set<string>, varsUsed: Iterable<string> = []): string {
  const has = (s: Selector) => s.needs.every((c) => used.has(c));
  // Pass 1: choose the rules; read what the non-global ones refer to.
  const refs = new Set<string>(varsUsed);
  const pick = (nodes: Node[]): Node[] =>
    nodes.flatMap((n): Node[] => {
      if (n.kind === "group") {
        const children = pick(n.children);
        return children.some((c) => c.kind !== "text") ? [{ ...n, children }] : [];
      }
      if (n.kind !== "rule") return [n];
      if (n.global) return [n];
      const selectors = n.selectors.filter(has);
      if (!selectors.length) return [];
      refsIn(n.body, refs);
      return [{ ...n, selectors }];
    });
  const kept = pick(sheet.nodes);

  // Pass 2: the global rules' own declarations, and custom properties defined from others,
  // until nothing new is referred to.
  const globals: { body: string }[] = [];
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if (n.kind === "group") walk(n.children);
      else if (n.kind === "rule" && n.global) globals.push(n);
    }
  };
  walk(kept);
  for (const g of globals) for (const d of declarations(g.body)) if (!d.startsWith("--")) refsIn(d, refs);
  for (let grew = true; grew; ) {
    grew = false;
    for (const g of globals) {
      for (const d of declarations(g.body)) {
        const name = /^(--[\w-]+)\s*:/.exec(d)?.[1];
        if (!name || !refs.has(name)) continue;
        const before = refs.size;
        refsIn(d, refs);
        if (refs.size > before) grew = true;
      }
    }
  }

  // Pass 3: write it out, with unused custom properties, @property and @keyframes left out.
  const customName = (d: string) => /^(--[\w-]+)\s*:/.exec(d)?.[1];
  // A global rule's custom properties are trimmed to the ones referred to (a body with nested
  // blocks is left whole).
  const bodyOf = (n: Extract<Node, { kind: "rule" }>) =>
    n.global && !n.body.includes("{")
      ? declarations(n.body)
          .filter((d) => {
            const name = customName(d);
            return !name || refs.has(name);
          })
          .join(";")
      : n.body;
  const written: string[] = [];
  const collect = (nodes: Node[]) => {
    for (const n of nodes) {
      if (n.kind === "group") collect(n.children);
      else if (n.kind === "rule") written.push(bodyOf(n));
    }
  };
  collect(kept);
  const keptText = written.join(";");
  const set = new Set(declarations(keptText).map(customName).filter((n): n is string => !!n));
  const write = (nodes: Node[]): string =>
    nodes
      .map((n) => {
        switch (n.kind) {
          case "text":
            return n.text;
          case "group": {
            const inner = write(n.children);
            return inner ? `${n.prelude}{${inner}}` : "";
          }
          case "rule": {
            const body = bodyOf(n);
            return body || !n.global ? `${n.selectors.map((s) => s.text).join(",")}{${body}}` : "";
          }
          case "opaque": {
            if (n.name === "property") {
              const name = /^@property\s+(--[\w-]+)/.exec(n.prelude)?.[1];
              if (name && !refs.has(name) && !set.has(name)) return "";
            } else if (n.name === "keyframes" || n.name === "-webkit-keyframes") {
              const name = n.prelude.replace(/^@[\w-]+\s+/, "").trim();
              const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
              if (name && !new RegExp(`(^|[\\s:,])${escaped}([\\s;,]|$)`).test(keptText)) return "";
            }
            return `${n.prelude}{${n.body}}`;
          }
        }
      })
      .join("");
  return write(kept);
}
