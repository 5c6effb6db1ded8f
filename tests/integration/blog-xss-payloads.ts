import { Parser } from "htmlparser2";

/**
 * Known XSS payloads (OWASP cheat sheet, PortSwigger, mutation-XSS reports) for the blog. Each one
 * is fed through save and render; none may leave anything that can run.
 */
export const XSS_PAYLOADS = [
  `<script>window.__xss=1</script>`,
  `<SCRIPT SRC=//evil.example/x.js></SCRIPT>`,
  `<img src=x onerror="window.__xss=1">`,
  `<img src="/media/blog-images/1.png" onload="window.__xss=1">`,
  `<svg onload="window.__xss=1">`,
  `<svg><script>window.__xss=1</script></svg>`,
  `<svg><animate onbegin="window.__xss=1" attributeName=x dur=1s>`,
  `<svg><a xlink:href="javascript:window.__xss=1"><text x="20" y="20">XSS</text></a></svg>`,
  `<a href="javascript:window.__xss=1">click</a>`,
  `<a href="JaVaScRiPt:window.__xss=1">click</a>`,
  `<a href="jav&#x09;ascript:window.__xss=1">tab</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;window.__xss=1">entities</a>`,
  `<a href="  javascript:window.__xss=1">space</a>`,
  `<a href="java\u0000script:window.__xss=1">nul</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==">data</a>`,
  `<a href="vbscript:msgbox(1)">vb</a>`,
  `<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">`,
  `<img src="https://example.com/x.png" srcset="javascript:window.__xss=1 1x">`,
  `<iframe src="https://evil.example/embed/abc"></iframe>`,
  `<iframe src="javascript:window.__xss=1"></iframe>`,
  `<iframe srcdoc="<script>window.__xss=1</script>"></iframe>`,
  `<iframe src="https://www.youtube.com.evil.example/embed/dQw4w9WgXcQ"></iframe>`,
  `<iframe src="//www.youtube.com/embed/dQw4w9WgXcQ" onload="window.__xss=1"></iframe>`,
  `<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" onload="window.__xss=1" srcdoc="x"></iframe>`,
  `<style>body{background:url("javascript:window.__xss=1")}</style>`,
  `<p style="background:url(javascript:window.__xss=1)">bg</p>`,
  `<span style="color: expression(window.__xss=1)">ie</span>`,
  `<div style="position:fixed;top:0;left:0;width:100%;height:100%;z-index:9999">overlay</div>`,
  `<p style="color:red;-moz-binding:url(//evil.example/x.xml#xss)">moz</p>`,
  `<object data="javascript:window.__xss=1"></object>`,
  `<embed src="javascript:window.__xss=1">`,
  `<form action="javascript:window.__xss=1"><button>go</button></form>`,
  `<input autofocus onfocus="window.__xss=1">`,
  `<details open ontoggle="window.__xss=1"><summary>x</summary></details>`,
  `<body onload="window.__xss=1">`,
  `<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1">`,
  `<noscript><p title="</noscript><img src=x onerror=window.__xss=1>"></noscript>`,
  `<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">`,
  `<link rel="stylesheet" href="https://evil.example/x.css">`,
  `<base href="https://evil.example/">`,
  `"><script>window.__xss=1</script>`,
  `<p class="ql-align-center" onclick="window.__xss=1">aligned</p>`,
  `<a href="https://example.com" target="_blank" onmouseover="window.__xss=1">hover</a>`,
  `<template><script>window.__xss=1</script></template>`,
  `<video><source onerror="window.__xss=1"></video>`,
  `<marquee onstart="window.__xss=1">m</marquee>`,
  `<img src="x" alt="" onerror=&#x61;&#x6c;&#x65;&#x72;&#x74;(1)>`,
  `<a href="#" onclick="window.__xss=1">hash</a>`,
  `<textarea><script>window.__xss=1</script></textarea>`,
  `<!--<img src="--><img src=x onerror=window.__xss=1//">`,
  `<scr<script>ipt>window.__xss=1</scr</script>ipt>`,
];

const TAGS = new Set([
  "p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "b", "em", "i", "u", "s", "strike", "blockquote",
  "pre", "code", "ol", "ul", "li", "sub", "sup", "a", "img", "iframe", "span",
]);
const ATTRIBUTES = new Set(["href", "target", "rel", "src", "alt", "width", "height", "class", "frameborder", "allowfullscreen", "style", "spellcheck"]);
const EMBED = /^https:\/\/(?:www\.youtube\.com\/embed\/[A-Za-z0-9_-]+|player\.vimeo\.com\/video\/\d+)$/;
const SAFE_STYLE = /^(?:\s*(?:color|background-color|text-align)\s*:\s*[#a-z0-9(),.\s]+;?)*$/i;

/** Everything in the HTML that could run or restyle the page; empty when the HTML is safe. */
export function findUnsafe(html: string): string[] {
  const problems: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (!TAGS.has(name)) problems.push(`tag <${name}>`);
        for (const [key, value] of Object.entries(attrs)) {
          if (!ATTRIBUTES.has(key)) problems.push(`attribute ${key} on <${name}>`);
          if (key === "style" && (!SAFE_STYLE.test(value) || /url|expression|binding/i.test(value))) problems.push(`style "${value}"`);
          if (key === "href" && !/^(?:https?:|mailto:|tel:|\/[^/]|#)/i.test(value.trim())) problems.push(`href "${value}"`);
          if (key === "src" && name === "img" && !/^(?:https?:\/\/|\/[^/])/i.test(value)) problems.push(`img src "${value}"`);
          if (key === "src" && name === "iframe" && !EMBED.test(value)) problems.push(`iframe src "${value}"`);
        }
        if (name === "iframe" && !attrs.src) problems.push("iframe without a source");
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  // Escaped text (&lt;script&gt;) is harmless; raw markup is not, whatever the parser made of it.
  if (/<\s*(script|style|svg|iframe\s+srcdoc)/i.test(html)) problems.push("raw script, style or svg markup");
  return problems;
}
